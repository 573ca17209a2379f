"""JSON Schema of every VAC/1 message, generated from the Structs with msgspec.

Independent clients check themselves against this (`vac schema`).
"""

from __future__ import annotations

from typing import Any

import msgspec

from vac.protocol.messages import InboundMessage, OutboundMessage


def message_schemas() -> dict[str, Any]:
    """`{"inbound": ..., "outbound": ..., "$defs": ...}` for both directions."""
    (inbound, outbound), defs = msgspec.json.schema_components(
        [InboundMessage, OutboundMessage], ref_template="#/$defs/{name}"
    )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "VAC/1 messages (headers; payload frames are raw PCM)",
        "inbound": inbound,
        "outbound": outbound,
        "$defs": defs,
    }
