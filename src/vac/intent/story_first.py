"""The speaker's own story before "but": the order is what follows it.

"Back in my day we'd map the whole farm, but would you map the lower
pasture?", "I was going to check the boiler, but can Tariq do it?": the
words before "but" tell what the speaker did, used to do or meant to do;
they are no order. A typed probe (T22) mapped the whole farm for the first;
the second went to Abeni, the default agent, though Tariq was named.

    <the speaker's story>, but <an order to someone>     → <that order>
    <a story of meaning to do X>, but <NAME> do it     → <NAME> X

The story: "I" or "we" among its first words, then a telling of the past,
a habit or a plan given up ("used to", "we'd", "was going to", "meant to",
"tried to", "always", a past form right after the subject), or "myself" /
"ourselves"; no roster name and no "you" in it ("I'd like…", "I need…" are
wishes, orders of their own, and stay as they are). The words after "but"
name someone of the roster or "you". `intent.reading` parses what this
gives and keeps it only when it is a draft.

Pure: text in, text out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from vac.intent.verb_cues import CUES_PATTERN as _CUES
from vac.intent.when_match import past_form

_BUT: Final = re.compile(r",?\s+but\s+", re.IGNORECASE)
_WORD: Final = re.compile(r"[a-z']+")
_SUBJECTS: Final = frozenset({"i", "we", "i'd", "we'd"})
# How far into the story its subject may come ("back in my day we'd…").
_SUBJECT_WITHIN_WORDS: Final = 6
# "I'd like…", "we'd need the gate fixed by Friday, but…" (a review: read as a story)
_WISHES: Final = (
    r"(?:like|love|want|prefer|appreciate|rather|be\s+grateful|be\s+glad|be\s+happy|need"
    r"|suggest|recommend|hope|ask|advise|expect|say|think)\b"
)
_TOLD: Final = re.compile(
    r"\b(?:used\s+to|always|myself|ourselves"
    rf"|(?:i|we)'d\s+(?!{_WISHES})|(?:i|we)\s+would\s+(?!{_WISHES})"
    r"|(?:was|were)\s+(?:going\s+to|gonna|about\s+to|planning\s+to|hoping\s+to|meaning\s+to)"
    r"|meant\s+to|tried\s+to|wanted\s+to|planned\s+to|had\s+hoped\s+to)",
    re.IGNORECASE,
)
# The deed the story tells of meaning to do: what follows its plan.
_DEED: Final = re.compile(
    r"(?:used\s+to|'d|would|going\s+to|gonna|about\s+to|planning\s+to|hoping\s+to"
    r"|meaning\s+to|meant\s+to|tried\s+to|wanted\s+to|planned\s+to|hoped\s+to)"
    r"\s+(?P<deed>[a-z].*?)(?:\s+(?:myself|ourselves|yesterday|earlier))*\s*[.!]?\Z",
    re.IGNORECASE,
)
# "can Tariq do it", "would you handle that", "could you have a go": the
# deed said before.
_DO_IT: Final = re.compile(
    r"\b(?:(?:do|handle|sort\s+out|take\s+care\s+of|see\s+to)\s+(?:it|that|this)\b(?!\s+\w+ing)"
    r"|(?:have|give\s+it)\s+a\s+(?:go|try|shot|bash|crack)\b(?:\s+at\s+it\b)?)",
    re.IGNORECASE,
)


# The thing of the deed told ("build a shelf" → "a shelf"), for "it" said after.
_THING_OF: Final = re.compile(rf"(?:{_CUES})\s+(?P<thing>(?:the|a|an|my|our)\s+[a-z' ]+?)\s*\Z")
_ITS: Final = re.compile(rf"\b(?:{_CUES})\s+(?P<it>it|them)\b", re.IGNORECASE)


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower().replace("’", "'"))


def _a_story(head: str, names: frozenset[str]) -> bool:
    said = _words(head)
    if not said or names & set(said) or {"you", "your", "you're"} & set(said):
        return False
    at = next((k for k, w in enumerate(said) if w in _SUBJECTS), None)
    if at is None or at >= _SUBJECT_WITHIN_WORDS:
        return False
    nxt = said[at + 1] if at + 1 < len(said) else ""
    return _TOLD.search(head) is not None or past_form(nxt)


def order_after(text: str, names: Iterable[str]) -> str | None:
    """The order `text` gives after the speaker's story (see the module's
    table), or None: no story before a "but", or no one addressed after it."""
    but = _BUT.search(text)
    if but is None:
        return None
    lows = frozenset(n.lower() for n in names)
    head, tail = text[: but.start()], text[but.end() :]
    told = set(_words(tail))
    if not (lows & told or "you" in told) or not _a_story(head, lows):
        return None
    deed = _DEED.search(head)
    if deed is not None and (it := _DO_IT.search(tail)) is not None:
        return tail[: it.start()] + deed["deed"] + tail[it.end() :]
    thing = None if deed is None else _THING_OF.match(deed["deed"])
    if thing is not None and (it := _ITS.search(tail)) is not None:  # "…, you build it"
        return tail[: it.start("it")] + thing["thing"] + tail[it.end("it") :]
    return tail


# "While I map the field, Zuri, you fix the gate", "Tariq, while I fix the
# gate myself, you help Zuri…": the speaker's own deed, said first, is when
# the order is done, not the order (T23: each drafted the speaker's deed,
# the first for Abeni). Said after the order, it is a condition of it.
_MY_CLAUSE: Final = re.compile(
    r"(?:^|(?<=,))\s*(?P<clause>(?:while|whilst|when|as|once|after|before|until|till)\s+"
    r"(?:i|we|i'm|we're|i've|we've|i'll|we'll)\s[^,.;:!?]+),\s*",
    re.IGNORECASE,
)


_OF_THE_PAST: Final = frozenset({"was", "were", "had", "did", "used", "saw", "went", "got"})


def clause_last(text: str) -> str | None:
    """`text` with the speaker's own clause said before the order moved after
    it ("Zuri, you fix the gate, while I map the field"), or None: none said."""
    mine = _MY_CLAUSE.search(text)
    if mine is None or not text[mine.end() :].strip():
        return None
    then = _words(mine["clause"])[2:3]
    if then and (then[0] in _OF_THE_PAST or past_form(then[0])):
        return None  # "when I was young, Kofi would fix the roof": a story
    head, rest = text[: mine.start()].rstrip(" ,"), text[mine.end() :].rstrip()
    end = rest[-1] if rest[-1] in ".!?" else ""
    order = f"{head}, {rest}" if head else rest
    clause = mine["clause"].strip()
    return f"{order.removesuffix(end)}, {clause[:1].lower()}{clause[1:]}{end}"


# "Since Zuri is away, Imani should map the field", "Zuri is busy, so Imani…":
# the reason names someone who will not do it (T23: asked "Zuri, Imani or
# someone else?"); the order is what follows.
_WHY_NOT_THEM: Final = re.compile(
    r"^\W*(?:(?:since|because|as|cos|now\s+that|seeing\s+as)\s+)?(?P<name>[A-Za-z]+)"
    r"(?:'s|\s+is|\s+was|\s+isn't|\s+wasn't|\s+can't|\s+won't|\s+has\s+got|\s+has)\s+"
    r"(?:not\s+)?(?:away|off|out|busy|sick|ill|poorly|resting|asleep|tired|on\s+holiday"
    r"|on\s+leave|too\s+busy|not\s+around|not\s+here|not\s+well|unwell|tied\s+up)\b[^,.;]*"
    r"(?:,\s*so|,|\s+so)\s+(?P<order>\S.*)$",
    re.IGNORECASE,
)


def reason_first(text: str, names: Iterable[str]) -> str | None:
    """The order after a reason that rules someone out, or None."""
    said = _WHY_NOT_THEM.match(text)
    if said is None or said["name"].lower() not in {n.lower() for n in names}:
        return None
    if said["name"].lower() in {w.lower() for w in _WORD.findall(said["order"])}:
        return None  # "Since Zuri is busy, Zuri should…": the order names them after all
    return said["order"]


__all__ = ["clause_last", "order_after", "reason_first"]
