"""A verb's inflected form where only its plain form can stand: "have Kofi built…".

After "have <Name>" and "<Name> to", English allows only a verb's plain
form: "have Kofi build a hutch", "tell Zuri to fix the gate". The recogniser
often writes another form there ("Have Kofi built a rabbit hutch next
week.", "Could you have Imani defended the orchard?", "Have Tariq reports
on the night watch"); the parser reads verbs in their plain form only, so
these were asked about ("I heard you, but not what to do"). `as_plain`
gives the order with the plain form, which the parser then reads; the verb
keeps the evidence of the word as said (`intent.understand`).

    have <Name> <done / doing / does> …     → have <Name> <do> …
    <Name> to <done / does> …                → <Name> to <do> …

Never: a name with "'s" ("have Kofi's team…"), a question ("Have Kofi
fixed the gate?": asked, never guessed), negations, a subject before it
("they have Kofi fixed up"), or "to" with an "-ing"
form ("Kofi looks forward to building…"). A single name makes "have <Name>
<done>" no question ("has Kofi…"), and "<Name> to <done>" is no English at
all, so the plain form is what was said.

Pure: text in, text out.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

from vac.intent import lexicon as lx
from vac.intent.passive import SUBJECTS, Order, asked_plainly, spans_of
from vac.intent.verb_cues import DONE_FORMS, VERB_CUES


def _third_person(verb: str) -> str:
    """ "fix" → "fixes", "build" → "builds", "accompany" → "accompanies"."""
    if re.fullmatch(r".*[^aeiou]y", verb):
        return verb[:-1] + "ies"
    return verb + ("es" if verb.endswith(("s", "x", "z", "ch", "sh")) else "s")


_DOES: Final[Mapping[str, str]] = {_third_person(cue): cue for cue in VERB_CUES if " " not in cue}
_FORMS: Final[Mapping[str, str]] = {**DONE_FORMS, **_DOES}
# Who is told to do it: "tell Kofi to…", "I'd like Kofi to…".
_TOLD: Final = frozenset(lx.words("tell ask get want need like remind"))


_PLAIN_GAP: Final = re.compile(r"[ A-Za-z]+")


def _a_name(text: str, start: int, word: str) -> bool:
    """A proper name as written: capitalised, not "I", no "'s"."""
    return text[start].isupper() and word != "i" and not word.endswith("'s")


def as_plain(text: str) -> Order | None:
    """`text` with the plain form where an inflected one stands (see the
    module's table); None when there is none."""
    spans = spans_of(text)
    if not asked_plainly(text, spans):
        return None
    for i in range(len(spans) - 3):
        (_s0, _e0, lead), (s1, _e1, name), (s2, e2, then), (s3, e3, form) = spans[i : i + 4]
        verb = _FORMS.get(then)
        if i > 0 and spans[i - 1][2] in SUBJECTS:
            continue  # "they have Kofi fixed up": said of someone
        if lead == "have" and verb is not None and _a_name(text, s1, name):
            at, end = s2, e2  # "have Kofi built a hutch"
        elif (
            lead in _TOLD
            and then == "to"
            and form in _FORMS
            and not form.endswith("ing")
            and _a_name(text, s1, name)
        ):
            verb, at, end = _FORMS[form], s3, e3  # "tell Kofi to fixed the gate"
        else:
            continue
        if not _PLAIN_GAP.fullmatch(text[spans[i][1] : at]):
            return None  # punctuation between: "have Kofi, fixed…"
        return Order(text[:at] + verb + text[end:], (at, end), (at, at + len(verb)))
    return None


__all__ = ["as_plain"]
