"""Whether the next words answer the question just asked, and how.

After "What should Kofi repair?" the answer is a thing ("the gate"); after
"When should it be done?" a time ("by Saturday"); after 'I heard "water the
plants" for Kofi… What should Kofi do?' a deed of ours ("take care of the
plants"). `runtime.choices` puts an accepted answer into the words said
before and has them understood again; anything else drops the question and
is read as itself. Strict on purpose: small talk ("thanks", "okay then"),
a name, a correction, a question or a yes/no is never taken for an answer.
Pure: words in, a verdict out.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Final

from vac.intent import lexicon as lx
from vac.intent.reply_words import classify_reply
from vac.intent.when import When, resolve

# Words a thing said in answer holds at most ("the gate by the barn").
_THING_MAX_WORDS: Final = 6
# Said instead of an answer: small talk, doubt, a refusal, a correction.
_NOT_AN_ANSWER: Final = frozenset(
    lx.words("""thanks thank hello hi hey sorry wait what nothing okay ok yes yeah no not
    yet forget huh hmm uh um er later never mind idea know don't dunno i maybe well so
    right sure fine whatever nope instead actually every each always""")
)
# How and when, not what: "every Monday", "no rush", "check with me first".
_MANNER: Final = tuple(p for _, ps in (*lx.PRIORITY_TIERS, *lx.AUTONOMY_CUES) for p in ps)


def names_a_thing(answer: str, names: Sequence[str]) -> bool:
    """Whether `answer` is a thing for "What should Kofi repair?": a few
    words, no verb of ours, no name, no time or manner cue first, no
    punctuation but a closing full stop, no small talk."""
    toks = lx.tokenize(answer.strip().rstrip(".!"))
    named = {n.lower() for n in names}
    if not 0 < len(toks) <= _THING_MAX_WORDS or classify_reply(answer) is not None:
        return False
    if any(t.low in lx.PUNCT | _NOT_AN_ANSWER | named for t in toks) or "?" in answer:
        return False
    if toks[0].low in lx.FRAME_WORDS or lx.phrase_at(toks, 0, lx.TARGET_STOPS):
        return False
    if any(lx.phrase_at(toks, k, _MANNER) for k in range(len(toks))):
        return False
    return lx.find_first(toks, lx.VERB_PHRASES) is None


def names_a_time(answer: str, now: dt.datetime) -> bool:
    """Whether `answer` is a deadline said again ("by Saturday", "on the
    24th"): it resolves on its own, and holds nothing else."""
    toks = lx.tokenize(answer.strip().rstrip(".!"))
    if not toks or any(t.low in lx.PUNCT | {"not", "no", "never"} for t in toks):
        return False
    when = resolve(toks, now)
    return isinstance(when, When) and when.start == 0 and when.end == len(toks)


def says_instead(answer: str, names: Sequence[str]) -> bool:
    """Whether `answer` may stand for the deed quoted in a no-verb question
    ("take care of the plants"): a verb of ours, no one named, not an order
    framed for someone ("ask Zuri…"), not a question, not a yes or no."""
    toks = lx.tokenize(answer)
    if not toks or toks[0].low in lx.FRAME_WORDS or "?" in answer:
        return False
    if lx.find_first(toks, lx.VERB_PHRASES) is None or classify_reply(answer) is not None:
        return False
    named = {n.lower() for n in names}
    return not any(t.low in named for t in toks)
