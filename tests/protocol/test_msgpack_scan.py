"""The nesting scanner: every format by hand, agreement with msgspec, and depth."""

from __future__ import annotations

import contextlib
import time
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vac.protocol.msgpack_scan import Malformed, TooDeep, check_depth, top_level_pairs

# (encoding, its nesting depth): one row per MessagePack format.
GOLDEN: list[tuple[str, bytes, int]] = [
    ("positive fixint", b"\x7f", 0),
    ("negative fixint", b"\xe0", 0),
    ("nil", b"\xc0", 0),
    ("false", b"\xc2", 0),
    ("true", b"\xc3", 0),
    ("bin 8", b"\xc4\x02ab", 0),
    ("bin 16", b"\xc5\x00\x02ab", 0),
    ("bin 32", b"\xc6\x00\x00\x00\x02ab", 0),
    ("ext 8", b"\xc7\x02\x05ab", 0),
    ("ext 16", b"\xc8\x00\x02\x05ab", 0),
    ("ext 32", b"\xc9\x00\x00\x00\x02\x05ab", 0),
    ("float 32", b"\xca" + bytes(4), 0),
    ("float 64", b"\xcb" + bytes(8), 0),
    ("uint 8", b"\xcc\xff", 0),
    ("uint 16", b"\xcd\xff\xff", 0),
    ("uint 32", b"\xce" + bytes(4), 0),
    ("uint 64", b"\xcf" + bytes(8), 0),
    ("int 8", b"\xd0\x80", 0),
    ("int 16", b"\xd1" + bytes(2), 0),
    ("int 32", b"\xd2" + bytes(4), 0),
    ("int 64", b"\xd3" + bytes(8), 0),
    ("fixext 1", b"\xd4\x05" + bytes(1), 0),
    ("fixext 2", b"\xd5\x05" + bytes(2), 0),
    ("fixext 4", b"\xd6\x05" + bytes(4), 0),
    ("fixext 8", b"\xd7\x05" + bytes(8), 0),
    ("fixext 16", b"\xd8\x05" + bytes(16), 0),
    ("fixstr", b"\xa3abc", 0),
    ("empty fixstr", b"\xa0", 0),
    ("str 8", b"\xd9\x03abc", 0),
    ("str 16", b"\xda\x00\x03abc", 0),
    ("str 32", b"\xdb\x00\x00\x00\x03abc", 0),
    ("bin 16 of container lead bytes", b"\xc5\x00\x03\x91\x91\x91", 0),
    ("fixarray", b"\x92\x01\xa1x", 1),
    ("empty fixarray", b"\x90", 1),
    ("array 16", b"\xdc\x00\x02\x01\x02", 1),
    ("array 32", b"\xdd\x00\x00\x00\x02\x01\x02", 1),
    ("fixmap", b"\x81\xa1k\x01", 1),
    ("empty fixmap", b"\x80", 1),
    ("map 16", b"\xde\x00\x01\xa1k\x01", 1),
    ("map 32", b"\xdf\x00\x00\x00\x01\xa1k\x01", 1),
    ("array in array", b"\x91\x91\x01", 2),
    ("empty array in array", b"\x91\x90", 2),
    ("array as a map key", b"\x81\x91\x01\x02", 2),
    ("deep one, then shallow", b"\x92\x91\x91\x01\x01", 3),
    ("shallow, then deep", b"\x92\x01\x91\x91\x01", 3),
    ("map value", b"\x82\xa1a\x01\xa1b\x81\xa1c\x90", 3),
    ("header shape", bytes.fromhex("82a474797065a470696e67a26964a131"), 1),
]


@pytest.mark.parametrize(("data", "depth"), [g[1:] for g in GOLDEN], ids=[g[0] for g in GOLDEN])
def test_golden_depths(data: bytes, depth: int) -> None:
    check_depth(data, depth)
    check_depth(data, depth + 5)
    if depth:
        with pytest.raises(TooDeep):
            check_depth(data, depth - 1)


@pytest.mark.parametrize("data", [g[1] for g in GOLDEN], ids=[g[0] for g in GOLDEN])
def test_golden_rows_are_real_msgpack(data: bytes) -> None:
    # The table is right about the formats, not just self-consistent.
    msgspec.msgpack.decode(data)


MALFORMED: list[tuple[str, bytes]] = [
    ("empty", b""),
    ("reserved 0xc1", b"\xc1"),
    ("reserved 0xc1 inside", b"\x92\x01\xc1"),
    ("array missing an item", b"\x92\x01"),
    ("map missing a value", b"\x81\x01"),
    ("fixstr short", b"\xa3ab"),
    ("str 8 without length", b"\xd9"),
    ("str 16 half a length", b"\xda\x00"),
    ("str 32 huge", b"\xdb\xff\xff\xff\xff"),
    ("bin 8 short", b"\xc4\x02a"),
    ("ext 8 without type", b"\xc7\x00"),
    ("ext 8 short", b"\xc7\x02\x05a"),
    ("fixext 1 short", b"\xd4\x05"),
    ("uint 16 short", b"\xcd\x01"),
    ("float 64 short", b"\xcb" + bytes(7)),
    ("array 32 huge", b"\xdd\xff\xff\xff\xff\x01"),
    ("map 16 without count", b"\xde\x00"),
    ("trailing byte", b"\x01\x02"),
    ("trailing after a map", b"\x80\x00"),
    ("two objects", b"\x91\x01\x91\x01"),
]


@pytest.mark.parametrize("data", [m[1] for m in MALFORMED], ids=[m[0] for m in MALFORMED])
def test_malformed(data: bytes) -> None:
    with pytest.raises(Malformed):
        check_depth(data, 100)
    with pytest.raises(msgspec.DecodeError):
        msgspec.msgpack.decode(data)


def test_too_deep_is_found_before_the_end() -> None:
    # Refused as soon as one container too many opens: the rest is unread.
    with pytest.raises(TooDeep):
        check_depth(b"\x91" * 20, 16)
    with pytest.raises(TooDeep):
        check_depth(b"\x91\x91" + b"\xc1" * 1000, 1)


def test_max_depth_zero_allows_scalars_only() -> None:
    check_depth(b"\xa2hi", 0)
    with pytest.raises(TooDeep):
        check_depth(b"\x90", 0)


# One level each: fixarray, fixmap, array 16, map 32 (under key 0).
@pytest.mark.parametrize(
    "unit", [b"\x91", b"\x81\xa1k", b"\xdc\x00\x01", b"\xdf\x00\x00\x00\x01\x00"]
)
def test_100k_levels_without_recursion(unit: bytes) -> None:
    deep = unit * 100_000 + b"\x01"
    started = time.perf_counter()
    with pytest.raises(TooDeep):
        check_depth(deep, 16)
    assert time.perf_counter() - started < 0.05
    # Walking all of it is linear and uses no stack: no RecursionError.
    started = time.perf_counter()
    check_depth(deep, 100_000)
    with pytest.raises(TooDeep):
        check_depth(deep, 99_999)
    assert time.perf_counter() - started < 2.0


def test_large_lengths_are_skipped_not_walked() -> None:
    big = msgspec.msgpack.encode(["x" * 70_000, b"\0" * 70_000, list(range(70_000))])
    assert big[:1] == b"\x93"
    check_depth(big, 2)
    with pytest.raises(TooDeep):
        check_depth(big, 1)


# ----------------------------------------------------------------- property

_exts = st.builds(
    msgspec.msgpack.Ext,
    st.integers(-128, 127),
    st.sampled_from([1, 2, 3, 4, 8, 16, 17, 300]).map(bytes),
)
_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**63), 2**64 - 1),
    st.floats(),
    st.text(max_size=20),
    st.binary(max_size=20),
    _exts,
    st.integers(0, 70_000).map(lambda n: "s" * n),  # str 8/16/32
    st.integers(0, 300).map(bytes),  # bin 8/16
)
_values = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.lists(inner, min_size=16, max_size=20)  # array 16
        | st.dictionaries(st.text(max_size=4) | st.integers(-5, 5), inner, max_size=4)
        | st.dictionaries(st.integers(0, 40), inner, min_size=16, max_size=20)  # map 16
    ),
    max_leaves=40,
)


def _depth(value: Any) -> int:
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    return 0


@settings(max_examples=200, deadline=None)
@given(_values)
def test_agrees_with_the_real_depth(value: Any) -> None:
    data = msgspec.msgpack.encode(value)
    depth = _depth(value)
    check_depth(data, depth)  # never Malformed on a valid encoding
    if depth:
        with pytest.raises(TooDeep):
            check_depth(data, depth - 1)


@settings(max_examples=100, deadline=None)
@given(_values, st.data())
def test_a_cut_or_padded_encoding_is_malformed(value: Any, data: st.DataObject) -> None:
    encoded = msgspec.msgpack.encode(value)
    cut = data.draw(st.integers(0, len(encoded) - 1))
    with pytest.raises(Malformed):
        check_depth(encoded[:cut], 1_000)
    with pytest.raises(Malformed):
        check_depth(encoded + data.draw(st.binary(min_size=1, max_size=3)), 1_000)


@settings(max_examples=1000, deadline=None)
@given(st.binary(max_size=200), st.integers(0, 20))
def test_random_bytes_only_ever_yield_its_two_errors(data: bytes, max_depth: int) -> None:
    with contextlib.suppress(TooDeep, Malformed):
        check_depth(data, max_depth)
    # Never stricter than msgspec: what it decodes is well-formed.
    try:
        msgspec.msgpack.decode(data)
    except (msgspec.DecodeError, RecursionError):
        return
    check_depth(data, 1_000)


def test_item_budget_refuses_many_tiny_items() -> None:
    import msgspec

    from vac.protocol.msgpack_scan import TooMany

    flat = msgspec.msgpack.encode(list(range(2000)))
    check_depth(flat, 16)  # no budget: fine
    with pytest.raises(TooMany):
        check_depth(flat, 16, 1024)
    check_depth(msgspec.msgpack.encode(list(range(1000))), 16, 1024)


@settings(max_examples=60, deadline=None)
@given(
    st.dictionaries(
        st.text(max_size=40),
        st.one_of(
            st.integers(-(2**63), 2**64 - 1),
            st.text(max_size=300),
            st.lists(st.integers(-(2**63), 2**63), max_size=20),
        ),
        max_size=8,
    )
)
def test_top_level_pairs_are_the_maps_own(value: dict[str, Any]) -> None:
    data = msgspec.msgpack.encode(value)
    pairs = top_level_pairs(data)
    assert pairs is not None
    assert [msgspec.msgpack.decode(k) for k, _ in pairs] == list(value)
    assert [v for _, v in pairs] == [msgspec.msgpack.encode(v) for v in value.values()]
    assert data.endswith(b"".join(k + v for k, v in pairs))


def test_top_level_pairs_keep_a_repeated_key_and_a_non_map_has_none() -> None:
    enc = msgspec.msgpack.encode
    twice = b"\x82" + enc("text") + enc("a") + enc("text") + enc("b" * 300)
    assert [(k, v) for k, v in top_level_pairs(twice) or ()] == [
        (enc("text"), enc("a")),
        (enc("text"), enc("b" * 300)),
    ]
    assert top_level_pairs(enc([1, 2])) is None and top_level_pairs(enc("x")) is None
