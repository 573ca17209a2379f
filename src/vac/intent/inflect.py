"""Word forms and the boundary and privacy phrasings that need them.

`base_form` turns the first word of a boundary into its plain form
("without lying" → "Do not lie"). The phrase lists are read by `lexicon`
(`FORBID_MARKERS`, `PRIVACY_CUES`); `parser` words a boundary said with an
`AS_SAID_MARKERS` phrase as it was said ("Stay off the roof").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Final


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


# Boundaries said as "make sure not to lie": "Do not lie".
NOT_TO_MARKERS: Final = (
    "make sure not to",
    "make sure you don't",
    "be sure not to",
    "try not to",
    "be careful not to",
    "careful not to",
    "take care not to",
    "under no circumstances",
    "on no account",
    "you are not to",
    "you're not to",
    "you mustn't",
    "you must not",
    # A sixth typed probe (2026-12-06): dropped without a word.
    "you're not allowed to",
    "you are not allowed to",
)
# "…, but not in the rain", "…, but not the cellar": written "Not in the rain".
BUT_NOT: Final = "but not"
# After "but not", these say a time (asked about by the deadline's rules:
# "but not today"), not a ban.
NOT_A_BAN_AFTER_BUT_NOT: Final = frozenset(
    _words("today tonight tomorrow now yet before until till after on by this next")
)
# "…, nobody in the deep end", "…, but nothing with nuts".
NOBODY_MARKERS: Final = (
    *("nobody in", "no one in", "nobody on", "no one on", "nobody near", "no one near"),
    *("nothing with", "nothing higher than", "nothing taller than", "nothing bigger than"),
    *("nothing over", "nothing containing"),
)
# Boundaries said as a place to keep out of: written as said ("Stay off the roof").
AS_SAID_MARKERS: Final = (
    "stay off",
    "keep off",
    "stay away from",
    "keep away from",
    "stay out of",
    "keep out of",
    # A fourth typed probe (2026-12-06): each dropped without a word.
    "keep it away from",
    "keep them away from",
    "keep it out of",
    "keep them out of",
    # A session's closing note (2026-12-06): dropped without a word.
    "hands off",
    "keep your hands off",
    "steer clear of",
    "keep clear of",
    "stay clear of",
    # A fourteenth typed probe (the twenty-first session): dropped without a word.
    *("keep well away from", "stay well away from", "keep well clear of", "stay well clear of"),
    # A ninth typed probe (2026-12-06): "repair the fence in the shed", the limit dropped.
    "only use",
    # A tenth typed probe (2026-12-07): dropped without a word. Only said as a
    # part of their own (`NOBODY_MARKERS`): "there's nobody in the house" is news.
    *NOBODY_MARKERS,
    # An eleventh typed probe (2026-12-07): "…, but keep the noise down" was dropped.
    # The marker is said with its body ("down", "to a minimum").
    *("keep the noise", "keep noise", "keep the racket", "keep the volume"),
)
# "no climbing": "no" and a deed is a boundary ("Do not climb"), but not
# "no rush", "no one", "no morning light": its word must be a deed (`a_deed`).
NO_DEED: Final = "no"
# "leave the hens alone": written as said, up to "alone" (`alone_at`).
LEAVE_ALONE: Final = "leave"
_LEAVE_ALONE_MAX_WORDS: Final = 6
# Words in "-ing" that name a thing, not a deed.
_ING_THINGS: Final = frozenset(
    _words(
        "morning evening thing things nothing something anything everything ceiling spring "
        "string ring king wing sibling pudding wedding meeting clothing bedding railing "
        "railings duckling ducklings seedling seedlings darling evening icing lightning "
        "stuffing frosting filling ending beginning feeling warning offspring kidding "
        "telling knowing saying doubting denying"
    )
)
# Boundaries written as said: "Stay off the roof", "Leave the hens alone".
WRITTEN_AS_SAID: Final = (*AS_SAID_MARKERS, LEAVE_ALONE)
# The boundary markers besides "without", "do not", "don't", "never", "avoid".
BOUNDARY_MARKERS: Final = (*NOT_TO_MARKERS, *AS_SAID_MARKERS, NO_DEED, LEAVE_ALONE, BUT_NOT)
# A verb's own particle, said after its object: "check it out", "fix it up".
VERB_PARTICLES: Final = frozenset(_words("out up over off down"))
# "Keep it quiet": discreet.
KEEP_IT_QUIET: Final = (
    "keep it secret",
    "keep it quiet",
    "keep it between us",
    "keep this quiet",
    "keep this secret",
    "keep this between us",
)


# -ing → base form for the first word of a boundary ("lying" → "lie").
_ING_IRREGULAR: Final[Mapping[str, str]] = {
    "lying": "lie",
    "dying": "die",
    "tying": "tie",
    "using": "use",
    "being": "be",
    "doing": "do",
    "going": "go",
    "seeing": "see",
}
_ING_NEEDS_E: Final[frozenset[str]] = frozenset(
    _words(
        "make take use wake leave move chase scare waste share trade hide ride drive invade "
        "ignore raise cause tease change damage deceive come give have lose bite "
        "provoke pressure force forge fake close remove arrive"
    )
)
_DOUBLE_KEEP: Final[frozenset[str]] = frozenset({"ll", "ss", "zz", "ff", "ee", "oo"})


def base_form(word: str) -> str:
    if word in _ING_IRREGULAR:
        return _ING_IRREGULAR[word]
    if not word.endswith("ing") or len(word) <= 5:
        return word
    stem = word[:-3]
    if stem + "e" in _ING_NEEDS_E:
        return stem + "e"
    if len(stem) >= 3 and stem[-1] == stem[-2] and stem[-2:] not in _DOUBLE_KEEP:
        return stem[:-1]  # stepping → step, running → run
    return stem + "e" if _LOST_E.search(stem) and stem not in _KEEP_AS_IS else stem


# Stems that lost an "e" before "-ing". One syllable ending in one vowel and
# a consonant ("smok", "div", "skat": a short vowel would have doubled it,
# "stepping"); a "c", "v" or "u" ending, or a "z" not after "t" or "z"
# ("fenc", "argu", "freez"; not "buzz", "waltz"); a consonant and "l"
# ("handl"); "rg", "dg", "lg" ("charg", "judg"); two vowels and "s"
# ("releas"); "-ore" verbs ("explor", "restor", "ignor"); a longer word in
# "-ate", "-ide", "-ude", "-ode", "-age", "-ape", "-ize", "-ise", "-ure",
# "-yse", "-ose" ("exaggerat", "decid", "explod", "engag", "escap").
# Not "visit", "open", "enter", "listen", "anchor", "combat", "offer".
_LOST_E: Final = re.compile(
    r"^[^aeiouy]*[aeiouy][^aeiouwxy]$|[cvu]$|[^tz]z$|[bcdfgkptz]l$|[rdl]g$|[aeiou][aeiou]s$"
    r"|(?:pl|st|gn|sc|sn|ad)or$|uid$|[^aeiou](?:at|id|ud|od|ag|ap|iz|is|ur|ys|os)$|^creat$"
)
_KEEP_AS_IS: Final = frozenset(_words("combat"))


# "no" and "leave" start a boundary only where an order starts: first, or
# after these ("…, no climbing", "and leave the hens alone"). Not "there's
# no heating", "the fox won't ever leave them alone", "the kids say no
# running water": a statement. Unpunctuated speech ("…by Friday no
# climbing") loses the boundary: the read-back then has no "won't climb" for
# the steward to confirm, while one invented from a statement would bind
# the agent to what was never asked.
_ORDER_STARTS: Final = frozenset(_words(", . ; : ! ? - – and but so please just then also"))
# After the deed: the end, its object or a place or a time ("no climbing the
# ladder", "no lying to visitors", "no working past midnight"); not a bare
# noun, which makes the deed a thing's name ("no running water", "the no
# smoking sign").
_AFTER_DEED: Final = frozenset(
    _words(
        ", . ; : ! ? - – and or but the a an my your his her their our this that these those "
        "any it them him anyone anything anybody someone something everyone everything on in "
        "at near around by with without till until before after past up down over under onto "
        "into across through to from off out of indoors outdoors inside outside tonight today "
        "whatsoever again anymore here there while whilst when"
    )
)


def may_start_boundary(words: Sequence[str], i: int) -> bool:
    """Whether "no" / "leave" at `i` starts a boundary (see `_ORDER_STARTS`);
    "no" also needs a deed in "-ing" with nothing but a place or a time after it."""
    if i > 0 and words[i - 1] not in _ORDER_STARTS:
        return False
    if words[i] != NO_DEED:
        return True
    deed = words[i + 1] if i + 1 < len(words) else ""
    after = words[i + 2] if i + 2 < len(words) else "."
    if after in ("while", "whilst", "when") and deed in _WANTING:
        return False  # "…, no heating when it's cold": the trouble (a review)
    return a_deed(deed) and after in _AFTER_DEED


# "you not (to)" is a boundary only when asked: right after a modal ("could
# you not touch the wiring", or a question's "did you not…", which leaves no
# deed), or after the speaker's own ask ("I told / I'd rather you not…") with
# no negation before it. Not "nobody told you not to use the drill", "I
# didn't ask you not to…", "silly for you not to…", "thank you not now".
_YOU_NOT_AFTER: Final = frozenset(_words("could can would will did do does have are were"))
_YOU_NOT_ASKS: Final = frozenset(
    _words("told tell asked ask asking telling want need rather prefer like warned begged")
)
_YOU_NOT_ASKERS: Final = frozenset(_words("i we i'd we'd i've we've i'm we're"))
_NEGATIONS: Final = frozenset(_words("not never no nobody who why"))


def asked_you_not(words: Sequence[str], i: int) -> bool:
    """Whether "you not" at `i` says what the speaker asks not to be done."""
    before = words[i - 1] if i > 0 else ""
    if before in _YOU_NOT_AFTER:
        return True
    if before not in _YOU_NOT_ASKS:
        return False
    start = i - 1
    while start > 0 and words[start - 1] not in ".,;:!?":
        start -= 1
    said = words[start : i - 1]  # up to the ask, within its part
    if any(w in _NEGATIONS or w.endswith(("n't", "n’t")) for w in said):
        return False
    return any(w in _YOU_NOT_ASKERS for w in said[-3:])  # "I'd really rather you not…"


# Said after "no", these are no thing forbidden: "no rush", "no problem",
# "no later than Friday", "no one else", "no need to…".
_NOT_FORBIDDEN: Final = frozenset(
    _words(
        "rush hurry pressure need needs problem problems prob probs worries worry big deal one "
        "longer more less way idea matter doubt thanks thank later sooner earlier time point "
        "reason bother fuss stress panic hassle biggie chance harm offence offense sweat "
        "questions kidding excuses exceptions mercy arguments buts ifs deadline deadlines due "
        "limit urgency"
    )
)
_NO_THING_WORDS_MAX: Final = 6
# First after "no", these take the order back or say another thing: "no
# wait, the gate", "no, the kids", "no I mean…".
_NOT_A_BAN_START: Final = _NOT_FORBIDDEN | frozenset(
    _words("wait sorry actually i you we it that the a an my not don't sir thanks")
)
# What a house goes without when something is broken: "fix the tap, no
# running water", "no power", "no heating" tell the trouble, not a ban.
_NO_IDIOMS: Final = frozenset(_words("wonder surprise doubt idea problem"))
_CLAUSE_NEXT: Final = frozenset(_words("it there that he she they we i you the why how what"))
_WANTING: Final = frozenset(
    _words("water power heat heating light lights electricity signal internet wifi gas reception")
)


def no_thing_end(words: Sequence[str], i: int) -> int | None:
    """Where "no <things>" ends when "no" at `i` forbids them, said as its own
    part after the order ("…, no power tools", "…, no sweets before dinner",
    "…, no visitors"); None otherwise ("there's no heating", "no rush")."""
    if i == 0 or words[i - 1] not in (",", "but", "and", "so", "just", "-", "–", ".", "!"):
        return None  # (after a full stop too: "Kofi, fix the roof. No power tools.")
    k = i + 1
    if k >= len(words) or not words[k].isalpha() or words[k] in _NOT_A_BAN_START | {"no", "not"}:
        return None  # "No no, Kofi!": a no said twice
    while k < len(words) and words[k] not in _ORDER_STARTS - {"and"}:
        k += 1
    said = words[i + 1 : k]
    if not said:
        return None  # "…, no please": nothing banned (it raised IndexError)
    if said[0] in _NO_IDIOMS and (len(said) == 1 or said[1] in _CLAUSE_NEXT):
        return None  # "…, no wonder it broke", "no surprise there" (not "no surprise visits")
    if said[0].endswith("ing"):
        return None  # a deed: "no climbing" is read as one (`may_start_boundary`)
    if k - i > _NO_THING_WORDS_MAX or {*said} & _NOT_FORBIDDEN or said[-1] in _WANTING:
        return None  # "no huge rush"; "no running water" tells what is wrong
    if words[i - 1] in (".", "!") and not _things_last(words, said, k):
        return None  # "…. No joke.", "…. No wonder the dog got out." (a review)
    return k


def _things_last(words: Sequence[str], said: Sequence[str], k: int) -> bool:
    """ "No" and things said as the last sentence ("…. No power tools."):
    a plural, at most three words, nothing after but punctuation."""
    plural = said[-1].endswith("s") and not said[-1].endswith("ss")
    return plural and len(said) <= 3 and all(w in (".", "!") for w in words[k:])


def a_deed(word: str) -> bool:
    """Whether a word in "-ing" is a deed ("climbing"), not a thing ("morning")."""
    if word in _ING_IRREGULAR:
        return True
    return word.endswith("ing") and len(word) > 5 and word not in _ING_THINGS


def alone_at(words: Sequence[str], body: int) -> int | None:
    """After "leave" at `body - 1`, the index of the "alone" that ends "leave
    <someone> alone" (at most six words on, no punctuation); else None."""
    for k in range(body + 1, min(body + 1 + _LEAVE_ALONE_MAX_WORDS, len(words))):
        if words[k] == "alone":
            return k
        if not words[k][:1].isalnum():
            return None
    return None
