"""A routed squad message as it goes on the wire (`squad.message`)."""

from __future__ import annotations

from vac import intent
from vac.protocol.errors import ProtocolError
from vac.protocol.messages import SquadMessage


def squad_message(
    routed: intent.RoutedMessage, ref: str | None, turn: str | None, message_id: str, by: str
) -> SquadMessage:
    """The sender's copy carries its `ref` and the `turn` it started (§9);
    `by` is the principal whose session sent it."""
    return SquadMessage(
        ref=ref,
        turn=turn,
        message_id=message_id,
        kind=routed.kind,
        sender=routed.sender,
        recipients=list(routed.recipients),
        text=routed.text,
        realm=routed.realm,
        time_sensitive=routed.time_sensitive,
        needs_steward=routed.needs_steward,
        duckable=routed.duckable,
        by=by,
    )


def routed_or_refused(routed: intent.RoutedMessage) -> intent.RoutedMessage:
    """A throttled message (banter) is `rate_limited`, with when to retry."""
    if routed.dropped:
        raise ProtocolError(
            "rate_limited",
            routed.drop_reason or "squad message dropped",
            details={"retry_after_ms": routed.retry_after_ms or 1000},
        )
    return routed
