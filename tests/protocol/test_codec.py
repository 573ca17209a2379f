"""The frame codec: golden bytes both ways, round-trips, and garbage."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.protocol.strategies import for_struct
from vac.protocol.codec import (
    decode_inbound,
    decode_outbound,
    encode_inbound,
    encode_outbound,
    header_bytes,
)
from vac.protocol.errors import ProtocolError
from vac.protocol.messages import (
    MARKER,
    AudioInputChunk,
    AudioInputCommit,
    AudioOutputChunk,
    Error,
    Hello,
    InboundMessage,
    OutboundMessage,
    OutputRequest,
    Ping,
    Pong,
    TextInput,
    TranscriptFinal,
    TurnDone,
    message_types,
)

# Golden (message, header bytes): field order is declaration order, base first.
GOLDEN_INBOUND: list[tuple[object, bytes]] = [
    (Ping(id="1"), bytes.fromhex("82a474797065a470696e67a26964a131")),
    (
        TextInput(id="t", text="hi"),
        bytes.fromhex("83a474797065aa746578742e696e707574a26964a174a474657874a26869"),
    ),
    (
        AudioInputCommit(id="c", stream="s", last_seq=3),
        bytes.fromhex(
            "84a474797065b2617564696f2e696e7075742e636f6d6d6974a26964a163a673747265616da173a86c6173745f73657103"
        ),
    ),
]

GOLDEN_OUTBOUND: list[tuple[object, bytes]] = [
    (Pong(), bytes.fromhex("81a474797065a4706f6e67")),
    (
        Pong(session="s", seq=0, ref="p"),
        bytes.fromhex("84a474797065a4706f6e67a773657373696f6ea173a373657100a3726566a170"),
    ),
    (
        Error(code="busy", message="m", ref=None, retryable=True),
        bytes.fromhex(
            "85a474797065a56572726f72a3726566c0a4636f6465a462757379a76d657373616765a16da9726574727961626c65c3"
        ),
    ),
]


@pytest.mark.parametrize(("msg", "golden"), GOLDEN_INBOUND)
def test_golden_inbound_both_ways(msg: object, golden: bytes) -> None:
    assert header_bytes(msg) == golden  # type: ignore[arg-type]
    decoded, payload = decode_inbound([MARKER, golden])
    assert decoded == msg and payload is None


@pytest.mark.parametrize(("msg", "golden"), GOLDEN_OUTBOUND)
def test_golden_outbound_both_ways(msg: object, golden: bytes) -> None:
    assert header_bytes(msg) == golden  # type: ignore[arg-type]
    decoded, _ = decode_outbound([MARKER, golden])
    assert decoded == msg


def test_null_fields_that_must_be_present_are_present() -> None:
    tf = msgspec.msgpack.decode(
        header_bytes(TranscriptFinal(stream=None, turn="t", text="x", confidence=1.0))
    )
    assert "stream" in tf and tf["stream"] is None
    err = msgspec.msgpack.decode(
        header_bytes(Error(code="c", message="m", ref=None, retryable=False))
    )
    assert "ref" in err and err["ref"] is None
    assert "session" not in err and "seq" not in err


def test_payload_frames() -> None:
    frames = encode_inbound(AudioInputChunk(id="a", stream="s", seq=0), b"\x01\x00")
    msg, payload = decode_inbound(frames)
    assert isinstance(msg, AudioInputChunk) and payload == b"\x01\x00"
    out = encode_outbound(AudioOutputChunk(stream="o", generation=1, index=0), b"\0\0")
    assert len(out) == 3 and out[2] == b"\0\0"
    with pytest.raises(ValueError):
        encode_outbound(Pong(), b"x")
    with pytest.raises(ValueError):
        encode_outbound(AudioOutputChunk(stream="o", generation=1, index=0))


def test_client_decoding_is_lenient() -> None:
    unknown_type = [MARKER, msgspec.msgpack.encode({"type": "future.thing", "x": 1})]
    assert decode_outbound(unknown_type) == (None, None)
    extra = msgspec.msgpack.encode(
        {"type": "turn.done", "turn": "t", "status": "parsed", "latency_ms": {}, "new_field": [1]}
    )
    msg, _ = decode_outbound([MARKER, extra])
    assert isinstance(msg, TurnDone)


@pytest.mark.parametrize("cls", message_types(InboundMessage), ids=lambda c: c.__name__)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_inbound_round_trip(cls: type[msgspec.Struct], data: st.DataObject) -> None:
    msg = data.draw(for_struct(cls))
    payload = b"\x00\x01" if cls is AudioInputChunk else None
    decoded, got_payload = decode_inbound(encode_inbound(msg, payload))  # type: ignore[arg-type]
    assert decoded == msg and got_payload == payload


@pytest.mark.parametrize("cls", message_types(OutboundMessage), ids=lambda c: c.__name__)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_outbound_round_trip(cls: type[msgspec.Struct], data: st.DataObject) -> None:
    msg = data.draw(for_struct(cls))
    payload = b"\x00\x01" if cls is AudioOutputChunk else None
    decoded, got_payload = decode_outbound(encode_outbound(msg, payload))  # type: ignore[arg-type]
    assert decoded == msg and got_payload == payload


@settings(max_examples=400, deadline=None)
@given(st.lists(st.binary(max_size=200), min_size=0, max_size=5))
def test_random_frames_only_ever_yield_protocol_errors(frames: list[bytes]) -> None:
    try:
        decode_inbound(frames)
    except ProtocolError as exc:
        assert exc.code in ("invalid_message", "unsupported_version")


_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**63), 2**64 - 1),
    st.floats(),
    st.text(max_size=20),
    st.binary(max_size=10),
)
_values = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=10,
)
_headers = st.dictionaries(
    st.sampled_from(["type", "id", "text", "stream", "seq", "versions", "output", "x"]),
    _values | st.sampled_from(["hello", "ping", "text.input", "audio.input.chunk"]),
    max_size=6,
)


@settings(max_examples=400, deadline=None)
@given(_headers, st.booleans())
def test_random_headers_only_ever_yield_protocol_errors(
    header: dict[str, object], pl: bool
) -> None:
    frames = [MARKER, msgspec.msgpack.encode(header)] + ([b"\0\0"] if pl else [])
    try:
        msg, _ = decode_inbound(frames)
    except ProtocolError as exc:
        assert exc.code == "invalid_message"
        if exc.ref is not None:
            assert exc.ref == header.get("id")
    else:
        assert msg.id == header["id"]


def test_hello_field_names_are_exact() -> None:
    h = Hello(id="h", versions=[1], client="c", output=OutputRequest(rate=16000, speak=True))
    assert set(msgspec.msgpack.decode(header_bytes(h))) == {
        "type",
        "id",
        "versions",
        "client",
        "output",
        "resume",
    }


def test_deeply_nested_headers_are_invalid_messages() -> None:
    # {"type": "ping", "id": [[[...3000 deep...1]]]}, built by hand: encoding
    # it with msgspec would itself recurse too deeply.
    header = bytes.fromhex("82a474797065a470696e67a26964") + b"\x91" * 3000 + b"\x01"
    assert len(header) < 8192
    for frames in ([MARKER, header], [MARKER, header, b"a", b"b"]):
        with pytest.raises(ProtocolError) as exc:
            decode_inbound(frames)
        assert exc.value.code == "invalid_message" and exc.value.ref is None
    with pytest.raises(ProtocolError):
        decode_outbound([MARKER, header])
