"""How deep a MessagePack document nests, found without decoding it.

msgspec decodes nested containers by recursion, so a header of a few KiB that
opens a thousand arrays reaches Python's recursion limit before any type check
can refuse it. This scanner walks the encoding iteratively — one stack entry
per open container, holding the items it still owes — and refuses a document
as soon as it opens one container too many. It touches each item's lead byte
and length field only: strings, binaries and extensions are skipped by length,
never copied, so the cost is O(items) ≤ O(bytes) with no per-byte allocation.
"""

from __future__ import annotations

import struct
from typing import Final


class TooDeep(ValueError):
    """The document nests containers more than the allowed depth."""


class TooMany(ValueError):
    """More items than allowed: a small header made of thousands of tiny
    items costs the decoder milliseconds, so it is refused before it runs."""


class Malformed(ValueError):
    """Not exactly one well-formed MessagePack object: truncated, trailing
    bytes, or the reserved lead byte 0xc1."""


# What a lead byte announces (MessagePack spec, "Formats"):
_SCALAR: Final = 0  # `arg` more bytes follow (fixints, nil, bools, numbers, fixstr, fixext)
_SIZED: Final = 1  # an `arg`-byte length, then `extra` type bytes, then that many bytes
_FIX_CONTAINER: Final = 2  # `arg` items follow (a fixmap counts keys and values)
_CONTAINER: Final = 3  # an `arg`-byte count, times `extra` items (2 for a map)
_RESERVED: Final = 4  # 0xc1, never used


def _lead_table() -> tuple[tuple[int, int, int], ...]:
    table: list[tuple[int, int, int]] = []
    for b in range(256):
        if b <= 0x7F or b >= 0xE0:  # positive / negative fixint
            table.append((_SCALAR, 0, 0))
        elif b <= 0x8F:  # fixmap
            table.append((_FIX_CONTAINER, 2 * (b & 0x0F), 0))
        elif b <= 0x9F:  # fixarray
            table.append((_FIX_CONTAINER, b & 0x0F, 0))
        elif b <= 0xBF:  # fixstr
            table.append((_SCALAR, b & 0x1F, 0))
        else:
            table.append(_FORMATS[b])
    return tuple(table)


_FORMATS: Final[dict[int, tuple[int, int, int]]] = {
    0xC0: (_SCALAR, 0, 0),  # nil
    0xC1: (_RESERVED, 0, 0),
    0xC2: (_SCALAR, 0, 0),  # false
    0xC3: (_SCALAR, 0, 0),  # true
    0xC4: (_SIZED, 1, 0),  # bin 8
    0xC5: (_SIZED, 2, 0),  # bin 16
    0xC6: (_SIZED, 4, 0),  # bin 32
    0xC7: (_SIZED, 1, 1),  # ext 8
    0xC8: (_SIZED, 2, 1),  # ext 16
    0xC9: (_SIZED, 4, 1),  # ext 32
    0xCA: (_SCALAR, 4, 0),  # float 32
    0xCB: (_SCALAR, 8, 0),  # float 64
    0xCC: (_SCALAR, 1, 0),  # uint 8
    0xCD: (_SCALAR, 2, 0),  # uint 16
    0xCE: (_SCALAR, 4, 0),  # uint 32
    0xCF: (_SCALAR, 8, 0),  # uint 64
    0xD0: (_SCALAR, 1, 0),  # int 8
    0xD1: (_SCALAR, 2, 0),  # int 16
    0xD2: (_SCALAR, 4, 0),  # int 32
    0xD3: (_SCALAR, 8, 0),  # int 64
    0xD4: (_SCALAR, 2, 0),  # fixext 1 (type byte + data)
    0xD5: (_SCALAR, 3, 0),  # fixext 2
    0xD6: (_SCALAR, 5, 0),  # fixext 4
    0xD7: (_SCALAR, 9, 0),  # fixext 8
    0xD8: (_SCALAR, 17, 0),  # fixext 16
    0xD9: (_SIZED, 1, 0),  # str 8
    0xDA: (_SIZED, 2, 0),  # str 16
    0xDB: (_SIZED, 4, 0),  # str 32
    0xDC: (_CONTAINER, 2, 1),  # array 16
    0xDD: (_CONTAINER, 4, 1),  # array 32
    0xDE: (_CONTAINER, 2, 2),  # map 16
    0xDF: (_CONTAINER, 4, 2),  # map 32
}
_LEAD: Final = _lead_table()
# Big-endian unsigned length fields by width; `unpack_from` reads in place.
_UINT: Final = {1: struct.Struct(">B"), 2: struct.Struct(">H"), 4: struct.Struct(">I")}


def check_depth(data: bytes, max_depth: int, max_items: int | None = None) -> None:
    """Raise `TooDeep` if `data` nests containers more than `max_depth` deep
    (a scalar is depth 0, `[]` is 1, `[[1]]` is 2), `Malformed` if it is not
    exactly one MessagePack object. Content is not validated (UTF-8, map-key
    types, ext payloads): that is the decoder's job once depth is known safe.
    """
    end = len(data)
    pos = 0
    # Items still owed at the current level (the top level owes one object),
    # and the same count for each enclosing level, innermost last. A local
    # int rather than the stack's top: this loop runs once per item.
    owed = 1
    outer: list[int] = []
    budget = max_items if max_items is not None else end + 1  # items ≤ bytes
    while True:
        budget -= 1
        if budget < 0:
            raise TooMany(f"more than {max_items} items")
        if pos >= end:
            raise Malformed(f"truncated at byte {pos}")
        lead = data[pos]
        pos += 1
        if lead <= 0x7F:  # positive fixint, the commonest item: no table
            owed -= 1
        else:
            kind, arg, extra = _LEAD[lead]
            items = 0
            if kind == _SCALAR:
                pos += arg
            elif kind == _FIX_CONTAINER:
                items = arg
            elif kind == _RESERVED:
                raise Malformed(f"reserved byte 0xc1 at byte {pos - 1}")
            else:
                if pos + arg > end:
                    raise Malformed(f"truncated at byte {pos}")
                count: int = _UINT[arg].unpack_from(data, pos)[0]
                pos += arg
                if kind == _SIZED:
                    pos += extra + count
                else:
                    items = count * extra
            if kind >= _FIX_CONTAINER:  # opened a container, empty or not
                if len(outer) >= max_depth:
                    raise TooDeep(f"nested deeper than {max_depth} at byte {pos}")
                if items:
                    # The container is one item of this level, settled now
                    # and resumed when its own items run out.
                    outer.append(owed - 1)
                    owed = items
                    continue
            elif pos > end:
                raise Malformed(f"truncated at byte {end}")
            owed -= 1
        # Close every container whose last item this was.
        while not owed:
            if not outer:
                if pos != end:
                    raise Malformed(f"{end - pos} trailing bytes after the object")
                return
            owed = outer.pop()


def _end_of(data: bytes, pos: int) -> int:
    """Where the one object starting at `pos` ends. `data` must already have
    passed `check_depth` (well formed); iterative, like it."""
    lead = data[pos]
    if 0xA0 <= lead <= 0xBF:  # a short string: every key, most values
        return pos + 1 + (lead & 0x1F)
    if lead <= 0x7F or lead >= 0xE0:  # a small integer (`seq`)
        return pos + 1
    owed = 1
    while owed:
        lead = data[pos]
        pos += 1
        owed -= 1
        if lead <= 0x7F:
            continue
        kind, arg, extra = _LEAD[lead]
        if kind == _SCALAR:
            pos += arg
        elif kind == _FIX_CONTAINER:
            owed += arg
        else:
            count: int = _UINT[arg].unpack_from(data, pos)[0]
            pos += arg
            if kind == _SIZED:
                pos += extra + count
            else:
                owed += count * extra
    return pos


def top_level_pairs(data: bytes) -> list[tuple[bytes, bytes]] | None:
    """The encoded (key, value) pairs of the map `data` is, in order, every
    pair kept (a decoder keeps only the last of a repeated key); None when
    `data` is no map. `data` must already have passed `check_depth`."""
    lead = data[0]
    if 0x80 <= lead <= 0x8F:
        count, pos = lead & 0x0F, 1
    elif lead in (0xDE, 0xDF):
        width = 2 if lead == 0xDE else 4
        count, pos = _UINT[width].unpack_from(data, 1)[0], 1 + width
    else:
        return None
    pairs: list[tuple[bytes, bytes]] = []
    for _ in range(count):
        key_end = _end_of(data, pos)
        value_end = _end_of(data, key_end)
        pairs.append((data[pos:key_end], data[key_end:value_end]))
        pos = value_end
    return pairs
