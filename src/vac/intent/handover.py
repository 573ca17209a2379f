"""An order handed to another agent after it was given: the order stands,
its agent changes.

"Zuri, fix the gate. No, Kofi, you do it", "Ask Zuri to fix the gate,
sorry, I mean Kofi", "…. Actually, let Kofi do it", "…, make that Kofi",
"…. No, Zuri can't, ask Kofi", "…. Kofi can do it instead", "…. Not Zuri,
Kofi." The last part of the words (after a break, or from a correction word
on) says nothing but a correction and one roster name:

    correction…  then one of
        NAME                                  "no, Kofi" (a sure correction only)
        NAME, you do it                       "…, you handle it"
        NAME will / can / should (do it)      "Kofi'll do it"
        ask / have / let / get / tell NAME (to do it)
        you do it, NAME
    then at most "instead", "please", "then", "thanks"

A sure correction is "no", "actually", "I mean", "rather", "make that",
"not you", "not Zuri" or "Zuri can't / is busy…" (of the order's own
agent), or "instead" at the end. "Sorry", "wait", "hold on", "never mind",
"oh no" and fillers only before "Kofi will / can (do it)" or "Kofi, you do
it" ("Sorry, Kofi" may be an apology, "Wait, Kofi!" a call). Not a
hand-over, read as before (`unsaid` takes an order back, `orders` says a
second one is not in the draft): anything more in that part (a thing, a
time, "help"), a condition ("If you can't, Kofi can do it instead": Zuri
is still asked), a question ("No, Kofi?"), an order of more than one verb
("Zuri, fix the gate. Kofi, check the well. No, Tariq": which?), and a
bare name, "make that…" or "not Kofi" when the order names someone else
too ("Zuri, help Kofi. No, Tariq": the helper or the helped?).

Before: the hand-over after a "no" took the order back ("not passed on")
and one after "sorry, I mean" was not heard at all, so the draft went to
the first name. Pure: tokens in.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

from vac.intent import lexicon as lx
from vac.intent.address import Address, address_of, resolve_span
from vac.intent.lexicon import Tok
from vac.intent.roster import Resolution, Roster


class Handover(NamedTuple):
    at: int  # the hand-over's part starts at this token (the order is before it)
    resolution: Resolution  # the agent it was handed to
    # Said without a correction ("Kofi, fix the tap. Tariq, you do it"): the
    # order's own agent, and the two are asked about (`doubted`).
    doubt: str | None = None
    start: int = 0  # where the hand-over's part starts in the words said


class _Found(NamedTuple):
    resolution: Resolution
    sure: bool  # a sure correction said so
    enough: bool  # plainly enough to hand the order over
    strength: str  # how plainly the words hand over (`_body`)


class _Order(NamedTuple):
    """What the hand-over is checked against: the order's agent and the
    other roster names it mentions."""

    agent: str | None
    others: frozenset[str]


_ANYONE: Final = _Order(None, frozenset())  # the words alone, before the order is read
_SURE: Final = lx.phrases(
    [
        "no",
        "nope",
        "nah",
        "actually",
        "i mean",
        "i meant",
        "rather",
        "or rather",
        "make that",
        "make it",
        "scratch that",
        "on second thought",
        "on second thoughts",
        "correction",
    ]
)
_SOFT: Final = lx.phrases(
    [
        "sorry",
        "oh",
        "um",
        "uh",
        "er",
        "erm",
        "hmm",
        "wait",
        "hold on",
        "hang on",
        "never mind",
        "nevermind",
        "forget that",
        "not you",  # "Not you, Kofi" is mostly a call
    ]
)
_WORDS: Final = frozenset(p[0] for p in _SURE + _SOFT if len(p) == 1)
_EXCUSES: Final = lx.phrases(
    [
        "can't",
        "cant",
        "cannot",
        "can not",
        "won't",
        "is busy",
        "is away",
        "is out",
        "is off",
        "is sick",
        "isn't here",
        "is not here",
        "isn't around",
        "is not around",
        "isn't free",
        "is not free",
    ]
)
_EXCUSED: Final = frozenset(lx.words("busy away out off sick"))  # "Zuri's busy"
_CONDITIONS: Final = frozenset(lx.words("if unless case otherwise when whenever or"))
_DO_IT: Final = lx.phrases(
    [
        "do it",
        "do that",
        "do this",
        "do this one",
        "do that one",
        "handle it",
        "handle that",
        "take it",
        "take that",
        "take this one",
        "take that one",
        "take care of it",
        "take care of that",
        "see to it",
        "sort it",
        "sort it out",
        "deal with it",
    ]
)
_MODALS: Final = frozenset(lx.words("will should can could must"))
_ASKING: Final = frozenset(lx.words("can could would will"))
_HAND: Final = frozenset(lx.words("ask tell have get let"))
_DONT: Final = lx.phrases(["don't", "dont", "do not"])
_MAYBE: Final = frozenset(lx.words("maybe perhaps possibly"))
_THREAT: Final = frozenset(lx.words("will would 'll"))
# The longest hand-over looked for, punctuation included ("No, wait, sorry,
# Zuri can't, so ask Kofi to take care of it instead, please.").
_MAX_TOKENS: Final = 24
_TRAILERS: Final = lx.phrases(["instead", "please", "then", "thanks", "thank you"])


def handed_over(
    toks: Sequence[Tok], roster: Roster, *, again: bool = True
) -> tuple[list[Tok], Handover | None]:
    """The words without a hand-over at their end, and the hand-over (or the
    words as they were, and None). `again`: an earlier hand-over right before
    it is superseded ("No, Kofi. No, wait, Tariq": Tariq's)."""
    verb = lx.find_first(toks, lx.VERB_PHRASES)
    if verb is None:
        return list(toks), None  # no order ("Zuri. No, Kofi." is `others`')
    for at in range(max(verb[0] + 2, len(toks) - _MAX_TOKENS), len(toks)):
        kept = [k for k in range(at, len(toks)) if toks[k].low not in lx.PUNCT]
        # "Kofi, fix the tap. Or Tariq (can do it)": one or the other, asked.
        either = toks[at].low == "or" and toks[at - 1].low in lx.PUNCT and len(kept) > 1
        kept = kept[either + (either and _word(toks, kept[1]) in _MAYBE) :]  # "or maybe"
        part = [toks[k] for k in kept]
        # The words of `part` a break comes before ("no, Zuri"; not "no Zuri").
        broken = frozenset(j for j in range(1, len(kept)) if kept[j] != kept[j - 1] + 1)
        asked = toks[-1].low == "?"  # "No, Kofi?" asks; "Tariq, can you do it?" is asked to
        if not part or toks[at].low in lx.PUNCT or "?" in (t.low for t in toks[at:-1]):
            continue
        after_break = toks[at - 1].low in lx.PUNCT
        sure_start = lx.phrase_at(part, 0, _SURE)
        if not after_break and (
            sure_start is None or (sure_start == ("no",) and toks[at - 1].low in _WORDS)
        ):
            continue  # "oh no, Kofi!"
        if _conditioned(toks, at) or any(t.low in _CONDITIONS for t in part):
            continue
        if _handover(part, roster, _ANYONE) is None:
            continue  # the words alone are no hand-over (the cheap test first)
        before, earlier = (
            handed_over(toks[:at], roster, again=False) if again else (list(toks[:at]), None)
        )
        order = _order(before, roster)
        if order is None:
            return list(toks), None  # more than one order: which is handed over?
        found = _handover(
            part, roster, order, broken, shout=toks[-1].low == "!", asked=asked and not either
        )
        if found is None:
            continue
        res, sure, enough, strength = found
        unasked = _unasked(toks)  # "Don't ask Kofi to fix the gate, ask Zuri (instead)"
        enough = (enough or (unasked > 0 and strength != "bare")) and not either
        strength = "says" if either else strength  # "… Or Tariq": the name alone is plain
        if not sure and not either and not _apart(toks, at, verb[0], order, roster):
            continue  # "…. On weekends, Kofi can do it instead": only then
        # A name told to do it with no correction, after an order to another
        # ("Kofi should fix the tap. Tariq, can you do it?"): which of the
        # two? A blind probe (T28): the first name's draft, the second lost.
        if not enough and (strength in ("bare", "tells") or order.agent in (None, res.agent)):
            continue  # "…. Tell Tariq": tell him of it?
        if either and (_word(part, 1) in _THREAT or part[0].low.endswith("'ll")):
            continue  # "Kofi, fix the tap, or Tariq will (do it)": a threat (a review)
        doubt = None if enough else order.agent
        at = earlier.at if earlier is not None else _markers_before(toks, at, verb[0])
        return list(toks[unasked:at]), Handover(at, res, doubt, toks[at].start)
    return list(toks), None


def _unasked(toks: Sequence[Tok]) -> int:
    """How many words say "don't" before "ask / tell / have NAME…" at the
    start: that order is not to be passed on, the hand-over's is (0: none).
    A blind probe: "Don't ask Kofi to fix the gate, ask Zuri instead" got
    "Okay, I won't pass that on"."""
    dont = lx.phrase_at(toks, 0, _DONT)
    return len(dont) if dont and _word(toks, len(dont)) in _HAND else 0


def doubted(handed: Handover | None, source: str) -> tuple[str, str, tuple[str, str]] | None:
    """The question, the words of the order alone (an answer's name goes in
    place of the order's agent) and the two names, when the hand-over was
    not plain enough to take."""
    if handed is None or handed.doubt is None or handed.resolution.agent is None:
        return None
    names = (handed.doubt, handed.resolution.agent)
    return f"Who should do it: {names[0]} or {names[1]}?", source[: handed.start].rstrip(), names


def readdress(address: Address, handed: Handover | None) -> Address:
    """The address with the agent the order was handed to."""
    if handed is None:
        return address
    return address._replace(resolution=handed.resolution, unknown=None, others=None, pronoun=None)


def _order(toks: Sequence[Tok], roster: Roster) -> _Order | None:
    """The order before the hand-over; None when it holds more than one verb."""
    address = address_of(toks, roster, None)
    clause = address.clause(toks)
    first = lx.find_first(clause, lx.VERB_PHRASES)
    if first is None:
        return None
    later = frozenset(range(first[0] + len(first[1])))
    if lx.find_first(clause, lx.VERB_PHRASES, skip=later) is not None:
        return None
    agent = address.resolution.agent if address.resolution is not None else None
    return _Order(agent, _names(clause, roster) - {agent})


def _names(toks: Sequence[Tok], roster: Roster) -> frozenset[str]:
    """The roster names said in `toks`, "Kofi's" too."""
    named = (_name_text(_unpossessed(t.text), roster) for t in toks if t.low not in lx.PUNCT)
    return frozenset(r.agent for r in named if r is not None and r.method in ("exact", "fuzzy"))


def _unpossessed(word: str) -> str:
    return word[:-2] if word.lower().endswith(("'s", "’s")) else word


def _apart(toks: Sequence[Tok], at: int, verb: int, order: _Order, roster: Roster) -> bool:
    """A hand-over said without a sure correction follows the order itself,
    or only correction words: not "…. On weekends, Kofi can do it instead",
    "…. If you can't, no problem, Kofi can…", "…with Imani. Imani's busy,
    ask Tariq instead" (the words between may limit or explain it)."""
    start, end = _part_before(toks, at)
    between = toks[start:end]
    if start <= verb < end:
        return True
    return not (_names(between, roster) & order.others) and all(t.low in _WORDS for t in between)


def _conditioned(toks: Sequence[Tok], at: int) -> bool:
    """The part before `at` (back to its break) is a condition: "If not,
    Kofi can do it instead"."""
    start, end = _part_before(toks, at)
    return any(t.low in _CONDITIONS for t in toks[start:end])


def _part_before(toks: Sequence[Tok], at: int) -> tuple[int, int]:
    """The words of the part before `at`: back over its break, then to the one before."""
    end = at
    while end > 0 and toks[end - 1].low in lx.PUNCT:
        end -= 1
    start = end
    while start > 0 and toks[start - 1].low not in lx.PUNCT:
        start -= 1
    return start, end


def _markers_before(toks: Sequence[Tok], at: int, verb: int) -> int:
    """Where the hand-over starts with the correction words right before it
    ("…the well sorry, I mean Kofi": from "sorry")."""
    k = at
    while k - 1 > verb and (toks[k - 1].low in ",:" or toks[k - 1].low in _WORDS):
        k -= 1  # not over a full stop: "…a card that says sorry. Actually, Kofi…"
        at = k if toks[k].low not in lx.PUNCT else at
    return at


def _handover(
    part: Sequence[Tok],
    roster: Roster,
    order: _Order,
    broken: frozenset[int] | None = None,
    *,
    shout: bool = False,
    asked: bool = False,
) -> _Found | None:
    """The agent `part` hands the order to, if it says nothing else
    (`broken`: where its breaks are, None: not known yet; `shout`: it ends
    in "!", so a bare name may be a call; `asked`: in "?", so only "Kofi,
    can you do it?")."""
    i, sure, soft = 0, False, False
    while i < len(part):
        marker = lx.phrase_at(part, i, _SURE) or lx.phrase_at(part, i, _SOFT)
        if marker is not None:
            # "Oh no, Kofi!", "No no, Kofi!": a call, not a correction.
            called = marker == ("no",) and (
                _word(part, i + 1) == "no" or _word(part, i - 1) in ("no", "oh")
            )
            sure = sure or (marker in _SURE and not called)
            soft, i = True, i + len(marker)
        elif excuse := _excuse(part, i, roster, order):
            sure, i = True, i + excuse
        elif _word(part, i) == "not" and _own(_name(part, i + 1, roster, bare=True), order):
            sure, i = True, i + 2  # "not Zuri, Kofi"
        else:
            break
    body = _body(part, i, roster)
    if body is None:
        return None
    res, end, strength = body
    instead = False
    while end < len(part) and (trailer := lx.phrase_at(part, end, _TRAILERS)) is not None:
        instead = instead or trailer == ("instead",)
        end += len(trailer)
    if end != len(part) or res.agent in order.others:
        return None  # "Zuri, help Kofi. No, ask Kofi." (the helped one does it?)
    if strength == "bare" and order.others:
        return None  # "Zuri, help Kofi. No, Tariq": which name is corrected?
    if strength == "bare" and broken is not None and i not in broken and _word(part, i - 1) == "no":
        return None  # "…guard the barn, no Tariq" (allowed?), not "no, Tariq"
    if strength == "bare" and shout:
        return None  # "No, Kofi!" calls Kofi
    if asked and strength != "asked":
        return None  # "No, Kofi?"
    plain = strength in ("says", "asked")
    enough = sure or instead or (plain and (soft or order.agent is None))
    return _Found(res, sure, enough, strength)


def _body(part: Sequence[Tok], i: int, roster: Roster) -> tuple[Resolution, int, str] | None:
    """(the agent, where the hand-over ends, how plainly it hands over:
    "says" (Kofi will / you do it), "asks" (ask Kofi) or "bare" (the name))."""
    low = _word(part, i)
    if low in _HAND and (res := _name(part, i + 1, roster)) is not None:  # "ask Kofi (to do it)"
        j = i + 2 + (_word(part, i + 2) == "to")
        return (
            res,
            j + len(lx.phrase_at(part, j, _DO_IT) or ()),
            "tells" if low == "tell" else "asks",
        )
    if low == "you" and (do := lx.phrase_at(part, i + 1, _DO_IT)) is not None:
        res = _name(part, i + 1 + len(do), roster)  # "you do it, Kofi"
        return None if res is None else (res, i + 2 + len(do), "says")
    if low.endswith("'ll") and (res := _name_text(part[i].text[:-3], roster)) is not None:
        return res, i + 1 + len(lx.phrase_at(part, i + 1, _DO_IT) or ()), "says"  # "Kofi'll"
    res = _name(part, i, roster)
    if res is None:
        return None
    j = i + 1
    if _word(part, j) == "you" and (do := lx.phrase_at(part, j + 1, _DO_IT)):
        return res, j + 1 + len(do), "says"  # "Kofi, you do it"
    if _word(part, j) in _ASKING and _word(part, j + 1) == "you":
        do = lx.phrase_at(part, j + 2, _DO_IT)  # "Tariq, can you do it (instead)?"
        return None if do is None else (res, j + 2 + len(do), "asked")
    unbroken = j < len(part) and part[j].start - part[i].end <= 1  # no comma between
    if unbroken and (do := lx.phrase_at(part, j, _DO_IT)) is not None:
        return res, j + len(do), "says"  # typed without a comma: "no zuri do it"
    if _word(part, j) in _MODALS:  # "Kofi can (do it)"
        return res, j + 1 + len(lx.phrase_at(part, j + 1, _DO_IT) or ()), "says"
    sure_name = res.method in ("exact", "fuzzy")  # "no coffee", "I mean coffee" may be words
    return (res, j, "bare") if sure_name else None


def _excuse(part: Sequence[Tok], i: int, roster: Roster, order: _Order) -> int:
    """The length of "Zuri can't", "Zuri is busy", "Zuri's away" at `i`, of
    the order's own agent (0: none)."""
    if i >= len(part):
        return 0
    word = part[i].text
    if _unpossessed(word) != word and _word(part, i + 1) in _EXCUSED:
        return 2 if _own(_name_text(_unpossessed(word), roster), order) else 0
    if not _own(_name(part, i, roster, bare=True), order):
        return 0
    excuse = lx.phrase_at(part, i + 1, _EXCUSES)
    return 0 if excuse is None else 1 + len(excuse)


def _own(res: Resolution | None, order: _Order) -> bool:
    """The name is the order's agent (or, with none named, no one it mentions)."""
    if res is None:
        return False
    return res.agent == order.agent if order.agent else res.agent not in order.others


def _word(part: Sequence[Tok], i: int) -> str:
    return part[i].low if 0 <= i < len(part) else ""


def _name(part: Sequence[Tok], i: int, roster: Roster, *, bare: bool = False) -> Resolution | None:
    """A roster name as the one word at `i` (`bare`: exactly, or nearly, heard)."""
    if i >= len(part):
        return None
    res = resolve_span(part[i : i + 1], roster)
    if res is None or (bare and res.method not in ("exact", "fuzzy")):
        return None
    return res


def _name_text(text: str, roster: Roster) -> Resolution | None:
    return resolve_span(lx.tokenize(text), roster) if text else None
