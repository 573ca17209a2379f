"""Whether the next words answer the question just asked, and how.

After "What should Kofi repair?" the answer is a thing ("the gate"); after
"When should it be done?" a time ("by Saturday"); after 'I heard "water the
plants" for Kofi… What should Kofi do?' a deed of ours ("take care of the
plants"). Each function returns the words to put into what was said before
(a trailing "please" / "thanks" and punctuation taken off), or None when the
words are no such answer; `runtime.choices` then drops the question and the
words are read as themselves. Strict on purpose: small talk ("thanks",
"okay then"), a name, a correction, a time where a thing goes, a question, a
negation or a yes/no is never taken for an answer. Pure: words in, words out.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from typing import Final

from vac.intent import lexicon as lx
from vac.intent.reply_words import classify_reply
from vac.intent.when import When, resolve

# Words an answer holds at most ("the old gate near the big barn").
_MAX_WORDS: Final = 8
# Said instead of an answer: small talk, doubt, a refusal, a correction, a filler.
_NOT_AN_ANSWER: Final = frozenset(
    lx.words("""thanks thank hello hi hey sorry wait what nothing okay ok yes yeah no not
    yet forget huh hmm uh um er oh just later never mind idea know don't dunno i maybe well
    so right sure fine whatever nope instead actually every each always can't won't myself
    yourself should you we choose pick decide anything something idk matter both either""")
)
_COURTESY: Final = re.compile(r"(?:[\s,]+(?:please|thanks|thank you))+[\s.!]*$", re.IGNORECASE)


# Said after the deed that answers: "guard the house instead", "check the hens then".
_TRAILING: Final = re.compile(r"(?:[\s,]+(?:instead|then|rather))+[\s.!]*$", re.IGNORECASE)
_LEAD_IN: Final = re.compile(
    r"^(?:(?:ok(?:ay)?|fine|alright|all\s+right|sure|well|so|then|right|um+|uh+|er+|hmm+)\b"
    r"[\s,.!]*)+",
    re.IGNORECASE,
)


def _plain(answer: str) -> str:
    """The answer without a closing courtesy or full stop ("the gate, thanks")."""
    return _COURTESY.sub("", answer.strip()).strip().rstrip(".!").strip()


def names_a_thing(answer: str, names: Sequence[str]) -> str | None:
    """The thing for "What should Kofi repair?": a few words, no verb of
    ours, no name, no time, manner or small talk, no punctuation."""
    said = _plain(answer)
    toks = lx.tokenize(said)
    named = {n.lower() for n in names}
    if not 0 < len(toks) <= _MAX_WORDS or "?" in answer or classify_reply(said) is not None:
        return None
    if any(t.low in lx.PUNCT | _NOT_AN_ANSWER | named for t in toks):
        return None
    if toks[0].low in lx.FRAME_WORDS or lx.phrase_at(toks, 0, lx.TARGET_STOPS):
        return None
    if any(lx.phrase_at(toks, k, lx.MANNER_CUES) for k in range(len(toks))):
        return None
    at = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)  # only whether a time is said, not which
    if lx.find_first(toks, lx.VERB_PHRASES) is not None or resolve(toks, at) is not None:
        return None  # "fix the fence", "the gate tomorrow", "Saturday"
    return said


def names_a_time(answer: str, now: dt.datetime) -> str | None:
    """The deadline said again ("by Saturday", "on the 24th"): it resolves
    on its own and holds nothing else, no negation."""
    said = _plain(answer)
    toks = lx.tokenize(said)
    if not toks or any(t.low in lx.PUNCT | {"not", "no", "never"} for t in toks):
        return None
    when = resolve(toks, now)
    whole = isinstance(when, When) and when.start == 0 and when.end == len(toks)
    return said if whole else None


def says_instead(answer: str, names: Sequence[str]) -> str | None:
    """A deed of ours for the one quoted in a no-verb question ("take care
    of the plants"): it starts with the verb (after "please" or "just"), no
    one is named or addressed, nothing is negated, no question, no yes/no."""
    # "ok then, look after the plants", "fine, just check the windows then":
    # a lead-in said first (a typed probe: read as a new order for the
    # default agent, not the answer).
    said = _TRAILING.sub("", _LEAD_IN.sub("", _plain(answer)))  # "guard the house instead"
    toks = lx.tokenize(said)
    k = 0
    while k < len(toks) and toks[k].low in ("please", "just"):
        k += 1
    if k >= len(toks) or lx.phrase_at(toks, k, lx.VERB_PHRASES) is None or "?" in answer:
        return None
    named = {n.lower() for n in names}
    if any(t.low in named | _NOT_AN_ANSWER - {"just"} for t in toks):
        return None  # "never mind, I'll repair it myself", "…Zuri"
    if any(t.text[:1].isupper() for t in toks[k + 1 :]) or classify_reply(said) is not None:
        return None  # "fix the gate for Duri": someone no one knows
    return said
