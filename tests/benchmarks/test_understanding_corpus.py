"""The understanding benchmark's corpus, split, deadline rules and scoring (fast)."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, date, datetime

import msgspec
import pytest
from benchmarks.understanding import (
    FIELDS,
    Outcome,
    Record,
    calibration_error,
    fields_right,
    heard_right,
    limited,
    metrics,
    reliability,
    reply_right,
    target_right,
    wer,
    wrong_draft,
)
from benchmarks.understanding_corpus import (
    COMMANDS,
    CORPUS,
    DEV_COMMANDS,
    DEV_OTHERS,
    DEV_REPLIES,
    ROSTER,
    Item,
    resolve_deadline,
    split_items,
    splits,
)

from vac.intent import Clarify, parse
from vac.intent.lexicon import VERB_CUES
from vac.intent.reply_words import classify_reply
from vac.intent.roster import default_agents, default_roster
from vac.protocol.objective import AUTONOMY_MODES, VERBS

FRIDAY = date(2026, 5, 1)  # a Friday


def objective(**over: object) -> dict[str, object]:
    base: dict[str, object] = {
        "id": "o1",
        "agent": "Kofi",
        "verb": "Build",
        "target": {"ref": "prop:bench", "kind": "prop", "label": "Wooden bench"},
        "constraints": [{"kind": "location", "value": "near the pond"}],
        "priority": 55,
        "deadline": "2026-05-02",
        "forbidden_lines": [
            {
                "text": "Respect the agent's autonomy",
                "value_ref": "forbidden-line:respect-agent-autonomy",
            }
        ],
        "autonomy": "brief",
    }
    base.update(over)
    return base


BENCH = Item(
    "Tell Kofi to build a wooden bench near the pond by tomorrow",
    "command",
    agent="Kofi",
    verb="Build",
    target="bench",
    deadline="+1d",
    location="pond",
)


def test_corpus_size_kinds_and_coverage() -> None:
    assert len(CORPUS) >= 100
    assert len({it.text for it in CORPUS}) == len(CORPUS), "texts are unique"
    kinds = Counter(it.kind for it in CORPUS)
    assert kinds["command"] >= 80 and kinds["other"] >= 8 and kinds["reply"] >= 10
    assert {it.verb for it in COMMANDS} == set(VERBS) == set(VERB_CUES.values())
    assert set(ROSTER) == {a.name for a in default_agents()}
    names = Counter(it.agent for it in COMMANDS)
    assert all(names[n] >= 6 for n in ROSTER)
    assert {it.autonomy for it in COMMANDS} <= set(AUTONOMY_MODES)
    assert {"free", "direct-tether", "standing-intent", "brief"} <= {it.autonomy for it in COMMANDS}
    assert {"urgent", "low", "normal"} <= {it.priority for it in COMMANDS}
    rules = {(it.deadline or "none").split(":")[0] for it in COMMANDS}
    assert {"none", "+0d", "+1d", "weekday", "date", "eow"} <= rules
    assert sum(it.boundary for it in COMMANDS) >= 8
    assert sum(it.location is not None for it in COMMANDS) >= 8
    replies = Counter(it.reply for it in CORPUS if it.kind == "reply")
    assert replies["confirm"] >= 5 and replies["reject"] >= 5
    for it in COMMANDS:  # every key noun is actually said
        assert it.target is not None and it.target.split()[-1].lower() in it.text.lower()
        assert it.agent is not None and it.agent in it.text


def test_dev_statements_are_dev_only_and_typed_never_draft() -> None:
    assert {it.text for it in DEV_OTHERS}.isdisjoint({it.text for it in CORPUS})
    assert set(DEV_OTHERS) <= set(split_items("dev"))
    assert not set(DEV_OTHERS) & set(split_items("heldout"))
    for it in DEV_OTHERS:
        result = parse(
            it.text,
            confidence=1.0,
            now=datetime(2026, 12, 3, 10, tzinfo=UTC),
            roster=default_roster(),
            current_agent=None,
            objective_id="o",
        )
        assert isinstance(result, Clarify), it.text


def test_dev_commands_are_dev_only_and_typed_fully_right() -> None:
    """The supplement leaves held-out as it was; its meanings are what the parser reads typed."""
    assert {it.text for it in DEV_COMMANDS}.isdisjoint({it.text for it in CORPUS})
    assert len({it.text for it in DEV_COMMANDS}) == len(DEV_COMMANDS) >= 40
    assert set(DEV_COMMANDS) <= set(split_items("dev"))
    assert not set(DEV_COMMANDS) & set(split_items("heldout"))
    assert {it.verb for it in DEV_COMMANDS} == set(VERBS)
    assert {it.agent for it in DEV_COMMANDS} == set(ROSTER)
    now = datetime(2026, 12, 3, 10, tzinfo=UTC)
    for it in DEV_COMMANDS:
        assert it.target is not None and it.target.split()[-1].lower() in it.text.lower()
        result = parse(
            it.text,
            confidence=1.0,
            now=now,
            roster=default_roster(),
            current_agent=None,
            objective_id="o",
        )
        assert not isinstance(result, Clarify), it.text
        right = fields_right(it, msgspec.to_builtins(result.objective), now.date())
        assert all(right.values()), (it.text, right)


def test_dev_replies_are_dev_only_replies_the_parser_knows() -> None:
    texts = {it.text for it in DEV_REPLIES}
    assert texts.isdisjoint({it.text for it in CORPUS}), "held-out stays as it was"
    assert set(DEV_REPLIES) <= set(split_items("dev")) and set(DEV_REPLIES) <= set(
        split_items("both")
    )
    assert not set(DEV_REPLIES) & set(split_items("heldout"))
    assert any(len(it.text.split()) == 1 for it in DEV_REPLIES)
    for it in DEV_REPLIES:
        assert it.kind == "reply" and classify_reply(it.text) == it.reply, it.text


def test_split_is_deterministic_and_balanced() -> None:
    first = splits()
    assert first == splits(tuple(reversed(CORPUS))), "independent of file order"
    dev, held = split_items("dev"), split_items("heldout")
    extra = DEV_COMMANDS + DEV_OTHERS + DEV_REPLIES
    assert len(dev) + len(held) == len(CORPUS) + len(extra)
    assert {it.text for it in dev}.isdisjoint({it.text for it in held})
    dev = [it for it in dev if it not in extra]  # the supplements are outside the split
    for attr in ("verb", "agent"):
        d = Counter(getattr(it, attr) for it in dev if it.kind == "command")
        h = Counter(getattr(it, attr) for it in held if it.kind == "command")
        assert set(d) == set(h)
        assert all(abs(d[k] - h[k]) <= 1 for k in d), (attr, d, h)
    for kind in ("other", "reply"):
        d_n = sum(it.kind == kind for it in dev)
        h_n = sum(it.kind == kind for it in held)
        assert abs(d_n - h_n) <= 2


@pytest.mark.parametrize(
    ("rule", "on", "want"),
    [
        (None, FRIDAY, None),
        ("+0d", FRIDAY, date(2026, 5, 1)),
        ("+1d", FRIDAY, date(2026, 5, 2)),
        ("+3d", date(2026, 12, 30), date(2027, 1, 2)),
        ("weekday:fri", FRIDAY, date(2026, 5, 8)),
        ("weekday:sat", FRIDAY, date(2026, 5, 2)),
        ("weekday:wed", FRIDAY, date(2026, 5, 6)),
        ("eow", FRIDAY, date(2026, 5, 3)),
        ("eow", date(2026, 5, 3), date(2026, 5, 3)),
        ("date:12-24", FRIDAY, date(2026, 12, 24)),
        ("date:12-24", date(2026, 12, 24), date(2026, 12, 24)),
        ("date:12-24", date(2026, 12, 25), date(2027, 12, 24)),
    ],
)
def test_deadline_rules(rule: str | None, on: date, want: date | None) -> None:
    assert resolve_deadline(rule, on) == want


def test_every_corpus_rule_resolves() -> None:
    for it in COMMANDS:
        got = resolve_deadline(it.deadline, FRIDAY)
        assert (got is None) == (it.deadline is None)


def test_fields_right_golden() -> None:
    today = date(2026, 5, 1)
    assert fields_right(BENCH, objective(), today) == dict.fromkeys(FIELDS, True)
    assert fields_right(BENCH, None, today) == dict.fromkeys(FIELDS, False)
    wrong = fields_right(
        BENCH,
        objective(
            agent="Abeni",
            target={"ref": "prop:x", "kind": "prop", "label": "Branch"},
            deadline="2026-05-02T18:00:00+02:00",
            priority=90,
            forbidden_lines=[{"text": "Do not lie", "value_ref": "value:honesty"}],
        ),
        today,
    )
    assert wrong == {
        "agent": False,
        "verb": True,
        "target": False,
        "deadline": True,  # a datetime on the right day counts
        "priority": False,
        "autonomy": True,
        "boundary": False,
    }
    assert fields_right(BENCH, objective(deadline=None), today)["deadline"] is False


def test_target_is_compared_loosely() -> None:
    assert target_right("garden gate", "Gate near the garden")
    assert target_right("nets", "Fishing net")
    assert target_right("beehives", "The Beehive")
    assert target_right("fishermen", "Fisherman") and target_right("fisherman", "Old fishermen")
    assert target_right("supplies", "Supply") and target_right("shelves", "New shelf")
    assert target_right("knife", "Knives") and target_right("calves", "Calf")
    assert not target_right("bench", "Bunch")
    assert target_right("fly", "Flies") and not target_right("shelves", "Sheep")
    assert not target_right("fishermen", "Fish") and not target_right("supplies", "Sup")


def test_wrong_draft_counts_only_unflagged_agent_or_verb() -> None:
    right = dict.fromkeys(FIELDS, True)
    assert not wrong_draft(right, [], drafted=True)
    bad_agent = {**right, "agent": False}
    assert wrong_draft(bad_agent, [], drafted=True)
    assert not wrong_draft(bad_agent, ["agent"], drafted=True)
    assert wrong_draft(bad_agent, ["verb"], drafted=True)
    assert not wrong_draft({**right, "target": False}, [], drafted=True)
    assert not wrong_draft(dict.fromkeys(FIELDS, False), [], drafted=False)


def test_wer_normalisation() -> None:
    assert wer("Ask Kofi to build a bench.", "ask kofi, to build a BENCH") == 0.0
    assert wer("Zuri, update me on the harvest", "Zuri update me on harvest") == pytest.approx(
        1 / 6
    )
    assert heard_right(BENCH, "Tell Kofi to build a wooden bench near the pond, by tomorrow!")
    assert not heard_right(BENCH, "Tell coffee to build a wooden bench near the pond by tomorrow")
    assert not heard_right(BENCH, None)


def test_reply_scoring() -> None:
    yes = Item("yes please", "reply", reply="confirm")
    no = Item("scrap that", "reply", reply="reject")
    assert reply_right(yes, "confirmed") and reply_right(no, "rejected")
    for decision in ("rejected", "clarify", "draft", None):
        assert not reply_right(yes, decision)
    assert not reply_right(no, "confirmed")


def test_metrics_and_reliability_on_golden_records() -> None:
    today = date(2026, 5, 1)
    good = Outcome(transcript=BENCH.text, confidence=0.95, draft=objective(), ack_ms=300)
    misheard = Outcome(
        transcript="Tell coffee to build a bench",
        confidence=0.55,
        clarify="low-confidence",
        ack_ms=500,
    )
    wrong = Outcome(
        transcript=BENCH.text, confidence=0.85, draft=objective(agent="Zuri"), ack_ms=400
    )
    recs = []
    for out in (good, misheard, wrong):
        r = Record(
            "dev", "v", "command", BENCH.text, out, wer=wer(BENCH.text, out.transcript or "")
        )
        r.ref_words = 12
        r.right = fields_right(BENCH, out.draft, today)
        recs.append(r)
    yes = Item("yes", "reply", reply="confirm")
    recs.append(
        Record("dev", "v", "reply", yes.text, Outcome(decision="confirmed"), wer=0.0, ref_words=1)
    )
    recs.append(
        Record(
            "dev", "v", "other", "What time is it", Outcome(clarify="no-verb"), wer=0.0, ref_words=4
        )
    )
    m = metrics(recs)
    assert m["commands"] == 3
    assert m["whole_right"] == pytest.approx(1 / 3, abs=1e-3)
    assert m["agent_right"] == pytest.approx(1 / 3, abs=1e-3)
    assert m["fields_right"] == pytest.approx(13 / 21, abs=1e-3)
    assert m["wrong_drafts"] == pytest.approx(1 / 3, abs=1e-3)
    assert m["heard_right"] == 2 and m["clarify_when_heard_right"] == 0.0
    assert m["reply_right"] == 1.0 and m["non_command_drafts"] == 0.0
    assert m["ack_p50_ms"] == 400.0
    diagram = reliability(recs)
    assert [b["n"] for b in diagram] == [0, 0, 0, 0, 0, 1, 0, 0, 1, 1]
    assert diagram[9]["accuracy"] == 1.0 and diagram[8]["accuracy"] == 0.0
    assert calibration_error(diagram) == pytest.approx((0.55 + 0.85 + 0.05) / 3, abs=1e-3)


def test_limit_keeps_every_kind() -> None:
    picked = limited(split_items("dev"), 3)
    assert sorted(it.kind for it in picked) == ["command", "other", "reply"]
