"""Deciding on evidence per slot: a draft, a draft with a field flagged, or a choice.

One utterance confidence cannot say *which* word was misheard, and the
steward confirms every draft anyway: so a spoken draft is weighed by the
recogniser's evidence for the words that carry it — the agent's name, the
verb, the deadline — not refused wholesale. Measured (docs/stt.md): the
probability of a name's own tokens separates right agents from wrong ones
far better than the utterance confidence.

    name sure                               → the draft as parsed
    name unsure, one roster name stands out → the draft, "I'm not sure of the name"
    name very unsure, two names close       → "Did you mean Imani or Abeni?"
    verb or deadline words unsure           → the draft, that field flagged

Pure: the recogniser's numbers in, a `Draft` or `Clarify` out. Typed text has
no evidence and is never weighed.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Sequence
from typing import Final

import msgspec

from vac.intent import alternatives as alt
from vac.intent import it_means, orders, passive, plain_verb
from vac.intent import lexicon as lx
from vac.intent.either_or import QUESTION as EITHER_OR_ASKED
from vac.intent.either_or import either_or
from vac.intent.parser import MIN_CONFIDENCE, Clarify, Draft, parse
from vac.intent.reply_words import REJECT_MIN_CONFIDENCE
from vac.intent.roster import Roster
from vac.protocol.objective import UncertainField

# Tuned on the dev half of the understanding benchmark (docs/understanding.md).
# Below this, the words of a slot are flagged in the preview.
NAME_SURE: Final = 0.5
VERB_SURE: Final = 0.3
DEADLINE_SURE: Final = 0.3
# A name this unsure, with a second roster name at least this likely, is asked.
NAME_ASK_BELOW: Final = 0.1
SECOND_NAME_AT_LEAST: Final = 0.25
# A spoken "yes" binds an agent: it needs this utterance confidence (a typed
# one needs none). tiny.en scores a right one-word reply low: "Yes." 0.46-0.60
# and "Cancel." 0.55 on the fixtures, multi-word replies 0.54-0.85 on the dev
# half; a reply is only ever read when exactly one draft is pending.
SPOKEN_CONFIRM_MIN_CONFIDENCE: Final = 0.4
SPOKEN_REJECT_MIN_CONFIDENCE: Final = 0.3
# The utterance confidence under which nothing is guessed when words carry
# evidence (typed text and evidence-less transcripts keep `MIN_CONFIDENCE`).
SPOKEN_MIN_CONFIDENCE: Final = 0.35

_FLAG_WORDS: Final[dict[UncertainField, str]] = {
    "agent": "the name",
    "verb": "what to do",
    "deadline": "when",
}
_TIME_WORDS: Final = frozenset(
    lx.words(
        "today tonight tomorrow week weekend month morning afternoon evening night noon "
        "midnight day days hour hours monday tuesday wednesday thursday friday saturday "
        "sunday january february march april may june july august september october "
        "november december"
    )
)


# A hypothesis that adds a deadline or a standing order to the best one holds
# a word of one that the best lacks (a day, "tonight", "every", "first", a
# number): one without such a word is not parsed (`_said_behind`), where each
# parse cost ~5 ms and up to four ran on most spoken commands.
_WHEN_WORDS: Final = _TIME_WORDS | frozenset(
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


class WordProb(msgspec.Struct, frozen=True, array_like=True):
    """A word of the transcript: its characters [start, end) and its probability."""

    start: int
    end: int
    prob: float


class NameChoice(msgspec.Struct, frozen=True, array_like=True):
    """A roster name scored in the name slot, with its share of the decoder's belief."""

    name: str
    posterior: float


class ReplyChoice(msgspec.Struct, frozen=True, array_like=True):
    """A reply phrase (`confirm`/`reject`) or the free transcript (`heard`),
    with its total log-probability given the audio."""

    kind: str
    text: str
    logprob: float


class Evidence(msgspec.Struct, frozen=True):
    """What the recogniser knows about its own transcript."""

    words: tuple[WordProb, ...] = ()
    names: tuple[NameChoice, ...] = ()  # best first; empty when no slot was rescored
    # Best first; empty unless a reply was expected and the utterance was short.
    replies: tuple[ReplyChoice, ...] = ()
    # The words the name slot held as the recogniser wrote them, when `names` were scored.
    name_heard: str | None = None
    # The beam's other hypotheses, best first (`intent.alternatives`).
    alternatives: tuple[alt.Alternative, ...] = ()


def reply_floor(kind: str, *, weighed: bool) -> float:
    """The utterance confidence a yes (`confirm`) or no (`reject`) needs to act.

    `weighed`: the words came with the recogniser's per-word evidence (the
    daemon's own decoding); without it the older, stricter floors hold.
    """
    if kind == "confirm":
        return SPOKEN_CONFIRM_MIN_CONFIDENCE if weighed else MIN_CONFIDENCE
    return SPOKEN_REJECT_MIN_CONFIDENCE if weighed else REJECT_MIN_CONFIDENCE


def span_prob(evidence: Evidence, start: int, end: int) -> float | None:
    """The least sure word overlapping characters [start, end), if any."""
    probs = [w.prob for w in evidence.words if w.start < end and w.end > start]
    return min(probs) if probs else None


def weigh(
    draft: Draft, evidence: Evidence, *, unsure: UncertainField | None = None
) -> Draft | Clarify:
    """The draft as the evidence supports it (see the module's table);
    `unsure` is flagged whatever its words' evidence."""
    if not evidence.words:
        return draft
    source = draft.objective.source_text
    flags: list[UncertainField] = []
    name_p = _name_prob(draft, evidence, source)
    if name_p is not None and name_p < NAME_SURE:
        choice = _choice(draft, evidence, name_p)
        if choice is not None:
            return choice
        flags.append("agent")
    toks = lx.tokenize(source)
    verb_p = _verb_prob(toks, evidence)
    if verb_p is not None and verb_p < VERB_SURE:
        flags.append("verb")
    if draft.objective.deadline is not None:
        when_p = _min_over(toks, evidence, lambda t: t.low in _TIME_WORDS or t.low[:1].isdigit())
        if when_p is not None and when_p < DEADLINE_SURE:
            flags.append("deadline")
    if unsure is not None and unsure not in flags:
        flags = [f for f in _FLAG_WORDS if f in flags or f == unsure]
    if not flags:
        return draft
    return msgspec.structs.replace(
        draft, uncertain=tuple(flags), summary=flagged_summary(draft.summary, flags)
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

    result = parse_as(text)
    if isinstance(result, Draft) and either_or(text, roster.names()):  # "…; if not, Abeni, you go"
        return Clarify("uncertain-agent", EITHER_OR_ASKED, text, confidence)
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
) -> Draft | None:
    """ "The gate is broken, fix it": "it" read as the gate (`intent.passive`),
    the draft weighed on the words as said; the objective keeps them."""
    meant = it_means.with_antecedent(text) or passive.on_its_own(text)  # "…won't fix itself"
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


def with_flags(draft: Draft, flags: Sequence[UncertainField]) -> Draft:
    """`draft` with `flags` as its unsure fields, said in its summary; a
    draft flagged already is kept as it is (its summary says so)."""
    if not flags or draft.uncertain:
        return draft
    ordered = [f for f in _FLAG_WORDS if f in flags]
    return msgspec.structs.replace(
        draft, uncertain=tuple(ordered), summary=flagged_summary(draft.summary, ordered)
    )


def flagged_summary(summary: str, flags: Sequence[UncertainField]) -> str:
    """The summary with the unsure fields said: "Imani will map the orchard —
    confirm?" → "Imani will map the orchard? — I'm not sure of the name. Confirm?"."""
    what = " or ".join(_FLAG_WORDS[f] for f in flags)
    head, sep, tail = summary.partition(" — confirm?")
    if not sep:
        return f"{summary} — I'm not sure of {what}."
    return f"{head}? — I'm not sure of {what}. Confirm?{tail}"


def _name_prob(draft: Draft, evidence: Evidence, source: str) -> float | None:
    if draft.agent_source in ("current", "default"):
        # No name was heard: one may have been said and lost ("Telco Phi to…"),
        # so a spoken draft sent to whoever is current is never a sure one.
        return 0.0 if draft.agent_source == "default" else NAME_SURE / 2
    if draft.agent_source == "rescored":
        # A name no one has, taken as the roster name the rescoring preferred
        # and spelled most like it ("Yuri" → Zuri): never a sure one.
        return NAME_SURE / 2
    if draft.heard_as is None:
        return None
    at = source.lower().find(draft.heard_as.lower())
    if at < 0:
        return None
    p = span_prob(evidence, at, at + len(draft.heard_as))
    if p is not None and _beam_doubts(draft.heard_as, evidence):
        # The beam's next hypotheses close behind wrote another name there
        # ("Tariq," over "Tari,", "Turi,": joe's "Zuri", a probe): drafted
        # unflagged for Tariq at 0.54-0.67, over the 0.5 floor.
        return min(p, NAME_SURE / 2)
    if draft.agent_source in ("fuzzy", "phonetic") and p is not None:
        # A name read from words spelled like it ("A mani," → Imani) is no
        # sure one, however sure its words: on dev and six fresh voices 2
        # of 4 unflagged such drafts named the wrong agent (Abeni's).
        return min(p, NAME_SURE / 2)
    return p


def _beam_doubts(heard_as: str, evidence: Evidence) -> bool:
    """Whether a hypothesis within `alt.MAX_BEHIND` nats lacks the name as heard."""
    said = re.compile(rf"\b{re.escape(heard_as)}\b", re.IGNORECASE)
    return any(
        a.behind <= alt.MAX_BEHIND and not said.search(a.text) for a in evidence.alternatives
    )


def _choice(draft: Draft, evidence: Evidence, name_p: float) -> Clarify | None:
    """ "Did you mean Imani or Abeni?" when the name is a near toss-up."""
    names = [n for n in evidence.names if n.posterior >= SECOND_NAME_AT_LEAST]
    if draft.heard_as is None or name_p >= NAME_ASK_BELOW or len(names) < 2:
        return None
    first, second = names[0].name, names[1].name
    return Clarify(
        "uncertain-agent",
        f"Did you mean {first} or {second}?",
        draft.objective.source_text,
        draft.objective.confidence,
        candidates=(first, second),
        heard_as=draft.heard_as,
    )


def _verb_prob(toks: Sequence[lx.Tok], evidence: Evidence) -> float | None:
    hit = lx.find_first(toks, lx.VERB_PHRASES)
    if hit is None:
        return None
    i, phrase = hit
    return span_prob(evidence, toks[i].start, toks[i + len(phrase) - 1].end)


def _min_over(
    toks: Sequence[lx.Tok], evidence: Evidence, pick: Callable[[lx.Tok], bool]
) -> float | None:
    probs = [p for t in toks if pick(t) and (p := span_prob(evidence, t.start, t.end)) is not None]
    return min(probs) if probs else None
