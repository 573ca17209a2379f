"""Characters that inbound text must not carry, and how to show them anyway.

Text a client sends ends up in logs, in other clients' terminals, in prompts
and in stored objectives. Invisible control characters are how such text
misbehaves there: ESC starts a terminal escape (`ESC[2J` clears the screen of
whoever prints it), NUL truncates it in C libraries, and the bidi controls
reorder what a reader sees relative to what is stored ("Trojan source",
U+202E). Ordinary text has no use for any of them; TAB, LF and CR stay
allowed because people paste them. Joiners (ZWJ U+200D, ZWNJ U+200C) stay
allowed too: emoji sequences and several scripts need them to render.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from itertools import chain
from typing import Final

import msgspec

# Refused anywhere in an inbound string (one set, so the codec, the tests and
# the docs agree on it).
FORBIDDEN_CODEPOINTS: Final[frozenset[int]] = frozenset(
    [
        *range(0x00, 0x09),  # C0 controls but TAB (09), LF (0A) and CR (0D) ...
        0x0B,
        0x0C,
        *range(0x0E, 0x20),
        0x7F,  # DEL
        *range(0x80, 0xA0),  # C1 controls (U+009B is a one-character CSI)
        0x061C,  # bidi: Arabic letter mark, LRM, RLM, the embeddings and
        0x200E,  # overrides U+202A..202E, the isolates U+2066..2069
        0x200F,
        *range(0x202A, 0x202F),
        *range(0x2066, 0x206A),
        0x2028,  # line and paragraph separators: break lines in JS and terminals
        0x2029,
        0xFEFF,  # BOM / zero-width no-break space: invisible, splits tokens
    ]
)
_FORBIDDEN_RE: Final = re.compile(
    "[" + "".join(f"\\U{cp:08x}" for cp in sorted(FORBIDDEN_CODEPOINTS)) + "]"
)

# A dict key shown as `.key` in a path; any other key is `[...]` (msgspec's
# own notation) so that a hostile key is never echoed back.
_PLAIN_KEY: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,31}")


def codepoint(ch: str) -> str:
    """`U+001B` for ESC."""
    return f"U+{ord(ch):04X}"


# Scalars a decoded message holds that cannot contain text.
_TEXTLESS: Final[frozenset[type]] = frozenset({int, float, bool, type(None), bytes})


def find_control(value: object) -> tuple[str, str] | None:
    """The first forbidden character in any string within `value`, as (path,
    codepoint) — e.g. `("$.edits.target.label", "U+202E")` — or None.

    `value` is a decoded message: msgspec Structs (by wire field name),
    dicts (all keys first, then the values), lists, tuples, strings, and
    scalars that hold no text. Iterative, so nesting costs no stack; the path
    is only rendered on a hit, and the children of a container are iterated
    in C, so a clean message costs about 0.1 µs per item plus a regex search
    per string.
    """
    search = _FORBIDDEN_RE.search
    # The children still to visit in each open container, as (step, child),
    # and the step (field name, key or index) that led to the current item.
    pending: list[Iterator[tuple[object, object]]] = []
    steps: list[object] = []
    item = value
    while True:
        children: Iterator[tuple[object, object]] | None = None
        if type(item) in _TEXTLESS:  # most items: skip the isinstance chain
            pass
        elif isinstance(item, str):
            if found := search(item):
                return _path(steps), codepoint(found.group())
        elif isinstance(item, (list, tuple)):
            children = enumerate(item) if item else None
        elif isinstance(item, dict):
            # A key is looked at as its own child (step and item both the key).
            children = chain(zip(item, item, strict=True), item.items()) if item else None
        elif isinstance(item, msgspec.Struct):
            values = [getattr(item, f) for f in item.__struct_fields__]
            children = zip(item.__struct_encode_fields__, values, strict=True)
        if children is not None:
            pending.append(children)
            steps.append(None)
        # On to the next item: the next child of the innermost container
        # that has one left.
        while pending:
            child = next(pending[-1], None)
            if child is not None:
                steps[-1], item = child
                break
            pending.pop()
            steps.pop()
        else:
            return None


def _path(steps: list[object]) -> str:
    parts = ["$"]
    for step in steps:
        if isinstance(step, int):
            parts.append(f"[{step}]")
        elif isinstance(step, str) and _PLAIN_KEY.fullmatch(step):
            parts.append("." + step)
        else:
            parts.append("[...]")
    return "".join(parts)


# Kept as they are when printed: layout people expect, and joiners (above).
_SHOWN_AS_IS: Final = frozenset("\n\t\u200c\u200d")
_HIDDEN_CATEGORIES: Final = frozenset({"Cc", "Cf", "Cs"})


def escape_for_terminal(text: str) -> str:
    """`text` with every forbidden or other invisible control character
    (Unicode Cc, Cf, and lone surrogates, which would not even encode) shown as
    a `\\u001b`-style escape, for a CLI that prints text from a user or the
    daemon. Newline and tab are kept. Not reversible: it is for eyes only.
    """
    if text.isprintable():  # fast path: nothing below can match
        return text
    return "".join(_escape(ch) if _hidden(ch) else ch for ch in text)


def _hidden(ch: str) -> bool:
    if ch in _SHOWN_AS_IS:
        return False
    return ord(ch) in FORBIDDEN_CODEPOINTS or unicodedata.category(ch) in _HIDDEN_CATEGORIES


def _escape(ch: str) -> str:
    cp = ord(ch)
    return f"\\u{cp:04x}" if cp <= 0xFFFF else f"\\U{cp:08x}"
