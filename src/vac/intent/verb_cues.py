"""The verbs a command may use, and the words and phrases that say each.

A phrase of several words is only ever matched whole ("keep me posted on").
`SLOT_VERB_CUES` are also what the recogniser's verb slot tries
(`lexicon.verb_words`, docs/stt.md), so adding one there changes the slot
rescoring; `PHRASAL_VERB_CUES` only the parser reads. docs/speaking.md
lists them all; its test compares.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

SLOT_VERB_CUES: Final[Mapping[str, str]] = {
    **dict.fromkeys(["repair", "fix", "mend", "patch", "patch up", "restore"], "Repair"),
    **dict.fromkeys(["map", "chart", "survey", "scout", "explore"], "Map"),
    **dict.fromkeys(
        [
            "investigate",
            "check",
            "check on",
            "look into",
            "inspect",
            "examine",
            "find out",
            "look at",
        ],
        "Investigate",
    ),
    **dict.fromkeys(
        [
            "protect",
            "guard",
            "watch over",
            "defend",
            "shield",
            "watch",
            "keep an eye on",
            "keep watch over",
        ],
        "Protect",
    ),
    **dict.fromkeys(
        ["build", "make", "craft", "construct", "put up", "assemble"],
        "Build",
    ),
    **dict.fromkeys(
        [
            "support",
            "help",
            "assist",
            "comfort",
            "help out",
            "take care of",
        ],
        "Support",
    ),
    **dict.fromkeys(
        [
            "befriend",
            "make friends with",
            "make friends",
            "visit",
            "get to know",
            "say hello to",
            # A blind probe (T29): each built "Acquaintance of…", "Peace with…".
            *("make the acquaintance of", "make peace with", "make it up with", "make amends with"),
        ],
        "Befriend",
    ),
    **dict.fromkeys(
        [
            "report",
            "report on",
            "tell me about",
            "let me know about",
            "update me on",
        ],
        "Report",
    ),
}

# Phrases the parser reads that the recogniser's verb slot does not try:
# their first words ("take", "give", "keep", "set", "lend") are common
# words, and more cues of "look" in the slot cost a rescued dev command
# (docs/stt.md). Typed, or heard as said, they are verbs like any other.
# One-word ones ("rebuild", "sketch") are here too: the slot's candidates
# and margins were tuned without them.
PHRASAL_VERB_CUES: Final[Mapping[str, str]] = {
    **dict.fromkeys(
        [
            *("fix up", "sort out", "rebuild", "replace", "service", "tighten", "seal", "unblock"),
            # The deed said as a noun ("make repair of the washing machine"
            # was a Build of "Repair of the washing machine").
            *("make repair of", "make a repair of", "make the repair of", "make repairs to"),
            *("make repair", "make the fix of", "make a fix of", "do a repair of"),
            # A spoken probe (2026-12-06): "glue … back on" was no verb, typed too.
            *("glue", "reglue", "stick back", "glue back", "superglue"),
            # An eleventh typed probe (2026-12-07): "redo the bathroom tiles" was no verb.
            *("redo", "re-do"),
            # T26: "oil the gate", "grease the hinges" were no verb.
            *("oil", "grease", "lubricate"),
        ],
        "Repair",
    ),
    **dict.fromkeys(
        [
            "sketch",
            "draw a map of",
            "make a map of",
            "make a map on",  # "make a map on the cellar tunnels" was Build, a map
            # A spoken probe (2026-12-06): "draw me a map of…" mapped "Of the allotments".
            "draw me a map of",
            "draw us a map of",
            "make me a map of",
            "make us a map of",
            # A sixteenth typed probe (T23, non-native English): "make map of
            # the field", "make a sketch of the garden" built a map, a sketch.
            *("make map of", "make map", "make a sketch of", "make sketch of"),
            "make the map of",
            "make a survey of",
            "make the survey of",
            "do a survey of",
            "carry out a survey of",
            "make a map showing",
            "draw a map on",
            "draw a map showing",
            "draw up a map of",
            "create a map of",
            "measure",
            "plot",
        ],
        "Map",
    ),
    **dict.fromkeys(
        [
            "figure out",
            "check out",
            "take a look at",
            "have a look at",
            "look over",
            "work out",
            "look for",
            "search",
            "search for",
            "find",
            "count",
            "see what's wrong with",
            "see why",
            "see if",
            "see whether",
            "see what you can do about",  # before "see what"
            "make enquiries about",
            "make inquiries about",
            "make enquiries into",
            "make an inspection of",
            "do an inspection of",
            "carry out an inspection of",
            "see what",  # "go and see what the dogs are barking at"
            "see how",
            "suss out",
            "take a peek at",
            "have a peek at",
            # A typed probe (2026-12-06): "make a check of" built a check;
            # "do a check of" looked into "of the car".
            "do a check of",
            "do a check on",
            "make a check of",
            "make a check on",
            "make check of",
            # T23: "Tariq make investigate why the water is cold" built it.
            *("make investigate", "make investigation of", "make an investigation of"),
            *("make an investigation into", "make investigation into", "make check"),
            "run a check on",
            "run a check of",
            "do a checkup on",
            # A ninth typed probe (2026-12-06): no verb.
            "look round",
            "look around",
            "look around for",
            "look round for",
            # A thirteenth typed probe (2026-12-07): no verb. Not "…of the garden" (a place).
            *("get to the bottom of that", "get to the bottom of this"),
            *("get to the bottom of it", "get to the bottom of what", "get to the bottom of why"),
        ],
        "Investigate",
    ),
    **dict.fromkeys(
        [
            "look after",
            "keep watch on",
            "look out for",
            "stand guard at",
            "stand guard over",
            "stand guard by",
            # "make sure the chickens are safe": "make" alone would build them.
            "make sure",
            "make certain",
            *("make protection for", "make protection of", "make protect"),  # T23
            "see to it that",
            "secure",
            "lock up",
            # "lock the back door" (a typed probe, 2026-12-07: no verb); the
            # word after is the thing's, as for "mind the" (`wish.lock_is_no_order`).
            *("lock the", "lock my", "lock our", "lock all", "lock both", "lock your"),
            "keep an eye out for",
            "keep tabs on",  # a thirteenth typed probe (2026-12-07): no verb
            "patrol",  # a ninth typed probe (2026-12-06): "patrol the farm" was no verb
            # An eleventh typed probe (2026-12-07): "mind the kids" was no verb.
            # Only before a determiner: "would you mind fixing…", "never mind",
            # "mind you" are no order to keep anything safe.
            *("mind the", "mind my", "mind our", "mind his", "mind her", "mind their"),
            "babysit",
            "sandbag",  # T24: "sandbag the back door before the storm" was no verb
        ],
        "Protect",
    ),
    **dict.fromkeys(
        [
            *("set up", "put together", "create", "install", "dig", "erect"),
            *("knock together", "knock up", "throw together", "rig up"),
            "make build",  # T23: "Kofi make build a shed" built "Build a shed"
            "whip up",  # T24 (Australian English): no verb
        ],
        "Build",
    ),
    **dict.fromkeys(
        [
            "lend a hand with",
            "lend a hand to",
            "lend a hand",
            "go with",
            "accompany",
            "cheer up",
            "see to",
            "tend to",
            "attend to",
            "care for",
        ],
        "Support",
    ),
    **dict.fromkeys(
        [
            "introduce yourself to",
            "check in on",  # "check in on Grandpa tonight"
            "sit with",
            "pop round to see",
            "pop over to see",
            "look in on",
            "pop in on",
            "drop in on",
            "say hi to",
            "get acquainted with",
            "welcome",
            "greet",
            "meet",
            "chat with",
            "spend time with",
            "hang out with",
            "spend some time with",
            "spend the day with",
            "spend the morning with",
            "spend the afternoon with",
            "spend the evening with",
            "spend an hour with",
            "keep company",
            "pay a visit to",  # a spoken probe: "What should Abeni befriend?"
            "pay a call on",
            # The recogniser writes "befriend" as two words (a spoken probe,
            # 2026-12-07: "Till Kofi to be friend the dog" asked what to do).
            *("be friend", "be friends with"),
            # T23: "make friend with the new dog" built a friend.
            *("make friend with", "make friend of", "make friends of"),
        ],
        "Befriend",
    ),
    **dict.fromkeys(
        [
            "let me know",
            "tell me how",  # "tell me how the tomatoes are doing"
            "keep me in the loop on",
            "keep me in the loop about",
            "keep me in the loop",
            "give me a heads up on",
            "give me a rundown on",
            "tell me what's going on with",
            "keep me posted",
            *("write up", "write me a report on", "write a report on"),  # T26: no verb
            "report back on",
            "report back",
            "give me an update on",
            "give me a update on",
            "give me updates on",
            "give me an update about",
            "report back to me on",
            "report to me on",
            "report back to me",
            "keep me posted on",
            "keep me updated on",
            "fill me in on",
            "brief me on",
            # A spoken probe (2026-12-06): each was no verb, typed too.
            "keep me informed about",
            "keep me informed on",
            "keep me informed of",
            "send me an update about",
            "send me an update on",
            "send me a update about",  # as written for "an" (a spoken probe, 2026-12-06)
            "send me a update on",
            "send me updates on",
            "send me updates about",
            "keep me posted about",
            "keep me updated about",
            # T23: "Zuri make a report about the roof" built a report.
            *("make a report about", "make a report on", "make a report of", "make report"),
            *("make report about", "make report on", "make report of"),
        ],
        "Report",
    ),
}
VERB_CUES: Final[Mapping[str, str]] = {**SLOT_VERB_CUES, **PHRASAL_VERB_CUES}
# The cues of one word ("fix", "map"), and every cue as a regular expression's
# alternatives, the longest first ("look into" before "look").
ONE_WORD_CUES: Final = frozenset(cue for cue in VERB_CUES if " " not in cue)
CUES_PATTERN: Final = "|".join(re.escape(c) for c in sorted(VERB_CUES, key=len, reverse=True))
# Cues that often only lead to the verb meant: "find time to fix the gate",
# "see if you can fix…", "make sure you fix…", "welcome back, please fix…".
# A verb of another cue within a few words after one is the verb.
WEAK_VERB_CUES: Final = frozenset(
    {
        "find",
        "see if",
        "see whether",
        "see what",
        "see how",
        "look for",
        "meet",
        "welcome",
        "go with",
        "make sure",
        "make certain",
    }
)


# A one-word cue's past participle and -ing forms ("fixed", "fixing",
# "mapped", "built"), to its cue: "get the gate fixed" (`intent.passive`).
# Heard, they are a verb too: the recogniser leaves the verb slot as it is.
_IRREGULAR: Final = {
    "built": "build",
    "building": "build",
    "made": "make",
    "making": "make",
    "rebuilt": "rebuild",
    "rebuilding": "rebuild",
    "found": "find",
    "finding": "find",
    "met": "meet",
    "meeting": "meet",
    "dug": "dig",
    "digging": "dig",
}


def _forms(verb: str) -> set[str]:
    if re.fullmatch(r".*[^aeiou]y", verb):  # "accompany" → "accompanied", "accompanying"
        return {verb[:-1] + "ied", verb + "ing"}
    stem = verb[:-1] if verb.endswith("e") else verb
    if re.fullmatch(r"[^aeiou]*[aeiou][bdgmnpt]", verb):  # one syllable: "map" → "mapped"
        stem = verb + verb[-1]
    return {stem + "ed", stem + "ing"}


DONE_FORMS: Final[Mapping[str, str]] = {
    **{
        form: cue
        for cue in sorted(VERB_CUES)
        if " " not in cue and cue not in _IRREGULAR.values()
        for form in _forms(cue)
    },
    **_IRREGULAR,
}


def _third(verb: str) -> str:
    """ "fix" → "fixes", "check" → "checks", "study" → "studies"."""
    if re.fullmatch(r".*[^aeiou]y", verb):
        return verb[:-1] + "ies"
    return verb + ("es" if re.fullmatch(r".*(?:s|x|z|ch|sh|o)", verb) else "s")


# A one-word cue said of someone ("make sure Kofi fixes the gate"), to its cue.
THIRD_PERSON: Final[Mapping[str, str]] = {
    _third(cue): cue for cue in sorted(VERB_CUES) if " " not in cue
}
