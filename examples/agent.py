"""A small VAC/1 agent (PROTOCOL §9): it answers offers and reports progress.

Enrol it once, then run it beside the daemon:

    vac keys enroll kofi --agent
    python examples/agent.py kofi            # --home, --connect as for `vac`

It accepts work within its hours, refuses anything that crosses its values,
defers outside its hours, and reports `in-progress` then `done` after a
delay. The decision is one function, `decide`: that is where an LLM call or
a home-automation bot plugs in (see the end of this file). Everything else
is the wire: one DEALER connection through the project's client library,
`hello`, then a loop that answers `objective.offer` within `answer_by_ms`
and pings so the session never goes idle.
"""

from __future__ import annotations

import argparse
import datetime as dt
import heapq
import sys
import time
from dataclasses import dataclass, field

from vac.client.connection import Connection, Timeout, connect_from_home
from vac.client.errors import ClientError
from vac.home import Home
from vac.protocol.messages import (
    Error,
    ObjectiveAnswer,
    ObjectiveOffer,
    ObjectiveProgress,
    ObjectiveUpdated,
    Ping,
)
from vac.protocol.objective import Objective


@dataclass(frozen=True)
class Answer:
    decision: str  # accept, clarify, counter-offer, defer, refuse
    reply: str  # spoken to the steward
    reason: str = ""
    evidence: tuple[str, ...] = ()


@dataclass
class Values:
    """What this agent will not do, and when it works."""

    never: tuple[str, ...] = ("lie", "deceive", "steal", "spy", "threaten", "hurt")
    hours: tuple[int, int] = (6, 22)  # works from 06:00 to 22:00, local time


def decide(objective: Objective, values: Values, now: dt.datetime) -> Answer:
    """The agent's own judgement. Replace this with your agent's brain.

    An LLM agent would put the objective (its verb, target, deadline,
    boundaries and the steward's own words in `source_text`) into a prompt
    and map the model's answer to one of the five decisions; a
    home-automation bot would check that the device exists and is free.
    Whatever it is, answer within `answer_by_ms`: after that the daemon's
    built-in negotiator answers for you.
    """
    words = objective.source_text.lower().replace(",", " ").split()
    crossed = [w for w in values.never if w in words]
    if crossed:
        return Answer(
            "refuse",
            f"I won't {crossed[0]}, not even for this.",
            reason="crosses my values",
            evidence=tuple(f"value:{w}" for w in crossed),
        )
    start, end = values.hours
    if not start <= now.hour < end:
        return Answer("defer", "It's outside my hours; I'll take it in the morning.", "hours")
    task = f"{objective.verb.lower()} the {objective.target.label.lower()}"
    return Answer("accept", f"On it: I'll {task}.", reason="fits my day")


@dataclass(order=True)
class Report:
    at_s: float
    objective_id: str = field(compare=False)
    state: str = field(compare=False)


class Agent:
    def __init__(self, conn: Connection, values: Values, work_s: float) -> None:
        self.conn = conn
        self.values = values
        self.work_s = work_s
        self.reports: list[Report] = []  # progress to send, soonest first
        self.sent: dict[str, Report] = {}  # progress sent, by message id, until answered

    def run(self, until_s: float | None = None) -> None:
        ok = self.conn.hello(client="example-agent")
        if ok.role != "agent":
            raise SystemExit(
                f"{ok.principal} is not enrolled as an agent (vac keys enroll --agent)"
            )
        print(f"agent {ok.principal} attached; waiting for offers", flush=True)
        heartbeat_s = ok.heartbeat_ms / 1000 / 2
        last_sent_s = time.monotonic()
        while until_s is None or time.monotonic() < until_s:
            wait_s = heartbeat_s
            if self.reports:
                wait_s = max(0.0, min(wait_s, self.reports[0].at_s - time.monotonic()))
            try:
                msg, _ = self.conn.recv(wait_s)
            except Timeout:
                msg = None
            if isinstance(msg, ObjectiveOffer):
                self.on_offer(msg)
                last_sent_s = time.monotonic()
            elif isinstance(msg, ObjectiveUpdated):
                o = msg.objective
                self.sent.pop(msg.ref or "", None)
                print(f"  {o.id[:8]} is {o.status} (by {msg.by})", flush=True)
            elif isinstance(msg, Error) and msg.code == "busy" and msg.ref in self.sent:
                # Our answer is still being written: report again when told,
                # and nothing of that objective before it (in-progress, then done).
                self.retry(self.sent.pop(msg.ref), (msg.details or {}).get("retry_after_ms", 200))
            elif isinstance(msg, Error):
                self.sent.pop(msg.ref or "", None)
                print(f"  daemon says {msg.code}: {msg.message}", flush=True)
            while self.reports and self.reports[0].at_s <= time.monotonic():
                report = heapq.heappop(self.reports)
                msg_id = self.conn.next_id()
                self.sent[msg_id] = report
                self.conn.send(
                    ObjectiveProgress(
                        id=msg_id,
                        objective_id=report.objective_id,
                        state=report.state,  # type: ignore[arg-type]
                        note="",
                    )
                )
                last_sent_s = time.monotonic()
            if time.monotonic() - last_sent_s >= heartbeat_s:
                self.conn.send(Ping(id=self.conn.next_id()))  # stay attached (§3)
                last_sent_s = time.monotonic()

    def retry(self, report: Report, after_ms: int) -> None:
        at_s = time.monotonic() + after_ms / 1000
        later = [r for r in self.reports if r.objective_id == report.objective_id]
        for r in later:  # §9: in-progress before done, so nothing of it overtakes
            r.at_s = max(r.at_s, at_s + 0.01)
        heapq.heapify(self.reports)
        heapq.heappush(self.reports, Report(at_s, report.objective_id, report.state))

    def on_offer(self, offer: ObjectiveOffer) -> None:
        answer = decide(offer.objective, self.values, dt.datetime.now())
        print(f"offer {offer.objective.id[:8]}: {answer.decision} — {answer.reply}", flush=True)
        self.conn.send(
            ObjectiveAnswer(
                id=self.conn.next_id(),
                offer=offer.offer,
                decision=answer.decision,  # type: ignore[arg-type]
                reply=answer.reply,
                reason=answer.reason,
                evidence=list(answer.evidence),
            )
        )
        if answer.decision == "accept":
            now_s = time.monotonic()
            heapq.heappush(
                self.reports, Report(now_s + self.work_s / 2, offer.objective.id, "in-progress")
            )
            heapq.heappush(self.reports, Report(now_s + self.work_s, offer.objective.id, "done"))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument(
        "name", help="the agent's principal, enrolled with `vac keys enroll NAME --agent`"
    )
    p.add_argument("--home", help="the vac home (default: $VAC_HOME or ~/.local/state/vac)")
    p.add_argument("--connect", help="the daemon's endpoint (default: $VAC_CONNECT or the default)")
    p.add_argument("--work-s", type=float, default=5.0, help="seconds from accepting to done")
    p.add_argument("--hours", default="6-22", help="working hours, e.g. 6-22")
    p.add_argument("--for-s", type=float, help="stop after this many seconds (tests, demos)")
    args = p.parse_args(argv)
    home = Home.resolve(args.home)
    start, end = (int(x) for x in args.hours.split("-"))
    key = home.clients_dir / f"{args.name}.key_secret"
    try:
        with connect_from_home(home, args.connect, key=key) as conn:
            until_s = time.monotonic() + args.for_s if args.for_s else None
            Agent(conn, Values(hours=(start, end)), args.work_s).run(until_s)
    except ClientError as exc:
        print(f"agent: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())

# Plugging in a brain, e.g. an LLM behind an HTTP API (sketch, not run here):
#
#     def decide(objective, values, now):
#         prompt = f"You are {objective.agent}. Your steward asks: {objective.source_text!r}."
#         "Answer ACCEPT, DEFER, REFUSE or CLARIFY and one sentence to say aloud."
#         verdict, sentence = call_your_model(prompt)   # must return within answer_by_ms
#         return Answer(verdict.lower(), sentence)
#
# A home-automation bot would instead look the target up in its device list
# and answer "refuse" (no such device), "defer" (busy) or "accept", then send
# `objective.progress` as the device reports.
