"""A verb's inflected form where only its plain form can stand ("have Kofi
built a hutch"), `vac.intent.plain_verb` and through `intent.understand`,
typed and spoken."""

from __future__ import annotations

import datetime as dt

import intent_factories as factories
import pytest
from hypothesis import given
from hypothesis import strategies as st

from vac.intent import Clarify, Draft, Evidence, default_roster
from vac.intent.plain_verb import as_plain
from vac.intent.verb_cues import VERB_CUES

ROSTER = default_roster()
NAMES = frozenset(n.lower() for n in ROSTER.names())
NOW = dt.datetime(2026, 12, 2, 10, 0, tzinfo=dt.UTC)  # a Wednesday


@pytest.mark.parametrize(
    ("said", "order"),
    [
        ("Have Kofi built a rabbit hutch next week.", "Have Kofi build a rabbit hutch next week."),
        ("Could you have Imani defended the orchard?", "Could you have Imani defend the orchard?"),
        ("Have Tariq restored the old clock", "Have Tariq restore the old clock"),
        ("Have Tariq reports on the night watch", "Have Tariq report on the night watch"),
        ("Please have Zuri checking the well tomorrow", "Please have Zuri check the well tomorrow"),
        ("Tell Kofi to fixed the gate", "Tell Kofi to fix the gate"),
        ("Ask Zuri to built a compost bin", "Ask Zuri to build a compost bin"),
        ("I'd like Abeni to watches the goats", "I'd like Abeni to watch the goats"),
        ("Kofi, have Zuri mapped the river", "Kofi, have Zuri map the river"),
        ("Tell Kofi friend the fox", "Tell Kofi befriend the fox"),
        ("Have Zuri friend the new family", "Have Zuri befriend the new family"),
        ("Ask Imani to friend the potter", "Ask Imani to befriend the potter"),
        ("Have Kofi built raised beds", "Have Kofi build raised beds"),
        ("Ask Zuri to mapped the river before Friday", "Ask Zuri to map the river before Friday"),
        # A roster name called, then the form: tiny.en's "explored the" for "explore the".
        (
            "Zuri, explored the abandoned mill, but check with me first.",
            "Zuri, explore the abandoned mill, but check with me first.",
        ),
        ("The well is dry. Kofi, checked the pump", "The well is dry. Kofi, check the pump"),
        ("Imani, repairs the fence by Friday", "Imani, repair the fence by Friday"),
    ],
)
def test_the_plain_form_where_only_it_can_stand(said: str, order: str) -> None:
    found = as_plain(said, NAMES)  # the roster's names: as for spoken words
    assert found is not None and found.text == order
    s, e = found.verb
    assert found.text[s:e] in VERB_CUES
    s, e = found.said
    assert said[s:e] != found.text[found.verb[0] : found.verb[1]]


@pytest.mark.parametrize(
    "said",
    [
        "Have Kofi fixed the gate?",  # asked, never guessed
        "Have Kofi's team fixed the gate",  # the team's deed
        "Have Kofi, fixed the gate",  # punctuation between
        "Kofi looks forward to building the shed",  # "to" + "-ing" is English
        "Tell Kofi to fixing the gate",
        "I don't have Kofi built anything",  # a negation
        "They have Kofi fixed up",  # said of someone
        "We'll have Kofi built it",
        "Kofi fixed the gate",  # a report
        "Have Kofi fix the gate",  # already plain
        "have them fixed by Friday",  # no name: intent.passive's
        "Tell Kofi to the barn",
        "Tell Kofi friend is here",  # "friend" a verb only before a thing
        "Tell Kofi's friend the news",
        "Have Kofi fixed the gate yet",  # asked about the past
        "Have Zuri checked the hens already",
        "Have Imani protected from the sun",  # a state, not a deed
        "Have Zuri measured for new boots",
        "Have Kofi guards posted at the gate",
        "Tell Kofi friend that the gate is broken",  # "friend" said to Kofi
        "Tell Kofi friend the gate is open",
        "Tell Kofi to fixed the gate, the goats are out",  # a statement in the sentence
        "Have Kofi fixed the gate by now",
        "Have Kofi fixed the gate before",
        "Have Kofi fixed the gate, is the roof leaking",  # a question after the comma
        "Have Kofi checked with Zuri",
        "Okay, fixed the gate.",  # a report: "Okay" is no one
        "Bob, fixed the gate",  # no one on the roster
        "Zuri, fixed the gate?",  # asked
        "Zuri, fixed the gate already",  # said of the past
        "Zuri, you fixed the gate",
        "Zuri, fixing the gate",
        "Zuri, fixed it",  # no thing after the form
        "Zuri fixed the gate",  # a report: no name called
        "The gate, Zuri, fixed the latch",  # the name is not first in its sentence
    ],
)
def test_nothing_else_is_rewritten(said: str) -> None:
    assert as_plain(said, NAMES) is None


@given(st.text(alphabet=st.sampled_from(list("abc KofiHvetldxs,.?'")), max_size=60))
def test_any_words_give_an_order_or_none(said: str) -> None:
    found = as_plain(said)
    if found is not None:
        s, e = found.said
        vs, ve = found.verb
        assert said[:s] == found.text[:vs] and said[e:] == found.text[ve:]


def understood(text: str, evidence: Evidence | None = None) -> Draft | Clarify:
    return factories.understood(text, evidence, now=NOW, roster=ROSTER)


def test_typed_the_order_is_read_and_keeps_what_was_said() -> None:
    text = "Have Kofi built a rabbit hutch next week."
    got = understood(text)
    assert isinstance(got, Draft), got
    assert got.objective.agent == "Kofi" and got.objective.verb == "Build"
    assert got.objective.source_text == text


@pytest.mark.parametrize(("built_p", "flagged"), [(0.9, ()), (0.1, ("verb",))])
def test_spoken_the_verb_has_the_evidence_of_the_word_it_was_said_as(
    built_p: float, flagged: tuple[str, ...]
) -> None:
    text = "Have Zuri built a compost bin. Check with me first."
    got = understood(text, factories.heard_words(text, {"built": built_p}))
    assert isinstance(got, Draft), got
    assert got.objective.verb == "Build" and got.uncertain == flagged
    assert got.objective.autonomy == "direct-tether"
    assert got.objective.source_text == text


def test_a_later_verb_taken_for_the_order_gives_way_to_the_plain_form() -> None:
    # "watch" was the first verb the parser knew, so Tariq, named before it,
    # was asked about; the plain form says the order.
    got = understood("Have Tariq reports on the night watch in two days")
    assert isinstance(got, Draft), got
    assert (got.objective.agent, got.objective.verb) == ("Tariq", "Report")
    asked = understood("Kofi. He's away. Fix the gate.")
    assert isinstance(asked, Clarify) and asked.reason == "uncertain-agent"


def spoken(text: str) -> Draft | Clarify:
    return understood(text, factories.heard_words(text, {}))


def test_a_called_name_and_a_done_form_drafts_the_order_spoken() -> None:
    text = "Zuri, explored the abandoned mill, but check with me first."
    got = spoken(text)
    assert isinstance(got, Draft), got
    assert (got.objective.agent, got.objective.target.label) == ("Zuri", "Abandoned mill")
    assert got.objective.source_text.startswith("Zuri, explored")  # kept as said
    assert isinstance(understood(text), Clarify)  # typed, it reports
    assert isinstance(spoken("Okay, fixed the gate."), Clarify)


@pytest.mark.parametrize(
    "text",
    [
        "Kofi, built the shed. Good job.",
        "Kofi, fixed the gate. Thank you!",
        "Kofi, fixed the gate, well done",
        "Kofi, repaired the gate, thanks so much",
        "Zuri, mapped the river. Great work.",
        "Kofi, fixed the gate yesterday",
    ],
)
def test_thanks_or_a_past_time_after_a_called_name_is_a_report_even_spoken(text: str) -> None:
    got = spoken(text)
    assert isinstance(got, Clarify), got
