"""Whether the words ask what an agent is able to do, not for a deed: "can
Kofi fix cars?", "Kofi can you repair watches?", "can Tariq guard a house
on his own?" (a seventh typed probe: each was drafted, "Kofi will repair
cars"). "Can Kofi fix the gate?" and "can you check the hens today" ask
for the deed, as they always did.

Only the narrow shape: "can" or "could", someone, a verb of ours, and a
thing said in general (a plural or a mass noun with no determiner, or "a …"
with "on his own" / "by himself" after it), nothing after it that asks for
the deed ("please", a time). Pure: tokens in.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from vac.intent import lexicon as lx
from vac.intent.lexicon import Tok, words


def able_asked(toks: Sequence[Tok]) -> bool:
    words_said = [t for t in toks if t.low not in lx.PUNCT]
    lows = [t.low for t in words_said]
    if lows[:3] == ["do", "you", "think"]:  # "do you think Tariq could guard…"
        words_said, lows = words_said[3:], lows[3:]
    said = " ".join(lows)
    if lows[:1] in (["can"], ["could"]) and any(c in said for c in _ONLY_CURIOUS):
        return True  # "Can Kofi fix the gate? I'm just wondering." (a spoken-style probe)
    if (_CAN | {"would", "able"}) & set(lows[:5]) and _IN_THEORY.search(said):
        return True  # "could Kofi fix a gate, in theory?" (a typed probe, T22: drafted)
    k = 0
    if len(lows) > 1 and lows[0] not in _CAN and lows[1] in _CAN:
        k = 1  # "Kofi can you repair watches?"
    if lows[k : k + 1] == ["would"] and lows[k + 2 : k + 5] == ["be", "able", "to"]:
        lows = [*lows[: k + 2], *lows[k + 5 :]]  # "would Tariq be able to guard…"
        words_said = [*words_said[: k + 2], *words_said[k + 5 :]]
        lows[k] = "could"
    if lows[k : k + 1] not in (["can"], ["could"]) or len(lows) < k + 4:
        return False
    # "Kofi could fix the gate, couldn't he?", "…, do you think?"; not "could you
    # fix…, do you think?" nor "…tomorrow, do you think?" (a review: requests)
    wondered = lows[k + 1 : k + 2] != ["you"] and not {*lows} & _ASKS_THE_DEED
    if wondered and _TAG.search(said):
        return True
    if _HAD_TO.search(said) and (said.endswith("to") or wondered):
        return True  # "Could Kofi fix a car engine if he had to?" (an eighth typed probe)
    # "can you", "can Kofi"; "Tariq could guard…" (the one asked said first)
    k += 1 if k == 1 and lows[k + 1] != "you" else 2
    while k < len(lows) and lows[k] in _HEDGES:
        k += 1
    verb = lx.phrase_at(words_said, k, lx.VERB_PHRASES)
    if verb is None:
        return False
    thing = lows[k + len(verb) :]
    alone = next(
        (j for j in range(len(thing)) for n in (1, 2, 3) if tuple(thing[j : j + n]) in _ALONE),
        None,
    )
    if not thing or {*thing[:alone]} & _ASKS_THE_DEED:
        return False
    after = {w for w in thing[alone or len(thing) :] if w not in _ALONE_WORDS}
    if thing[0] in ("a", "an", "the") and not after & _ASKS_THE_DEED:
        return alone is not None and alone <= 3  # "a house on his own", "the house alone"
    thing = thing[:alone]
    return (
        1 <= len(thing) <= 2
        and thing[0] not in lx.DETERMINERS | _THIS
        and ((thing[-1].endswith("s") and not thing[-1].endswith("ss")) or thing[-1] in _MASS)
    )


def able_said(toks: Sequence[Tok]) -> bool:
    """Whether the words say what someone is good at, no order: "Tariq can
    build sheds really well", "Imani is able to repair boilers", "Abeni can
    befriend any animal", "Zuri can map a field in an hour" (a sixteenth
    typed probe, T23: each was drafted). Not "Kofi can fix the gate" (whose
    deed it is), nor anything with a word that asks for the deed."""
    if any(t.low == "?" for t in toks):
        return False  # a question: `able_asked`
    said = [t for t in toks if t.low not in lx.PUNCT]
    lows = [t.low for t in said]
    cut = next((i for i, t in enumerate(toks) if t.low in lx.PUNCT), len(toks))
    one_part = all(t.low in lx.PUNCT for t in toks[cut:])  # not "…, he knows them well"
    if not one_part or len(lows) < 4 or lows[0] in _NO_ONE or {*lows} & _ASKS_THE_DEED:
        return False
    k = next((1 + len(p) for p in _ABLE if tuple(lows[1 : 1 + len(p)]) == p), None)
    while k is not None and k < len(lows) and lows[k] in _HEDGES:
        k += 1
    verb = None if k is None else lx.phrase_at(said, k, lx.VERB_PHRASES)
    if k is None or verb is None:
        return False
    thing = lows[k + len(verb) :]
    if _SKILL.search(" ".join(thing)):
        return True  # "…the gate really well", "…a field in an hour"
    if thing[:1] in (["any"], ["anything"], ["everything"]):
        return True  # "…any animal", "…anything"; not "…all the shelves" (a review)
    named = any(t.text[:1].isupper() for t in said[k + len(verb) :])  # "…support Thomas"
    return (
        1 <= len(thing) <= 2
        and not named
        and thing[0] not in lx.DETERMINERS | _THIS | {"all"}
        and (bool(_PLURAL.search(thing[-1])) or thing[-1] in _MASS)
    )


_NO_ONE: Final = frozenset(words("you u i we someone somebody anyone anybody"))
_ABLE: Final = (("can",), ("is", "able", "to"), ("knows", "how", "to"), ("'s", "able", "to"))
# Not "in an hour": a time too ("Kofi can fix the gate in an hour", a review).
_SKILL: Final = re.compile(
    r"\b(?:really well|so well|very well|well$|brilliantly|easily"
    r"|with (?:his|her|their) eyes closed|better than)\b"
)
# A plural: "sheds", "boilers"; not "gas", "bus", "glass", "tennis" (a review).
_PLURAL: Final = re.compile(r"^(?!gas$)[a-z']{3,}(?<![su]s)(?<!is)s$")
_CAN: Final = frozenset(words("can could"))
# Said after the deed, a question about it: a tag, or "do you think".
_TAG: Final = re.compile(
    r"\b(?:(?:couldn't|can't|wouldn't|won't|shouldn't|could|can|would) (?:he|she|they)"
    r"|do you think|don't you think)$"
)
# "…if he had to?", "…if he had the training?" (a probe: drafted with that condition)
_HAD_TO: Final = re.compile(
    r"\bif (?:(?:he|she|they|you|we) (?:had|needed) to$"
    r"|(?:he|she|they) had (?:the|a|an|some|more)\b(?! (?:chance|minute|moment|sec|second)\b))"
)
_ONLY_CURIOUS: Final = ("just wondering", "just curious", "just asking", "out of curiosity")
_IN_THEORY: Final = re.compile(
    r"\b(?:in theory|in principle|hypothetically|theoretically|generally speaking)\b"
)
_HEDGES: Final = frozenset(words("really actually even still also"))
_THIS: Final = frozenset(words("it them this that these those everything something"))
_ASKS_THE_DEED: Final = frozenset(
    words("""please pls today tonight tomorrow now asap by before this next later soon
    urgently quickly for me us""")
)
_ALONE: Final = frozenset(
    {
        ("on", "his", "own"),
        ("on", "her", "own"),
        ("on", "their", "own"),
        ("by", "himself"),
        ("by", "herself"),
        ("alone",),
        ("without", "help"),
    }
)
_ALONE_WORDS: Final = frozenset(w for phrase in _ALONE for w in phrase)
# Things said in general with no plural: "can Kofi build furniture?"
_MASS: Final = frozenset(words("furniture plumbing wiring electrics machinery software stuff"))
