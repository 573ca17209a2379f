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
    yourself should you we choose pick decide anything something idk matter both either
    all everything it that this good great whoever whichever anyone anybody someone somebody
    everyone everybody""")
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


# Said around a thing that answers "What should Kofi repair?": "oh, the
# gate", "it's the gate", "the gate I think" (a conversation probe: "It's
# the gate" was drafted as the thing, the others read as new orders).
_THING_LEAD: Final = re.compile(
    r"^(?:(?:oh|um+|uh+|er+|erm|well|ah|so|hmm+)\b\W*)*(?:(?:it'?s|it\s+is|that'?s)\s+)?",
    re.IGNORECASE,
)
_THING_TAIL: Final = re.compile(
    r"(?:[\s,]+(?:i\s+(?:think|guess|suppose|reckon)|probably))+[\s.!]*$", re.IGNORECASE
)


def names_a_thing(answer: str, names: Sequence[str]) -> str | None:
    """The thing for "What should Kofi repair?": a few words, no verb of
    ours, no name, no time, manner or small talk, no punctuation."""
    said = _THING_TAIL.sub("", _THING_LEAD.sub("", _plain(answer))).strip(" ,.!")
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


# Said around a time that answers "When should it be done?": "let's say
# Thursday morning", "sometime next week is fine", "Friday at the latest
# if he can" (a conversation probe: each was read as a new order, no verb).
_TIME_LEAD: Final = re.compile(
    r"^(?:(?:oh|um+|uh+|er+|erm|well|ok(?:ay)?|right|hmm+|ah|so|alright|sure|yes|yeah)\b\W*)*"
    r"(?:(?:let'?s\s+say|say|i'?d\s+say|how\s+about|what\s+about|make\s+it|maybe|perhaps|"
    r"probably|ideally|i\s+(?:guess|think|suppose)|hopefully|aim\s+for)\b\W*)?"
    r"(?:(?:some|any)\s*time\s+(?=\w))?",
    re.IGNORECASE,
)
_TIME_TAIL: Final = re.compile(
    r"(?:[\s,]+(?:(?:is|would\s+be|'?d\s+be|should\s+be|will\s+be|sounds|seems)\s+"
    r"(?:fine|good|great|ok(?:ay)?|best|ideal|perfect|nice|plenty|enough|right)|works|"
    r"will\s+do|should\s+do|would\s+do|'d\s+do|if\s+possible|at\s+the\s+(?:latest|very\s+latest)|if\s+(?:he|she|they|you)\s+can|"
    r"i\s+(?:guess|think|suppose)|ideally|hopefully|then))+[\s.!]*$",
    re.IGNORECASE,
)
# An answer that sets no time: said in place of the words not understood,
# the parser reads it as it reads it in a command ("whenever", "no rush":
# no deadline, low priority). Only these whole answers.
_NO_TIME: Final = re.compile(
    r"(?:whenever|no\s+rush|no\s+hurry|(?:there'?s\s+)?no\s+(?:rush|hurry|deadline)|"
    r"any\s*time|in\s+(?:his|her|their|your)\s+own\s+time)"
    r"(?:[\s,]+(?:really|honestly|no\s+rush|no\s+hurry|whenever))*",
    re.IGNORECASE,
)


def names_a_time(answer: str, now: dt.datetime) -> str | None:
    """The deadline said again ("by Saturday", "on the 24th", "let's say
    Thursday morning", "sometime next week is fine"): past a lead-in and a
    word of assent after it, it resolves on its own and holds nothing else,
    no negation. "whenever" / "no rush" answer with no time."""
    said = _plain(answer)
    said = _TIME_TAIL.sub("", _TIME_LEAD.sub("", said)).strip(" ,.!")
    if _NO_TIME.fullmatch(said):
        return said
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


_ORDINALS: Final = {"first": 0, "former": 0, "second": 1, "latter": 1}
# Words an answer naming a candidate may hold besides the name.
_CHOOSING: Final = (
    frozenset(lx.words("i meant mean it's it is was the one please thanks thank you oh um uh er"))
    | frozenset(lx.words("yes yeah no sorry"))  # "no, Zuri": not the one asked about
    | frozenset(lx.words("then ok okay"))  # "Zuri then." (a tenth typed probe: no-verb)
    # "I suppose Tariq could", "let Tariq do it", "probably Tariq", "Tariq can
    # take it" (a conversation probe: each was read as a new order, no verb)
    | frozenset(
        lx.words("""i suppose think guess reckon probably maybe perhaps let let's say
    how about go with can could should will do it ask get have give to take handle""")
    )
    | frozenset(_ORDINALS)
    | lx.PUNCT
)


def chosen(answer: str, candidates: Sequence[str]) -> str | None:
    """The candidate an answer to "Did you mean A or B?" picks, if it picks one.

    "Imani", "I meant Imani", "the second one" pick; a new command ("ask
    Imani to map the orchard") or a name that is not offered does not.
    """
    toks = lx.tokenize(answer)
    if not toks or lx.find_first(toks, lx.VERB_PHRASES) is not None or "?" in answer:
        return None  # an order of its own; "who is Zuri?"
    lows = {c.lower(): c for c in candidates}
    if any(t.low not in lows and t.low not in _CHOOSING for t in toks):
        return None  # "not Kofi", "Zuri, but don't touch the paint": more than a choice
    named = {lows[t.low] for t in toks if t.low in lows}
    if len(candidates) == 2:  # "the latter" of two, not of the whole roster
        named |= {candidates[_ORDINALS[t.low]] for t in toks if t.low in _ORDINALS}
    return named.pop() if len(named) == 1 else None
