"""A name wished to do the order: "It would be great if Zuri could check
the hives", "I think Kofi should rebuild the run", "Need Kofi to sort out
the drain", "if it's windy tomorrow, Tariq should secure the greenhouse".

Where the name stands before the verb, when the words around it ask for the
deed; never when they report, doubt or suppose it ("Zuri said Kofi would…",
"I doubt Kofi could…", "I'd be surprised if…", "even if…", "…, said Zuri",
"…, but he didn't"), nor for one of two names ("Kofi or Zuri could…").
"will", "can" and "might" predict rather than ask ("I think Kofi will fix
it"): no wish; after "I think" or a condition said first only "should" or
"must" asks ("when I was young, Kofi would…" tells a habit). Pure: tokens
in, an index out; `address` resolves the name.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence, Set
from typing import Final

from vac.intent.lexicon import PUNCT, Tok, words

# Between the name and the verb: "if Zuri could (please) check…".
_WISH_MODALS: Final = frozenset(
    words("could should would to must please kindly possibly just might")
)
_WISHING: Final = frozenset(
    words("""hoping hope reckon need want counting great love appreciate wish ideally prefer
    rather nice good helpful help lovely grateful perhaps maybe chance""")
)
# "I was wondering if Kofi could fix the gate", "do you think Kofi could…":
# a polite request, when the name is followed by "could", "would" or "can"
# (not "I wonder if Kofi fixed it", "do you think Kofi will…").
_WONDER: Final = frozenset(words("wonder wondering wondered"))
# "…if Imani might visit…" too (an eleventh typed probe: asked who).
_POLITE_MODALS: Final = frozenset(words("could would can might"))
# Only these ask after "I think" or a condition said first: "if it's windy
# tomorrow, Tariq should…"; "when I was young, Kofi would…" tells a habit.
_ASKING_MODALS: Final = frozenset(words("should must"))
# After the name (not boundaries: "…, but don't use nails" is still a wish).
_REPORTED_AFTER: Final = frozenset(words("said says asked told"))
# "…, but he can't": a pronoun and one of these after the name.
_NOT_DONE: Final = frozenset(words("didn't wouldn't couldn't can't cannot won't wasn't isn't fell"))
_PRONOUNS: Final = frozenset(words("he she they"))
_CONDITIONS: Final = frozenset(words("if when once after before whenever tomorrow tonight later"))
_REPORTING: Final = frozenset(
    words("""said says say told tell tells heard hear doubt know knew wonder wondered wondering
    guess remember forgot noticed saw see mentioned claims claimed promised asked asks why
    whether not never no don't doesn't didn't won't isn't wasn't wouldn't couldn't shouldn't
    can't cannot surprised hate hated even as unless had wanted used that""")
)


def polite_frame(toks: Sequence[Tok], i: int, k: int) -> bool:
    """Whether the words from `i` to the name at `k` only frame a polite ask
    ("do you think", "I was wondering if"): the clause drops them too, so
    "Do you think Kofi could fix the gate?" is no question about "fix…"."""
    lows = [t.low for t in toks[i:k]]
    return {*lows} <= _FRAME_WORDS and _wonders(lows, _POLITE_MODALS)


_FRAME_WORDS: Final = frozenset(
    words("do you think i was we were am i'm just wondering wonder wondered if whether ,")
)


def wished_subject(toks: Sequence[Tok], i: int, verb_at: int, lead_max: int) -> int | None:
    """The index of the word before the modal(s) before `verb_at`, when the
    words from `i` wish the deed done (see the module's docstring)."""
    k = verb_at - 1
    while k > i and toks[k].low in _WISH_MODALS | {"can"}:
        k -= 1
    if k in (verb_at - 1, i) or k - i > lead_max or toks[k - 1].low in ("or", "and"):
        return None
    lows = [t.low for t in toks[i:k]]
    after = [t.low for t in toks[k:]]
    modals = {t.low for t in toks[k + 1 : verb_at]}
    wonders = _wonders(lows, modals)
    if "can" in modals and not wonders:
        return None  # "I hope Kofi can fix it": a hope, told
    if (
        ({*lows} - (_WONDER | {"if", "whether"} if wonders else set())) & _REPORTING
        or {*after} & _REPORTED_AFTER
        or any(  # "…, but he fell ill"
            w in _PRONOUNS and nxt in _NOT_DONE for w, nxt in itertools.pairwise(after)
        )
    ):
        return None
    if "might" in modals and not wonders:
        return None  # "I hope Kofi might…", "maybe Kofi might…": a guess, told
    asks = bool(modals & _ASKING_MODALS)
    wished = wonders or any(
        w in _WISHING or (w == "think" and j > 0 and lows[j - 1] in ("i", "we") and asks)
        for j, w in enumerate(lows)
    )
    # "if" only as a condition said first ("if it's windy tomorrow, Tariq…",
    # "after the harvest, Kofi should…").
    condition = bool(lows) and lows[0] in _CONDITIONS and toks[k - 1].low == "," and asks
    return k if wished or condition else None


def _wonders(lows: Sequence[str], modals: Set[str]) -> bool:
    """ "I was wondering if / I wonder whether NAME could…", "do you think
    NAME could…": asking, politely."""
    return bool(modals & _POLITE_MODALS) and any(
        (w in _WONDER and nxt in ("if", "whether")) or (w, nxt) == ("you", "think")
        for w, nxt in itertools.pairwise(lows)
    )


def _at(toks: Sequence[Tok], k: int) -> str:
    return toks[k].low if 0 <= k < len(toks) else ""


# "It would really help if you could fix the gate", "that'd help a lot": a
# remark on the deed, whose verb comes after it.
_HELPS_IF: Final = frozenset(words("if when loads heaps so massively lot"))
_WOULD: Final = frozenset(words("would it'd that'd might could will it'll that'll really also"))


def remarks(clause: Sequence[Tok]) -> frozenset[int]:
    """Where a verb's word is a remark, not the deed: "help" on a deed said
    after it, "mind" that keeps nothing safe."""
    return frozenset(
        i
        for i, t in enumerate(clause)
        if (
            t.low in ("help", "helps")
            and _at(clause, i - 1) in _WOULD
            and _at(clause, i + 1 + (_at(clause, i + 1) == "a")) in _HELPS_IF
        )
        or mind_is_no_order(clause, i)
        or lock_is_no_order(clause, i)
        # "make sure it's first thing in the morning": when, not a Protect of "It's" (T25c)
        or (
            [t.low, _at(clause, i + 1)] == ["make", "sure"]
            and _at(clause, i + 2) in _IT_IS
            and _at(clause, i + 3) in _WHEN_DONE
        )
        or (t.low == "make" and _made(clause, i))
    )


_IT_IS: Final = frozenset(words("it's its they're"))
_WHEN_DONE: Final = frozenset(
    words("first early done finished ready sorted by before tonight today tomorrow soon quick")
)
# "I can't make sense of it, look into it" (an eleventh typed probe: a Build
# of "Sense of it"): idioms of "make", no thing to build.
_MAKE_IDIOMS: Final = frozenset(words("sense do fuss difference contact time room space"))
# "make contact with the plumber", "make an appointment" (T29: built "Contact with…").
_AFTER_IDIOM: Final = frozenset(
    words("for with to of about on in at and so please now today tomorrow tonight , . ! ? ;")
) | {""}
_MAKE_A_IDIOMS: Final = frozenset(
    words("fuss mess difference start note point call decision appointment booking reservation")
)


# "she would make a great teacher": becoming, not building (a spoken probe:
# a Build of "Great teacher").
_BECOMES: Final = frozenset(words("would might she'd he'd they'd you'd it'd"))
_PRAISE: Final = frozenset(words("great good fine wonderful lovely excellent brilliant perfect"))


def _made(clause: Sequence[Tok], i: int) -> bool:
    nxt = _at(clause, i + 1)
    if becoming(clause, i):
        return True
    a = nxt in ("a", "an")  # "make a call", not "make a call box" (a review)
    idiom = (nxt in _MAKE_IDIOMS and not a) or (a and _at(clause, i + 2) in _MAKE_A_IDIOMS)
    return idiom and _at(clause, i + 2 + a) in _AFTER_IDIOM


def becoming(clause: Sequence[Tok], i: int) -> bool:
    """Whether "make" at `i` says what someone would become ("would make a great teacher")."""
    made = _at(clause, i) == "make" and _at(clause, i - 1) in _BECOMES
    return made and _at(clause, i + 1) in ("a", "an") and _at(clause, i + 2) in _PRAISE


# What "mind" keeps safe: people in care and places looked after ("mind the
# kids", "mind my stall"). Anything else minded is a warning or an idiom:
# "mind the step", "mind the dog when you go in", "mind the budget", "bear
# in mind the gate is rotten" (a review found each read as Protect).
_MINDED: Final = frozenset(
    words("""kids children child baby babies twins toddler toddlers little ones boys girls
    grandkids house home shop stall store fort place farm flat""")
)
_NOT_MINDING: Final = frozenset(words("never don't dont not you i we in no wouldn't won't"))


def mind_is_no_order(clause: Sequence[Tok], j: int) -> bool:
    """Whether "mind" at `j` is no order to keep something safe: "never mind
    the gate", "don't mind the mess", "do you mind the noise", "mind the step"
    (an eleventh typed probe, 2026-12-07: "mind the kids" is Protect)."""
    if clause[j].low != "mind":
        return False
    minded = _at(clause, j + 2) in _MINDED or _at(clause, j + 3) in _MINDED  # "the little ones"
    return _at(clause, j - 1) in _NOT_MINDING or not minded


# "Lock" orders only where a deed starts: "lock the back door", "Kofi, lock
# all the sheds" (a typed probe: no verb). "The lock the landlord fitted",
# "a bike lock", "I lock my door" are none.
_LOCK_LEADS: Final = frozenset(
    words("please and then just to can could would will should must also kindly")
)


def lock_is_no_order(clause: Sequence[Tok], j: int) -> bool:
    """Whether "lock" at `j` is no order to lock something up."""
    if clause[j].low != "lock" or _at(clause, j + 1) == "up":  # "lock up" is one cue
        return False
    before = _at(clause, j - 1)
    if before == "you" and _at(clause, j - 2) in _LOCK_LEADS:  # "can you lock the shed"
        return False
    named = clause[j - 1].text[:1].isupper() and before not in ("i", "i'll", "i'd", "i'm")
    return not (j == 0 or before in _LOCK_LEADS or before in PUNCT or named)
