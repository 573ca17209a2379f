"""The base of every VAC/1 message: ids, and the inbound and outbound roots.

A leaf of the protocol package: `messages` and `agent_messages` build on it.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

# §2: ids are ≤ 64 printable ASCII; counters are non-negative.
Id = Annotated[str, msgspec.Meta(pattern=r"^[\x20-\x7e]{1,64}$")]
NonNeg = Annotated[int, msgspec.Meta(ge=0)]


class Inbound(
    msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True, tag_field="type"
):
    """A client → daemon message. Every one carries an `id` (§2).

    A field left at its default is not sent: a daemon is strict about fields
    it does not know, so a newer client must not send an addition it leaves
    unused (an operator probe: `vac objectives` sent `before: null`, and a
    daemon one release older refused the listing)."""

    id: Id


class Outbound(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, tag_field="type"):
    """A daemon → client message.

    `session` and `seq` are stamped by the connection when the message is sent
    (absent before a session exists, §2); `ref` is set on a turn's first
    message and on errors.
    """

    session: Id | None = None
    seq: NonNeg | None = None
    ref: Id | None = None
