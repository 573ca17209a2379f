"""Hypothesis strategies derived from the msgspec Structs themselves.

Generating from `msgspec.inspect` keeps the tests honest: a field added to a
message is covered without anyone remembering to write a strategy for it.
"""

from __future__ import annotations

from typing import Any

import msgspec
import msgspec.inspect as mi
from hypothesis import strategies as st

_TEXT = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=40)


def for_type(t: mi.Type) -> st.SearchStrategy[Any]:
    match t:
        case mi.StrType(pattern=pattern, min_length=lo, max_length=hi):
            if pattern:
                base = st.from_regex(pattern, fullmatch=True)
                if hi is not None:
                    base = base.filter(lambda s: len(s) <= hi)
                return base
            return st.text(
                alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]),
                min_size=lo or 0,
                max_size=min(hi or 40, 40),
            )
        case mi.IntType(ge=ge, le=le, gt=gt, lt=lt):
            lo = ge if ge is not None else (gt + 1 if gt is not None else -(2**40))
            hi = le if le is not None else (lt - 1 if lt is not None else 2**40)
            return st.integers(lo, hi)
        case mi.FloatType(ge=ge, le=le):
            return st.floats(
                ge if ge is not None else -1e6, le if le is not None else 1e6, allow_nan=False
            )
        case mi.BoolType():
            return st.booleans()
        case mi.NoneType():
            return st.none()
        case mi.LiteralType(values=values):
            return st.sampled_from(values)
        case mi.ListType(item_type=item, min_length=lo, max_length=hi):
            return st.lists(for_type(item), min_size=lo or 0, max_size=min(hi or 4, 4))
        case mi.DictType():
            return st.dictionaries(st.text(max_size=8), st.integers(0, 1000), max_size=3)
        case mi.UnionType(types=types):
            return st.one_of([for_type(x) for x in types])
        case mi.StructType():
            return for_struct(t.cls)
        case mi.AnyType():
            return st.one_of(st.integers(0, 100), _TEXT, st.none())
    raise NotImplementedError(t)


def for_struct(cls: type[msgspec.Struct]) -> st.SearchStrategy[Any]:
    info = mi.type_info(cls)
    assert isinstance(info, mi.StructType)
    fields = {f.encode_name: for_type(f.type) for f in info.fields}
    return st.fixed_dictionaries(fields).map(lambda kw: cls(**kw))
