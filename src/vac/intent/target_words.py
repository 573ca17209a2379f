"""Where a target ends: a state said after it, words after it (a second
thing after "and" is `second_thing`).

    make sure the chickens are safe       → Chickens
    report whether the well is dry        → Whether the well is dry (kept)

Pure: tokens in, a decision out.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Sequence
from typing import Final

from vac.intent import lexicon as lx
from vac.intent.describing import always_describes
from vac.intent.inflect import VERB_PARTICLES
from vac.intent.lexicon import Tok
from vac.intent.numbers import ordinal_pair
from vac.intent.roster import Roster
from vac.intent.when_match import past_form, word_at

# "… the chickens are safe", "… the gate is locked": the thing, not its state.
# Not "fed" or "watered": that is the task ("make sure the hens are fed").
_IS: Final = frozenset(lx.words("is are stays stay"))
_STATES: Final = frozenset(lx.words("safe secure locked shut closed dry warm clean fine ok okay"))
# A state after these belongs to a question or a clause: "the gate that is
# locked", "whether the well is dry", "where the lambs are safe".
_CLAUSE_WORDS: Final = frozenset(lx.words("that which whether why if where so how when who"))


# "… at some point", "keep me in the loop", "at your leisure": no place.
NOT_PLACE_IDIOMS: Final = (
    "at some point",
    "by the way",  # a remark (the twenty-sixth session: a place "by the way")
    "by the by",
    "in the loop",
    "around to it",
    "at your leisure",
    "at your discretion",
    "at your convenience",
    # A typed probe (2026-12-06): read as places ("…at the latest by tomorrow").
    "at your earliest convenience",
    *(f"at {w} earliest convenience" for w in ("his", "her", "their", "our", "my")),
    *(f"at {w} convenience" for w in ("his", "her", "their")),
    "at the earliest",  # an eighth typed probe: "kindly repair it at the earliest"
    "at the latest",
    "at the very latest",
    "in the evening of",
    "in the morning of",
    "in the afternoon of",
    # A fourth typed probe (2026-12-06): each read back as where to do it.
    "in a hurry",
    "in a rush",
    "in the wind",
    "at some stage",
    "at a push",
    "at your own pace",
    "in your hands",
    "in your own time",
    "in your own sweet time",
)
# Left at a target's end by what cut it: "as" before a manner ("the shower
# as | quickly as possible"), a direction before "to" ("the forest trail up |
# to the waterfall"). Not the thing.
_DIRECTIONS: Final = frozenset(lx.words("up down out over along across back around through"))


def as_said(source: str, words: Sequence[Tok]) -> str:
    """The thing's words as written, without a hesitation or a repeat said
    inside it ("the, uh, the gate" read back as "the gate": a ninth typed
    probe read back "repair the uh garden tap")."""
    said = source[words[0].start : words[-1].end]
    if len(re.findall(r"[^\W_]+(?:['’-][^\W_]+)*", said)) <= len(words):
        return said
    return " ".join(t.text for t in words)


# Before a last "it", these make it part of the thing: "help them with it".
_CARRY_IT: Final = frozenset(lx.words("with for on about of at to in into"))


def trimmed_end(source: str, words: Sequence[Tok], after: str) -> Sequence[Tok]:
    """`words` without an "as" or a direction (before "to", `after`) ending
    them; never the thing's last word ("fix the back to the sofa") nor part
    of one ("the hand-me-down to Abeni")."""
    if words and (words[-1].low == "as" or (len(words) > 1 and words[-1].low in ("it's", "it"))):
        if words[-1].low == "it" and words[-2].low in _CARRY_IT:
            return words  # "help them with it": the thing ("Them with")
        return words[:-1]  # "fix the gate it's | a bit urgent" (a typed probe: "Gate it's")
    if len(words) > 1 and words[-1].low in ("from", "starting") and after not in lx.PUNCT:
        return words[:-1]  # "the post from | Monday" (a ninth typed probe: "Post from")
    if (
        len(words) > 1
        and words[-1].low in _DIRECTIONS
        and after == "to"
        and source[words[-1].start - 1 : words[-1].start] != "-"
        and any(t.low not in lx.DETERMINERS for t in words[:-1])
    ):
        return words[:-1]
    return words


# Said after the thing, no part of it: "fix the fence instead / again / too /
# now", "fix the gate yourself" (not "himself" / "themselves": "help the kids
# feed themselves"); "as well" only after a thing ("the old well" is one).
_AFTER_THE_THING: Final = frozenset(
    lx.words("instead again too also now yourself yourselves already yet obviously definitely")
)
# Before "now", these make it part of a time said ("from now", "between now
# and…"); before "too", a number heard so ("a table for too").
_TIME_BEFORE_NOW: Final = frozenset(lx.words("from between since until till to and by for"))
# Before "again", these are part of it ("over again", "yet again", "once again").
_AGAIN_WITH: Final = frozenset(lx.words("over yet once"))


def without_after(words: Sequence[Tok], not_now: frozenset[str]) -> Sequence[Tok]:
    """The thing's words without what is said after it: a word of `not_now`
    ("later"), "instead", "again", "too", "now", "as well", "yourself"."""
    while words and (said := _said_after(words, not_now)):
        words = words[:-said]
    return words


# How a thing is to be done, said after it: "guard the barn properly", "fix
# it right this time". "well", "right" and "good" only after a pronoun:
# "the old well", "the right gate" and "the good saw" are things.
_HOW: Final = frozenset(
    lx.words("properly thoroughly nicely neatly securely tightly firmly correctly completely fully")
)
_HOW_AFTER_IT: Final = frozenset(lx.words("well right good"))
_ITS: Final = frozenset(lx.words("its it's"))
# Said between the thing and its time: no part of the thing (a typed probe).
_BEFORE_WHEN: Final = frozenset(
    lx.words("early late ideally preferably hopefully latest max anytime")
)
_IT: Final = frozenset(lx.words("it them him her everything everyone everybody"))
_HOW_PAIRS: Final = (
    *(("this", "time"), ("for", "good"), ("for", "me")),
    *(("after", "all"), ("of", "course"), ("as", "usual")),  # "the gate after all" (T29c)
    ("just", "now"),  # "fix the gate just now" (T30: "Gate just now")
    # "look after the twins that day": the day the news named (a tenth typed probe)
    *(("that", w) for w in ("day", "night", "morning", "afternoon", "evening")),
)


_FOR_A_WHILE: Final = tuple(
    (*lead, *said)
    for said in (("for", "the", "time", "being"), ("for", "the", "moment"), ("for", "now"))
    for lead in (("just",), ("only",), ())
)
_BEFORE_FIRST: Final = frozenset(
    lx.words("which who what whatever whichever whoever that that's one when where how why")
)


def _a_thing(words: Sequence[Tok]) -> bool:
    """No clause in the words: "the gate", not "which broke", "the one that failed"."""
    return not any(t.low in _BEFORE_FIRST or past_form(t.low) for t in words)


# How long, said after the thing: "the whole time", "all day".
_ALL_ALONG: Final = frozenset(
    {("the", "whole", "time"), ("the", "entire", "time"), ("all", "the", "time")}
    | {("all", w) for w in ("day", "night", "morning", "afternoon", "evening", "weekend")}
)


def _said_after(words: Sequence[Tok], not_now: frozenset[str]) -> int:
    """How many of the last words are said after the thing, no part of it (0: none)."""
    last, before = words[-1].low, word_at(words, len(words) - 2)
    if (before, last) in _HOW_PAIRS and len(words) > 2:
        return 2
    # How long, after a pronoun only: "watch her the whole time" (a typed probe:
    # "Whole time" was the thing); "the baby all morning" keeps it, read back
    lows = tuple(t.low for t in words[-3:])
    if len(words) == 4 and lows in _ALL_ALONG and words[0].low in _IT:
        return 3
    # "look into the boiler for the time being", "repair the gate first" (a
    # conversation probe, T28c: "Boiler for now", "Gate first"); not "the first"
    for said in _FOR_A_WHILE:
        if len(words) > len(said) and tuple(t.low for t in words[-len(said) :]) == said:
            return len(said)
    if last == "first" and len(words) > 1 and before not in lx.DETERMINERS and _a_thing(words):
        return 1  # not "which broke first", "the one that failed first" (a review)
    if len(words) == 3 and lows[-2:] in _ALL_ALONG and words[0].low in _IT:
        return 2
    if (last in _HOW and len(words) > 1) or (last in _HOW_AFTER_IT and before in _IT):
        return 1
    if last == "again" and before in _AGAIN_WITH:
        return 2 * (len(words) > 2)
    if last in not_now or (last in _BEFORE_WHEN and len(words) > 2 and not before.endswith("ing")):
        return 1  # "…later"; "the attic late | tonight", "the gate ideally | by Thursday"
    if (before, last) == ("any", "time") and len(words) > 3:
        return 2  # "the gate any time | before Friday"
    if last == "urgent" and len(words) > 1:  # "fix the gate urgent", "…the leak its urgent"
        return 1 + (before in _ITS) * (len(words) > 2)
    if [t.low for t in words[-2:]] == ["as", "well"]:
        return 2 * (len(words) > 2)  # not "as well" alone
    if last in ("now", "too") and before in _TIME_BEFORE_NOW | {"just", "right"}:
        return 0  # "from now", "just now", "a table for too"
    return int(last in _AFTER_THE_THING and len(words) > 1)  # not "protect yourself"


# Whom a thing is for, said before it: "build me a bench", "make the kids a
# treehouse", "build Grandma a shed" (the label was "Me a bench").
_FOR_WHOM: Final = frozenset(lx.words("me us him her them"))
_THE_FOR_WHOM: Final = frozenset(lx.words("the my our"))
_PEOPLE: Final = frozenset(
    lx.words("""kids children boys girls family neighbours neighbors guests visitors twins
    baby grandkids grandchildren elders workers folks mum mom dad mother father wife husband
    son daughter brother sister""")
)
_AN: Final = frozenset(lx.words("a an some another"))
_NO_THING: Final = frozenset(lx.words("bit little lot while few favour favor hand"))


def without_recipient(words: Sequence[Tok]) -> Sequence[Tok]:
    """The thing's words without whom it is for, said before them."""
    lows = [t.low for t in words]
    if lows[:1] and lows[0] in _FOR_WHOM:
        k = 1
    elif lows[:1] and lows[0] in _THE_FOR_WHOM and lows[1:2] and lows[1] in _PEOPLE:
        k = 2  # "the kids"
    elif words and words[0].text[:1].isupper() and lows[0] not in lx.DETERMINERS:
        k = 1  # "Grandma"
    else:
        return words
    if len(lows) < k + 2 or lows[k] not in _AN or lows[k + 1] in _NO_THING:
        return words
    return words[k:]


# What one looks out for to keep others safe from: "keep an eye out for
# foxes" guards against them, it does not protect them.
_THREATS: Final = frozenset(
    lx.words("""fox foxes wolf wolves thief thieves burglar burglars intruder intruders stranger
    strangers snake snakes rat rats mouse mice pest pests trouble fire fires flood floods smoke
    hawk hawks coyote coyotes bear bears poacher poachers vandals trespassers weasel weasels
    stoat stoats badger badgers slugs deer rabbits raccoons wasps hornets predators ice bees
    traffic cars glass nails frost""")
)
_LOOK_OUT: Final = frozenset({"look out for", "keep an eye out for", "watch", "guard"})


def guarded(cue: Sequence[str], label: str) -> str:
    """What a Protect cue keeps safe, as a label: "watch out for the kids"
    → "Kids" (the target was "Out for the kids"); what it looks out for
    when that is a threat ("keep an eye out for foxes", "watch for the
    fox") → "Against foxes", never the foxes as the thing protected."""
    said = label.split()
    if " ".join(cue) not in _LOOK_OUT or not said:
        return label
    lows = [w.lower() for w in said]
    lead = 2 if lows[:2] == ["out", "for"] else 1 if lows[:1] == ["for"] else 0
    if cue[0] in ("watch", "guard") and not lead:
        return label  # "watch the kids", "guard the barn"
    words = [w for w in said[lead:] if w.lower() not in ("the", "a", "an", "any")] or said
    rest = " ".join(words)
    if words[-1].lower() in _THREATS:
        return f"Against {rest[:1].lower()}{rest[1:]}"
    return rest[:1].upper() + rest[1:]


def without_state(words: Sequence[Tok]) -> Sequence[Tok]:
    """The target's words without a state said at their end ("make sure the
    chickens are safe"), or how they are after "see / tell me how / what"
    ("see how the hens are", "… what the dogs are barking", "… are doing")."""
    if any(t.low in _CLAUSE_WORDS for t in words):
        return words  # "the gate that is rusting": the thing is said so
    if len(words) >= 2 and words[-1].low in ("is", "are"):
        return words[:-1]
    if len(words) >= 3 and words[-2].low in ("is", "are") and words[-1].low.endswith("ing"):
        return words[:-2]
    if len(words) < 3 or words[-2].low not in _IS or words[-1].low not in _STATES:
        return words
    return words[:-2]


# Words that make what follows a full stop a sentence, not a thing said apart.
_SENTENCE_WORDS: Final = frozenset(
    lx.words("is are was were isn't aren't wasn't needs need has have had will can")
)


def colon_in_a_time(clause: Sequence[Tok], k: int) -> bool:
    """A colon between the digits of a time ("the 7:15 train": the thing
    went on past it, it was "the 7")."""
    before, after = word_at(clause, k - 1), word_at(clause, k + 1)
    return clause[k].low == ":" and before.isdigit() and after.isdigit()


def said_alone(clause: Sequence[Tok], start: int) -> bool:
    """Whether the words from `start` to the next punctuation are a thing
    alone ("The gate."), at most four words and no verb of a sentence."""
    end = next((k for k in range(start, len(clause)) if clause[k].low in lx.PUNCT), len(clause))
    said = [t.low for t in clause[start:end]]
    return 0 < len(said) <= 4 and not any(w in _SENTENCE_WORDS for w in said)


def slug(label: str) -> str:
    """The ref's ASCII slug: accents dropped ("café" → cafe); a label in
    another script gets one of its own ("u-" and a digest), not "unnamed"."""
    plain = unicodedata.normalize("NFKD", label).encode("ascii", "ignore").decode()
    made = re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")[:96].strip("-")
    if not made and label.strip():
        made = "u-" + hashlib.sha256(label.strip().lower().encode()).hexdigest()[:16]
    return made or "unnamed"


# Said between the verb and its thing: how, or "please" (the priority and the
# pace still read them from the whole clause).
_BEFORE_THING: Final = frozenset(
    lx.words("please pls kindly urgently quickly immediately carefully gently quietly also just")
    # "repair definitely the gate" (T29c: an answer "definitely the gate" was the thing)
    + lx.words("definitely probably clearly obviously certainly surely actually")
)


def thing_starts(clause: Sequence[Tok], start: int, stop: int) -> int:
    """Where the thing after the verb starts, past "please" or a manner said
    first ("fix please the light", "repair urgently the pump": asked what)
    and "for me" ("build for me a table")."""
    while start + 1 < min(len(clause), stop) and clause[start].low in _BEFORE_THING:
        start += 1
    if [t.low for t in clause[start : start + 2]] in (["for", "me"], ["for", "us"]) and (
        word_at(clause, start + 2) in lx.DETERMINERS
    ):
        start += 2
    if word_at(clause, start) in ("is", "are") and word_at(clause, start + 1) in lx.DETERMINERS:
        start += 1  # "the first thing to fix is the gate": the gate
    if (wh := lx.phrase_at(clause, start, _WHATS_ON)) and word_at(clause, start + len(wh)):
        start += len(wh)  # "find out what's going on with the router" (a probe: "What's going")
    if _asked_of(clause, start):
        # "check with Abeni about the delivery", "find out from Abeni if it
        # came": whom to ask is not the thing (a note: "look into Abeni").
        start += 2 + (word_at(clause, start + 2) in _ABOUT)
    return start


_ABOUT: Final = frozenset(lx.words("about on regarding re"))
_WHATS_ON: Final = lx.phrases(["what's going on with", "what is going on with", "what's up with"])
_ASKED_WHAT: Final = _ABOUT | frozenset(lx.words("if whether what when how why where who"))
_ASKED_WHO: Final = frozenset(lx.words("him her them mum dad mom"))


def _asked_of(clause: Sequence[Tok], k: int) -> bool:
    """Whether "with / from <someone> about / if …" starts at `k`."""
    if word_at(clause, k) not in ("with", "from") or k + 2 >= len(clause):
        return False
    who = clause[k + 1]
    return word_at(clause, k + 2) in _ASKED_WHAT and (
        who.low in _ASKED_WHO or (who.text[:1].isupper() and who.low not in lx.DETERMINERS)
    )


def next_order(clause: Sequence[Tok], j: int, roster: Roster) -> bool:
    """A roster name and a verb at `j`: the next order, said without a
    break ("Kofi fix the gate Zuri check the well"), not more of the thing."""
    # Typed in small letters too ("kofi fix the gate zuri check the hens": an
    # eleventh typed probe read "Gate zuri check the hens"), not after "the".
    if roster.get(clause[j].text) is None or word_at(clause, j - 1) in lx.DETERMINERS:
        return False
    return lx.phrase_at(clause, j + 1, lx.VERB_PHRASES) is not None


# "find out what happened to the keys": "to" the thing it happened to, not a stop.
_WHAT_HAPPENED: Final = frozenset(lx.words("happened happens happening"))


_UNITS: Final = frozenset(
    lx.words("m metre metres meter meters cm foot feet ft inch inches yard yards mm km")
)


_NOT_A_SIZE: Final = frozenset(
    lx.words("""am pm o'clock oclock tomorrow today tonight and or daily every each next this
    thanks thank mate okay ok yeah please cheers at on in""")
)


def _a_size(clause: Sequence[Tok], j: int) -> bool:
    """Whether "by" at `j` joins two sizes: "2 metre by 3 metre", "6 foot by 4", "2m by 3m"."""
    before = [t.low for t in clause[max(0, j - 2) : j]]
    after = [t.low for t in clause[j + 1 : j + 3]]
    sized = bool(before) and (before[-1] in _UNITS or re.fullmatch(r"\d+(?:m|cm|ft)", before[-1]))
    # Bare numbers before a thing: "a 6-by-4 shed", "the 3 by 2 rug" (T28: the thing "6")
    bare = len(before) == 2 and before[0] in lx.DETERMINERS and before[-1].isdigit()
    bare = bare and len(after) == 2 and after[0].isdigit()  # "a 6 by 4 …", not "gate 6 by 4 …"
    thing = bare and after[1].isalpha() and after[1] not in _NOT_A_SIZE
    thing = thing and not clause[j + 2].text[:1].isupper()  # "…6 by 4 Kofi" (a review)
    return bool((sized or thing) and after and after[0][:1].isdigit())


def stops(clause: Sequence[Tok], j: int) -> bool:
    """Whether the order's thing ends before word `j` (a `TARGET_STOPS` cue)."""
    if clause[j].low == "to" and j > 0 and clause[j - 1].low in _WHAT_HAPPENED:
        return False  # a probe: "find out what happened to the spare keys" lost "the keys"
    if clause[j].low in ("outside", "inside") and j > 0 and clause[j - 1].low in lx.DETERMINERS:
        return False  # "the outside light", "the inside door" (a ninth typed probe: asked what)
    if always_describes(clause, j) and clause[j - 1].low != "as":
        return False  # "the tap that always drips"; "the gate as always" ends at "as"
    before = [t.low for t in clause[max(0, j - 4) : j]]
    ordered = lx.phrase_at(clause, j + 1, lx.VERB_PHRASES) is not None  # "…and repair the fence"
    paired = ("between" in before and "now" not in before) or ordinal_pair(clause, j)
    if clause[j].low == "and" and paired and not ordered:
        return False  # "…between number 6 and number 8", "the 4th and 5th panels" (probes)
    which = j > 1 and clause[j - 1].low in ("that", "which")  # not "fix that don't use the…"
    if clause[j].low in ("don't", "won't") and which and clause[j - 2].low not in lx.VERB_FIRSTS:
        return False  # "all the doors that don't close properly" (a probe: a ban, "Doors that")
    if clause[j].low == "by" and _a_size(clause, j):
        return False  # "a 2 metre by 3 metre chicken run" (a typed probe, T24: "a 2 metre")
    if clause[j].low == "till" and j + 1 < len(clause):  # not "the till", "the cash till"
        nxt = clause[j + 1]  # "…the gate till Zuri arrives", "till we get back", "till six"
        return nxt.low in _TILL_WHO or nxt.text[:1].isupper() or nxt.low[:1].isdigit()
    return lx.phrase_at(clause, j, lx.TARGET_STOPS) is not None


_TILL_WHO: Final = frozenset(
    lx.words("i we you he she they it the my our tomorrow tonight today next later")
)


__all__ = ["said_alone", "slug", "without_state"]


# After "it", these are no part of a thing (an eighth typed probe: "It back").
_AFTER_IT: Final = frozenset(lx.words("back when whenever while once if as"))


def names_nothing(core: Sequence[Tok]) -> bool:
    """Whether a thing's words (its determiners off) name nothing: none,
    "it" / "them" with the verb's own particle ("check it out", "fix it
    up"), or "it" and words that are no part of a thing ("glue it back",
    "repair it when you're next passing", "repair it as you can": read "It
    back", "It when…")."""
    if not core:
        return True
    if core[0].low in lx.VAGUE and len(core) > 1 and core[1].low in _AFTER_IT:
        return True
    lows = [t.low for t in core]
    if _TALKED_OF.fullmatch(" ".join(lows)) or lows in (["why"], ["how"], ["what"]):
        return True  # "the thing we talked about", "find out why" (T26: the thing "Why")
    ordinal_thing = "thing" in lows and not {"other", "same", "usual"} & set(lows)
    if any(w in _WHICH_ONE for w in lows) and all(w in _WHICH_ONE or w in lx.VAGUE for w in lows):
        # "the first one", "the other one", "the usual", "the same thing";
        # not "the first thing on the list" (a fifth typed probe: a thing)
        return not ordinal_thing
    return all(t.low in lx.VAGUE or t.low in VERB_PARTICLES or t.low in _SELF for t in core)


# A conversation probe (T26c): "Kofi, have a look at the first one" was read
# back as sure, "…look into the first one", and the yes confirmed the thing
# "First one"; so "the other one", "the same thing", "the usual". Which one
# is asked ("What should Kofi look into?"), as for "it" and "this one".
_WHICH_ONE: Final = frozenset(
    lx.words("first second third fourth last other same usual next previous ones")
)
_TALKED_OF: Final = re.compile(
    r"(?:one|thing|stuff) (?:(?:we|i|you) )?(?:talked|spoke|mentioned|discussed|said)"
    r"(?: about| of)?(?: (?:earlier|before|yesterday))?"
)


_SELF: Final = frozenset(lx.words("itself themselves"))  # "the gate won't fix itself"


# Which of the thing, said after it: "fix the gate, just the front one",
# "inspect the whole house, everything but the roof" (a twelfth typed probe:
# dropped unseen). Read back as said, never guessed into the thing.
_SCOPE: Final = re.compile(
    r"^\s*[,;:-]\s*(?:but\s+)?(?:just|only|everything\s+but|all\s+but|everything\s+except"
    r"|not\s+just|not\s+only)\s+(?:the|one|that|those|these)\b(?!\s+(?:once|time|bit)\b)",
    re.IGNORECASE,
)


def scope_said(tail: str) -> bool:
    """Whether the words after the thing say which of it (`_SCOPE`)."""
    return _SCOPE.match(tail) is not None
