"""The VAC/1 frame codec (PROTOCOL §2): marker, header, optional payload.

Sans-IO: frames in, typed messages out, and back. This is the single inbound
boundary where `msgspec.DecodeError` and every framing rule become a
`ProtocolError` with its wire code — no byte sequence gets past here as
anything else.
"""

from __future__ import annotations

import re
from typing import Any, Final

import msgspec

from vac.protocol.errors import ProtocolError
from vac.protocol.messages import (
    INBOUND_PAYLOAD_TYPES,
    MARKER,
    PAYLOAD_TYPES,
    AudioInputChunk,
    Inbound,
    InboundMessage,
    Outbound,
    OutboundMessage,
    message_types,
    tag_of,
)
from vac.protocol.msgpack_scan import (
    Malformed,
    TooDeep,
    TooMany,
    check_depth,
    top_level_pairs,
)
from vac.protocol.objective import AGENT_PATTERN, DEADLINE_PATTERN, REF_PATTERN
from vac.protocol.text_safety import find_control

MAX_HEADER_BYTES: Final = 8 * 1024
_MARKER_PREFIX: Final = b"VAC/"
# A header nested thousands deep makes msgspec recurse until Python's limit:
# that is malformed input like any other, never an exception that escapes.
_UNREADABLE: Final = (msgspec.DecodeError, TypeError, ValueError, RecursionError)
_ID_MAX: Final = 64
# The deepest legitimate header is about 5 levels (header → edits →
# forbidden_lines → [ ] → {text, value_ref}); 16 leaves room to grow while
# staying far below where msgspec's recursion gets near Python's limit.
MAX_HEADER_DEPTH: Final = 16
# The largest legitimate header (a confirm editing every field: 24 forbidden
# lines, every constraint) has ~200 items; 1024 bounds the decoder's work on
# an 8 KiB header of tiny items to ~0.1 ms instead of ~3 ms.
MAX_HEADER_ITEMS: Final = 1024
# Their only strings are ids the decoder has already matched against a
# printable-ASCII pattern; `audio.input.chunk` is 50 a second per stream.
_NO_FREE_TEXT: Final = (AudioInputChunk,)

_inbound_decoder: Final = msgspec.msgpack.Decoder(InboundMessage)
_loose_decoder: Final = msgspec.msgpack.Decoder(dict[str, Any])
_any_decoder: Final = msgspec.msgpack.Decoder()
_encoder: Final = msgspec.msgpack.Encoder()

_OUTBOUND_BY_TAG: Final[dict[str, type[msgspec.Struct]]] = {
    tag_of(t): t for t in message_types(OutboundMessage)
}


def _readable_id(header: bytes) -> str | None:
    """The `id` of a header we could not fully decode, if it is a valid id."""
    if len(header) > MAX_HEADER_BYTES:
        return None
    try:
        # Never decode a header nested too deep (the decoder recurses). Only
        # the `id` pair is decoded: a wrong key or a bad string elsewhere
        # (an integer key, invalid UTF-8) still lets it be read (§2).
        check_depth(header, MAX_HEADER_DEPTH)
        ids = [v for k, v in top_level_pairs(header) or () if _key(k) == "id"]
        value = _any_decoder.decode(ids[0]) if len(ids) == 1 else None
    except _UNREADABLE:
        return None
    if isinstance(value, str) and 0 < len(value) <= _ID_MAX:
        return value if value.isascii() and value.isprintable() else None
    return None


def _check_marker(marker: bytes, header: bytes) -> None:
    """Frame 0; a refusal carries the header's id when it can be read (§2)."""
    if marker == MARKER:
        return
    if marker.startswith(_MARKER_PREFIX) and len(marker) <= 16:
        raise ProtocolError(
            "unsupported_version", "this daemon speaks VAC/1 only", ref=_readable_id(header)
        )
    raise ProtocolError(
        "invalid_message", "frame 0 must be the marker VAC/1", ref=_readable_id(header)
    )


def decode_inbound(frames: list[bytes]) -> tuple[InboundMessage, bytes | None]:
    """Decode one client message (routing id already removed).

    Returns the message and its payload (only for `audio.input.chunk`).
    Raises `ProtocolError` for every violation of §2, with `ref` set when the
    header's `id` could be read. Headers nested more than `MAX_HEADER_DEPTH`
    deep and strings carrying control characters (`text_safety`) are
    `invalid_message` too.
    """
    if len(frames) not in (2, 3):
        ref = _readable_id(frames[1]) if len(frames) > 1 else None
        raise ProtocolError(
            "invalid_message", f"expected 2 or 3 frames, got {len(frames)}", ref=ref
        )
    _check_marker(frames[0], frames[1])
    header = frames[1]
    if len(header) > MAX_HEADER_BYTES:
        raise ProtocolError(
            "invalid_message", f"header is {len(header)} bytes, over {MAX_HEADER_BYTES}"
        )
    # Before decoding, because msgspec recurses once per nesting level.
    # Cost (timeit, CPython 3.11): 1.2 µs for a 60-byte chunk header (the
    # whole decode is 2.5 µs); 1 µs for a 6 KB text.input, as strings are
    # skipped by length; 0.3-1 ms for 8 KiB made only of tiny items (2-char
    # strings, fixints, empty arrays: 40-130 ns an item); 3 µs to refuse
    # 8 KiB of nesting, which stops at level 17.
    try:
        check_depth(header, MAX_HEADER_DEPTH, MAX_HEADER_ITEMS)
    except TooDeep:
        raise ProtocolError(
            "invalid_message", f"header is nested more than {MAX_HEADER_DEPTH} levels deep"
        ) from None
    except TooMany:
        raise ProtocolError(
            "invalid_message", f"header has more than {MAX_HEADER_ITEMS} items"
        ) from None
    except Malformed:
        raise ProtocolError("invalid_message", "header is not a MessagePack map") from None
    if (twice := _repeated_key(header)) is not None:
        # A decoder keeps the last value: a relay or a log that kept the
        # first would see other words than those acted on (a client probe).
        raise ProtocolError(
            "invalid_message", f"header has the key {twice!r} twice", ref=_readable_id(header)
        )
    try:
        msg = _inbound_decoder.decode(header)
    except msgspec.ValidationError as exc:
        raise ProtocolError("invalid_message", _describe(exc), ref=_readable_id(header)) from None
    except msgspec.DecodeError as exc:
        raise ProtocolError(
            "invalid_message", _undecodable(exc), ref=_readable_id(header)
        ) from None
    except RecursionError:  # unreachable after the depth check; kept as a backstop
        raise ProtocolError("invalid_message", "header is nested too deeply") from None
    # Walks the Struct itself, not `to_builtins` of it: that raises TypeError
    # on an ext value inside `edits`. About 2 µs for a text.input; 0.1 µs an
    # item for 8 KiB of tiny items.
    if not isinstance(msg, _NO_FREE_TEXT) and (found := find_control(msg)):
        path, cp = found
        raise ProtocolError(
            "invalid_message", f"{path}: control character {cp} is not allowed", ref=msg.id
        )
    wants_payload = isinstance(msg, INBOUND_PAYLOAD_TYPES)
    if wants_payload and len(frames) != 3:
        raise ProtocolError("invalid_message", f"{_tag(msg)} needs a payload frame", ref=msg.id)
    if not wants_payload and len(frames) == 3:
        raise ProtocolError("invalid_message", f"{_tag(msg)} takes no payload frame", ref=msg.id)
    return msg, (frames[2] if wants_payload else None)


def _key(raw: bytes) -> object:
    try:
        return _any_decoder.decode(raw)
    except _UNREADABLE:
        return None


def _repeated_key(header: bytes, depth: int = 1) -> str | None:
    """The first key the header map (or a map that is one of its values:
    `edits`, `counter`) holds twice, if any, as `edits.deadline`. Compared
    by the string's UTF-8 bytes, whatever length format encodes it; a key
    that is no string is refused by the decoder after this."""
    seen: set[tuple[bool, bytes]] = set()
    for raw, value in top_level_pairs(header) or ():
        lead = raw[0]
        skip = 1 if 0xA0 <= lead <= 0xBF else _STR_HEADER.get(lead, 0)
        key = (bool(skip), raw[skip:] if skip else raw)
        name = key[1].decode("utf-8", "replace")[:64] if skip else repr(_key(raw))[:64]
        if key in seen:
            return name
        seen.add(key)
        if depth and (inner := _repeated_key(value, depth - 1)) is not None:
            return f"{name}.{inner}"  # a review: edits {deadline, deadline} was last-wins
    return None


# str 8 / 16 / 32: the lead byte and the length field before the UTF-8.
_STR_HEADER: Final = {0xD9: 2, 0xDA: 3, 0xDB: 5}


def _undecodable(exc: msgspec.DecodeError) -> str:
    """A header that is well formed but cannot be decoded (a string that is
    not UTF-8): said so, not "not a map" (a client probe)."""
    reason = str(exc).removeprefix("MessagePack data is malformed: ")
    return f"header cannot be decoded: {reason}"[:200]


def _describe(exc: msgspec.ValidationError) -> str:
    """msgspec's reason in a client's words: `$.path: what is wrong`.

    Its wording names the field (`- at $.output.rate`), which is kept; what
    reads as the decoder's insides is said plainly instead (a tag it does not
    know is an unknown message type; a regex is the rule it stands for).
    Values are never echoed back at length.
    """
    text = str(exc)
    path = ""
    if (at := _AT.search(text)) is not None:
        text, path = text[: at.start()], at.group(1)
    if (m := _UNKNOWN_TAG.fullmatch(text)) is not None and path == "$.type":
        text, path = f"unknown message type {m.group(1)!r}", ""
    elif (m := _REGEX.fullmatch(text)) is not None:
        pattern = m.group(1).replace("\\\\", "\\")  # msgspec doubles each backslash
        text = _PATTERN_WORDS.get(pattern, "not in the expected form")
    elif (m := _OBJECT.fullmatch(text)) is not None:
        text = f"{m.group(1)} field {m.group(2)}"
    elif (m := _NOT_A_MAP.fullmatch(text)) is not None and path in ("", "$"):
        text, path = f"header must be a MessagePack map, not {_KINDS.get(m.group(1), 'that')}", ""
    elif _KEY_AT.search(text) is not None:
        text, path = "every key of the header must be a string", ""
    said = f"{path}: {text}" if path else text
    return said if len(said) <= 200 else said[:197] + "..."


_NOT_A_MAP: Final = re.compile(r"Expected `object`, got `(\w+)`")
_KINDS: Final = {"array": "an array", "str": "a string", "int": "a number", "float": "a number"}
_KEY_AT: Final = re.compile(r" - at `key` in `\$`$")


_AT: Final = re.compile(r" - at `(\$[^`]*)`$")
_UNKNOWN_TAG: Final = re.compile(r"Invalid value '(.{0,64})'.*", re.S)
_REGEX: Final = re.compile(r"Expected `str` matching regex '(.*)'", re.S)
_OBJECT: Final = re.compile(r"Object (missing required|contains unknown) field (`.*`)", re.S)
# Every pattern a wire field has, in words (objective.py, wire_base.py).
_PATTERN_WORDS: Final[dict[str, str]] = {
    r"^[\x20-\x7e]{1,64}$": "must be 1 to 64 printable ASCII characters",
    r"^[a-z][a-z0-9_-]{0,31}$": "must be a lower-case name: a letter, then up to 31"
    " letters, digits, '_' or '-'",
    REF_PATTERN: "must be 'kind:name' in lower case (letters, digits, '-', '.', '_', ':')",
    DEADLINE_PATTERN: "must be a date (YYYY-MM-DD) or an RFC 3339 date-time with an offset",
    AGENT_PATTERN: "must be a name of letters, spaces, ' and - (at most 48)",
}


def _tag(msg: msgspec.Struct) -> str:
    return tag_of(type(msg))


def encode_outbound(msg: Outbound, payload: bytes | None = None) -> list[bytes]:
    """Frames for one daemon → client message (without the routing id)."""
    frames = [MARKER, _encoder.encode(msg)]
    if isinstance(msg, PAYLOAD_TYPES):
        if payload is None:
            raise ValueError(f"{_tag(msg)} needs a payload")
        frames.append(payload)
    elif payload is not None:
        raise ValueError(f"{_tag(msg)} takes no payload")
    return frames


def encode_inbound(msg: Inbound, payload: bytes | None = None) -> list[bytes]:
    """Frames for one client → daemon message (client side)."""
    frames = [MARKER, _encoder.encode(msg)]
    if payload is not None:
        frames.append(payload)
    return frames


def decode_outbound(frames: list[bytes]) -> tuple[OutboundMessage | None, bytes | None]:
    """Client side, lenient (§2): unknown types give None, unknown fields are ignored.

    A frame that is not VAC/1 at all is still an error: a client should not
    guess at what a broken daemon meant.
    """
    if len(frames) not in (2, 3) or frames[0] != MARKER:
        raise ProtocolError("invalid_message", "not a VAC/1 message")
    try:
        loose = _loose_decoder.decode(frames[1])
    except _UNREADABLE:
        raise ProtocolError("invalid_message", "header is not a MessagePack map") from None
    cls = _OUTBOUND_BY_TAG.get(str(loose.get("type")))
    if cls is None:
        return None, None
    try:
        msg = msgspec.convert(loose, cls)
    except msgspec.ValidationError as exc:
        raise ProtocolError("invalid_message", _describe(exc)) from None
    except RecursionError:
        raise ProtocolError("invalid_message", "header is nested too deeply") from None
    assert isinstance(msg, Outbound)
    return msg, (frames[2] if len(frames) == 3 else None)  # type: ignore[return-value]


def header_bytes(msg: msgspec.Struct) -> bytes:
    """The encoded header alone (golden tests, size checks)."""
    return _encoder.encode(msg)
