"""`vac talk` without a sound card: commands, energy gate, playback buffer, the model."""

from __future__ import annotations

import struct
from typing import Any

import pytest

from tests.client.client_factories import hello_ok, objective
from vac.client.talk_audio import PlaybackBuffer, PreRoll, rms_s16
from vac.client.talk_model import (
    DRAFT_KEYS,
    Command,
    Ended,
    HelloRefused,
    Quit,
    Send,
    Show,
    Silent,
    TalkModel,
    parse_command,
)
from vac.protocol.messages import (
    AudioInputChunk,
    AudioInputCommit,
    AudioInputDone,
    AudioInputStart,
    AudioOutputChunk,
    AudioOutputPlayed,
    AudioOutputStart,
    Error,
    Hello,
    ObjectiveConfirm,
    ObjectiveDraft,
    ObjectiveReject,
    ObjectiveRejected,
    Ping,
    Pong,
    Preview,
    ServerBye,
    TextInput,
    TranscriptFinal,
    TranscriptPartial,
    TurnCancel,
    TurnDone,
)

LOUD = struct.pack("<320h", *([8000, -8000] * 160))
QUIET = struct.pack("<320h", *([20, -20] * 160))


def sends(actions: list[Any]) -> list[Any]:
    return [a.msg for a in actions if isinstance(a, Send)]


def loud_is_speech(frame: bytes) -> bool:
    """Stands in for webrtcvad (tests/client/test_capture.py has the real one)."""
    return rms_s16(frame) > 1000


def model(vad: bool = False) -> TalkModel:
    m = TalkModel(PlaybackBuffer(16000), vad=vad, is_speech=loud_is_speech)
    assert isinstance(sends(m.start(0.0))[0], Hello)
    m.on_message(hello_ok(), None)
    return m


def draft(obj_id: str = "obj-1", revision: int = 1) -> ObjectiveDraft:
    obj = objective(id=obj_id, revision=revision)
    return ObjectiveDraft(turn="t1", objective=obj, preview=Preview(summary="Kofi builds a bench"))


def play_reply(m: TalkModel, turn: str = "t1", chunks: int = 10) -> None:
    m.on_message(
        AudioOutputStart(
            turn=turn,
            stream="o1",
            generation=1,
            rate=16000,
            text="x",
            encoding="pcm_s16le",
            channels=1,
        ),
        None,
    )
    for i in range(chunks):
        m.on_message(AudioOutputChunk(stream="o1", generation=1, index=i), b"\x01\x00" * 320)


# ------------------------------------------------------------------ commands


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("\n", Command("toggle")),
        ("y", Command("confirm")),
        ("YES", Command("confirm")),
        ("n", Command("reject")),
        ("q", Command("quit")),
        ("e priority=90", Command("edit", edits={"priority": 90})),
        ("e deadline = 2026-05-02", Command("edit", edits={"deadline": "2026-05-02"})),
        ('e target={"ref": "prop:x"}', Command("edit", edits={"target": {"ref": "prop:x"}})),
        ("map the grove", Command("text", text="map the grove")),
        ("Yes.", Command("confirm")),
        # Words after "no" or "yes" are words for the daemon (a probe's
        # "no tell Kofi to map it instead" rejected and dropped the rest).
        ("no tell Kofi to map it instead", Command("text", text="no tell Kofi to map it instead")),
        ("yes please, and make it urgent", Command("text", text="yes please, and make it urgent")),
        ("quit smoking", Command("text", text="quit smoking")),
    ],
)
def test_parse_command(line: str, expected: Command) -> None:
    assert parse_command(line) == expected


@pytest.mark.parametrize("line", ["e", "e priority", "e =3"])
def test_bad_edit_is_a_one_line_hint(line: str) -> None:
    hint = parse_command(line)
    assert isinstance(hint, str) and "FIELD=VALUE" in hint


# --------------------------------------------------------------------- audio


def test_rms() -> None:
    assert rms_s16(b"") == 0.0
    assert rms_s16(LOUD) == pytest.approx(8000)
    assert rms_s16(QUIET) == pytest.approx(20)


def test_pre_roll_keeps_the_last_frames() -> None:
    roll = PreRoll()
    for i in range(25):
        roll.push(bytes([i]))
    assert roll.take() == [bytes([i]) for i in range(5, 25)] and roll.take() == []


def test_playback_buffer_pads_counts_and_clears() -> None:
    buf = PlaybackBuffer(16000)
    buf.push(b"\x01" * 640)
    assert buf.playing
    assert buf.read(320) == b"\x01" * 320
    assert buf.played_ms_since(0) == 10
    buf.clear()
    assert not buf.playing and buf.read(4) == b"\x00" * 4
    assert buf.pushed_bytes == 320  # the dropped half was never played


# --------------------------------------------------------------------- model


def test_push_to_talk_enter_starts_and_commits() -> None:
    m = model()
    assert sends(m.on_mic_frame(QUIET, 0.1)) == []  # not recording yet
    (start,) = sends(m.on_line("", 0.2))
    assert isinstance(start, AudioInputStart) and start.mode == "push_to_talk"
    chunks = [sends(m.on_mic_frame(QUIET, 0.3 + i / 50))[0] for i in range(3)]
    assert [c.seq for c in chunks] == [0, 1, 2] and isinstance(chunks[0], AudioInputChunk)
    (commit,) = sends(m.on_line("", 0.5))
    assert isinstance(commit, AudioInputCommit) and commit.last_seq == 2
    assert m.stream is None


def test_drafts_are_shown_and_confirmed_rejected_or_edited() -> None:
    m = model()
    shown = [a.text for a in m.on_message(draft(), None) if isinstance(a, Show)]
    assert "draft: Kofi builds a bench" in shown[0] and "[y] confirm" in shown[-1]
    (confirm,) = sends(m.on_line("y", 1.0))
    assert isinstance(confirm, ObjectiveConfirm) and (confirm.objective_id, confirm.revision) == (
        "obj-1",
        1,
    )
    (edit,) = sends(m.on_line("e priority=90", 1.0))
    assert isinstance(edit, ObjectiveConfirm) and edit.edits == {"priority": 90}
    (reject,) = sends(m.on_line("n", 1.0))
    assert isinstance(reject, ObjectiveReject)


def test_after_a_decision_the_draft_the_keys_act_on_next_is_named() -> None:
    """A `y` after a reject confirmed a draft last shown at connect, by id
    only (a user probe): the next one is named, and so is what was decided."""
    m = model()
    m.on_message(draft("old"), None)
    m.on_message(draft("new"), None)
    rejected = ObjectiveRejected(turn="t2", objective_id="new", objective=objective(id="new"))
    lines = [a.text for a in m.on_message(rejected, None) if isinstance(a, Show)]
    assert lines[0].startswith("rejected: Kofi · Build · ") and "(id new)" in lines[0]
    assert lines[1].startswith("still pending: Kofi · Build · ") and "(id old)" in lines[1]
    (confirm,) = sends(m.on_line("y", 1.0))
    assert isinstance(confirm, ObjectiveConfirm) and confirm.objective_id == "old"


def test_a_counter_offer_that_came_as_an_update_is_what_the_keys_act_on() -> None:
    """A review: after the confirm's turn ended, the agent's counter draft
    comes as objective.updated with counter_of; `y` must confirm it."""
    from vac.protocol.messages import ObjectiveUpdated

    m = model()
    m.on_message(draft("old"), None)
    counter = objective(id="safer", status="draft")
    update = ObjectiveUpdated(objective=counter, by="agent", counter_of="orig")
    lines = [a.text for a in m.on_message(update, None) if isinstance(a, Show)]
    said = "counter-offer by agent: Kofi · Build · Wooden bench (id safer)"
    assert lines == [f"{said} — {DRAFT_KEYS}"]
    (confirm,) = sends(m.on_line("y", 1.0))
    assert isinstance(confirm, ObjectiveConfirm) and confirm.objective_id == "safer"


def test_keys_without_a_draft_say_so() -> None:
    m = model()
    assert m.on_line("y", 1.0) == [Show("no draft is pending")]


def test_typed_text_is_a_text_turn() -> None:
    (text,) = sends(model().on_line("map the grove path", 1.0))
    assert isinstance(text, TextInput) and text.text == "map the grove path"


def test_partials_are_transient() -> None:
    (shown,) = model().on_message(TranscriptPartial(stream="s", text="map the", revision=1), None)
    assert shown == Show("… map the", transient=True)


def test_reply_audio_is_queued_for_playback() -> None:
    m = model()
    play_reply(m, chunks=3)
    assert m.playback.pushed_bytes == 3 * 640 and m.playback.playing


def test_barge_in_stops_playback_cancels_and_starts_a_stream_with_pre_roll() -> None:
    m = model()
    m.on_message(draft(), None)
    play_reply(m)
    m.playback.read(640 * 4)  # the device played 80 ms
    actions: list[Any] = []
    for i in range(3):
        actions += m.on_mic_frame(LOUD, 2.0 + i / 50)
    msgs = sends(actions)
    assert isinstance(msgs[0], TurnCancel) and msgs[0].turn == "t1" and msgs[0].played_ms == 80
    assert isinstance(msgs[1], AudioInputStart)
    assert [c.seq for c in msgs[2:]] == [0, 1, 2]  # the loud frames are not lost
    assert not m.playback.playing
    # Chunks of the cancelled reply still in flight are not played.
    m.on_message(AudioOutputChunk(stream="o1", generation=1, index=10), b"\x01\x00" * 320)
    assert not m.playback.playing


def test_quiet_mic_during_playback_is_not_streamed() -> None:
    m = model(vad=True)
    play_reply(m)
    assert sends(m.on_mic_frame(QUIET, 1.0)) == []


def test_barge_in_after_the_turn_ended_reports_what_was_played() -> None:
    m = model()
    m.on_message(draft(), None)
    play_reply(m)
    m.on_message(TurnDone(turn="t1", status="parsed", latency_ms={}), None)
    m.playback.read(640)
    msgs = sends(m.on_line("", 3.0))  # Enter while the tail still plays
    assert isinstance(msgs[0], AudioOutputPlayed) and msgs[0].played_ms == 20
    assert isinstance(msgs[1], AudioInputStart)


def test_hands_free_sends_nothing_while_nobody_speaks() -> None:
    m = model(vad=True)
    assert all(sends(m.on_mic_frame(QUIET, 1.0 + i / 50)) == [] for i in range(200))
    assert m.stream is None


def test_hands_free_opens_at_onset_with_the_pre_roll() -> None:
    m = model(vad=True)
    for i in range(30):
        m.on_mic_frame(QUIET, 1.0 + i / 50)
    assert sends(m.on_mic_frame(LOUD, 1.6)) == sends(m.on_mic_frame(LOUD, 1.62)) == []
    msgs = sends(m.on_mic_frame(LOUD, 1.64))
    start, chunks = msgs[0], msgs[1:]
    assert isinstance(start, AudioInputStart) and start.mode == "vad"
    # 400 ms of pre-roll: 17 quiet frames before the onset, then its 3 loud ones.
    assert len(chunks) == 20 and [c.seq for c in chunks] == list(range(20))
    nxt = sends(m.on_mic_frame(QUIET, 1.66))  # the daemon decides the end, not us
    assert isinstance(nxt[0], AudioInputChunk) and nxt[0].seq == 20
    m.on_message(AudioInputDone(stream=start.stream, reason="transcribed", turn="t9"), None)
    assert m.stream is None and sends(m.on_mic_frame(QUIET, 1.7)) == []


def test_chunks_stop_quietly_once_the_daemon_ended_the_stream() -> None:
    # The daemon's endpoint closes the stream; it says so (`audio.input.done`)
    # only after recognising it. Its `stream_closed` answers to the chunks in
    # flight are not shown, no more chunks go out, and no new stream opens
    # until the done: what the user says meanwhile is the next pre-roll.
    m = model(vad=True)
    msgs = [msg for i in range(3) for msg in sends(m.on_mic_frame(LOUD, 1.0 + i / 50))]
    start = msgs[0]
    assert isinstance(start, AudioInputStart)
    closed = Error(
        code="stream_closed",
        message=f"stream {start.stream} is committed",
        retryable=False,
        ref="x",
        stream=start.stream,
    )
    assert m.on_message(closed, None) == []
    assert all(sends(m.on_mic_frame(LOUD, 1.1 + i / 50)) == [] for i in range(10))
    m.on_message(AudioInputDone(stream=start.stream, reason="transcribed", turn="t9"), None)
    m.on_message(TurnDone(turn="t9", status="parsed", latency_ms={}), None)
    nxt = [msg for i in range(3) for msg in sends(m.on_mic_frame(LOUD, 1.4 + i / 50))]
    assert isinstance(nxt[0], AudioInputStart) and nxt[0].stream != start.stream


def test_a_late_stream_closed_for_an_earlier_stream_is_not_shown() -> None:
    m = model(vad=True)
    opened = [msg for i in range(3) for msg in sends(m.on_mic_frame(LOUD, 1.0 + i / 50))]
    first = opened[0]
    m.on_message(AudioInputDone(stream=first.stream, reason="transcribed", turn="t9"), None)
    m.on_message(TurnDone(turn="t9", status="parsed", latency_ms={}), None)
    again = [msg for i in range(3) for msg in sends(m.on_mic_frame(LOUD, 1.4 + i / 50))]
    second = again[0]
    late = Error(
        code="stream_closed", message="late", retryable=False, ref="x", stream=first.stream
    )
    assert m.on_message(late, None) == []
    nxt = sends(m.on_mic_frame(LOUD, 1.5))  # the open stream goes on
    assert isinstance(nxt[0], AudioInputChunk) and nxt[0].stream == second.stream


def test_an_error_for_another_stream_is_shown() -> None:
    m = model(vad=True)
    other = Error(
        code="stream_closed",
        message="stream old is committed",
        retryable=False,
        ref="x",
        stream="old",
    )
    (shown,) = m.on_message(other, None)
    assert shown.text == "error stream_closed: stream old is committed"


def test_hands_free_opens_no_stream_while_a_turn_runs() -> None:
    m = model(vad=True)
    m.on_message(draft(), None)  # a turn is running
    assert all(sends(m.on_mic_frame(LOUD, 1.0 + i / 50)) == [] for i in range(5))
    m.on_message(TurnDone(turn="t1", status="parsed", latency_ms={}), None)
    msgs = [sends(m.on_mic_frame(LOUD, 1.2 + i / 50)) for i in range(3)]
    assert msgs[0] == msgs[1] == [] and isinstance(msgs[2][0], AudioInputStart)


def test_provisional_final_is_shown_not_kept() -> None:
    m = model(vad=True)
    (shown,) = m.on_message(
        TranscriptFinal(
            stream="s", turn="t2", text="Ask Kofi to", confidence=0.6, provisional=True
        ),
        None,
    )
    assert isinstance(shown, Show) and shown.transient and "Ask Kofi to" in shown.text


def test_heartbeat_ping_when_quiet() -> None:
    m = model()
    assert m.on_tick(1.0) == []
    assert isinstance(sends(m.on_tick(6.0))[0], Ping)


def silent_model(timeout_s: float = 3.0, heartbeat_ms: int = 1000) -> TalkModel:
    """Connected at 0.0 (heartbeat 1 s): the bound is max(2 s, timeout_s)."""
    m = TalkModel(PlaybackBuffer(16000), timeout_s=timeout_s, is_speech=loud_is_speech)
    m.start(0.0)
    m.on_message(hello_ok(heartbeat_ms=heartbeat_ms), None)
    assert m.on_tick(0.0) == []
    return m


def ticks(m: TalkModel, start_s: float, end_s: float) -> list[Any]:
    """Every action of 10 ms ticks from start_s up to (not including) end_s."""
    out: list[Any] = []
    for n in range(round((end_s - start_s) * 100)):
        out += m.on_tick(start_s + n / 100)
    return out


def test_pings_unanswered_for_the_bound_end_the_session() -> None:
    m = silent_model(timeout_s=3.0)
    before = ticks(m, 0.01, 3.0)  # pings every half heartbeat, nothing back
    assert len(sends(before)) >= 4 and all(isinstance(s, Ping) for s in sends(before))
    assert not any(isinstance(a, Silent) for a in before)
    assert m.on_tick(3.0) == [Silent(3.0)]  # --timeout 3 > 2 × heartbeat
    short = silent_model(timeout_s=0.5)  # never below 2 × heartbeat_ms
    assert not any(isinstance(a, Silent) for a in ticks(short, 0.01, 2.0))
    assert short.on_tick(2.0) == [Silent(2.0)]


def test_a_pong_or_any_event_resets_the_silence() -> None:
    for heard in (Pong(), TranscriptPartial(stream="s", text="a", revision=1)):
        m = silent_model(timeout_s=3.0)
        assert not any(isinstance(a, Silent) for a in ticks(m, 0.01, 2.9))
        m.on_message(heard, None)
        later = ticks(m, 2.9, 5.9)  # 3 s from the tick that saw it, pings again unanswered
        assert not any(isinstance(a, Silent) for a in later) and sends(later)
        assert m.on_tick(5.9) == [Silent(3.0)]


def test_streaming_without_answers_is_noticed_too() -> None:
    # Chunks keep the idle ping away; a ping still goes when nothing is heard.
    m = silent_model(timeout_s=2.0)
    m.on_line("", 0.0)
    out: list[Any] = []
    for n in range(1, 200):
        out += m.on_mic_frame(LOUD, n / 100) + m.on_tick(n / 100)
    assert any(isinstance(s, Ping) for s in sends(out))
    assert m.on_tick(2.0) == [Silent(2.0)]


def test_no_silence_is_counted_before_the_session() -> None:
    m = connecting()
    m.timeout_s = 1.0
    assert ticks(m, 0.0, 60.0) == []  # the shell's --timeout covers the hello
    m.on_message(hello_ok(heartbeat_ms=1000), None)
    # hello.ok counts as heard: the silence is counted from now (2 s here).
    assert all(isinstance(s, Ping) for s in sends(ticks(m, 60.0, 62.0)))
    assert m.on_tick(62.0) == [Silent(2.0)]


def test_daemon_bye_ends_the_session_not_as_a_quit() -> None:
    # Not the user's `q` (exit 0): the shell ends with exit 3 and names the reason.
    for reason in ("shutdown", "revoked"):
        assert model().on_message(ServerBye(reason=reason), None) == [Ended(reason)]


# ------------------------------------------------------- before the session


def connecting(vad: bool = False) -> TalkModel:
    m = TalkModel(PlaybackBuffer(16000), vad=vad, is_speech=loud_is_speech)
    assert isinstance(sends(m.start(0.0))[0], Hello)
    return m


def test_nothing_but_the_hello_is_sent_before_the_session() -> None:
    m = connecting(vad=True)
    shown = m.on_line("ask Kofi to build a bench", 0.1)
    assert sends(shown) == [] and "not connected yet" in shown[0].text
    assert m.on_line("", 0.2) == []  # Enter (talk) waits too, without a second notice
    assert m.on_eof() == []  # the end of piped input waits for the daemon's answer
    for n in range(10):  # speech before the session opens no stream
        assert m.on_mic_frame(LOUD, 0.3 + n / 50) == []
    assert m.on_tick(30.0) == []  # no ping either: there is no session to keep
    m.on_message(hello_ok(), None)
    held = m.on_tick(30.1)
    (text,) = sends(held)
    assert isinstance(text, TextInput) and text.text == "ask Kofi to build a bench"
    assert any(isinstance(a, Show) and "hands-free" in a.text for a in held)
    assert isinstance(held[-1], Quit)  # then the end of input, in its place


def test_q_quits_at_once_before_the_session() -> None:
    m = connecting()
    m.on_line("hello", 0.1)
    assert m.on_line("q", 0.2) == [Quit("bye")]


def test_an_error_answering_the_hello_is_a_refusal() -> None:
    m = connecting()
    assert m.hello_id is not None
    other = Error(code="busy", message="m", retryable=True, ref="someone-else")
    assert m.on_message(other, None) == [Show("error busy: m")]
    refused = Error(
        code="session_unknown", message="no such session", retryable=False, ref=m.hello_id
    )
    assert m.on_message(refused, None) == [HelloRefused(refused)]
    revoked = Error(
        code="unauthorized", message="this key is no longer enrolled", retryable=False, ref=None
    )
    assert m.on_message(revoked, None) == [HelloRefused(revoked)]
