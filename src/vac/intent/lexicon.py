"""Word tables and token helpers shared by the parser and the negotiation.

Everything is matched on lower-cased word tokens, with multi-word cues as
token tuples, so "look into" and "make friends with" are cues while "make"
inside "make friends with" is not (the longest cue at a position wins)."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from typing import Final, cast

from vac.intent import inflect, manner_cues
from vac.intent.inflect import KEEP_IT_QUIET
from vac.intent.inflect import base_form as base_form
from vac.intent.time_slips import time_slips
from vac.intent.tokens import ISO_DATE_RE as ISO_DATE_RE
from vac.intent.tokens import PUNCT as PUNCT
from vac.intent.tokens import SLASH_DATE_RE as SLASH_DATE_RE
from vac.intent.tokens import Tok as Tok
from vac.intent.tokens import raw_tokens
from vac.intent.verb_cues import DONE_FORMS, PHRASAL_VERB_CUES, SLOT_VERB_CUES, VERB_CUES
from vac.intent.word_search import without_searching
from vac.protocol.objective import Autonomy, TargetKind, Verb


def words(text: str) -> tuple[str, ...]:
    """A word table written as one string, split on whitespace."""
    return tuple(text.split())


def tokenize(text: str) -> list[Tok]:
    return fluent(without_searching(time_slips(raw_tokens(text))))


_CARRY_ON: Final = frozenset({"to", "of", "for", "with", "on", "at", "in", "about", "by", "from"})
_SUBJECTS: Final = frozenset({"i", "we", "he", "she", "they"})


# Hesitations and repeats the recogniser writes down: "fix the, uh, the gate".
_HESITATIONS: Final = frozenset({"uh", "um", "er", "erm", "uhm", "hmm"})
# A small word or a verb said twice is said once ("the the gate", "report on
# on…", "fix fix the gate": a spoken-style probe); other words said twice are
# meant so ("chop chop", "Bora Bora", "two two": a review).
_REPEATABLE: Final = frozenset(
    {"the", "a", "an", "my", "our", "your", "this", "to", "on", "of", "for", "with", "at", "in"}
)


def fluent(toks: Sequence[Tok]) -> list[Tok]:
    """Tokens without hesitations ("the gate, um, by Friday" keeps one comma)
    and without a small word said twice ("the, the gate"); offsets still
    point into the source, so every span read from it stays right. Inside a
    phrase the commas around a hesitation go too ("map the, uh, garden")."""
    out: list[Tok] = []
    hesitated = pending = False
    for j, tok in enumerate(toks):
        # Written "um" or "Um"; "UM" and "ER" are names ("visit UM", "the ER").
        if tok.low in _HESITATIONS and not tok.text.isupper():
            hesitated = bool(out) and out[-1].low == ","  # a pause stays one comma
            continue
        if hesitated and tok.low == ",":
            hesitated = False
            pending = len(out) > 1  # the comma before the hesitation may go: see the next word
            continue
        nxt = toks[j + 1].low if j + 1 < len(toks) else ""
        if pending and _joins(out[-2].low, tok, nxt):
            out.pop()
        hesitated = pending = False
        again = tok.low in _REPEATABLE or tok.low in VERB_FIRSTS
        named = tok.text.istitle() and nxt == ","  # …and a name before its comma
        if (again or named) and out and out[-1].low == tok.low:
            continue  # "the the gate", "fix fix the gate", "Zuri Zuri, explore…"
        if tok.low in _REPEATABLE and len(out) > 1 and [t.low for t in out[-2:]] == [tok.low, nxt]:
            del out[-2:]  # "in the (uh) in the spare room": said once (a probe dropped the place)
        stop = "." if tok.low in _REPEATABLE and out and out[-1].low == "." else ","  # "the. The"
        if again and len(out) > 1 and [t.low for t in out[-2:]] == [tok.low, stop]:
            out.pop()  # "the, the gate", "help, help Grandma" (not "…Grandma, Grandma is…")
            continue
        out.append(tok)
    return out


def _joins(before: str, tok: Tok, after: str) -> bool:
    """Whether a hesitation between `before` and `tok` sits inside one
    phrase: "the, uh, garden", "ask, um, Kofi", "fix, uh, the gate", "visit,
    um, Grandma"; not a restart ("the, um, fix the gate", "help, um, Zuri,
    map…": a name set apart by a comma after it)."""
    if before in FRAME_WORDS:
        return True
    if tok.text[:1].isupper() and after == ",":
        return False
    if before in DETERMINERS or before in _CARRY_ON:
        return tok.low not in VERB_FIRSTS
    if before in _SUBJECTS:  # "while I, uh, have a shower" (a ninth typed probe: dropped)
        return tok.text[:1].islower() and tok.low not in PUNCT
    return before in VERB_FIRSTS and (tok.low in DETERMINERS or tok.text[:1].isupper())


Phrase = tuple[str, ...]


def phrases(words: Iterable[str]) -> tuple[Phrase, ...]:
    """Cue strings to token tuples, longest first (so the longest wins)."""
    return tuple(sorted((tuple(w.split()) for w in words), key=len, reverse=True))


def match_at(toks: Sequence[Tok], i: int, phrase: Phrase) -> bool:
    if i + len(phrase) > len(toks):
        return False
    return all(toks[i + k].low == word for k, word in enumerate(phrase))


def phrase_at(toks: Sequence[Tok], i: int, table: Iterable[Phrase]) -> Phrase | None:
    """The first (longest, given `phrases()` order) cue starting at `i`."""
    index = by_first_word(table) if isinstance(table, tuple) and i < len(toks) else None
    if index is None:
        return next((p for p in table if match_at(toks, i, p)), None)
    # Only the cues that start with the word at `i`, in the table's order: a
    # scan of every cue at every word made a 2,000-character text take
    # ~0.4 s on the event loop (an independent client's probe).
    return next((p for p in index.get(toks[i].low, ()) if match_at(toks, i, p)), None)


# Tables indexed by first word, keyed by identity (the module's tables are
# built once; a table built per call is indexed afresh, the cache bounded).
_BY_FIRST: dict[int, tuple[tuple[Phrase, ...], dict[str, tuple[Phrase, ...]] | None]] = {}
_BY_FIRST_MAX: Final = 512


def by_first_word(table: tuple[Phrase, ...]) -> dict[str, tuple[Phrase, ...]] | None:
    """`table`'s cues grouped by their first word, each group in the table's
    order; None for a table with an empty cue (it matches anywhere: scanned)."""
    kept = _BY_FIRST.get(id(table))
    if kept is not None and kept[0] is table:
        return kept[1]
    groups: dict[str, list[Phrase]] = {}
    for p in table:
        groups.setdefault(p[0] if p else "", []).append(p)
    index = None if "" in groups else {w: tuple(ps) for w, ps in groups.items()}
    if len(_BY_FIRST) >= _BY_FIRST_MAX:
        _BY_FIRST.clear()
    _BY_FIRST[id(table)] = (table, index)
    return index


def find_first(
    toks: Sequence[Tok], table: Iterable[Phrase], *, skip: frozenset[int] = frozenset()
) -> tuple[int, Phrase] | None:
    ordered = tuple(table)
    for i in range(len(toks)):
        if i in skip:
            continue
        hit = phrase_at(toks, i, ordered)
        if hit is not None:
            return i, hit
    return None


def contains(
    toks: Sequence[Tok], table: Iterable[Phrase], *, skip: frozenset[int] = frozenset()
) -> bool:
    return find_first(toks, table, skip=skip) is not None


# --- verbs ------------------------------------------------------------------

VERB_PHRASES: Final = phrases(VERB_CUES)
VERB_FIRSTS: Final = frozenset(p[0] for p in VERB_PHRASES)


def verb_words() -> tuple[tuple[str, Verb], ...]:
    """The verb cues and their verbs, for the recogniser's verb slot: the
    one-word ones are its candidates; any of them heard means no slot.
    Not the parser-only phrases (`verb_cues.PHRASAL_VERB_CUES`)."""
    return tuple((w, cast(Verb, v)) for w, v in SLOT_VERB_CUES.items())


def heard_verb_phrases() -> tuple[str, ...]:
    """The parser's verb phrases that are no verb-slot candidates, and the
    verbs' "-ed" / "-ing" forms: heard where the verb goes, they are the verb
    or a report ("Kofi fixed it"), so the recogniser leaves the slot."""
    return (*PHRASAL_VERB_CUES, *DONE_FORMS)


def verb_of(phrase: Phrase) -> Verb:
    return cast(Verb, VERB_CUES[" ".join(phrase)])


def kind_of(word: str) -> TargetKind | None:
    kind = KIND_CUES.get(word)
    return None if kind is None else cast(TargetKind, kind)


# --- addressing -------------------------------------------------------------

# "as" is how the recogniser often writes a spoken "ask" ("As Tariq to…"); as a
# frame it only ever names someone followed by "to" or a verb.
FRAME_WORDS: Final[frozenset[str]] = frozenset(
    {"ask", "tell", "have", "direct", "get", "let", "as", "remind", "send", "make"}
)
# Words that ask between a break or a name and the order: "Kofi. Can you
# fix…", "…, could you remind Kofi to…", "…, can you fix it Kofi?".
ASKING_WORDS: Final[frozenset[str]] = frozenset(words("please can could would will you"))
# Frames that, followed by an unknown word and "to", clearly name someone.
NAMING_FRAMES: Final[frozenset[str]] = frozenset({"ask", "tell", "direct", "send"})
FILLERS: Final[frozenset[str]] = frozenset(
    {"please", "hey", "hi", "ok", "okay", "so", "now", "could", "can", "would", "you", "will"}
    | {"alright", "right", "well", "um", "uh", "oh", "yeah", "hello", "listen", "hiya"}
    | {"yo", "dear", "oi", "oy", "and"}  # "yo kofi fix my bike", "oi Tariq,", "oh and, Kofi…"
    | {"like", "basically", "er", "erm", "bruh", "dude"}  # "so like Zuri could you…" (a probe)
)
PRONOUNS: Final[frozenset[str]] = frozenset({"him", "her", "them", "they", "he", "she"})
# A question starts with these ("Who will guard the kids?", "Did Kofi fix
# the gate?"); not "can / could / will / would", which start polite requests
# ("Could you have Tariq patch the roof?"), nor "have", a frame.
QUESTION_FIRST: Final[frozenset[str]] = frozenset(
    words("who what where when why which whose how did does do is are was were has")
)
# A question with no "?" after a name ("Kofi how much would it cost to fix
# the roof", a seventh typed probe: drafted) starts so.
_PLAIN_FIRST: Final = [[w] for w in words("how what why which who whose did does is are was were")]
# ... except where they start a request: a suggestion, a favour, a permission.
_REQUESTING: Final = (
    ("how", "about"), ("what", "about"), ("why", "not"), ("why", "don't"), ("do", "it"),
    ("do", "me"), ("is", "it", "possible"), ("is", "it", "ok"), ("is", "it", "okay"),
    ("are", "you", "able"), ("do", "you", "think", "you", "could"),
    ("do", "you", "think", "you", "can"), ("is", "there", "any", "chance"),
    ("any", "chance"), ("is", "there", "any", "way"), ("is", "there", "a", "chance"),
    ("are", "you", "free", "to"), ("is", "anyone", "free", "to"), ("is", "anyone", "able", "to"),
    ("do", "you", "have", "time", "to"), ("have", "you", "got", "time", "to"),  # 11th probe
)  # fmt: skip
# Words before a question word that leave it a question ("okay, who…").
_LEADING: Final = frozenset(words("please hey hi ok okay so now well um uh and"))  # "and when…?"


def asks(lows: Sequence[str], *, plainly: bool = False) -> bool:
    """Whether words (lower-case, punctuation included) start a question
    rather than a request: "Did Kofi fix the gate?" yes; "How about Kofi
    fixes the gate", "Could you do me a favour…" and "When you get a
    chance, Kofi, fix the gate" (a "when" or "where" clause, then a comma)
    no. `plainly`: only a question with no "?" and no break can be ("how
    long would it take to…", "do you know how to…"; not "when you can…",
    "how are you doing, can you fix…")."""
    said_first = [w for w in lows if w not in PUNCT and w not in _LEADING][:3]
    if plainly and (
        (said_first[:1] not in _PLAIN_FIRST and said_first != ["do", "you", "know"])
        or any(w in PUNCT for w in lows[1:])  # "how are you doing, can you fix…"
    ):
        return False
    at = 0
    while at < len(lows) and (lows[at] in _LEADING or lows[at] in PUNCT):
        at += 1
    rest = lows[at:]
    said = [w for w in rest if w not in PUNCT]
    if said[:1] in (["should"], ["shall"]) and rest[-1:] == ["?"]:
        # "Should Kofi fix the gate or the fence first?": advice asked, not a request
        # "Should I get Kofi to fix the gate or call a builder?": the speaker's own choice
        asked_on = said[1:2] in (["i"], ["we"]) and said[2:3] in (["get"], ["ask"], ["have"])
        return asked_on or any(
            w == "or" and nxt in DETERMINERS for w, nxt in itertools.pairwise(said)
        )
    if not said or said[0].split("'")[0] not in QUESTION_FIRST:  # "who's"
        return False
    if said[:3] == ["do", "you", "think"] and (
        {*said[3:6]} & {"could", "can", "would"} or said[3:5] == ["you", "might"]
    ):
        return False  # "Do you think Kofi could fix the gate?", "…you might be able to…"
    if any(tuple(said[: len(r)]) == r for r in _REQUESTING):
        return False
    minds = (
        3 if said[:3] == ["do", "you", "mind"] else 4 * (said[:4] == ["what", "do", "you", "mind"])
    )
    deed, thing = [*said, "", ""][minds : minds + 2] if minds else ("", "")
    stem = deed[:-3] if deed.endswith("ing") else deed  # "…mind check…" once read as the order
    stems = {stem, stem[:-1], stem + "e"}  # "mapping", "making"
    if minds and stems & VERB_FIRSTS and thing in _OBJECT_OPENERS:
        return False  # "do you mind checking the hives", and tiny.en's "what do you mind…"
    if said[:2] == ["do", "not"] and rest[2:3] != [","]:
        return False  # "do not let Kofi…": a request not to; "Do not, ever, …" stays asked
    return not (said[0] in ("when", "where") and "," in rest)


def asks_in(toks: Sequence[Tok], *, plainly: bool = False) -> bool:
    """`asks`, of tokens."""
    return asks([t.low for t in toks], plainly=plainly)


# --- target -----------------------------------------------------------------

DETERMINERS: Final[frozenset[str]] = frozenset(
    words("the a an my our your this that these those some his her their its")
)
# After "do you mind <doing>": the thing, not "…building work", "…fixing first" (a review).
_OBJECT_OPENERS: Final = frozenset(
    (*DETERMINERS, "my", "our", "your", "his", "her", "their", "it", "them", "up", "on", "out")
)
VAGUE: Final[frozenset[str]] = frozenset(
    words(
        "it that this them him her me us something stuff things thing everything anything "
        "there here one you"
    )
)
# "by" starts a place like "at" and "in": only before "the", "a", "my" …
# ("by the pond"); a time after it ("by the end of the week") is the
# deadline's, and the parser keeps its words out of the place.
LOCATION_PREPS: Final = phrases(
    ["near", "at", "in", "inside", "outside", "beside", "behind", "around", "next to", "by"]
)
TIME_CUES: Final = phrases(["today", "tonight", "tomorrow", "this week", "next week"])


def cues(text: str) -> tuple[Phrase, ...]:
    """A cue table written as one string, cues separated by commas."""
    return phrases(c.strip() for c in text.split(",") if c.strip())


# Words and phrases that end a target ("the garden gate | by tomorrow"). A
# time phrase the resolver places ("build a bench Friday") ends it too. Only
# words that cannot start a target belong here: "urgent" would end "the
# urgent repair" before it began.
TARGET_STOPS: Final = cues(
    "without, by, urgently, carefully, gently, slowly, quickly, safely, and, but, so, then, "
    "while, because, if, unless, once, even if, even when, even though, provided, before, "
    "until, whilst, only if, only when, only once, only after, only unless, just in case, "
    "sorry the, sorry a, sorry my, i mean, i meant, or rather, as we, as i, as they, twice, "
    "within, no later than, please, today, tonight, for the next week, for the next month, "
    "tomorrow, this week, next week, asap, immediately, right now, right away, straight away, "
    "rn, pronto, lowkey, ngl, tbh, or nah, or is, or are, or should, or would, or shall, "
    "soon, whenever, when you can, when you get a chance, when you get the chance, no rush, "
    "when you get a sec, when you have a sec, when you get a second, when you have a second, "
    "no hurry, it can wait, top priority, high priority, low priority, always, exactly, "
    "use your judgment, use your judgement, use your best judgment, use your best judgement, "
    "use your own judgment, use your own judgement, however you see fit, as you see fit, "
    "it's up to you, up to you, your call, do whatever you think, whatever you think, "
    "however, as he sees fit, as she sees fit, as they see fit, it's up to him, "
    "it's up to her, it's up to them, he knows best, she knows best, "
    "check with me, ask me, run it by me, just do it, no need to, do not, don't, never, avoid, "
    "near, at, in, inside, outside, beside, behind, around, next to, quietly, discreetly, "
    "privately, with care, as soon as, from now on, every day, every night, every morning, "
    "every afternoon, every evening, every week, every weekend, each day, each morning, "
    "each night, however you like, whatever you like, when you have a minute, "
    "when you have a moment, this instant, first thing in, first thing tomorrow, "
    "first thing this, first thing next, for me, on, to, later today, later on, later this, "
    "sometime, some time, one of these days, eventually, someday, as a matter of urgency, "
    "when you get around to it, whenever you get around to it, your way, right this minute, "
    "this minute, as fast as, as quick as, shortly, sharpish, during, assuming, supposing, "
    "providing that, as long as, just in case, till we, till they, till i, till i'm, till you, "
    "till he, till she, till it's, the moment the, the minute the, the moment you, "
    "the minute you, the moment it, the minute it, the moment we, the minute we, after the, "
    "after we, after you, after they, after i, anywhere but, except, apart from, should it, "
    "should there, should anyone, should someone, every time, each time"
)

# Head-noun cues for the target kind; the head (last word) is checked first,
# so "garden gate" is a prop (a gate), "grove path" ground (a path).
KIND_CUES: Final[Mapping[str, str]] = {
    **dict.fromkeys(
        words(
            "gate bench door fence wall roof bridge well cart tool tools table chair lamp lantern "
            "window shed boat ladder pot basket loom chest clock sign statue bed stove oven "
            "trellis swing kite net hive hives pump cistern gutter"
        ),
        "prop",
    ),
    **dict.fromkeys(
        words(
            "path field grove garden gardens meadow forest woods orchard river pond hill trail "
            "road shore beach valley lake creek stream yard land farm border perimeter ridge cave "
            "clearing marsh spring cliff"
        ),
        "ground",
    ),
    **dict.fromkeys(
        words(
            "house home village kitchen workshop market school library barn hut room square "
            "tower temple shrine camp attic cellar"
        ),
        "place",
    ),
    **dict.fromkeys(
        words("friendship relationship bond alliance rivalry feud peace trust"), "relationship"
    ),
    **dict.fromkeys(
        words(
            "patrol harvest cooking festival lesson lessons training practice dinner meal chores "
            "rounds search planting gathering celebration ceremony game watch"
        ),
        "activity",
    ),
}

# --- constraints, priority, autonomy ----------------------------------------

PACE_CUES: Final[Mapping[str, str]] = {
    **dict.fromkeys(["careful", "carefully", "with care"], "careful"),
    **dict.fromkeys(["gentle", "gently"], "gentle"),
    **dict.fromkeys(["slow", "slowly", "take your time"], "slow"),
}
SAFETY_CUES: Final[Mapping[str, str]] = {
    **dict.fromkeys(
        ["report blockers", "report any blockers", "report the blockers"], "report blockers"
    ),
    **dict.fromkeys(["stay safe", "be safe", "safely"], "stay safe"),
}
PRIVACY_CUES: Final = phrases(
    ["quietly", "discreetly", "privately", "secretly", "in secret", *KEEP_IT_QUIET]
)

# Checked in this order (90, then 25, then 78), each cue matched where it
# starts, longest first across every tier (`manner_cues`): "not urgent" is 25
# because "urgent" inside it is not a cue of its own, "top priority" is 90.
PRIORITY_TIERS: Final[tuple[tuple[int, tuple[Phrase, ...]], ...]] = tuple(
    (tier, cues(text)) for tier, text in manner_cues.PRIORITY_TEXT
)
DEFAULT_PRIORITY: Final = 55
# Matched like the priorities (`manner_cues`). The tethering phrases that hold
# a boundary marker are autonomy, not boundaries: the parser keeps them out.
AUTONOMY_CUES: Final[tuple[tuple[Autonomy, tuple[Phrase, ...]], ...]] = tuple(
    (mode, cues(text)) for mode, text in manner_cues.AUTONOMY_TEXT
)
# Every priority and autonomy cue: how and when, never what or who.
MANNER_CUES: Final = tuple(p for _, ps in (*PRIORITY_TIERS, *AUTONOMY_CUES) for p in ps)

# --- forbidden lines and values ---------------------------------------------

_MARKERS: Final = ("without", "do not", "don't", "never", "avoid", "you not to", "you not")
FORBID_MARKERS: Final = phrases((*_MARKERS, *inflect.BOUNDARY_MARKERS))
# "never mind", "don't worry": idioms, not boundaries; nor "why don't you have
# Kofi…", "why don't we fix…" (suggestions; a comma: the address was cut out).
FORBID_IDIOMS: Final[frozenset[str]] = frozenset({"mind", "worry"})
FORBID_STOPS: Final = phrases(
    [
        *words("and but by before until so then while because also please today tonight"),
        *words("tomorrow urgently immediately asap carefully gently slowly quickly soon"),
        *("this week", "next week", "right now", "do not", "don't", "never", "avoid"),
        *words("whenever always without"),
    ]
)
MAX_FORBID_WORDS: Final = 12

VALUE_CUES: Final[tuple[tuple[str, frozenset[str]], ...]] = (
    (
        "honesty",
        frozenset(
            words(
                "lie lies lying lied deceive deceiving mislead misleading trick "
                "tricking cheat cheating fib pretend pretending fake forge bluff "
                "cover"
            )
        ),
    ),
    (
        "privacy",
        frozenset(
            words(
                "private privacy secret secrets consent spy spying snoop snooping "
                "eavesdrop eavesdropping diary letters"
            )
        ),
    ),
    (
        "safety",
        frozenset(
            words(
                "harm harming hurt hurting unsafe danger dangerous injure injuring "
                "fight fighting fire weapon weapons attack attacking poison "
                "burn"
            )
        ),
    ),
    ("autonomy", frozenset(words("obey obeying command commanding force forcing"))),
)
# Asks that override the agent's own judgement (negotiation, not parsing).
AUTONOMY_PHRASES: Final = phrases(
    [
        "no questions asked",
        "no matter what",
        "or else",
        "whatever i say",
        "do as you're told",
        "do as you are told",
    ]
)


def value_of_words(tokens: Iterable[str]) -> str | None:
    """The first value (honesty, privacy, safety, autonomy order) any word cues."""
    bag = set(tokens)
    return next((value for value, cues in VALUE_CUES if bag & cues), None)


_REMINDERS: Final = phrases(
    ["don't forget to", "do not forget to", "don't fail to", "do not fail to"]
)


def reminder_at(lows: Sequence[str], k: int) -> int:
    """How many words at `k` say "don't forget to" and the like: asked for."""
    return next((len(p) for p in _REMINDERS if tuple(lows[k : k + len(p)]) == p), 0)
