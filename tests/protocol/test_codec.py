"""The frame codec: golden bytes both ways, round-trips, and garbage."""

from __future__ import annotations

import re
from typing import Any

import msgspec
import msgspec.inspect
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.protocol.strategies import for_struct
from vac.protocol.agent_messages import ObjectiveList, ObjectiveListResult
from vac.protocol.codec import (
    _NO_FREE_TEXT,
    MAX_HEADER_DEPTH,
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
    AudioOutputStart,
    Error,
    Hello,
    InboundMessage,
    ObjectiveConfirm,
    OutboundMessage,
    OutputRequest,
    Ping,
    Pong,
    SquadSend,
    TextInput,
    TranscriptFinal,
    TurnDone,
    message_types,
)
from vac.protocol.text_safety import FORBIDDEN_CODEPOINTS, find_control

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
    # A client-author probe: `more` was left out when false (a default).
    listed = msgspec.msgpack.decode(header_bytes(ObjectiveListResult(objectives=[], more=False)))
    assert listed["more"] is False


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
    frames = encode_inbound(msg, payload)  # type: ignore[arg-type]
    # The strategies draw any text, control characters included: those are refused.
    if (found := find_control(msg)) is not None:
        with pytest.raises(ProtocolError) as exc:
            decode_inbound(frames)
        assert exc.value.message == f"{found[0]}: control character {found[1]} is not allowed"
        return
    decoded, got_payload = decode_inbound(frames)
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
    h = Hello(
        id="h",
        versions=[1],
        client="c",
        output=OutputRequest(rate=16000, speak=True),
        resume="s1",
        features=["announcement-turns"],
    )
    assert set(msgspec.msgpack.decode(header_bytes(h))) == {
        "type",
        "id",
        "versions",
        "client",
        "output",
        "resume",
        "features",  # an addition: the opt-in additions the client understands
    }


def test_a_field_left_at_its_default_is_not_sent() -> None:
    """A daemon refuses fields it does not know: an addition a client leaves
    unused must not reach an older one (`before: null` did)."""
    plain = Hello(id="h", versions=[1], client="c", output=OutputRequest(rate=16000, speak=True))
    assert set(msgspec.msgpack.decode(header_bytes(plain))) == {
        "type",
        "id",
        "versions",
        "client",
        "output",
    }
    assert msgspec.msgpack.decode(header_bytes(ObjectiveList(id="l"))) == {
        "type": "objective.list",
        "id": "l",
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


def _confirm_with_edits_hex(edits_value: bytes) -> bytes:
    """An objective.confirm header whose `edits` is `edits_value`, raw bytes:
    msgspec would itself recurse too deeply encoding the deep ones."""
    head = msgspec.msgpack.encode({"type": "objective.confirm", "id": "c1", "objective_id": "o"})
    assert head[:1] == b"\x83"
    return b"\x84" + head[1:] + msgspec.msgpack.encode("edits") + edits_value


def test_a_1200_deep_edits_is_an_invalid_message_not_a_recursion_error() -> None:
    # edits = {"forbidden_lines": [[[... 1200 deep ...]]]}: typed as Any, so
    # msgspec would recurse into it all before any check could refuse it.
    deep = b"\x81" + msgspec.msgpack.encode("forbidden_lines") + b"\x91" * 1200 + b"\x01"
    header = _confirm_with_edits_hex(deep)
    assert len(header) < 8192
    for frames in ([MARKER, header], [MARKER, header, b"x"], [MARKER, header, b"a", b"b"]):
        with pytest.raises(ProtocolError) as exc:
            decode_inbound(frames)
        assert exc.value.code == "invalid_message" and exc.value.ref is None
    with pytest.raises(ProtocolError) as exc:
        decode_inbound([MARKER, header])
    assert exc.value.message == "header is nested more than 16 levels deep"


def test_nesting_up_to_the_limit_is_decoded() -> None:
    def nested(levels: int) -> object:
        value: object = 1
        for _ in range(levels):
            value = {"x": value}
        return value

    # The header map and `edits` are two levels; the rest are inside edits.
    ok = ObjectiveConfirm(id="c", objective_id="o", edits={"x": nested(MAX_HEADER_DEPTH - 2)})
    msg, _ = decode_inbound(encode_inbound(ok))
    assert msg == ok
    deeper = nested(MAX_HEADER_DEPTH - 1)
    too_deep = ObjectiveConfirm(id="c", objective_id="o", edits={"x": deeper})
    with pytest.raises(ProtocolError) as exc:
        decode_inbound(encode_inbound(too_deep))
    assert exc.value.message == "header is nested more than 16 levels deep"


def test_the_deepest_legitimate_header_is_well_within_the_limit() -> None:
    edits = {
        "target": {"ref": "prop:gate", "kind": "prop", "label": "the gate"},
        "forbidden_lines": [{"text": "no lying", "value_ref": "value:honesty"}],
        "constraints": [{"kind": "time", "value": "before dusk"}],
    }
    msg = ObjectiveConfirm(id="c", objective_id="o", revision=2, edits=edits)
    assert decode_inbound(encode_inbound(msg))[0] == msg


def test_a_malformed_header_is_not_a_messagepack_map() -> None:
    for header in (b"\x81\xa4type", b"\x80\x00", b"\xc1"):
        with pytest.raises(ProtocolError) as exc:
            decode_inbound([MARKER, header])
        assert exc.value.code == "invalid_message" and exc.value.ref is None
        assert exc.value.message == "header is not a MessagePack map"


@pytest.mark.parametrize(
    ("header", "said"),
    [
        # An independent client read the decoder's insides in these (§6:
        # `message` is for people): a tag it did not know, a regex.
        ({"type": "frobnicate", "id": "a"}, "unknown message type 'frobnicate'"),
        ({"type": "ping", "id": "x" * 65}, "$.id: must be 1 to 64 printable ASCII characters"),
        ({"type": "ping", "id": "é"}, "$.id: must be 1 to 64 printable ASCII characters"),
        ({"type": "text.input", "id": "a"}, "missing required field `text`"),
        ({"type": "ping", "id": "a", "x": 1}, "contains unknown field `x`"),
        ({"type": "text.input", "id": "a", "text": 5}, "$.text: Expected `str`, got `int`"),
    ],
)
def test_refusals_say_what_is_wrong_in_a_clients_words(header: dict[str, Any], said: str) -> None:
    with pytest.raises(ProtocolError) as exc:
        decode_inbound([MARKER, msgspec.msgpack.encode(header)])
    assert (exc.value.code, exc.value.message) == ("invalid_message", said)
    assert "regex" not in said and "Invalid value" not in said


def _map(*pairs: tuple[object, object]) -> bytes:
    """A header map written pair by pair: a key may come twice."""
    enc = msgspec.msgpack.encode
    return bytes([0x80 | len(pairs)]) + b"".join(enc(k) + enc(v) for k, v in pairs)


@pytest.mark.parametrize(
    ("header", "said", "ref"),
    [
        # A client probe: the last value won ("hello there" was dropped and
        # the draft made of the second text); two types named the other
        # one "unknown".
        (
            _map(("id", "d6"), ("type", "text.input"), ("text", "hi"), ("text", "ask Kofi")),
            "header has the key 'text' twice",
            "d6",
        ),
        (
            _map(("id", "d1"), ("type", "ping"), ("type", "bye")),
            "header has the key 'type' twice",
            "d1",
        ),
        # The same key written once as fixstr and once as str 8.
        (
            b"\x83" + _map(("id", "d2"), ("type", "ping"))[1:] + b"\xd9\x04type\xa4ping",
            "header has the key 'type' twice",
            "d2",
        ),
        (_map(("id", "a"), ("id", "b"), ("type", "ping")), "header has the key 'id' twice", None),
        # One level down too: `edits` said the deadline twice (a review).
        (
            b"\x84"
            + _map(("type", "objective.confirm"), ("id", "c1"), ("objective_id", "o"))[1:]
            + msgspec.msgpack.encode("edits")
            + _map(("deadline", "2026-03-20"), ("deadline", "2026-12-31")),
            "header has the key 'edits.deadline' twice",
            "c1",
        ),
        # `ref` was null though the id could be read (§2), and the wording
        # was the decoder's ("Expected `str`, got `int` - at `key` in `$`";
        # "not a MessagePack map" for a map with a string not UTF-8).
        (
            _map((1, "ping"), ("type", "ping"), ("id", "ik1")),
            "every key of the header must be a string",
            "ik1",
        ),
        (
            _map(("type", "text.input"), ("id", "iu1"))[:1].replace(b"\x82", b"\x83")
            + _map(("type", "text.input"), ("id", "iu1"))[1:]
            + msgspec.msgpack.encode("text")
            + b"\xa2\xff\xfe",
            "header cannot be decoded: Invalid UTF-8 encoded string",
            "iu1",
        ),
        (
            msgspec.msgpack.encode(["ping", "p1"]),
            "header must be a MessagePack map, not an array",
            None,
        ),
    ],
)
def test_a_header_that_is_no_plain_map_is_refused_with_its_id(
    header: bytes, said: str, ref: str | None
) -> None:
    with pytest.raises(ProtocolError) as exc:
        decode_inbound([MARKER, header])
    assert (exc.value.code, exc.value.message, exc.value.ref) == ("invalid_message", said, ref)


def test_a_wrong_marker_is_refused_with_the_readable_id() -> None:
    """§2: `ref` is the message's id when it could be read (it was null)."""
    header = msgspec.msgpack.encode({"type": "ping", "id": "p1"})
    for marker, code in ((b"VAC/2", "unsupported_version"), (b"XYZ", "invalid_message")):
        with pytest.raises(ProtocolError) as exc:
            decode_inbound([marker, header])
        assert (exc.value.code, exc.value.ref) == (code, "p1")
    with pytest.raises(ProtocolError) as exc:
        decode_inbound([b"VAC/2", b"\xc1"])  # no header to read an id from
    assert exc.value.ref is None


def test_odd_values_inside_edits_do_not_escape_as_other_errors() -> None:
    # `edits` is Any: ext values, and maps keyed by arrays (decoded as tuples).
    header = _confirm_with_edits_hex(b"\x82\xa1a\xd4\x05\x00\xa1b\x81\x91\xa1k\x01")
    msg, _ = decode_inbound([MARKER, header])
    assert isinstance(msg, ObjectiveConfirm) and msg.edits is not None
    assert msg.edits["a"] == msgspec.msgpack.Ext(5, b"\x00")
    hidden = _confirm_with_edits_hex(b"\x81\xa1b\x81\x91\xa2k\x1b\x01")
    with pytest.raises(ProtocolError) as exc:
        decode_inbound([MARKER, hidden])
    assert exc.value.message == "$.edits.b[...][0]: control character U+001B is not allowed"


# -------------------------------------------------------- control characters


def _with_text(field: str, text: str) -> tuple[object, str]:
    """A message carrying `text` in `field`, and the path an error names."""
    match field:
        case "text.input.text":
            return TextInput(id="t1", text=text), "$.text"
        case "objective.confirm.edits.target.label":
            target = {"ref": "prop:gate", "kind": "prop", "label": text}
            return ObjectiveConfirm(id="t1", objective_id="o", edits={"target": target}), (
                "$.edits.target.label"
            )
        case "squad.send.text":
            return SquadSend(id="t1", kind="callout", text=text), "$.text"
        case "hello.client":
            out = OutputRequest(rate=16000, speak=False)
            return Hello(id="t1", versions=[1], client=text, output=out), "$.client"
    raise AssertionError(field)


TEXT_FIELDS = [
    "text.input.text",
    "objective.confirm.edits.target.label",
    "squad.send.text",
    "hello.client",
]


@pytest.mark.parametrize("field", TEXT_FIELDS)
def test_every_forbidden_character_is_refused_naming_the_field(field: str) -> None:
    assert {0x00, 0x1B, 0x7F, 0x85, 0x9B, 0x202E, 0x2066, 0x2028, 0xFEFF} <= FORBIDDEN_CODEPOINTS
    for cp in sorted(FORBIDDEN_CODEPOINTS):
        msg, path = _with_text(field, f"ok {chr(cp)} then")
        with pytest.raises(ProtocolError) as exc:
            decode_inbound(encode_inbound(msg))  # type: ignore[arg-type]
        err = exc.value
        assert err.code == "invalid_message" and err.ref == "t1", hex(cp)
        assert err.message == f"{path}: control character U+{cp:04X} is not allowed"


@pytest.mark.parametrize("field", TEXT_FIELDS)
@pytest.mark.parametrize(
    "text",
    [
        "tab\there",
        "two\nlines\r\n",
        "café déjà vu",
        "日本語のテキスト",
        "family \U0001f468\u200d\U0001f469\u200d\U0001f467 (ZWJ)",
        "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f flag",
        "می\u200cخواهم (ZWNJ)",
        "no\u00a0break, em\u2003space",
        "\u05e9\u05dc\u05d5\u05dd and \u0645\u0631\u062d\u0628\u0627",
    ],
)
def test_ordinary_text_is_accepted(field: str, text: str) -> None:
    msg, _ = _with_text(field, text)
    decoded, _ = decode_inbound(encode_inbound(msg))  # type: ignore[arg-type]
    assert decoded == msg


def test_a_hostile_key_is_refused_without_being_echoed() -> None:
    msg = ObjectiveConfirm(id="k", objective_id="o", edits={"target": {"\x1b[2J": "x"}})
    with pytest.raises(ProtocolError) as exc:
        decode_inbound(encode_inbound(msg))
    assert exc.value.message == "$.edits.target[...]: control character U+001B is not allowed"
    assert exc.value.ref == "k"


def test_forbidden_lines_are_named_by_index() -> None:
    lines = [{"text": "fine", "value_ref": "value:a"}, {"text": "\u202eevil", "value_ref": "v:b"}]
    msg = ObjectiveConfirm(id="f", objective_id="o", edits={"forbidden_lines": lines})
    with pytest.raises(ProtocolError) as exc:
        decode_inbound(encode_inbound(msg))
    assert exc.value.message == (
        "$.edits.forbidden_lines[1].text: control character U+202E is not allowed"
    )


@pytest.mark.parametrize("cls", _NO_FREE_TEXT, ids=lambda c: c.__name__)
def test_messages_not_scanned_only_carry_patterned_ids(cls: type[msgspec.Struct]) -> None:
    # The codec skips these for speed; that is only sound while every string
    # they carry must match a pattern that admits no control character.
    info = msgspec.inspect.type_info(cls)
    assert isinstance(info, msgspec.inspect.StructType)
    for f in info.fields:
        types = f.type.types if isinstance(f.type, msgspec.inspect.UnionType) else (f.type,)
        for t in types:
            assert not isinstance(t, msgspec.inspect.StructType | msgspec.inspect.AnyType)
            if isinstance(t, msgspec.inspect.StrType):
                assert t.pattern is not None, f.name
                for cp in FORBIDDEN_CODEPOINTS:
                    assert not re.search(t.pattern, f"a{chr(cp)}"), (f.name, hex(cp))


def test_header_of_too_many_items_is_invalid_message() -> None:
    import msgspec

    from vac.protocol.codec import MAX_HEADER_ITEMS

    header = msgspec.msgpack.encode(
        {"type": "objective.confirm", "id": "m", "objective_id": "x", "edits": {"c": [1] * 1500}}
    )
    assert len(header) < 8 * 1024
    with pytest.raises(ProtocolError) as info:
        decode_inbound([b"VAC/1", header])
    assert info.value.code == "invalid_message"
    assert str(MAX_HEADER_ITEMS) in info.value.message


def test_audio_output_start_carries_encoding_and_channels_on_the_wire() -> None:
    # Outbound omits defaults: these two once were defaulted, so never sent (§5).
    start = AudioOutputStart(
        turn="t", stream="o", generation=1, rate=16000, text="hi", encoding="pcm_s16le", channels=1
    )
    body = msgspec.msgpack.decode(encode_outbound(start)[1])
    assert body["encoding"] == "pcm_s16le" and body["channels"] == 1


@pytest.mark.parametrize(
    ("header", "missing"),
    [
        # §9 lists these without "optional": a client-author probe's answer
        # without `reason` (and a progress report without `note`) was taken.
        ({"type": "objective.answer", "id": "a", "offer": "o", "decision": "accept",
          "reply": "ok", "evidence": []}, "reason"),
        ({"type": "objective.answer", "id": "a", "offer": "o", "decision": "accept",
          "reply": "ok", "reason": ""}, "evidence"),
        ({"type": "objective.progress", "id": "p", "objective_id": "x", "state": "done"}, "note"),
    ],
)  # fmt: skip
def test_a_required_field_of_an_agents_message_is_required(
    header: dict[str, Any], missing: str
) -> None:
    with pytest.raises(ProtocolError) as exc:
        decode_inbound([MARKER, msgspec.msgpack.encode(header)])
    assert exc.value.code == "invalid_message" and missing in exc.value.message
