"""Reading words as the daemon got them: a draft or a question (`understand`).

The parser reads the words as said; when they give no command, the
readings here try what the words mean said plainly ("get the gate fixed"
→ "fix the gate", "the gate is broken, fix it" → "fix the gate"), then the
recogniser's next hypotheses (`intent.alternatives`). A spoken draft is
weighed slot by slot (`intent.evidence.weigh`); typed text is not.

Pure: words and the recogniser's numbers in, a `Draft` or `Clarify` out.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from typing import Final

import msgspec

from vac.intent import alternatives as alt
from vac.intent import (
    fragments,
    idle_talk,
    it_means,
    noun_first,
    orders,
    passive,
    plain_verb,
    story_first,
)
from vac.intent import lexicon as lx
from vac.intent import ruled_out as ro
from vac.intent.ability import able_said
from vac.intent.either_or import QUESTION as EITHER_OR_ASKED
from vac.intent.either_or import either_or
from vac.intent.evidence import SPOKEN_MIN_CONFIDENCE, TIME_WORDS, Evidence, WordProb, weigh
from vac.intent.instead import one_said
from vac.intent.naming import unknown_question
from vac.intent.parser import MIN_CONFIDENCE, Clarify, Draft, parse
from vac.intent.plainly import but_when
from vac.intent.put_forward import put_forward
from vac.intent.reported import QUESTION as REPORTED
from vac.intent.reported import reported
from vac.intent.roster import Roster
from vac.intent.small_talk import greeted_first, order_said_after
from vac.protocol.objective import UncertainField

# A hypothesis that adds a deadline or a standing order to the best one holds
# a word of one that the best lacks (a day, "tonight", "every", "first", a
# number): one without such a word is not parsed (`_said_behind`), where each
# parse cost ~5 ms and up to four ran on most spoken commands.
_WHEN_WORDS: Final = TIME_WORDS | frozenset(
    lx.words(
        "every each daily nightly weekly hourly always often once twice until before after "
        "within next end o'clock in by at on check first permission approval ask asking "
        "mondays tuesdays wednesdays thursdays fridays saturdays sundays weekdays weekends "
        "weeknight fortnight "
        "one two three four five six seven eight nine ten eleven twelve"
    )
)


def _adds_when_word(best: str, other: str) -> bool:
    """Whether `other` holds a word of a time or a standing order (or a
    number) that `best` does not, as the parser reads words."""
    said = {t.low for t in lx.tokenize(best)}
    return any(
        t.low not in said and (t.low in _WHEN_WORDS or any(c.isdigit() for c in t.low))
        for t in lx.tokenize(other)
    )


def understand(
    text: str,
    *,
    confidence: float,
    evidence: Evidence | None,
    now: dt.datetime,
    roster: Roster,
    current_agent: str | None,
    objective_id: str,
) -> Draft | Clarify:
    """A final transcript or typed text → a draft or a question, as the daemon decides.

    Typed text (no evidence, or evidence without words) is parsed at the 0.7
    utterance floor. Spoken words pass a lower floor, the parser is told what
    the recogniser heard in the name slot and the roster name it ranked first
    there (`parse(near=)`) and that the words were heard (`spoken=True`), and
    the draft is weighed slot by slot. When the words give no command (no
    verb, no target, no known name), the recogniser's next hypotheses are
    tried (`intent.alternatives`).
    """
    heard = evidence if evidence is not None and evidence.words else None
    near = None
    if heard is not None and heard.names and heard.name_heard:
        near = (heard.name_heard, heard.names[0].name)

    def parse_as(words: str) -> Draft | Clarify:
        return parse(
            words,
            confidence=confidence,
            now=now,
            roster=roster,
            current_agent=current_agent,
            objective_id=objective_id,
            min_confidence=MIN_CONFIDENCE if heard is None else SPOKEN_MIN_CONFIDENCE,
            near=near,
            spoken=heard is not None,
        )

    story = story_first.order_after(text, roster.names()) or story_first.clause_last(text)
    story = story or noun_first.as_order(text, roster.names())  # "gate fix pls kofi"
    story = story or put_forward(text, roster.names())  # "…fix the gate, Kofi probably"
    story = story or story_first.reason_first(text, roster.names())  # "Since Zuri is away, …"
    story = story or one_said(text)  # "the front gate, no, the back one": the back gate
    if story is not None and (told := _meant(text, heard, parse_as, roster, story)) is not None:
        return told
    if able_said(lx.tokenize(text)) or idle_talk.idle(text, roster.names()):  # "…sheds really well"
        question = (
            f"I heard you, but not what to do. Should someone {orders.EIGHT_VERBS} something?"
        )
        return Clarify("no-verb", question, " ".join(text.split()), confidence)
    result = parse_as(text)
    if isinstance(result, Draft) and (kept := _kept_safe(text, result, heard, parse_as, roster)):
        result = kept
    if isinstance(result, Clarify) and result.reason in ("question", "uncertain-agent"):
        hello = greeted_first(text, roster.names())  # "Morning Kofi! Hope you slept well. …"
        again = None if hello is None else parse_as(hello)
        result = _as_said(again, text) if isinstance(again, Draft) else result
    if isinstance(result, Draft) and result.objective.deadline is not None:
        today = now.date().isoformat()  # "…on Monday. Fix the gate": no deadline
        result = _talked_before(text, result, parse_as, roster, today) or result
    if isinstance(result, Draft) and either_or(text, roster.names()):  # "…; if not, Abeni, you go"
        return Clarify("uncertain-agent", EITHER_OR_ASKED, text, confidence)
    unnamed = isinstance(result, Draft) and result.agent_source in ("default", "current")
    report = reported(text, roster.names()) if isinstance(result, Draft) else None
    if report is not None and (report.quoted or unnamed):
        everyone = tuple(roster.names())  # "The vet said to…": who? The answer in its place
        return Clarify("uncertain-agent", REPORTED, text, confidence, everyone, report.said, 0)
    if unnamed and (short := ro.called_short(text)) is not None:  # "T, look into the leak"
        everyone = tuple(roster.names())
        asked = unknown_question(short, everyone)
        return Clarify("unknown-agent", asked, text, confidence, everyone, short)
    if isinstance(result, Draft) and (out := ro.ruled_out(text, roster.names())) is not None:
        others = tuple(n for n in roster.names() if n != out.name)  # "not Tariq, fix the gate"
        return Clarify(
            "uncertain-agent", ro.question(out.name), text, confidence, others, out.said, 0
        )
    said = fragments.joined(text, roster.names()) if isinstance(result, Clarify) else None
    names = frozenset(n.lower() for n in roster.names())
    said = said or (fragments.said_again(text, names) if isinstance(result, Clarify) else None)
    if said and (whole := _meant(text, heard, parse_as, roster, _its(said))) is not None:
        return whole  # "Kofi! The tap! Fix it!", "Broken window. Tariq, repair it."
    if isinstance(result, Clarify) and result.reason in ("no-verb", "uncertain-agent"):
        # "Have Tariq reports on the night watch": no verb where it goes, so
        # "watch" was taken for it and Tariq was named before it; the plain
        # form says what was meant. Only that rewrite for a name in question.
        said_of_thing = result.reason == "no-verb"
        ordered = _as_order(text, heard, parse_as, roster, said_of_thing=said_of_thing)
        if ordered is not None:
            return ordered
    if isinstance(result, Clarify) and result.reason == "no-target":
        meant = _meant(text, heard, parse_as, roster)
        if meant is not None:
            return meant
    if isinstance(result, Draft) and _ANYONE_DOES.match(result.objective.target.label):
        # "Make sure someone checks the locks": their check, not our guard
        # of "Someone checks the locks" (a blind probe, T29)
        result = _as_order(text, heard, parse_as, roster) or result
    if heard is None:
        return result
    if isinstance(result, Draft):
        return _said_behind(text, result, heard, parse_as) or weigh(result, heard)
    return _next_hypothesis(text, result, heard, parse_as)


def _meant(
    text: str,
    heard: Evidence | None,
    parse_as: Callable[[str], Draft | Clarify],
    roster: Roster,
    meant: str | None = None,
) -> Draft | None:
    """ "The gate is broken, fix it": "it" read as the gate (`intent.passive`),
    the draft weighed on the words as said; the objective keeps them.
    `meant`: the words meant, read elsewhere (`intent.story_first`)."""
    meant = meant or it_means.with_antecedent(text) or passive.on_its_own(text)  # "…itself"
    got = None if meant is None else parse_as(meant)
    if meant is None or not isinstance(got, Draft) or _lost_agent(got, text, roster):
        return None
    if heard is not None:
        words = tuple(WordProb(*w) for w in alt.carried(text, heard.words, meant))
        weighed = weigh(got, msgspec.structs.replace(heard, words=words))
        if not isinstance(weighed, Draft):
            return None
        got = weighed
    return _as_said(got, text)


def _talked_before(
    text: str,
    got: Draft,
    parse_as: Callable[[str], Draft | Clarify],
    roster: Roster,
    today: str,
) -> Draft | None:
    """The draft without a day said in small talk before the order
    (`intent.small_talk`): the same order, its own time. Today said there
    stays when the order says none ("Kofi, I'm so tired today. Please fix
    the bedroom door": a tenth typed probe's choice)."""
    own = order_said_after(text, roster.names(), past=False)  # the order's own time wins
    again = None if own is None else parse_as(own)
    if not isinstance(again, Draft) or again.objective.deadline is None:
        said = order_said_after(text, roster.names())  # a story of the past: its day dropped
        again = None if said is None else parse_as(said)
    if not isinstance(again, Draft) or again.objective.deadline == got.objective.deadline:
        return None
    if again.objective.deadline is None and got.objective.deadline == today:
        return None

    if but_when(again.objective) != but_when(got.objective):
        return None  # "Urgent: the inspector came on Friday. …": the urgency kept (a review)
    return _as_said(again, text)


def _its(words: str) -> str:
    """`words` with "it" read as the thing said before it, if one was."""
    return it_means.with_antecedent(words) or words


def _as_said(got: Draft, text: str) -> Draft:
    """A draft read from rewritten words, keeping the words as said."""
    said = " ".join(text.split())  # as `parse` keeps its source
    return msgspec.structs.replace(
        got, objective=msgspec.structs.replace(got.objective, source_text=said)
    )


def _lost_agent(got: Draft, text: str, roster: Roster) -> bool:
    """A rewritten order that went to the default agent though a roster name
    was said ("the gate is broken Kofi, fix it"): not the order meant."""
    if got.agent_source not in ("default", "current"):
        return False
    said = {t.low for t in lx.tokenize(text)}
    return any(name.lower() in said for name in roster.names())


def _kept_safe(
    text: str,
    result: Draft,
    heard: Evidence | None,
    parse_as: Callable[[str], Draft | Clarify],
    roster: Roster,
) -> Draft | None:
    """ "Zuri, keep the hens safe while we build the coop": the order is to
    keep them safe (`intent.passive`: "protect the hens"), not the deed said
    in the clause after it. A typed probe (T22): "keep them safe while they
    dig the drains" was a Build of the drains; "…when they visit the farm"
    befriended the farm. None: no such order, or the draft protects already."""
    if result.objective.verb == "Protect" or not _SAFE_WHILE.search(text):
        return None  # not "…keep the hens safe, and repair the coop": an order of its own
    order = passive.as_order(text, frozenset(n.lower() for n in roster.names()))
    if order is None or text[order.said[0] : order.said[1]].lower() != "keep":
        return None
    got = _as_order(text, heard, parse_as, roster)
    return got if isinstance(got, Draft) and got.objective.verb == "Protect" else None


_SAFE_WHILE: Final = re.compile(
    r"\bkeep\b.*?\b(?:safe|secure|away)\b[^.;]*?\b(?:while|whilst|when|whenever|as|because"
    r"|since|until|till|before|after|if|so)\b",
    re.IGNORECASE,
)


_ANYONE_DOES: Final = re.compile(r"(?:someone|somebody)\s+\w+s\b", re.IGNORECASE)


def _passed_on(order: str) -> bool:
    return order.lower().split()[:1] in (["tell"], ["ask"])


def _as_order(
    text: str,
    heard: Evidence | None,
    parse_as: Callable[[str], Draft | Clarify],
    roster: Roster,
    *,
    said_of_thing: bool = True,
) -> Draft | Clarify | None:
    """ "get the gate fixed" read as "fix the gate" (`intent.passive`, only
    with `said_of_thing`), "have Kofi built…" as "have Kofi build…"
    (`intent.plain_verb`): the verb keeps the evidence of the word it was
    said as, and the objective keeps what was said. None when the words hold
    no such order."""
    lows = frozenset(n.lower() for n in roster.names())
    order = passive.as_order(text, lows) if said_of_thing else None
    # A name called then a done form only when spoken: tiny.en's join (typed,
    # "Kofi, fixed the gate." reports).
    spoken = heard is not None and bool(heard.words)
    order = order or plain_verb.as_plain(text, lows if spoken else frozenset())
    got = None if order is None else parse_as(order.text)
    if order is None or got is None or (isinstance(got, Clarify) and got.reason == "no-verb"):
        return None
    if isinstance(got, Draft) and _lost_agent(got, text, roster):
        return None
    if isinstance(got, Draft) and got.agent_source == "default" and _passed_on(order.text):
        return None  # "Tell Bob the gate needs fixing": Bob is no one here
    if isinstance(got, Clarify):  # "…mended before the storm": the order's question
        return msgspec.structs.replace(got, source_text=" ".join(text.split()))
    weighed: Draft | Clarify = got
    if heard is not None:
        done = [w.prob for w in heard.words if w.start < order.said[1] and w.end > order.said[0]]
        words = tuple(
            WordProb(s, e, min(done, default=p) if (s, e) == order.verb else p)
            for s, e, p in alt.carried(text, heard.words, order.text)
        )
        weighed = weigh(got, msgspec.structs.replace(heard, words=words))
    return _as_said(weighed, text) if isinstance(weighed, Draft) else weighed


def _next_hypothesis(
    text: str, first: Clarify, heard: Evidence, parse_as: Callable[[str], Draft | Clarify]
) -> Draft | Clarify:
    """The first of the beam's other hypotheses that parses to a draft, weighed
    with its unshared words unsure; else the best hypothesis's question."""
    said = alt.statement_kind(text)
    if first.reason not in alt.RETRY_REASONS or said in ("question", "praise"):
        return first
    if orders.courtesy(lx.tokenize(text)) is not None:
        return first  # "Thank you very much." drafted "…look into the minimum" behind it (a probe)
    for other in heard.alternatives:
        if other.behind > alt.MAX_BEHIND:
            continue
        got = parse_as(other.text)
        # A report of the past holds no deadline to come: with one, it was an order.
        if isinstance(got, Draft) and (said is None or got.objective.deadline is not None):
            words = tuple(WordProb(*w) for w in alt.carried(text, heard.words, other.text))
            # What the best hypothesis lacked came from another: never a sure
            # one, whichever words the weighing reads (the parser may skip a
            # shared verb word and take a new one).
            lost = alt.LOST_FIELD.get(first.reason)
            return weigh(got, msgspec.structs.replace(heard, words=words), unsure=lost)
    return first


def _said_behind(
    text: str, first: Draft, heard: Evidence, parse_as: Callable[[str], Draft | Clarify]
) -> Draft | Clarify | None:
    """The same order with a deadline or a standing order another hypothesis
    heard, when the best has none: espeak's "tonight" is written "to hide",
    "every night" "every eye", with the order's words a nat or two behind in
    the beam ("…guard the village tonight."). The first hypothesis within
    `MAX_BEHIND` that gives the same agent, verb, priority and forbidden
    lines and adds a deadline or an autonomy (never `free`: a free hand is
    only given on words the decoder wrote first) is taken, keeping any
    deadline and autonomy the best had, weighed with its unshared words
    unsure; a deadline from it is always flagged. None: no such hypothesis
    (the best's draft stands)."""
    mine = first.objective
    if mine.deadline is not None and mine.autonomy != "brief":
        return None
    for other in heard.alternatives:
        if other.behind > alt.MAX_BEHIND or not _adds_when_word(text, other.text):
            continue  # parsed only with a new word a time or a standing order holds
        got = parse_as(other.text)
        if not isinstance(got, Draft):
            continue
        theirs = got.objective
        same = (theirs.agent, theirs.verb, theirs.priority, theirs.forbidden_lines) == (
            mine.agent,
            mine.verb,
            mine.priority,
            mine.forbidden_lines,
        )
        deadline = theirs.deadline if mine.deadline is None else mine.deadline
        autonomy = theirs.autonomy if mine.autonomy == "brief" else mine.autonomy
        adds = (deadline, autonomy) != (mine.deadline, mine.autonomy)
        if not same or not adds or theirs.deadline != deadline or theirs.autonomy != autonomy:
            continue
        if autonomy == "free":
            continue
        words = tuple(WordProb(*w) for w in alt.carried(text, heard.words, other.text))
        unsure: UncertainField | None = "deadline" if mine.deadline is None and deadline else None
        return weigh(got, msgspec.structs.replace(heard, words=words), unsure=unsure)
    return None


__all__ = ["understand"]
