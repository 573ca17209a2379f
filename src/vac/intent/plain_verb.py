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
    <Name>, <done / does> <the …> …          → <Name>, <do> <the …> …
    have / tell <Name> (to) friend <the …>   → … befriend <the …>

Never: a name with "'s" ("have Kofi's team…"), a question ("Have Kofi
fixed the gate?", "… yet", "… by now", "…, is the roof leaking": asked,
never guessed), a form not followed by its object ("have Imani protected
from the sun"), negations, a subject before it ("they have Kofi fixed
up"), or "to" with an "-ing" form ("Kofi looks forward to building…").
A single name makes "have <Name> <done>" no question ("has Kofi…"), and
"<Name> to <done>" is no English at all, so the plain form is what was said.
Spoken, nor is a roster name called and then a deed done ("Zuri, explored
the abandoned mill": tiny.en joins "explore the" into "explored the"); only
a name the household has, first in its sentence, with a thing after the
form, and no thanks or past time said ("Kofi, fixed the gate. Good job."
reports; typed, it always does: `names` is given only for spoken words).

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
# "befriend" is often heard as "friend", which is a verb too: before a thing.
_THING_STARTS: Final = frozenset(lx.words("the a an my our your his her their"))
# What never follows the verb of an order: "have Imani protected from the
# sun", "have Zuri measured for new boots", "have Kofi guards posted".
_NOT_OBJECTS: Final = frozenset(lx.words("from for at in by with as of off and or but"))
# Words that make "have <Name> <done>" a question about the past.
_SO_FAR: Final = frozenset(lx.words("yet already far now ever recently lately"))
# A sentence with these after the verb says something, it does not ask for it.
_IS: Final = frozenset(lx.words("is are was were"))


# A sentence with these reports a deed or thanks for it ("Kofi, fixed the
# gate. Good job.", "…, well done", "… yesterday"): no order.
_PAST_OR_THANKS: Final = frozenset(
    lx.words("thank thanks job done work yesterday ago last earlier cheers appreciate")
)


_PLAIN_GAP: Final = re.compile(r"[ A-Za-z]+")


def _a_name(text: str, start: int, word: str) -> bool:
    """A proper name as written: capitalised, not "I", no "'s"."""
    return text[start].isupper() and word != "i" and not word.endswith("'s")


def _sentence_after(text: str, spans: list[tuple[int, int, str]], k: int) -> list[str]:
    """The words after word `k` to the end of its sentence ("Have Kofi fixed
    the gate, is the roof leaking" holds a question after the comma)."""
    out: list[str] = []
    for m in range(k + 1, len(spans)):
        if re.search(r"[.;!?]", text[spans[m - 1][1] : spans[m][0]]):
            break
        out.append(spans[m][2])
    return out


def _called(text: str, spans: list[tuple[int, int, str]], names: frozenset[str]) -> Order | None:
    """ "<Name>, <done / does> <the …>": the plain form (`as_plain`)."""
    for j in range(len(spans) - 2):
        (_ns, name_end, name), (at, end, word) = spans[j], spans[j + 1]
        first = j == 0 or re.search(r"[.;!?]", text[spans[j - 1][1] : spans[j][0]])
        if not first or name not in names or text[name_end:at] != ", ":
            continue
        verb = _FORMS.get(word)
        said_after = _sentence_after(text, spans, j + 1)
        thing = said_after[0] if said_after else ""
        if verb is None or word.endswith("ing") or thing not in _THING_STARTS:
            continue
        if any(w in _SO_FAR or w in _IS or w in _PAST_OR_THANKS for w in said_after) or any(
            s[2] in _PAST_OR_THANKS for s in spans
        ):
            continue  # "Kofi, fixed the gate already / yesterday. Thank you!": a report
        return Order(text[:at] + verb + text[end:], (at, end), (at, at + len(verb)))
    return None


def as_plain(text: str, names: frozenset[str] = frozenset()) -> Order | None:
    """`text` with the plain form where an inflected one stands (see the
    module's table); None when there is none. `names`: the roster's, lower
    case (a name called with a comma needs to be one)."""
    spans = spans_of(text)
    if not asked_plainly(text, spans):
        return None
    if (called := _called(text, spans, names)) is not None:
        return called
    for j in range(1, len(spans) - 1):
        (_ls, lead_end, lead), (name_start, _ne, name) = spans[j - 1], spans[j]
        if lead not in _TOLD | {"have"} or not _a_name(text, name_start, name):
            continue
        if j > 1 and spans[j - 2][2] in SUBJECTS:
            continue  # "they have Kofi fixed up": said of someone
        told_to = spans[j + 1][2] == "to"
        k = j + 1 + told_to  # where the verb goes
        if k >= len(spans) or not _PLAIN_GAP.fullmatch(text[lead_end : spans[k][0]]):
            continue  # punctuation between: "have Kofi, fixed…"
        at, end, word = spans[k]
        then = spans[k + 1][2] if k + 1 < len(spans) else ""
        said_after = _sentence_after(text, spans, k)
        if any(w in _SO_FAR or w in _IS for w in said_after) or said_after[-1:] == ["before"]:
            continue  # "have Kofi fixed the gate yet / before": asked; "… the gate is open"
        after_then = spans[k + 2][2] if k + 2 < len(spans) else ""
        if not then or then in _NOT_OBJECTS or then in _FORMS:
            continue  # "have Imani protected from the sun": a state, not a deed
        if then.endswith("ed") and after_then in _NOT_OBJECTS:
            continue  # "have Kofi guards posted at the gate"
        if word == "friend" and then in _THING_STARTS:
            verb: str | None = "befriend"  # "tell Kofi friend the fox"
        elif lead == "have" and not told_to:
            verb = _FORMS.get(word)  # "have Kofi built a hutch"
        elif lead in _TOLD and told_to and not word.endswith("ing"):
            verb = _FORMS.get(word)  # "tell Kofi to fixed the gate"
        else:
            verb = None
        if verb is not None:
            return Order(text[:at] + verb + text[end:], (at, end), (at, at + len(verb)))
    return None


__all__ = ["as_plain"]
