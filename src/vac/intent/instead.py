"""A thing taken back for another after the order: "fix the fence, no wait,
the gate", "…, sorry, I mean the gate", "…, or rather the shed", "…, make
that the gate", "…, no, not the fence, the gate".

Taken back by "no", "I mean", "or rather", "make that", "correction",
"scratch that" (after "sorry", "actually", "wait" or not); "sorry",
"actually", "wait", "never mind" alone are no correction ("…, sorry, the
noise"). The thing said instead must be a thing said alone: a determiner and up to
three words of a thing, then a break, the end, or the deadline. Not a
remark ("…, sorry, the dog got out", "…, actually the gate is fine", "…,
no, the kids mustn't touch it"), a time ("…, sorry, the weekend", "…, make
that the 15th"), a second thing ("…, no, the fence too"), a word on how
("…, make that a priority", "…, sorry, my mistake") or a part of the same
thing ("…, sorry, the kitchen one", "…, no, the front"). The last of
several corrections counts (`parser` asks again after each).

Pure: tokens in, an index out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from vac.intent import lexicon as lx
from vac.intent.lexicon import Tok

# Words that take the thing back. "Sorry", "actually", "wait" and "never
# mind" alone do not ("…, sorry, the noise", "…, wait, the key", "…, never
# mind, the cost"): they may come before one of these ("sorry, I mean…").
_TAKE_BACK: Final = lx.phrases(
    ["no", "i mean", "i meant", "or rather", "rather", "make that", "correction", "scratch that"]
)
_LEAD: Final = lx.PUNCT | frozenset(lx.words("oh um uh er well sorry actually wait no never mind"))
_SAID_INSTEAD: Final = lx.phrases(["sorry", "i mean", "i meant", "or rather"])
_SORRY: Final = lx.phrases(["sorry", "oops", "actually", "wait"])
# The past of verbs that do not end in "-ed": a remark, not a thing ("the dog got out").
PAST_FORMS: Final = frozenset(
    lx.words(
        "broke left took made came saw gave found lost fell ran ate wrote hurt forgot got "
        "kept brought bought caught sent spent thought knew grew drove rode sold sat stood won "
        "built dug met put set shut cut read paid heard hid swept slept woke spoke drew threw "
        "tore wore froze began stole bent lent hit held went told said did done gone"
    )
)
# Words that say something of a thing: a remark about it, not the thing.
_SAYING: Final = frozenset(
    lx.words(
        "is are was were be been has have had needs need looks look seems seem will can could "
        "should would might must may do does shall stays stay comes come stuck broken open "
        "closed loose missing"
    )
)
# No thing said instead: times, amounts, how, a second thing, pointing words.
NOT_A_THING: Final = frozenset(
    lx.words(
        "today tonight tomorrow now later sooner soon morning afternoon evening night noon "
        "midnight day days week weeks weekend month hour hours minute minutes moment sec "
        "second time bit little while monday tuesday wednesday thursday friday saturday "
        "sunday first third fourth fifth sixth priority job habit fix same usual way idea "
        "thought mistake bad love dear friend fault one ones too also well it them this that "
        "these those of up out off down in away back over along inside outside here there "
        "better sooner whole thing things stuff lot lots few couple pair more rest all "
        "everything two three four five six seven eight nine ten dozen darling honey sweetie "
        "afterthought usual year"
    )
)
# Said alone after the determiner, these are a part of the same thing ("the front").
_PART_WORDS: Final = frozenset(
    lx.words("front back left right top bottom other upstairs downstairs kitchen big small old new")
)
# After them, a part of the same thing: "…, no, the left side" (not "the back gate").
_PART_OF: Final = frozenset(lx.words("side sides end ends part half corner edge panel bit"))
_THING_WORDS_MAX: Final = 3


def past_said(word: str) -> bool:
    """A verb in the past: "swarmed", "died", "broke" (not "shed", "seed")."""
    if word in PAST_FORMS:
        return True
    return (
        word.endswith("ed") and (len(word) > 4 or word.endswith("ied")) and not word.endswith("eed")
    )


def thing_instead(clause: Sequence[Tok], end: int, stop: int) -> int | None:
    """Where the thing said instead starts, when the words right after the
    order's thing (which ends at `end`) take it back for another: a break,
    a correction word, then a thing said alone (up to `stop`, where a
    deadline starts). None otherwise."""
    # Typed without a break: "fix the fence sorry the gate", "… i mean the gate".
    unbroken = end < len(clause) and lx.phrase_at(clause, end, _SAID_INSTEAD) is not None
    if end >= len(clause) or (clause[end].low not in lx.PUNCT and not unbroken):
        return None
    k, cued = end, unbroken
    while k < len(clause):
        said = lx.phrase_at(clause, k, _TAKE_BACK)
        if said is not None:
            k, cued = k + len(said), True
        elif clause[k].low in _LEAD:
            k += 1  # "sorry, I mean…", "no wait, …", "oh, no, …"
        elif clause[k].low == "not" and (
            cued or (k + 1 < len(clause) and clause[k + 1].low in lx.DETERMINERS)
        ):  # "…, no, not the fence, the gate"; "…, not the fence, the gate" (a thing must follow)
            while k < len(clause) and clause[k].low not in lx.PUNCT:
                k += 1
            cued = True
        else:
            break
    said_end = thing_said(clause, k, stop)
    if said_end is not None and not cued and lx.phrase_at(clause, end + 1, _SORRY) is not None:
        # "map the north field, sorry, the south field", "fix the gate, sorry, the fence": the
        # same kind of thing said again is a correction (T29, T30), "…, sorry, the noise" not
        was, now = clause[end - 1].low, clause[said_end - 1].low  # or a thing of its kind:
        cued = end > 0 and (now == was or lx.kind_of(now) in {lx.kind_of(was)} - {None})
    return k if cued and said_end is not None else None


def thing_said(toks: Sequence[Tok], k: int, stop: int | None = None) -> int | None:
    """Where a thing said alone from toks[k] ends: a determiner, up to three
    words of a thing, then a break, the end or `stop`; None if it is not one."""
    if k >= len(toks) or (toks[k].low not in lx.DETERMINERS and not _whose(toks[k])):
        return None
    end = k + 1
    limit = len(toks) if stop is None or stop <= k else stop
    while end < limit and toks[end].low not in lx.PUNCT:
        end += 1
    if end < len(toks) and toks[end].low not in lx.PUNCT and says_of(toks[end].low):
        return None  # "…, no, the kids | don't use it": a remark, cut at its boundary
    words = [t.low for t in toks[k + 1 : end]]
    if words[-2:] == ["after", "all"]:
        words = words[:-2]  # "…, no, the fence after all"
    if not 1 <= len(words) <= _THING_WORDS_MAX:
        return None
    if len(words) == 1 and words[0] in _PART_WORDS:
        return None
    for n, w in enumerate(words):
        if w == "well" and n == len(words) - 1 and words[n - 1 : n] != ["as"]:
            continue  # "…, no, the well" (a place of the household), not "… as well"
        if w in _PART_WORDS and n < len(words) - 1 and words[-1] not in _PART_OF:
            continue  # "…, no wait, the back gate" (a tenth typed probe: not "… the back")
        if w in NOT_A_THING | _SAYING | PAST_FORMS or "'" in w or any(c.isdigit() for c in w):
            return None
        if past_said(w):
            return None  # "the bees swarmed", "my phone died"
        if n < len(words) - 1 and w.endswith("s") and not w.endswith("ss") and len(w) > 3:
            return None  # "the shop closes at five": a verb before the end
        if lx.phrase_at(toks, k + 1 + n, lx.VERB_PHRASES) is not None:
            return None
        if n and toks[k + 1 + n].text[:1].isupper():
            return None  # "…, no, the gate Zuri": a name after it
    return end


def _whose(tok: Tok) -> bool:
    """A name's possessive, which stands for a determiner: "…, no, Zuri's
    project" (an eleventh typed probe: "Kofi's" was the thing)."""
    return tok.text[:1].isupper() and tok.low.endswith("'s") and len(tok.low) > 3


def says_of(word: str) -> bool:
    """A word that starts saying something of what came before it."""
    return word.endswith("n't") or word in _SAYING or word in ("never", "not", "no", "without")


# "the front gate, no, the back one": "one" is the thing's head said again
# (a blind probe, T30: the front gate was drafted).
_PART_ONE: Final = re.compile(
    r"\b(?:the|my|our|your)\s+(?P<part>\w+)\s+(?P<head>\w+)\s*[,.;-]+\s*"
    r"(?:(?:no|sorry|i\s+mean|i\s+meant|actually|wait|oh)[,\s]+)+(?:the|my|our|your)\s+"
    r"(?P<new>\w+)\s+(?P<one>one)\b",
    re.IGNORECASE,
)


def one_said(text: str) -> str | None:
    """The words with "one" said as the thing's head ("…, no, the back
    gate"), when a part of the thing is corrected that way; else None."""
    found = _PART_ONE.search(text)
    parts = _PART_WORDS - {"other"}
    if found is None or not {found["part"].lower(), found["new"].lower()} <= parts:
        return None
    return f"{text[: found.start('one')]}{found['head']}{text[found.end('one') :]}"
