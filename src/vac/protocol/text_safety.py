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
from typing import Final

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


def find_control(value: object) -> tuple[str, str] | None:
    """The first forbidden character in any string within `value` (dict keys
    included), in document order, as (path, codepoint) — e.g.
    `("$.edits.target.label", "U+202E")` — or None if there is none.

    `value` is builtins (`msgspec.to_builtins`): str, list, tuple, dict and
    scalars. Iterative, so nesting depth costs no stack.
    """
    todo: list[tuple[str, object]] = [("$", value)]
    while todo:
        path, item = todo.pop()
        if isinstance(item, str):
            if found := _FORBIDDEN_RE.search(item):
                return path, codepoint(found.group())
        elif isinstance(item, dict):
            # Pushed in reverse so that they pop in document order, each key
            # before its value.
            for key, sub in reversed(item.items()):
                sub_path = path + _step(key)
                todo.append((sub_path, sub))
                todo.append((sub_path, key))
        elif isinstance(item, list | tuple):
            todo.extend((f"{path}[{i}]", sub) for i, sub in reversed(list(enumerate(item))))
    return None


def _step(key: object) -> str:
    if isinstance(key, str) and _PLAIN_KEY.fullmatch(key):
        return "." + key
    return "[...]"


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
