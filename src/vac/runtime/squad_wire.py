"""A routed squad message as it goes on the wire (`squad.message`)."""

from __future__ import annotations

from typing import Final

from vac import intent
from vac.intent.squad import BANTER_WINDOW_MS
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


_DROPPED: Final = {
    "banter-throttled": "banter between agents is held to one message every"
    f" {BANTER_WINDOW_MS // 1000} s, so it never buries the steward's own business",
}


def routed_or_refused(routed: intent.RoutedMessage) -> intent.RoutedMessage:
    """A throttled message (banter) is `rate_limited`, with when to retry."""
    if routed.dropped:
        wait_ms = routed.retry_after_ms or 1000
        # For people (§6): it said only "banter-throttled" (a client probe).
        said = _DROPPED.get(routed.drop_reason or "", "this squad message was not sent")
        raise ProtocolError(
            "rate_limited",
            f"{said}; try again in {max(1, round(wait_ms / 1000))} s",
            details={"retry_after_ms": wait_ms, "reason": routed.drop_reason or "dropped"},
        )
    return routed
