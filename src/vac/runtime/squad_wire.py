"""A routed squad message as it goes on the wire (`squad.message`)."""

from __future__ import annotations

from vac import intent
from vac.protocol.messages import SquadMessage


def squad_message(routed: intent.RoutedMessage, ref: str | None, turn: str | None) -> SquadMessage:
    """The sender's copy carries its `ref` and the `turn` it started (§9)."""
    return SquadMessage(
        ref=ref,
        turn=turn,
        kind=routed.kind,
        sender=routed.sender,
        recipients=list(routed.recipients),
        text=routed.text,
        realm=routed.realm,
        time_sensitive=routed.time_sensitive,
        needs_steward=routed.needs_steward,
        duckable=routed.duckable,
    )
