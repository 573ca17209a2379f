"""The one question a session may be waiting on: "Did you mean Imani or Abeni?".

When the recogniser cannot tell two roster names apart, or a name is no
one's, the steward is asked to choose (`intent.evidence`). The next
utterance either picks one — then the original words are understood again
with that name — or is something else, and the question is dropped. A
question about a missing thing ("What should Kofi repair?") or a deadline
not understood ("When should it be done?") is answered the same way: a
short answer with no verb of its own ("the gate", "by Saturday") goes into
the original words, after the verb or in place of the words not
understood; after 'I heard "water the plants" for Kofi… What should Kofi
do?' an answer with a verb of ours and no one else named ("take care of
the plants") takes the place of the words quoted. Nothing here is durable:
a question is not a decision, and a restart simply forgets it.
"""

from __future__ import annotations

import datetime as dt
import re
import time
from collections.abc import Sequence
from typing import Final, Literal, NamedTuple

import msgspec

from vac import intent
from vac.intent import calendar_words as cw
from vac.intent.lexicon import VERB_FIRSTS as _DEED_FIRSTS
from vac.protocol.messages import ObjectiveClarify
from vac.protocol.objective import UncertainField


class Clarification(NamedTuple):
    """A question instead of a decision: the wire `reason`, what is asked, the choices named."""

    reason: str
    question: str
    candidates: tuple[str, ...] = ()

    def asked(self, turn: str) -> ObjectiveClarify:
        return ObjectiveClarify(
            turn=turn, reason=self.reason, question=self.question, candidates=[*self.candidates]
        )


_MISSED: Final = "I didn't catch an answer in that. "
# A question waits this long for its answer: words said later are their own.
ANSWER_WINDOW_S: Final = 60.0
# An order on "it" alone: "check it out", "yes, fix it please", "sort them out".
_ON_IT: Final = re.compile(
    r"^\W*(?:(?:yes|yeah|ok|okay|right|so|um|uh|oh|just|please|can\s+you|could\s+you)\W+)*"
    r"(?P<verb>[a-z]+)(?:\s+[a-z]+)?\s+(?:it|them)"
    r"(?:\s+(?:out|up|over|please|now|today|tomorrow|tonight|for\s+me))*\W*$",
    re.IGNORECASE,
)
# The first words of the verbs of ours ("check", "sort", "look") are `_DEED_FIRSTS`.
# A thing said alone to an agent: "Tariq, the old well", "Kofi: the broken tiles".
_THING_ALONE: Final = re.compile(
    r"^\W*(?:(?:hey|hi|oh|ok|okay)\W+)?[A-Za-z]+\W+"  # "Hey Kofi, the gate"
    r"(?P<thing>(?:the|a|an|my|our|that|this|those|these)(?:\s+[a-z'-]+){1,5})"
    r"\W*$",
    re.IGNORECASE,
)
_YES_LEAD: Final = re.compile(r"^\W*(?:(?:yes|yeah|ok|okay|right|so|just)\W+)+", re.IGNORECASE)
# Words of a state told, not of a thing: "my back hurts", "the tap's leaking".
_TOLD_OF: Final = frozenset(
    [
        "hurts",
        "aches",
        "leaks",
        "drips",
        "smells",
        "sticks",
        "squeaks",
        "creaks",
        "is",
        "are",
        "was",
        "were",
        "needs",
        "keeps",
        "broke",
    ]
)
# Questions about the words just said, which a "yes" or "no" may answer
# ("Who should do it: Kofi or someone else?"); not "Could you say that
# again?", after which a yes said again is the yes it was.
_ABOUT_OTHER_WORDS: Final = frozenset(
    {"uncertain-agent", "first-person", "unknown-agent", "no-target", "unclear-deadline"}
)


class PendingChoice:
    def __init__(self) -> None:
        self._asked: intent.Clarify | None = None
        self._spoken = False  # whether the question was about spoken words
        self._unsure: tuple[UncertainField, ...] = ()  # of the last answer's draft
        self._asked_at_s = 0.0
        self._question: str | None = None  # any question asked, answerable or not
        self._last: intent.Clarify | None = None  # the last question, for `ask_again`
        self._missed: intent.Clarify | None = None  # a question the words now did not answer
        self._reasked = False  # whether it was asked again already
        self._told: intent.Clarify | None = None  # a thing said alone (`_on_it`)
        self._turn_asked = False  # whether this turn ends in a question (`offer`)
        self._just_asked = False  # whether the turn before did

    def offer(self, clarify: intent.Clarify, *, spoken: bool = False) -> None:
        """Remember a question an answer can complete (and forget any older one)."""
        answerable = clarify.heard_as is not None or clarify.fill_at is not None
        self._asked = clarify if answerable else None
        self._spoken = spoken
        self._asked_at_s = time.monotonic()
        about_other_words = clarify.reason in _ABOUT_OTHER_WORDS or (
            clarify.reason == "no-verb" and clarify.heard_as is not None
        )
        self._question = clarify.question if about_other_words else None
        self._last = clarify
        self._turn_asked = True
        # A thing said alone to an agent ("Tariq, the old well"), for "check it out" next
        self._told = clarify if clarify.reason == "no-verb" and clarify.heard_as is None else None

    def to_the_draft(
        self,
        reply: intent.HeardReply,
        pending: intent.DraftEntry,
        asked: str | None,
        now: dt.datetime,
    ) -> Literal["confirm", "reject"] | Clarification | None:
        """What a yes or no does to the one draft pending: confirm or reject
        it, or a question instead: a "yes" heard unsurely, or one said right
        after another question (`asked`: "Who should do it: Kofi or someone
        else?" → "yes" confirmed an older draft), which then stands again,
        its answer in words taken next. None: nothing (an unsure "no")."""
        if asked is not None:
            if self._last is not None:
                self.offer(self._last, spoken=self._spoken)  # still about spoken words
                self._question = None  # a yes or no said again answers the draft
            return not_the_draft(asked, pending, now)
        if reply.sure:
            return reply.kind
        return unsure_yes(pending, now) if reply.kind == "confirm" else None

    def in_words(self, asked: str | None, no: bool) -> Clarification | None:
        """A yes or no said right after a question about other words with
        no draft waiting ("I guess so" to "Who should do it: Kofi or someone
        else?"): the question again, still open (a review: "No draft is
        waiting", and "Kofi" said next was no answer). None: none asked, or
        a no ("cancel", "no, never mind": a way out, a review)."""
        if asked is None or self._last is None or no or self._reasked:
            return None  # once: then the words are their own (a benchmark's run)
        self._reasked = True
        self.offer(self._last, spoken=self._spoken)
        self._question = None  # a yes or no said again is about no draft
        return Clarification("reply-unclear", f"Please answer my question in words: {_bare(asked)}")

    def just_asked(self) -> str | None:
        """The question the session's last turn asked, if the words now are
        the next ones (within `ANSWER_WINDOW_S`), once: a "yes" or "no" then
        answers it, never a draft it was not about."""
        question, self._question = self._question, None
        fresh = time.monotonic() - self._asked_at_s <= ANSWER_WINDOW_S
        return question if fresh else None

    def drop(self) -> None:
        """Forget the question: the steward said something else (a yes or no)."""
        self._asked = None

    def answer_heard(
        self,
        text: str,
        confidence: float,
        evidence: intent.Evidence | None,
        now: dt.datetime,
        names: Sequence[str] = (),
    ) -> str | None:
        """`answer`, for words as the daemon got them: a spoken answer must be
        heard as surely as a spoken command (the floor), or it answers nothing."""
        self._just_asked, self._turn_asked = self._turn_asked, False  # a new turn
        if evidence is not None and evidence.words and confidence < intent.SPOKEN_MIN_CONFIDENCE:
            self.drop()
            return None
        return self.answer(text, names, now)

    def answer(
        self, text: str, names: Sequence[str] = (), now: dt.datetime | None = None
    ) -> str | None:
        """The original words with the chosen name, the missing thing, the
        deadline said again or the deed said with a verb of ours, if `text`
        answers the question (within `ANSWER_WINDOW_S`); else None.

        Either way the question is answered: it is asked once.
        """
        asked, self._asked = self._asked, None
        self._unsure = ()
        self._missed = None
        if time.monotonic() - self._asked_at_s > ANSWER_WINDOW_S:
            return None
        if asked is None:
            return self._on_it(text)
        self._missed = asked  # until it is answered (below)
        if self._spoken:
            # The rest of the words are still as misheard as they were: what
            # `_STILL_UNSURE` names stays flagged (a spoken probe: "What should
            # Abeni repair?" → "the shed door" drafted Abeni's repair
            # unflagged, a name no one had said).
            self._unsure = _STILL_UNSURE.get(asked.reason, ())
        said: str | None = None
        bare = _ANSWER_LEAD.sub("", text)  # "oh sorry, I meant look after the plants"
        named = bare.strip(" .!").lower() in {n.lower() for n in names}
        if bare != text and named and asked.reason == "no-target":
            return None  # "I meant Zuri" to "What should Kofi repair?": who, not what (a review)
        text = bare or text
        for words in (text, *_before_a_remark(text, names)):
            if asked.candidates:
                said = intent.chosen(words, asked.candidates)
            elif asked.reason == "no-target":
                said = intent.names_a_thing(words, names)
            elif asked.reason == "unclear-deadline":
                said = intent.names_a_time(words, now or dt.datetime.now(dt.UTC))
            elif asked.reason == "no-verb":
                said = intent.says_instead(words, names)
            if said is not None:
                self._missed = None
                return _put(asked, said)
        return None

    def _on_it(self, text: str) -> str | None:
        """ "check it out" after "Tariq, the old well" was asked what to do:
        the order on the thing said then, in one sentence ("Tariq, the old
        well, check it out"). A conversation probe (T23c): "What should
        Tariq look into?", the well forgotten. Once."""
        told, self._told = self._told, None  # the next words only (a review: not after "forget it")
        on_it = _ON_IT.match(text)
        if told is None or on_it is None or on_it["verb"].lower() not in _DEED_FIRSTS:
            return None  # "forget it", "leave it": a way out (a review)
        thing = _THING_ALONE.match(told.source_text)
        if thing is None or set(thing["thing"].lower().split()) & _TOLD_OF:
            return None  # "Kofi, my back hurts": no thing said alone (a review)
        said = _YES_LEAD.sub("", _ANSWER_LEAD.sub("", text)) or text  # "yes, check it out"
        return f"{told.source_text.rstrip(' .!?;,')}, {said}"

    def weighed(
        self, result: intent.Draft | intent.Clarify, answered: bool
    ) -> intent.Draft | intent.Clarify:
        """The draft of words an answer completed, flagged as unsure where
        the spoken words it completed were (`answer`); else `result`."""
        if answered and self._unsure and isinstance(result, intent.Draft):
            return intent.with_flags(result, self._unsure)
        missed, self._missed = self._missed, None
        words = result.source_text if isinstance(result, intent.Clarify) else ""
        repeat = intent.status_asked(words, ())
        fresh = time.monotonic() - self._asked_at_s <= ANSWER_WINDOW_S
        if repeat and repeat.again and self._just_asked and fresh and self._last is not None:
            return self._last  # "say that again" right after a question: the question (a review)
        asks_back = isinstance(result, intent.Clarify) and result.reason == "question"
        asks_back = asks_back and bool(_ASKS_BACK.search(result.source_text))  # type: ignore[union-attr]
        if missed is not None and asks_back and not self._reasked:
            # "um, what do you mean?", "who's free?" to "What should Kofi
            # repair?" (a conversation probe: the question was dropped, and
            # "the gate" said next got "I heard you, but not what to do"):
            # how to answer, and the question again, still open, once.
            self._reasked = True
            said = _HELP.get(missed.reason, "") + _bare(missed.question)
            return msgspec.structs.replace(missed, question=said)
        if missed is not None and _nothing_asked(result) and not self._reasked:
            # "whoever's free" to "Who should do it?": the question again, once
            # (a conversation probe: "I heard you, but not what to do", the
            # words asked about lost); the words now are no order of their own
            self._reasked = True
            again = f"{_MISSED}{_bare(missed.question)}"
            return msgspec.structs.replace(missed, question=again)
        self._reasked = False
        return result


def _bare(question: str) -> str:
    """A question as first asked: no lead said when it was asked again."""
    for lead in (_MISSED, *_HELP.values()):
        question = question.removeprefix(lead)
    return question


def _nothing_asked(result: intent.Draft | intent.Clarify) -> bool:
    """Words that are no order and quote nothing ("whoever's free")."""
    no_order = isinstance(result, intent.Clarify) and result.reason == "no-verb"
    return no_order and result.heard_as is None and result.fill_at is None  # type: ignore[union-attr]


# What stays unsure of spoken words once a question about them is answered:
# after "What should Abeni repair?" the agent and the verb (no thing was
# heard after them: the words around were garbled), after "What should be
# done?" the agent. A name or a time asked about was the only doubt: the
# rest was weighed and found sure enough to ask just that.
_STILL_UNSURE: Final[dict[str, tuple[UncertainField, ...]]] = {
    "no-target": ("agent", "verb"),
    "no-verb": ("agent",),
}


def _put(asked: intent.Clarify, said: str) -> str | None:
    """`said` in the words asked about: at `fill_at` (replacing `heard_as`
    there, if any), else in place of `heard_as` as a whole word."""
    source, heard = asked.source_text, asked.heard_as
    at = asked.fill_at
    if at is None and heard is not None:
        found = re.search(rf"(?<!\w){re.escape(heard)}(?!\w)", source, re.IGNORECASE)
        at = None if found is None else found.start()
    if at is None or not 0 <= at <= len(source):
        return None
    if heard is None:
        # "Kofi, fix it tomorrow" → "the gate": in place of the "it" asked
        # about ("fix the gate it tomorrow" before).
        pronoun = _PLACEHOLDER.match(source[at:])  # "fix the thing" (a probe: "Gate the thing")
        after = re.match(r"\s+(\w+)", source[at + pronoun.end() :]) if pronoun else None
        if after is not None and after.group(1).lower() in _TIME_WORDS:
            pronoun = None  # "Kofi, repair this week": its time, not its thing
        rest = source[at + pronoun.end() :] if pronoun else source[at:]
        prep = f" {pronoun['prep']}" if pronoun and pronoun["prep"] else ""
        return f"{source[:at]}{prep} {said}{rest}"
    if source[at : at + len(heard)].lower() != heard.lower():
        return None
    return source[:at] + said + source[at + len(heard) :]


# What an answer takes the place of after the verb: "it", "the thing", and
# (a review) "the other one", "the first one", "the thing we talked about",
# after the verb's own "at" ("have a look at the first one").
_PLACEHOLDER: Final = re.compile(
    r"(?:\s+(?P<prep>at|into|on|to|for|with|about|over|after)(?=\s+the\s))?"
    r"\s+(it|that|this|them|those|these|her|him"
    r"|(?:the\s+)?(?:thing|things|stuff)(?:\s+we\s+(?:talked|spoke)\s+about)?"
    r"|something|anything"  # "Kofi, repair something" → "the gate" (T27c: "Gate something")
    r"|the\s+(?:first|second|third|last|other|same|next|usual)(?:\s+(?:one|ones|thing))?)\b",
    re.IGNORECASE,
)


# Said before an answer: "oh sorry, I meant …", "I mean …", "um, …" (a
# conversation probe: the answer was read as a new order, its time lost);
# "hmm, let me think... Friday", "what? oh, the boiler" (another: not
# taken as the answer).
_ANSWER_LEAD: Final = re.compile(
    r"^\W*(?:(?:oh|sorry|um|uh|er|erm|well|ah|ok|okay|hmm+)\W+)*"
    r"(?:i\s+meant?\W+|let(?:\s+me|'s)\s+(?:think|see)\s*[,.…!]+\s*|what\?\s*oh\W+)(?=\w)",
    re.I,
)  # not without: "oh the gate" alone is small talk
# Asking what the question means or wants ("what do you mean?", "who's
# free?", "like what?"), and how to answer it, by what was asked.
_ASKS_BACK: Final = re.compile(
    r"\b(?:what\s+do\s+you\s+mean|meaning|what\?|sorry\?|pardon|huh|come\s+again|like\s+what"
    r"|such\s+as|who'?s\s+(?:free|available|around|there)|who\s+(?:is|can|could)"
    r"|what\s+(?:are\s+)?(?:the\s+)?(?:options|choices)|which\s+ones?|what\s+can)\b|^\W*what\W*$",
    re.I,
)
_HELP: Final = {
    "no-target": 'Say just the thing, like "the gate" or "the hens". ',
    "unclear-deadline": 'Say just the day or the time, like "by Friday" or "tomorrow evening". ',
    "unknown-agent": "Say one name of the household's; any of them can be asked. ",
    "uncertain-agent": "Say one of the names. ",
    "first-person": "Say the name of the one who should do it. ",
    "no-verb": 'Say what to do, like "fix it" or "keep an eye on it". ',
}
_TIME_WORDS: Final = frozenset(
    {*cw.WEEKDAYS, "week", "weekend", "month", "year", "morning", "afternoon", "evening", "time"}
)


# A remark after the answer: "the wobbly shelf, it's driving me mad",
# "Zuri I think, Kofi's got enough on", "my gran, she lives down the lane"
# (a conversation probe: each read as a new order with no verb).
_REMARK: Final = re.compile(
    r"^\s*(?:it|it's|its|she|she's|he|he's|they|they're|that's|there's|(\w+)'s)\b", re.I
)


_TIMED: Final = (
    r"today|tonight|tomorrow|week|weekend|lunch|dinner|noon|midday|monday|tuesday|wednesday"
    r"|thursday|friday|saturday|sunday"
)
_ORDERS_OWN: Final = re.compile(
    rf"\b(?:urgent\w*|asap|rush|hurry|priority|soon|quick\w*|till|until|due|{_TIMED}"
    rf"|(?:by|before)\s+(?:the\s+end|next|this|\d|{_TIMED}))\b"
    # a ban ("he's not to use the ladder"), not a state ("he's not busy")
    r"|\b(?:not|never)\s+to\b|\bnot\s+allowed\b|\bmustn'?t\b|\bdon'?t\s+let\b",
    re.IGNORECASE,
)


def _before_a_remark(text: str, names: Sequence[str]) -> tuple[str, ...]:
    """The answer said before a comma and a remark, if one follows it."""
    head, comma, rest = text.partition(",")
    # one remark, nothing after it ("the gate, it's broken, and the fence": more),
    # and nothing of the order's in it: no time or haste ("the gate, it's
    # urgent", "Friday, he's got till then": a review, the remark was lost)
    more = re.search(r",|\band\b|\d", rest) or _ORDERS_OWN.search(rest)
    said = _REMARK.match(rest) if comma and not more else None
    if said is None or (said[1] and said[1].lower() not in {n.lower() for n in names}):
        return ()  # "the gate, Bob's gate": no remark about someone we know
    return (head,)


def called(clarify: intent.Clarify, roster: intent.Roster) -> str | None:
    """The agent a no-verb question asks about ("Kofi, the radiator's cold.
    Can you bleed it?" → "Should Kofi repair, …?"): whom the session now
    addresses, so the answer "fix the radiator" is Kofi's (a probe: it went
    to the default agent, whom no one had named). Read from the question,
    so the two never disagree ("Kofi, no, Zuri, …" asks of Zuri: a review)."""
    asked = _ASKED_OF.search(clarify.question) if clarify.reason in _OF_AN_AGENT else None
    agent = None if asked is None else roster.get(asked[1] or asked[2])
    return None if agent is None else agent.name


# "What should Kofi look into?" too: "look into the boiler" said next is
# Kofi's (a review: it went to the default agent, and the yes confirmed it).
_ASKED_OF: Final = re.compile(
    r"\bShould (\w+) repair, map\b|\bWhat should (\w+) (?:do|repair|map|look into|protect"
    r"|build|support|befriend|report on)\?$"
)
_OF_AN_AGENT: Final = frozenset({"no-verb", "no-target"})


def unsure_yes(pending: intent.DraftEntry, now: dt.datetime) -> Clarification:
    """A spoken "yes" heard too unsurely to bind an agent: ask for a clear one."""
    summary = intent.restate(pending.objective, pending.wording, now=now)
    question = (
        f"I'm not sure I heard yes. {summary} Say 'yes, confirm' clearly, or confirm it on screen."
    )
    return Clarification("low-confidence-confirm", question)


def not_the_draft(question: str, pending: intent.DraftEntry, now: dt.datetime) -> Clarification:
    """A "yes" or "no" said right after a question: it answers the question,
    not the draft waiting (which it would have confirmed or cancelled)."""
    summary = intent.restate(pending.objective, pending.wording, now=now)
    return Clarification(
        "reply-unclear",
        f'Was that an answer to my question, "{question}"? Please answer it in words. '
        f"Still waiting for you: {summary} Say yes again to confirm it.",
    )
