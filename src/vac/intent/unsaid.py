"""Orders said not to be given: a request negated before it, or taken back after.

Negated: a negation before a frame word ("ask", "tell", "have", "let",
"get", "make", "want", "need", "asking"…) and the one asked ("Don't ask
Kofi to fix the gate", "I don't want Zuri to check the hives", "no need for
Kofi to…", "Kofi, no need for you to…"), or "not / never" before the verb
("Tell Kofi not to fix the gate", "…to not fix…"). Not when the negation is
in a condition ("if Zuri won't ask Kofi to…"), when only a detail is
negated ("…today, tomorrow is fine", "…alone", "…without gloves": the order
is meant), or when a later part asks for it ("…; please do", "…, can you?").

Taken back: "…, never mind", "…, scratch that", "…, forget it", "…, actually
don't." right after an order's part (a break before, or the very end), then
nothing, a part saying it is done ("…, never mind, Zuri did it"), or a new
order ("…, never mind, fix the fence instead"). Only that part's order is taken back ("Kofi,
fix the gate. Zuri, check the hives, never mind." is Kofi's). Not after a
condition ("If not, never mind", "if you're busy, forget it"), after a
part without our verb ("The fence, never mind", "…, and call me when
you're done, actually never mind"), before a thing or a time ("…, never
mind, the gate": a correction, `instead.py`; "…, never mind, tomorrow"), or
when the order is said again ("…, never mind, no, do it", "…, fix it").

Both give the verbs (by their tokens' start offsets) the parser must not
read as the order; `order_start` says where to read a later order that names
its own agent ("don't ask Kofi to fix the gate, ask Zuri to fix it")."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Final

from vac.intent import lexicon as lx
from vac.intent.address import address_of
from vac.intent.calendar_words import WEEKDAYS
from vac.intent.done_said import done_at
from vac.intent.instead import past_said, thing_said
from vac.intent.lexicon import Tok
from vac.intent.parts import lead_start, only, part_end, part_start
from vac.intent.roster import Roster, resolve_agent

_NEGATIONS: Final = lx.phrases(
    [
        "don't",
        "do not",
        "didn't",
        "didnt",
        "did not",
        "never",
        "wouldn't",
        "would not",
        "won't",
        "wont",
        "will not",
        "shouldn't",
        "should not",
        "mustn't",
        "must not",
        "let's not",
        "let us not",
        "no need",
        "no need to",
        "not necessary",
        "not necessary to",
        "not",
    ]
)
_FRAMES: Final = frozenset(
    lx.words(
        "ask tell have let get make want need needs expect remind send for asking telling "
        "having letting getting making wanting needing expecting reminding sending"
    )
)
# Between a negation and its frame: "don't even ask…", "you don't need to
# ask…", "don't bother asking…" (not "don't just ask…", which asks for more).
_BETWEEN: Final = frozenset(lx.words("even ever really go and need needs have has to bother"))
_BETWEEN_MAX: Final = 3
# Between the one asked and the verb: "ask Kofi to go fix…", "…to please fix…".
_ON_THE_WAY: Final = frozenset(lx.words("to too go come please also try even"))
_ON_THE_WAY_MAX: Final = 4
_SOMEONE: Final = lx.PRONOUNS | frozenset(lx.words("you anyone anybody someone somebody"))
_CONDITIONS: Final = frozenset(lx.words("if unless when whether once otherwise"))
_IF: Final = frozenset(lx.words("if unless otherwise"))
# Negated with these after the verb, only a detail is ("…the gate alone"):
# the order is meant. Not a time: drafted, it would say the time not meant
# ("don't ask Kofi to fix the gate today" is no order for today).
_DETAILS: Final = frozenset(
    lx.words(
        "alone without whole entire perfectly properly too again first himself herself "
        "themselves yourself quickly hurry just only during while unless because"
    )
)
# A later part with one of these (and no verb of ours) asks for the order.
_ASKING: Final = frozenset(lx.words("do can could would will pass have ask tell get"))
# A part ends an order's words at these too.
_PART_ENDS: Final = frozenset(lx.words("but and instead rather"))

_TAKE_BACKS: Final = lx.phrases(
    [
        "never mind",
        "nevermind",
        "nvm",
        *("forget it", "forget that"),
        "forget about it",
        "forget about that",
        "forget i said anything",
        "forget i asked",
        "scratch that",
        "scrap that",
        "cancel that",
        "belay that",
        "disregard that",
        "ignore that",
        "i take it back",
        "don't bother",
        "don't worry about it",
        "don't do it",
        "don't do that",
        "do not do it",
        "don't",
        "or don't",
        "on second thought",
        "on second thoughts",
        "no",  # alone in its part: "…. Actually, no."; "…, no, the gate" is `instead`
    ]
)
# Before a take-back in its part: "…, oh wait, never mind", "…, but never mind".
_LEAD: Final = frozenset(lx.words("oh wait no actually um uh hmm well sorry ah but okay ok"))
# After it in its part: "…, never mind then", "…, forget it, Kofi".
_TRAIL: Final = frozenset(lx.words("then that actually thanks thank you please"))


def _did_it(said: list[str]) -> bool:
    """ "(already) did it (already)", "sorted it", "fixed that": the same deed
    done, not "did the gate" or "did a bad job" (a review)."""
    said = [w for w in said if w not in ("already", "just")]
    return bool(said) and said[0] in _DONE and (said[1:2] in ([], ["it"], ["that"], ["this"]))


_DOERS: Final = frozenset(lx.words("i i've he she they we someone somebody it's"))
_NEVER_MIND: Final = frozenset({("never", "mind"), ("nevermind",), ("nvm",), ("forget", "it")})
# A part after it that says the deed is done or taken care of.
_DONE: Final = frozenset(lx.words("did done already myself ourselves sorted handled fixed"))
# A part after it with a time is a new time, not a take-back ("…, never mind, tomorrow").
_TIMES: Final = frozenset(
    lx.words("today tonight tomorrow morning afternoon evening week weekend later soon now")
) | frozenset(WEEKDAYS)
_SENTENCE_ENDS: Final = frozenset(".!?;")
# Words of a reason it is not needed, and (negated) of a need denied.
_NO_NEED: Final = frozenset(
    lx.words("fine okay ok alright already done fixed sorted handled wait see home back covered")
)
_NEEDED: Final = frozenset(lx.words("broken needed necessary urgent important"))
_WILL: Final = tuple([w] for w in lx.words("will should can could 'll must"))
_HAND_TO: Final = tuple([w] for w in lx.words("ask tell have get let"))
_NOT: Final = frozenset(lx.words("not no never cannot isnt cant wont"))
_REASON_OPENERS: Final = frozenset(
    lx.words("it it's its we we'll we're i'm they they're that's there's")
)
_JOINING: Final = frozenset(lx.words("and so then to or but can we you i"))
_SPEAKER: Final = frozenset(lx.words("i i'll we we'll myself ourselves"))
_ASK_AGAIN: Final = frozenset(lx.words("please just then so"))  # "…, no, just do it"


def unsaid_verbs(toks: Sequence[Tok], roster: Roster, source: str = "") -> frozenset[int]:
    """The start offsets of verbs of ours that are not asked for."""
    verbs = [i for i in range(len(toks)) if lx.phrase_at(toks, i, lx.VERB_PHRASES) is not None]
    out: set[int] = set()
    for i in verbs:
        if _negated(toks, i, roster):
            end = i + 1
            while end < len(toks) and toks[end].low not in lx.PUNCT | _PART_ENDS:
                end += 1
            out |= {toks[j].start for j in verbs if i <= j < end}  # "…to help fix the gate"
    for start in _taken_back(toks, source, roster):
        order = _order_at(toks, start, source) or 0  # past "…, oh, never mind"
        out |= {toks[j].start for j in verbs if order <= j < start}
    return frozenset(out)


def order_said(
    toks: Sequence[Tok], unsaid: frozenset[int], roster: Roster, source: str
) -> list[Tok]:
    """The words to read the command from, when an order was not asked for
    and another follows: from that order, if it names its own agent ("don't
    ask Kofi to fix the gate, ask Zuri to…", "Kofi, fix the gate. Scratch
    that. Zuri, fix the gate."); else without the negated words, so that
    the one named there is never taken as the agent ("Kofi. Don't let Zuri
    help. Fix the gate." is Kofi's)."""
    if not unsaid:
        return list(toks)
    verbs = [i for i in range(len(toks)) if lx.phrase_at(toks, i, lx.VERB_PHRASES) is not None]
    first = min(i for i in verbs if toks[i].start in unsaid)
    later = [i for i in verbs if i > first and toks[i].start not in unsaid]
    if not later:
        return list(toks)
    start = part_start(toks, later[0], source)
    k = start
    while k < later[0] and toks[k].low in _ORDER_OPENERS:
        k += 1
    if k + 1 < later[0] and toks[k].low in lx.FRAME_WORDS and _named(toks[k + 1], roster):
        return list(toks[start:])  # "…, ask Zuri to fix the gate": the order names its agent
    before = part_start(toks, start - 1, source) if start else 0
    alone = [t for t in toks[before:start] if t.low not in lx.PUNCT | _ORDER_OPENERS]
    if len(alone) == 1 and _named(alone[0], roster):
        return list(toks[before:])  # "…. Scratch that. Zuri, fix the gate."
    if any(t.low in lx.PRONOUNS for t in toks[start : part_end(toks, later[0], source)]):
        return list(toks)  # "don't ask Kofi to fix the gate, ask him to check…": Kofi's
    cut: set[int] = set()
    for verb in (i for i in verbs if i < later[0] and toks[i].start in unsaid):
        at = _negation_at(toks, verb, roster)
        if at is not None and at >= 2 and _someone(toks[at - 1], roster):
            at -= 2 * (toks[at - 2].low in _FRAMES)  # "tell Kofi | not to check…"
        if at is not None:
            cut |= set(range(at, min(part_end(toks, verb, source), start)))
    heard = address_of(toks, roster).resolution
    negated = {res.agent for n in cut if (res := resolve_agent(toks[n].text, roster)) is not None}
    if heard is None and not cut:  # "Befriend Zuri, no, befriend Tariq": no one named as agent
        return list(toks[start:])
    if heard is None or heard.agent not in negated:  # however heard: "Don't let Zury help"
        return list(toks)  # "Kofi, don't let Zuri help, fix the gate": Kofi's, boundary kept
    return [t for n, t in enumerate(toks) if n not in cut]


def _agent(tok: Tok, roster: Roster) -> str | None:
    res = resolve_agent(tok.text.removesuffix("'s").removesuffix("’s"), roster)  # "Zuri's job"
    return res.agent if res is not None and res.method in ("exact", "fuzzy") else None


_ORDER_OPENERS: Final = frozenset(lx.words("so and then now please just okay ok but instead"))


def _negated(toks: Sequence[Tok], verb: int, roster: Roster) -> bool:
    """Whether the verb at `verb` is asked not to be done."""
    return _negation_at(toks, verb, roster) is not None


def _negation_at(toks: Sequence[Tok], verb: int, roster: Roster) -> int | None:
    """Where the negation of the verb at `verb` starts, if it is asked not
    to be done as a whole."""
    j = verb - 1
    at: int | None = None
    while j >= 0 and toks[j].low in _ON_THE_WAY and verb - j <= _ON_THE_WAY_MAX:
        if toks[j].low in ("to", "too") and j > 0 and toks[j - 1].low in ("not", "never"):
            at = j - 1  # "tell Kofi not to (go) fix the gate"
            break
        j -= 1
    if at is None and j > 0 and toks[j].low in ("not", "never") and toks[j - 1].low == "to":
        at = j  # "tell Kofi to not fix…"
    frame = j - 1
    if at is None and j >= 0 and frame >= 0 and toks[frame].low in _FRAMES:
        at = _negation_before(toks, frame) if _someone(toks[j], roster) else None
    return at if at is not None and _whole(toks, verb, at, roster) else None


def _whole(toks: Sequence[Tok], verb: int, negation: int, roster: Roster) -> bool:
    """Whether the whole order is negated at `negation`: not in a condition
    before it, no detail after the verb in its part, and no later part
    asking for it."""
    k = negation
    while k > 0 and toks[k - 1].low not in lx.PUNCT:
        k -= 1
        if toks[k].low in _CONDITIONS:
            return False  # "if Zuri won't ask Kofi to fix the gate"
    j = verb + 1
    while j < len(toks) and toks[j].low not in lx.PUNCT and toks[j].low not in _PART_ENDS:
        if toks[j].low in _DETAILS and [t.low for t in toks[j : j + 2]] != ["just", "yet"]:
            return False  # "don't let Kofi fix the gate alone"; "yet" is a time
        if [t.low for t in toks[j : j + 2]] in (["please", "do"], ["can", "you"]):
            return False  # "i didnt ask kofi to fix the gate please do"
        j += 1
    if j < len(toks) and toks[j].low in lx.PUNCT:
        rest = toks[j + 1 :]
        if rest and rest[0].low in ("just", "only"):
            return False  # "…the whole fence, just the gate"
        asking = any(t.low in _ASKING for t in rest)
        elsewhere = any(t.low in _SPEAKER or _named(t, roster) for t in rest)
        lows = [t.low for t in rest]  # "…, the council will do it": theirs (a probe: drafted)
        will = [p for p in _pairs(lows) if p[1] == "do" and p[0].endswith(("will", "'ll"))]
        elsewhere = elsewhere or ("you" not in lows and bool(will))  # not "…, please do it"
        if asking and not elsewhere and lx.find_first(rest, lx.VERB_PHRASES) is None:
            return False  # "I didn't ask Kofi to fix the gate; please do"; not "…. Ask Zuri."
    return True


def _pairs(lows: Sequence[str]) -> list[list[str]]:
    return [list(p) for p in itertools.pairwise(lows)]


def _someone(tok: Tok, roster: Roster) -> bool:
    """After a negated frame, anyone, a roster name however heard too ("do
    not let coffee fix the gate" is Kofi's order, not given)."""
    return tok.low in _SOMEONE or resolve_agent(tok.text, roster) is not None


def _named(tok: Tok, roster: Roster) -> bool:
    return _agent(tok, roster) is not None


def _negation_before(toks: Sequence[Tok], frame: int) -> int | None:
    """Where a negation ending right before the frame word starts, or one
    up to three words of `_BETWEEN` before it ("don't even ask…")."""
    for j in range(frame, max(frame - _BETWEEN_MAX, 0) - 1, -1):
        if j < frame and toks[j].low not in _BETWEEN:
            break
        for size in (4, 3, 2, 1):
            at = j - size
            said = lx.phrase_at(toks, at, _NEGATIONS) if at >= 0 else None
            if said is not None and at + len(said) == j:
                # "not" alone after "rather" / "better" ("I'd rather not
                # ask…"); not "why not ask…", "could we not have…": suggestions.
                plain = said != ("not",) or (at > 0 and toks[at - 1].low in ("rather", "better"))
                return at if plain else None
    return None


def _taken_back(toks: Sequence[Tok], source: str, roster: Roster) -> list[int]:
    """Where each part that takes back the order before it starts."""
    out: list[int] = []
    memo: dict[int, int] = {}
    for i in range(1, len(toks)):
        said = lx.phrase_at(toks, i, _TAKE_BACKS)
        if said is None:
            done = done_at(toks, i, source)
            if done is not None and _order_at(toks, done, source, memo) is not None:
                out.append(done)  # "…, but I did it myself"
            continue
        start = lead_start(toks, i, source, _LEAD)  # the part's start, only lead words before i
        if said == ("no",) and (start is None or not _said_no(toks, i, start, source)):
            continue
        # "kofi fix the fence nvm zuri did it already" (a typed probe: drafted)
        rest = toks[i + len(said) :]
        who = bool(rest) and (rest[0].low in _DOERS or roster.get(rest[0].text) is not None)
        done = said in _NEVER_MIND and who and _did_it([t.low for t in rest[1:5]])
        if start is None:
            if not done and not only(toks, i + len(said), len(toks), lx.PUNCT | _TRAIL):
                continue  # "fix the gate and don't bother the bees"
            if toks[i - 1].low in _JOINING:
                continue  # "fix the gate and forget about it"
            start = i  # no break before, at the very end: "Kofi fix the gate never mind"
        elif start == 0:
            continue  # "Never mind, Kofi, fix the gate": said before the order
        after = i + len(said) if done else part_end(toks, i, source)
        if not only(toks, i + len(said), after, _TRAIL):
            continue  # "never mind the cost", "don't bother Zuri"
        if said == ("don't",) and after < len(toks) and toks[after].low not in _SENTENCE_ENDS:
            continue  # "…, but don't, uh, rush", "…, don't, Zuri will"
        if _order_at(toks, start, source, memo) is not None and _rest_lets_it_go(
            toks, after, source, roster, strict=said == ("no",)
        ):
            out.append(start)
    return out


def _said_no(toks: Sequence[Tok], i: int, start: int, source: str) -> bool:
    """ "No" takes the order back only said apart ("…. Actually, no.", "…,
    no, I'll do it"), never when a thing or a remark follows ("…, no, the
    left side", "…, no, the goats got out": `instead` reads corrections)."""
    after = part_end(toks, i, source)
    while after < len(toks) and toks[after].low in lx.PUNCT:
        after += 1
    return (
        start > 0
        and "oh" not in (t.low for t in toks[max(i - 2, 0) : i])  # "…. Oh, no.": dismay
        and (after >= len(toks) or toks[after].low not in lx.DETERMINERS)
        and (after >= len(toks) or not _possessive(toks[after].low))  # "…, no, Zuri's bike"
    )


def _possessive(word: str) -> bool:
    return word.endswith("'s") and word not in _REASON_OPENERS | {"he's", "she's", "let's"}


def _order_at(
    toks: Sequence[Tok], start: int, source: str, memo: dict[int, int] | None = None
) -> int | None:
    """Where the part before `start` starts (past parts of lead words, of
    take-backs and of reasons alone) when it is an order: a verb of ours, and
    no condition first ("If not, never mind"). `memo`: where each walk back
    stopped, for one text ("no, " x500 walked back over all before each: 3 s)."""
    end = start - 1 if start and toks[start - 1].low in lx.PUNCT else start
    walked: list[int] = []
    while end > 0 and (memo is None or end not in memo):
        walked.append(end)
        begin = part_start(toks, end - 1, source)
        said = lx.phrase_at(toks, begin, _TAKE_BACKS)
        taken = said is not None and only(toks, begin + len(said), end, _TRAIL | lx.PUNCT)
        if not (only(toks, begin, end, _LEAD | lx.PUNCT) or taken or _reason(toks[begin:end])):
            break  # past "on second thoughts, don't", "oh wait, it's already fixed. Never mind."
        end = begin - 1 if begin and toks[begin - 1].low in lx.PUNCT else begin
    if memo is not None:
        end = memo.get(end, end)
        memo.update(dict.fromkeys(walked, end))
    if end <= 0:
        return None
    begin = part_start(toks, end - 1, source)
    part = toks[begin:end]
    if (part[:1] and part[0].low == "or") or any(t.low in _IF for t in part):
        return None  # "If not, never mind", "fix the gate if you're busy, forget it"
    return begin if lx.find_first(part, lx.VERB_PHRASES) is not None else None


def _rest_lets_it_go(
    toks: Sequence[Tok], after: int, source: str, roster: Roster, *, strict: bool = False
) -> bool:
    """After the take-back: nothing, a part saying it is done ("Zuri did
    it"), or a new order that does not say this one again ("…, fix it")."""
    k = after
    while k < len(toks) and toks[k].low in lx.PUNCT:
        k += 1
    if k >= len(toks):
        return True
    if thing_said(toks, k) is not None:
        return False  # "…, never mind, the gate": a correction
    end = part_end(toks, k, source)
    if end == k + 1 and _named(toks[k], roster):  # "…. Scratch that. Zuri, fix…"
        more = any(t.low not in lx.PUNCT for t in toks[end:])
        handed = "do it" in " ".join(t.low for t in toks[end:])  # "…. Never mind, Kofi, do it."
        return more and (handed or _rest_lets_it_go(toks, end, source, roster, strict=strict))
    part = toks[k:end]
    verb = lx.find_first(part, lx.VERB_PHRASES)
    if verb is not None:
        object_at = verb[0] + len(verb[1])
        # "…. No, ask Zuri to check the hives": framed, with its own thing.
        framed = part[0].low in lx.FRAME_WORDS and object_at < len(part)
        if strict and not (framed or only(part, 0, verb[0], _LEAD | _ASK_AGAIN)):
            return False  # "…, no, Zuri can help you": a remark; "No, get Kofi to help": more
        return object_at >= len(part) or part[object_at].low not in ("it", "that", "them")
    if any(t.low in _TIMES for t in part):
        return False  # "…, on second thought, tomorrow is fine"
    lows = [t.low for t in part]
    do = next((n for n, w in enumerate(lows) if lows[n : n + 2] == ["do", "it"]), None)
    mine = do is not None and any(w not in _LEAD | _ASK_AGAIN for w in lows[:do])  # "I'll do it"
    left = lows[:2] == ["leave", "it"] and all(w in _TRAIL for w in lows[2:])  # "…, no, leave it"
    if strict:  # after a bare "no" only what lets it go for sure
        return left or _let_go(toks, k, end, source, roster)
    if any(_named(t, roster) for t in part) or mine or left or _reason(part):
        return True  # "…. Forget it. I'll ask Zuri.", "…. Never mind. I'll do it.", "…, it's fine"
    return any(t.low in _DONE or past_said(t.low) for t in part)


def _let_go(toks: Sequence[Tok], k: int, end: int, source: str, roster: Roster) -> bool:
    """After a bare "no" (from `k`, its part ending at `end`), only what
    surely lets the order go: the speaker or another will do it ("No, I'll
    do it", "No, let me do it", "No, dad will do it"), a hand-over ("No, ask
    Kofi", "No, Kofi can't, ask Zuri"), or a remark that it is not needed
    ("No, it's fine"). Not "No, you do it", "No, really do it", "No, it can't
    wait", "No, Zuri fixed it badly", "No, Zuri is busy", "No, when it's done"."""
    part = toks[k:end]
    lows = [t.low for t in part]
    denied = _denies(lows) or "nobody" in lows
    do = next((n for n, w in enumerate(lows) if lows[n : n + 2] == ["do", "it"]), None)
    mine = do is not None and any(w in _SPEAKER | {"me"} for w in lows[:do])
    theirs = do is not None and lows[do - 1 : do] in _WILL and "you" not in lows[:do]
    if ((mine or theirs) and not denied) or _handed(part, roster) or _reason(part, strict=True):
        return True
    nxt = end
    while nxt < len(toks) and toks[nxt].low in lx.PUNCT and toks[nxt].low not in _SENTENCE_ENDS:
        nxt += 1
    return (
        nxt < len(toks) and nxt > end and _handed(toks[nxt : part_end(toks, nxt, source)], roster)
    )


def _denies(lows: Sequence[str]) -> bool:
    return any(w in _NOT or w.endswith("n't") for w in lows)


def _handed(part: Sequence[Tok], roster: Roster) -> bool:
    """The order handed to another: "ask Kofi (to do it)", "Zuri should",
    "let Imani", "have tarik do it"; not "Zuri is busy", "Zuri can't do it"."""
    lows = [t.low for t in part]
    if _denies(lows):
        return False
    return any(
        _named(t, roster) and (lows[n - 1 : n] in _HAND_TO or lows[n + 1 : n + 2] in _WILL)
        for n, t in enumerate(part)
    )


def _reason(part: Sequence[Tok], *, strict: bool = False) -> bool:
    """A remark after (or before) a take-back: "it's raining", "it's
    already fixed", "we'll be home". After a bare "no" (`strict`) only one
    that says it is not needed ("it's fine", "it can wait", "it isn't
    broken"), never one that insists ("No, it's urgent", "No, they're
    swarming"). No verb of ours, no time, nothing named after a determiner
    ("it's the gate" may correct)."""
    lows = [t.low for t in part]
    negated = _denies(lows)  # "it can't wait"
    return (
        bool(lows)
        and lows[0] in _REASON_OPENERS
        and not any(w in _TIMES or w in lx.DETERMINERS for w in lows)
        and lx.find_first(part, lx.VERB_PHRASES) is None
        and (
            not strict
            or (any(w in _NEEDED for w in lows) if negated else any(w in _NO_NEED for w in lows))
        )
    )
