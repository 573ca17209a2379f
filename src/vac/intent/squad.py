"""Squad comms: one household channel, five message kinds, two realms.

Routing is a table from kind to (recipients, time-sensitive, needs the
steward, duckable). Banter is throttled to one per 45 s so chatter never buries
a callout; the throttle takes `now_ms` from the caller. The realm (home, or
incarnated in another world) changes nothing but the label: the same script
must give the same message shapes in both, which `compare_realm_parity` checks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Literal, NamedTuple

import msgspec

from vac.intent.errors import SquadMessageInvalid, SquadSenderUnauthorized
from vac.intent.roster import Roster, resolve_agent

SquadKind = Literal[
    "status-report", "callout", "permission-request", "inter-agent-banter", "directed-order"
]
SQUAD_KINDS: Final[tuple[str, ...]] = (
    "status-report",
    "callout",
    "permission-request",
    "inter-agent-banter",
    "directed-order",
)
Realm = Literal["home", "incarnated"]
REALMS: Final[tuple[str, ...]] = ("home", "incarnated")
STEWARD: Final = "steward"
BANTER_WINDOW_MS: Final = 45_000
MAX_TEXT_CHARS: Final = 500


class _Rule(NamedTuple):
    time_sensitive: bool
    needs_steward: bool
    duckable: bool
    agent_only: bool  # only an agent may send it (the steward doesn't banter)


_RULES: Final[dict[str, _Rule]] = {
    "status-report": _Rule(False, False, False, True),
    "callout": _Rule(True, False, False, False),
    "permission-request": _Rule(True, True, False, True),
    "inter-agent-banter": _Rule(False, False, True, True),
    "directed-order": _Rule(False, False, False, False),
}


class SquadPost(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What a sender says; `to` names the agent of a directed order, or the
    agent a permission-request asks (besides the stewards)."""

    kind: SquadKind
    sender: str
    text: str
    to: str | None = None


class RoutedMessage(msgspec.Struct, frozen=True):
    """A message as delivered. A throttled banter comes back `dropped` with a
    reason and `retry_after_ms`, delivered to nobody."""

    kind: SquadKind
    sender: str
    recipients: list[str]
    time_sensitive: bool
    needs_steward: bool
    duckable: bool
    realm: Realm
    text: str
    at_ms: int
    dropped: bool = False
    drop_reason: str | None = None
    retry_after_ms: int | None = None


class BanterThrottle:
    """At most one banter per `window_ms` for the whole channel."""

    def __init__(self, window_ms: int = BANTER_WINDOW_MS) -> None:
        self.window_ms = window_ms
        self._last_ms: int | None = None

    def admit(self, now_ms: int) -> int | None:
        """None (and record it) when banter may pass; else ms until it may."""
        if self._last_ms is not None and now_ms - self._last_ms < self.window_ms:
            return self.window_ms - (now_ms - self._last_ms)
        self._last_ms = now_ms
        return None


def _canonical(name: str, roster: Roster, *, grounded: bool) -> str:
    """The squad member `name` names. A sender is an identity and must be
    spelled right; a spoken recipient is grounded like any heard name."""
    if name.strip().lower() == STEWARD:
        return STEWARD
    agent = roster.get(name)
    if agent is not None:
        return agent.name
    res = resolve_agent(name, roster) if grounded else None
    if res is None:
        raise SquadMessageInvalid(f"{name!r} is not in the squad")
    return res.agent


def route(
    message: SquadPost,
    roster: Roster,
    *,
    realm: Realm,
    now_ms: int,
    throttle: BanterThrottle,
) -> RoutedMessage:
    """Deliver `message`: recipients per kind, flags per kind, banter throttled."""
    rule = _RULES[message.kind]
    sender = _canonical(message.sender, roster, grounded=False)
    if rule.agent_only and sender == STEWARD:
        raise SquadSenderUnauthorized(
            f"kind: a {message.kind} is sent by an agent, not by a steward"
        )
    text = " ".join(message.text.split())
    if not text:
        raise SquadMessageInvalid("text: must not be empty")
    text = text[:MAX_TEXT_CHARS]
    others = [a.name for a in roster if a.name != sender]
    if message.to is not None and message.kind not in ("permission-request", "directed-order"):
        # Its recipients are fixed by its kind: a `to` would be dropped unseen
        # (a client-author probe sent banter "to" one agent; all heard it).
        raise SquadMessageInvalid(
            f"to: a {message.kind} goes to everyone it is for; only a directed-order"
            " or a permission-request names an agent"
        )
    if message.kind == "status-report":
        recipients = [STEWARD]
    elif message.kind == "permission-request":
        # Always the stewards; `to` adds the agent asked, who may answer too.
        to = STEWARD if message.to is None else _canonical(message.to, roster, grounded=True)
        if to == sender:
            raise SquadMessageInvalid("to: a permission-request asks someone else")
        recipients = [STEWARD] if to == STEWARD else [STEWARD, to]
    elif message.kind == "callout":
        recipients = ([] if sender == STEWARD else [STEWARD]) + others
    elif message.kind == "inter-agent-banter":
        recipients = others
    else:
        if message.to is None:
            raise SquadMessageInvalid("to: a directed order names its agent")
        to = _canonical(message.to, roster, grounded=True)
        if to in (STEWARD, sender):
            raise SquadMessageInvalid("to: a directed order goes to another agent")
        recipients = [to]
    routed = RoutedMessage(
        message.kind,
        sender,
        recipients,
        rule.time_sensitive,
        rule.needs_steward,
        rule.duckable,
        realm,
        text,
        now_ms,
    )
    if message.kind == "inter-agent-banter":
        wait_ms = throttle.admit(now_ms)
        if wait_ms is not None:
            return msgspec.structs.replace(
                routed,
                recipients=[],
                dropped=True,
                drop_reason="banter-throttled",
                retry_after_ms=wait_ms,
            )
    return routed


class ScriptStep(msgspec.Struct, frozen=True):
    at_ms: int
    message: SquadPost


def _shape(m: RoutedMessage) -> tuple[object, ...]:
    # Everything but the realm label itself.
    return (
        m.kind,
        m.sender,
        tuple(m.recipients),
        m.time_sensitive,
        m.needs_steward,
        m.duckable,
        m.text,
        m.at_ms,
        m.dropped,
        m.drop_reason,
        m.retry_after_ms,
    )


def run_script(script: Sequence[ScriptStep], roster: Roster, realm: Realm) -> list[RoutedMessage]:
    throttle = BanterThrottle()
    return [
        route(s.message, roster, realm=realm, now_ms=s.at_ms, throttle=throttle) for s in script
    ]


def compare_realm_parity(script: Sequence[ScriptStep], roster: Roster) -> list[str]:
    """Run `script` at home and incarnated; every shape mismatch (empty = parity)."""
    home = run_script(script, roster, "home")
    away = run_script(script, roster, "incarnated")
    mismatches = [
        f"step {i}: home {_shape(h)} != incarnated {_shape(a)}"
        for i, (h, a) in enumerate(zip(home, away, strict=True))
        if _shape(h) != _shape(a)
    ]
    return mismatches


def parity_scenario(roster: Roster) -> list[ScriptStep]:
    """A script exercising every kind and the banter throttle."""
    a, b = roster.agents[0].name, roster.agents[-1].name
    return [
        ScriptStep(0, SquadPost("status-report", a, "The gate is fixed.")),
        ScriptStep(1_000, SquadPost("callout", b, "Smoke by the grove!")),
        ScriptStep(2_000, SquadPost("permission-request", a, "May I cross the river?")),
        ScriptStep(3_000, SquadPost("inter-agent-banter", b, "Nice work on that gate.")),
        ScriptStep(10_000, SquadPost("inter-agent-banter", a, "Thanks!")),  # throttled
        ScriptStep(50_000, SquadPost("inter-agent-banter", a, "Thanks, really.")),
        ScriptStep(51_000, SquadPost("directed-order", STEWARD, "Check the hives.", to=b)),
    ]
