"""A message id's stored outcome: the decision messages it was answered with.

PROTOCOL §2: a repeated `id` is never executed twice; it is answered with
the stored outcome. The outcome of every id that changed state is written to
the event log in the same transaction as the change, so the answer survives
a restart. Only control messages are kept (never audio), stamped with the
turn they belonged to; `session` and `seq` are stamped again when re-sent.
"""

from __future__ import annotations

from typing import Final

import msgspec

from vac.protocol.messages import Outbound, OutboundMessage

_encoder: Final = msgspec.msgpack.Encoder()
_decoder: Final = msgspec.msgpack.Decoder(list[OutboundMessage])


def encode_replies(msgs: list[Outbound]) -> bytes:
    """The replies of one message id, as stored in `outcomes.replies`."""
    return _encoder.encode([msgspec.structs.replace(m, session=None, seq=None) for m in msgs])


def decode_replies(blob: bytes) -> list[Outbound]:
    """Back from the event log; a row this build cannot read gives no replies."""
    try:
        return list(_decoder.decode(blob))  # type: ignore[arg-type]
    except msgspec.DecodeError:
        # A newer build's message shape: the id is still known, and answering
        # nothing is safer than executing it again.
        return []
