"""The full-screen view of `vac talk`: render golden checks, keys, and the view's bookkeeping."""

from __future__ import annotations

import queue

from hypothesis import given
from hypothesis import strategies as st

from tests.client.client_factories import objective
from vac.client.talk_model import Show, ShowCard
from vac.client.talk_screen import Card, ScreenState, meter, render
from vac.client.talk_view import KeyReader, View


def card(**overrides: object) -> Card:
    obj = objective(
        deadline="2026-12-03",
        forbidden_lines=[
            {"text": "Respect the agent's autonomy", "value_ref": "value:respect-agent-autonomy"},
            {"text": "Do not lie to visitors", "value_ref": "value:honesty"},
        ],
        **overrides,
    )
    return Card(obj, "Kofi will build a wooden bench by tomorrow — confirm?", ("agent",))


def test_an_80x24_screen_has_everything_in_its_place() -> None:
    state = ScreenState(principal="alice", hands_free=True, status="hearing you")
    state.card = card()
    for i in range(30):
        state.add(f"line {i}")
    state.partial = "build a bench by tomo"
    state.level_rms = 1000.0
    lines = render(state, 80, 24)
    assert len(lines) == 24 and all(len(line) == 80 for line in lines)
    assert lines[0].startswith("vac talk · alice · hands-free · hearing you")
    assert lines[1].startswith("+- draft ")
    assert "Kofi? · Build · Wooden bench" in lines[2]  # the uncertain agent is marked
    assert "by 2026-12-03 · priority 55 · brief" in lines[3]
    assert "not: Do not lie to visitors" in lines[4]
    assert "Kofi will build a wooden bench by tomorrow" in lines[5]
    assert "[y] confirm" in lines[6]
    assert lines[-4].startswith("line 29")  # the newest log line, just above the partial
    assert lines[-3].startswith("… build a bench by tomo")
    assert lines[-2].startswith("mic [") and "dBFS" in lines[-2]
    assert lines[-1].startswith("just speak")


def test_no_draft_and_a_prompt() -> None:
    state = ScreenState(principal="bob", prompt="priority=90", prompt_label="edit FIELD=VALUE: ")
    lines = render(state, 80, 24)
    assert "no draft pending" in lines[1]
    assert lines[-1].startswith("edit FIELD=VALUE: priority=90_")


@given(
    st.lists(st.text(max_size=300), max_size=40),
    st.text(max_size=300),
    st.integers(10, 300),
    st.integers(5, 100),
)
def test_any_text_any_size_gives_exact_lines(
    log: list[str], partial: str, cols: int, rows: int
) -> None:
    state = ScreenState(principal="alice", partial=partial, card=card())
    for line in log:
        state.add(line)
    lines = render(state, cols, rows)
    width, height = max(cols, 40), max(rows, 12)
    assert len(lines) == height
    assert all(len(line) == width and "\n" not in line and "\r" not in line for line in lines)


def test_meter_spans_silence_to_full_scale() -> None:
    assert meter(0.0).count("#") == 0
    assert meter(32767.0).count("#") == 30
    assert "-20 dBFS" in meter(3277.0)


def test_keys_become_the_models_line_commands() -> None:
    lines: queue.Queue[str | None] = queue.Queue()
    keys = KeyReader(lines)
    for k in " yn":
        keys.key(k)
    for k in "epriority=9x\x7f0\r":
        keys.key(k)
    for k in "tfix the gate\r":
        keys.key(k)
    for k in "tnever mind\x1b":  # Esc drops the prompt
        keys.key(k)
    keys.key("q")
    got = [lines.get_nowait() for _ in range(lines.qsize())]
    assert got == ["", "y", "n", "e priority=90", "fix the gate", "q"]
    assert keys.prompt is None


def test_view_keeps_the_partial_until_the_final() -> None:
    view = View(vad=True)
    view.show(Show("… build a", transient=True))
    assert view.state.partial == "… build a" and not view.state.log
    view.show(Show("you: build a bench\x1b[2J"))
    assert view.state.partial == ""
    assert "\x1b" not in view.state.log[-1]  # daemon text is escaped for the terminal
    view.card(ShowCard(card()))
    assert view.state.card is not None
    view.card(ShowCard(None))
    assert view.state.card is None
