"""A yes or no that names one of several drafts waiting in the session.

"yes to the gate one", "cancel Zuri's", "the second one, yes": the draft
named (`intent.picked`) is confirmed or rejected as a yes or no would be
with it alone. Spoken, the words must be heard as surely as a yes or no
is, and a yes as surely as a lift (`lifted.heard_surely`): a pick confirms, and a
misheard thing could name the other draft. "Both", "all of them": one at a
time (a turn decides one draft).
"""

from __future__ import annotations

import datetime as dt
import time
from typing import Final

import msgspec

from vac import intent
from vac.intent import lexicon as lx
from vac.intent.picks import PickKind
from vac.runtime.amend import Reading, still_waiting
from vac.runtime.change_words import sounds_like_a_change
from vac.runtime.choices import ANSWER_WINDOW_S, Clarification
from vac.runtime.decisions import Plan, Planner
from vac.runtime.lifted import heard_surely


class Several:
    """One session's picks among its drafts, and the "which one?" it asked
    last: "the gate one" said next is picked with the yes or no asked about."""

    def __init__(self, planner: Planner) -> None:
        self._planner = planner
        self._asked: tuple[PickKind, float] | None = None  # the kind, when (monotonic s)
        # The last answered objective a question about other words was asked
        # after: words said now answer that question (`_after_answer`). One id
        # at most: only the session's last objective is ever read against.
        self._closed: set[str] = set()

    def pick(
        self, turn_id: str, said: tuple[str, float, intent.Evidence | None], now: dt.datetime
    ) -> Plan | Clarification | None:
        """The confirm or reject of the draft `said` names among several, a
        question for "both", or None: no pick (the words are read as before)."""
        text, confidence, evidence = said
        asked, self._asked = self._asked, None  # "which one?" is answered once
        planner, session = self._planner, self._planner.session
        live = planner.shared.book.pending(session.principal, now=now, session=session.id)
        if not live:
            return self._after_answer(turn_id, said, now) or self._taken_back(text, now)
        named = [intent.Named(e.objective.agent, e.objective.target.label) for e in live]
        got = intent.picked(text, named)
        if got is None and asked is not None and time.monotonic() - asked[1] <= ANSWER_WINDOW_S:
            got = intent.picked(f"{_SAID[asked[0]]}, {text}", named)  # "the gate one"
        if got is None or not _heard(got.kind, confidence, evidence):
            return None
        if got.at is None:
            self._asked = (got.kind, time.monotonic())
            word = "yes to" if got.kind == "confirm" else "cancel"
            return Clarification(
                "reply-unclear",
                f'One at a time, please: say "{word} the {_thing(live[0])} one", '
                f"then the next. Waiting: {_shown(live, now)}.",
            )
        oid = live[got.at].objective.id
        if got.kind == "reject":
            return planner.reject(turn_id, oid, now, None)
        return planner.confirm(turn_id, oid, None, None, now, None)

    def _taken_back(self, text: str, now: dt.datetime) -> Clarification | None:
        """A cancel naming an objective confirmed already ("actually, cancel
        the gate job"; a conversation probe, T22c: the list of verbs): how to
        take it back, with its id. Words are not enough for that."""
        session = self._planner.session
        mine = [e for e in self._planner.shared.book.entries() if e.principal == session.principal]
        opened = [e for e in mine if e.objective.status in _OPEN]
        named = [intent.Named(e.objective.agent, e.objective.target.label) for e in opened]
        got = intent.picked(text, named) if opened else None
        if got is None or got.kind != "reject" or got.at is None:
            return None
        found = opened[got.at]
        return Clarification(
            "reply-unclear",
            f'"{_restated(found, now)}" was confirmed already ({found.objective.status}). '
            f"To take it back, withdraw it: `vac withdraw {found.objective.id}`.",
        )

    def waiting(self, now: dt.datetime, no: bool = False) -> Clarification | None:
        """A yes or no (`no`) said while several drafts wait in the session:
        which one? While none waits: nothing to answer, and how to take back
        what was confirmed. (Typed probes: both got "I heard you, but not
        what to do"; "cancel that" right after a confirm was thought done.)"""
        session = self._planner.session
        live = self._planner.shared.book.pending(session.principal, now=now, session=session.id)
        if not live:
            if (left := self.waits_on_you(now)) is not None:
                return Clarification(
                    "reply-unclear", f"No draft is waiting for a yes or no. {left}"
                )
            back = " To take back one already confirmed, withdraw it: `vac withdraw ID`"
            none = "No draft is waiting for a yes or no here."
            return Clarification(
                "reply-unclear", none + (back + " (`vac objectives`)." if no else "")
            )
        if len(live) < 2:
            return None
        self._asked = ("reject" if no else "confirm", time.monotonic())
        return Clarification(
            "reply-unclear",
            f"{len(live)} drafts are waiting, so I can't tell which you mean: "
            f'{_shown(live, now)}. Say which ("yes to the {_thing(live[0])} one", '
            f'"cancel the {_thing(live[1])} one", "the second one, yes"), or confirm on screen.',
        )

    def _last_answered(
        self, now: dt.datetime, statuses: tuple[str, ...]
    ) -> intent.DraftEntry | None:
        """The session's last objective, if an agent's answer left it in
        `statuses` and it was made lately: one confirmed after it is what
        words said now are about (a review)."""
        session = self._planner.session
        mine = [
            e
            for e in self._planner.shared.book.entries()
            if e.principal == session.principal and e.session == session.id
        ]
        if not mine:
            return None
        last = max(mine, key=lambda e: e.created_at)
        if last.objective.status not in statuses or now - last.created_at > _RECENT:
            return None
        return last

    def _after_answer(
        self, turn_id: str, said: tuple[str, float, intent.Evidence | None], now: dt.datetime
    ) -> Plan | None:
        """A change said to the objective an agent deferred, asked back about
        or refused, with no draft waiting: a new draft of it, changed ("make
        it urgent then", "fine, let Kofi do it instead"; a conversation probe
        got the list of verbs). The old one stays as it is, to withdraw."""
        last = self._last_answered(now, _ANSWERED)
        if last is None or last.objective.id in self._closed:
            return None  # a question about other words was asked since (a review: its
        if self._planner.over_quota(now) is not None:  # answer changed the deferred one)
            return None
        again = msgspec.structs.replace(
            last.objective, status="draft", confirmed_by_steward=False, accepted_by_agent=False
        )
        entry = msgspec.structs.replace(last, objective=again, state="pending", counter_of=None)
        text, confidence, evidence = said
        if _own_order(text):
            return None  # "ask Zuri to repair the gate": its own draft, read as ever (and cheaply)
        reading = Reading(now, self._planner.shared.roster, None)
        got = reading.changed(text, confidence, evidence, entry)
        if not isinstance(got, intent.Draft):
            return None
        new, was = got.objective, last.objective
        if new.agent == was.agent and new.priority <= was.priority:
            return None  # "it can wait", "no rush": agreeing to wait, no new draft (a review)
        return self._planner.draft(turn_id, got, now, None)

    def waits_on_you(self, now: dt.datetime) -> str | None:
        """What an agent's answer in this session left waiting on the steward
        (deferred, or asked back), and how to go on: VAC/1 has no message
        that answers the agent, so words said next are their own (a
        conversation probe: "make it urgent then", "yes" after a defer got
        "I heard you, but not what to do" or "No draft is waiting")."""
        found = self._last_answered(now, ("deferred", "clarifying"))
        if found is None:
            return None
        last = found.objective
        said = intent.restate(last, None, now=now).removesuffix(" — confirm?")
        return (
            f'{last.agent} answered, and "{said}" waits on you ({last.status}). To change it, '
            "say the whole order again with the change (a new draft), and withdraw the old "
            "one (on screen, or `vac withdraw ID`)."
        )

    def still_waiting(
        self, clarify: intent.Clarify, pending: intent.DraftEntry | None, now: dt.datetime
    ) -> str:
        """`amend.still_waiting`, and with no draft pending what the agent's
        answer left waiting, when the words sound like a change to it."""
        names = self._planner.shared.roster.names()
        if clarify.reason in ("question", "no-verb") and (
            asked := intent.status_asked(clarify.source_text, names)
        ):
            if asked.again and pending is not None:  # "say again", "pardon?": the draft (T28c)
                return intent.restate(pending.objective, pending.wording, now=now)
            return self.status(now, asked.agent)  # "what's pending?", "what's Kofi doing?"
        question = still_waiting(clarify, pending, now, names)
        about_words = clarify.reason != "no-verb" or clarify.heard_as or clarify.candidates
        if about_words and (last := self._last_answered(now, _ANSWERED)) is not None:
            self._closed = {last.objective.id}  # "One agent at a time: Kofi or Zuri?"
        if pending is not None or not sounds_like_a_change(clarify.source_text, names):
            return question
        if about_words:
            return question  # a question about the words just said: asked (a review)
        left = self.waits_on_you(now)
        quoted = clarify.source_text if len(clarify.source_text) <= 80 else "…"
        return question if left is None else f'I didn\'t change anything with "{quoted}". {left}'

    def status(self, now: dt.datetime, agent: str | None) -> str:
        """What waits for the steward's yes in this session, and their
        objectives still open with an agent (of `agent` only, if named)."""
        session = self._planner.session
        book = self._planner.shared.book
        live = book.pending(session.principal, now=now, session=session.id)
        mine = [e for e in book.entries() if e.principal == session.principal]
        opened = [e for e in mine if e.objective.status in _OPEN]
        if agent is not None:
            live = [e for e in live if e.objective.agent == agent]
            opened = [e for e in opened if e.objective.agent == agent]
        said: list[str] = []
        if live:
            said.append(f"Waiting for your yes: {_shown(live, now)}.")
        if opened:
            with_agents = [f"{_restated(e, now)} ({e.objective.status})" for e in opened[:_LISTED]]
            more = "; …" if len(opened) > _LISTED else ""
            said.append(f"With the agents: {'; '.join(with_agents)}{more}.")
        if not said:
            whose = f" with {agent}" if agent is not None else ""
            return f"Nothing is waiting for your yes, and nothing of yours is open{whose}."
        return " ".join(said) + " All of them: `vac objectives`."


# Open with an agent: confirmed, and not yet done, failed or taken back.
_OPEN: Final = frozenset(
    {"confirmed", "offered", "accepted", "countered", "deferred", "clarifying", "in-progress"}
)
_LISTED: Final = 3
# What an agent's answer may leave for the steward to change.
_ANSWERED: Final = ("deferred", "clarifying", "refused")
# What an agent's answer left waiting is recalled for this long.
_RECENT: Final = dt.timedelta(minutes=30)
_SAID: Final[dict[PickKind, str]] = {"confirm": "yes", "reject": "cancel"}


def _own_order(text: str) -> bool:
    """Whether `text` holds a verb of ours ("make it urgent" is no order)."""
    toks = lx.tokenize(text)
    hit = lx.find_first(toks, lx.VERB_PHRASES)
    if hit is None:
        return False
    at, verb = hit
    after = toks[at + 1].low if at + 1 < len(toks) else ""
    return not (verb == ("make",) and after in ("it", "that"))


def _restated(entry: intent.DraftEntry, now: dt.datetime) -> str:
    return intent.restate(entry.objective, entry.wording, now=now).removesuffix(" — confirm?")


def _shown(live: list[intent.DraftEntry], now: dt.datetime) -> str:
    said = [_restated(e, now) for e in live[:_LISTED]]
    return "; ".join(said) + ("; …" if len(live) > _LISTED else "")


def _thing(entry: intent.DraftEntry) -> str:
    return entry.objective.target.label.lower()


def _heard(kind: str, confidence: float, evidence: intent.Evidence | None) -> bool:
    if kind == "confirm":  # a yes's floor, and every word at 0.5 or more
        return heard_surely(confidence, evidence)
    typed = evidence is None or not evidence.words
    return typed or confidence >= intent.reply_floor(kind, weighed=True)


__all__ = ["Several"]
