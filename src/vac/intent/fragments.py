"""Orders said in fragments, each its own sentence: "Kofi! The tap! Fix it!",
"Broken window. Tariq, repair it.", "Another leaking tap. Kofi, sort it out."

The parser reads one sentence as the order: a name said alone before it
was asked about ("Who should do it: Kofi or someone else?") and a thing
said alone before "it" was not the thing ("What should Tariq repair?"), a
sixteenth typed probe (T23). Said in one sentence they read as meant:

    <NAME>. <a thing>. <an order on it>     → <NAME>, <a thing>, <the order>
    <a thing>. <an order on "it">           → <the order on the thing>

Only fragments of a few words with no verb of ours in them, and a thing
that starts as a thing does ("another", "a", "the", or a word in small
letters after the first). `said_again`: an order broken off on its
article and said again ("Imani, map the — sorry, Zuri, map the
orchard"), or said again after an aside between dashes that says nothing
of it ("Zuri, help — not now, honey — help Grandma"). `intent.reading`
tries these only when the words as said give no draft. Pure: text in,
text out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from vac.intent import lexicon as lx
from vac.intent.verb_cues import ONE_WORD_CUES as _ONE_WORDS

_SENTENCES: Final = re.compile(r"(?<=[.!])\s+")
_WORD: Final = re.compile(r"[A-Za-z']+")
_FRAGMENT_MAX_WORDS: Final = 4
# Words said before a thing in a fragment, dropped from it: "Another leaking tap."
_LEADS: Final = frozenset({"another", "a", "an", "the", "that", "this", "one", "more", "some"})
# Fragments that are no thing: "Great.", "Right.", "Thanks!", "Sorry."
_NO_THING: Final = frozenset(
    lx.words("""great right thanks sorry ok okay yes no hello hi hey please wow ugh oh well so
    now again seriously honestly really urgent asap today tonight tomorrow wait hang hold
    moment minute sec second anyway also um uh hmm""")
    # a statement, not a thing: "Kofi. He's away. Fix the gate." (asked whom)
    + lx.words("""i you he she it we they i'm you're he's she's it's we're they're is are was
    were has have had will can could should must does did there there's""")
)
_REMARKS: Final = frozenset(
    lx.words("""good morning afternoon evening night bad news job question quick update
    problem issue my your great nice well done lovely day""")
)
# Words said first with a comma, no part of the thing: "Great, another broken window."
_REMARK: Final = re.compile(r"^(?:(?:great|oh|ugh|wow|so|well|right|brilliant|lovely)\W+)+", re.I)
# "it" after a verb that does something to it; not "make it Monday" (a setting).
_IT: Final = re.compile(r"\b(?<!make )(?<!have )(?<!get )(?<!let )(?:it|them)\b", re.I)


def _words(part: str) -> list[str]:
    return _WORD.findall(part)


def _a_thing(part: str, names: frozenset[str]) -> bool:
    said = _words(part)
    lows = [w.lower() for w in said]
    if not 1 <= len(said) <= _FRAGMENT_MAX_WORDS or {*lows} & (_ONE_WORDS | _NO_THING | names):
        return False
    if any(w.endswith("n't") for w in lows) or lows[-1] == "about":
        return False  # "Fox about." (a review)
    if {*lows} <= _REMARKS:
        return False  # "Good morning.", "My bad.", "Bad news.": not "Bad hinge." (a review)
    if any(w[:1].isupper() for w in said[1:]):
        return False  # "Mum's Car.": a name, not a thing said plainly
    return lows[0] in _LEADS or len(said) > 1


def _small(part: str) -> str:
    """ "The tap" → "the tap": a fragment read on in the sentence."""
    return part[:1].lower() + part[1:]


def joined(text: str, names: Iterable[str]) -> str | None:
    """The fragments said as one sentence (see the module's table), or None."""
    parts = [p for p in _SENTENCES.split(text.strip()) if p]
    if len(parts) < 2:
        return None
    lows = frozenset(n.lower() for n in names)
    first = [w.lower() for w in _words(parts[0])]
    if len(first) == 1 and first[0] in lows:
        # "Tariq! Tariq. Look at the boiler": the name said again is said once
        things = [p for p in parts[1:-1] if [w.lower() for w in _words(p)] != first]
        if len(parts) > 2 and not things:  # only the name again between
            return ", ".join([parts[0].rstrip(".! "), _small(parts[-1])])
        if things and all(_a_thing(p, lows) for p in things):
            rest = [_small(p.rstrip(".! ")) for p in things] + [_small(parts[-1])]
            return ", ".join([parts[0].rstrip(".! "), *rest])
        return None
    thing_said = _REMARK.sub("", parts[0])
    it = _IT.search(parts[1]) if len(parts) == 2 else None
    if it is None or not _a_thing(thing_said, lows):
        return None
    said = _words(thing_said)
    thing = " ".join(said[1:] if said[0].lower() in _LEADS else said).lower()
    return f"{parts[1][: it.start()]}the {thing}{parts[1][it.end() :]}"


# An order broken off on its article and said again: "Imani, map the — sorry,
# Zuri, map the orchard" (T23: asked what Imani should map).
_BROKEN_OFF: Final = re.compile(
    r"^.*?\b(?:(?:the|a|an|my|our|his|her|their)\s*(?:—|–|-|,|\.\.\.|…)\s*"
    r"(?:(?:sorry|no|wait|i\s+mean|actually|um|uh|er|erm)\W+)+"
    # after "to" or "and" only a word that takes back: not "Kofi and, um, Tariq, …"
    r"|(?:to|and)\s*(?:—|–|-|,|\.\.\.|…)\s*(?:(?:sorry|no|wait|i\s+mean|actually)\W+)+)"
    r"(?P<again>\S.*)$",
    re.IGNORECASE,
)
# What an aside between dashes may not hold to be left out: a name, a time,
# haste, a ban (a review: "— don't use the car —", "— by Friday —" were lost).
_ASIDE_KEEPS: Final = re.compile(
    r"\b(?:don'?t|do\s+not|never|without|by|before|until|till|urgent\w*|asap|tonight|today"
    r"|tomorrow|monday|tuesday|wednesday|thursday|friday|saturday|sunday|i\s+mean|instead)\b|\d",
    re.IGNORECASE,
)


# An aside between dashes, then the order again: "Zuri, help — not now,
# honey — help Grandma with the shopping" (T24: asked what to help).
_DASHES: Final = re.compile(r"\s+(?:—|–|--)\s+")
_CALLED: Final = re.compile(r"^\W*[A-Z][a-z]+,\s+")


def said_again(text: str, names: frozenset[str] = frozenset()) -> str | None:
    """The order said again after one broken off on its article, or after
    an aside between dashes (the name it was said to kept), or None."""
    again = _BROKEN_OFF.match(text)
    if again is not None:
        return again["again"]
    parts = _DASHES.split(text)
    if len(parts) < 3 or not re.match(r"^\W*[a-z]", parts[-1], re.IGNORECASE):
        return None
    aside = " ".join(parts[1:-1])
    if _ASIDE_KEEPS.search(aside) or {w.lower() for w in _words(aside)} & names:
        return None  # "— sorry, I mean Imani —", "— don't use the car —": as before
    first_words = [w.lower() for w in _words(parts[0])]
    last_words = [w.lower() for w in _words(parts[-1])]
    if not ({*first_words} & {*last_words} & _ONE_WORDS):
        return None  # the order said again: a verb of the first part said in the last
    called = _CALLED.match(parts[0])
    return (called.group() if called and not _CALLED.match(parts[-1]) else "") + parts[-1]


__all__ = ["joined", "said_again"]
