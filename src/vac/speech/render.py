"""The rendering gate: only plain spoken text is voiced.

`render_for_speech(text)` returns `Spoken(text)` — exactly the string that
will be synthesised and sent as `audio.output.start.text` — or
`Refused(reason, detail)` when the text is machine-shaped. It fails closed:
reading JSON, HTML or a table aloud is worse than saying nothing, and the
caller names the refusal in an event.

Order (each step sees the previous step's output):
1. Line endings normalised, HTML entities decoded, control characters dropped.
2. Fenced code blocks (``` or ~~~, closed or running to the end) omitted.
3. Inline code kept as its text when short and wordlike, else dropped.
4. Refusals, first match wins: `json`, `html`, `table`, `code`, `url-heavy`.
5. Markdown cleaned block by block: headings, list items and paragraphs
   become sentences; blockquote markers, emphasis, links (→ link text) and
   images (dropped) are removed; bare URLs are spoken as their host, or
   dropped when long.
6. Whitespace collapsed to single spaces; nothing left → `empty-after-cleanup`.
"""

from __future__ import annotations

import html
import json
import re
import unicodedata
from typing import Final, Literal
from urllib.parse import urlsplit

import msgspec

RefusalReason = Literal["json", "html", "table", "code", "url-heavy", "empty-after-cleanup"]


class Spoken(msgspec.Struct, frozen=True, tag="spoken"):
    """Text to voice. `omitted` names what was left out (e.g. "code-block", "url")."""

    text: str
    omitted: tuple[str, ...] = ()


class Refused(msgspec.Struct, frozen=True, tag="refused"):
    """Nothing is voiced; `reason` is the named cause, `detail` says what matched."""

    reason: RefusalReason
    detail: str


Rendered = Spoken | Refused

INLINE_CODE_MAX_CHARS: Final = 24
URL_MAX_CHARS: Final = 60  # a bare URL longer than this is dropped, not shortened
URL_HEAVY_COUNT: Final = 3  # this many bare URLs make a reply url-heavy ...
URL_HEAVY_WORDS_PER_URL: Final = 2  # ... as do fewer prose words than this per URL

_FENCE: Final = re.compile(r"^\s*(`{3,}|~{3,})")
_INLINE_CODE: Final = re.compile(r"(`+)(.+?)\1")
_WORDLIKE: Final = re.compile(r"[A-Za-z][A-Za-z0-9'.\- ]*")

_JSON_FRAGMENT: Final = re.compile(r"[{\[]\s*\"[^\"\n]{0,80}\"\s*:|^\s*[{\[]\s*[{\[\"]", re.M)
_HTML_STRICT: Final = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>|<!--|<!DOCTYPE", re.I)
_TABLE_RULE: Final = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)+\|?\s*$")
_BOX_RULE: Final = re.compile(r"^\s*\+[-=+]{3,}\+\s*$|[─│┌┐└┘├┤┬┴┼═║]")

_CODE_LINE: Final = re.compile(
    r"""
    [;{}]\s*$                                   # statement or block end
    | ==|!=|=>|&&|\|\||::|[-+*/%:]=|<=|>=       # operators prose rarely uses
    | \b[A-Za-z_][\w.]*\((?:[^()]*[^()\sA-Za-z][^()]*)?\)  # call: f(), g(1), h('a'), not word(s)
    | ^\s*(?:def|class|fn|func)\s+\w+.*[:({]\s*$ # definitions
    | ^\s*(?:import\s+[\w.]+|from\s+[\w.]+\s+import\b|\#include\b|\#!|\$(?:\s|$))
    | ^\s*[A-Za-z_][\w.]*\s*=\s*\S              # assignment
    """,
    re.X,
)

_URL: Final = re.compile(r"(?<![A-Za-z0-9])(?:https?://|ftp://|www\.)[^\s<>()\[\]{}\"'`]+", re.I)
_URL_TRAILING: Final = ".,;:!?'\")]"
_AUTOLINK: Final = re.compile(r"<((?:https?|ftp)://[^<>\s]+)>", re.I)
_IMAGE: Final = re.compile(r"!\[([^\]\n]*)\]\([^)\n]*\)")
_LINK: Final = re.compile(r"\[([^\]\n]+)\]\([^)\n]*\)")
_REF_LINK: Final = re.compile(r"\[([^\]\n]+)\]\[[^\]\n]*\]")
_REF_DEF: Final = re.compile(r"^\s{0,3}\[[^\]\n]+\]:\s*\S+")
_STRIKE: Final = re.compile(r"~~(?=\S)(.+?)(?<=\S)~~")
_BOLD: Final = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")
_ITALIC_STAR: Final = re.compile(r"\*(?=\S)([^*\n]+?)(?<=\S)\*")
_ITALIC_UNDER: Final = re.compile(r"(?<![\w])_(?=\S)([^_\n]+?)(?<=\S)_(?![\w])")
_ESCAPED_MARK: Final = re.compile(r"\\[`*~#|>]")
_ESCAPE: Final = re.compile(r"\\([\\_{}\[\]()+\-.!])")
_LINE_MARKERS: Final = re.compile(r"^[\s#>.,;:!?…]*(?:(?:[-*+•]|\d{1,3}[.)])\s+)?")
_EMPHASIS: Final = re.compile(r"[*~`]+")
_WORD: Final = re.compile(r"[^\W_]{2,}|\d")

_HEADING: Final = re.compile(r"^\s{0,3}#{1,6}(?:\s+(.*?))?\s*#*\s*$")
_SETEXT: Final = re.compile(r"^\s{0,3}(?:=+|-+)\s*$")
_RULE: Final = re.compile(r"^\s{0,3}(?:(?:\*\s*){3,}|(?:-\s*){3,}|(?:_\s*){3,})$")
_QUOTE: Final = re.compile(r"^\s*(?:>\s?)+")
_BULLET: Final = re.compile(r"^\s*(?:[-*+•]|\d{1,3}[.)])\s+(?:\[[ xX]\]\s+)?")

_TERMINAL: Final = ".!?:;…"
_LEFTOVER_MARKS: Final = re.compile(r"`+|\*+|~~+|_+|^[#>\s]+")
_SPACE_BEFORE_PUNCT: Final = re.compile(r"\s+([.,;:!?…])(?=\s|$)")
_REPEATED_STOP: Final = re.compile(r"([.!?…])(?:\s+[.;:])+(?=\s|$)")


# Cleaning can form what a second cleaning removes (blocks joined into a
# link, marks removed into an entity): the gate cleans to a fixed point, so
# rendering spoken text again never changes it. Each pass only removes.
_MAX_PASSES: Final = 4


def render_for_speech(text: str) -> Rendered:
    """Gate `text` for speech: `Spoken` with the exact words to voice, or a named `Refused`."""
    result = _render_once(text)
    for _ in range(_MAX_PASSES - 1):
        if not isinstance(result, Spoken):
            return result
        again = _render_once(result.text)
        if isinstance(again, Spoken) and again.text == result.text:
            return result
        if not isinstance(again, Spoken):
            return again
        result = Spoken(again.text, tuple(dict.fromkeys(result.omitted + again.omitted)))
    return result


def _render_once(text: str) -> Rendered:
    omitted: list[str] = []
    lines = _normalise(text).split("\n")
    lines = _omit_fences(lines, omitted)
    lines = [_INLINE_CODE.sub(lambda m: _inline_code(m, omitted), line) for line in lines]
    # Reference-link definitions are targets, never speech (and not URLs in prose).
    lines = ["" if _REF_DEF.match(line) else line for line in lines]
    body = "\n".join(lines)

    refusal = _refusal(body, lines)
    if refusal is not None:
        return refusal

    spoken = " ".join(s for s in (_clean_block(block, omitted) for block in _blocks(lines)) if s)
    spoken = _tidy(spoken)
    if not any(ch.isalnum() for ch in spoken):
        return Refused("empty-after-cleanup", "no words left after removing markup")
    # Cleanup can join what was split over lines or markup (`A*=0`, `x =\n1`);
    # what is spoken must pass the same checks, so the gate is idempotent.
    refusal = _refusal(spoken, [spoken])
    if refusal is not None:
        return refusal
    return Spoken(spoken, tuple(dict.fromkeys(omitted)))


def _normalise(text: str) -> str:
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    # Until nothing changes: "&amp;#0" unescapes to "&#0", itself an entity, and
    # what is spoken must not change when it is rendered again. Each pass only
    # shortens the text, so this ends.
    while (unescaped := html.unescape(text)) != text:
        text = unescaped
    # Control and format characters are never speech; other line separators become newlines.
    out = []
    for ch in text:
        if ch in "\u2028\u2029\x0b\x0c\x85":
            out.append("\n")
        elif ch == "\t" or ch == "\n" or unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co"):
            out.append(ch)
    return "".join(out)


def _omit_fences(lines: list[str], omitted: list[str]) -> list[str]:
    kept: list[str] = []
    fence: str | None = None
    for line in lines:
        match = _FENCE.match(line)
        if fence is None:
            if match:
                fence = match.group(1)
                omitted.append("code-block")
                kept.append("")  # the block still separates paragraphs
            else:
                kept.append(line)
        elif match and _closes(fence, match.group(1), line):
            fence = None
    return kept


def _closes(fence: str, marker: str, line: str) -> bool:
    # A closing fence uses the opening's character, is at least as long, and has no info string.
    return marker[0] == fence[0] and len(marker) >= len(fence) and not line.strip().strip(fence[0])


def _inline_code(match: re.Match[str], omitted: list[str]) -> str:
    content = match.group(2).strip()
    if len(content) <= INLINE_CODE_MAX_CHARS and _WORDLIKE.fullmatch(content):
        return content
    omitted.append("inline-code")
    return ""


def _refusal(body: str, lines: list[str]) -> Refused | None:
    stripped = body.strip()
    if stripped[:1] in "{[" and stripped:
        try:
            value = json.loads(stripped)
        except ValueError:
            value = None
        if isinstance(value, dict | list):
            return Refused("json", "the reply is a JSON document")
    if m := _JSON_FRAGMENT.search(body):
        return Refused("json", f"JSON object or array: {_excerpt(m.group())}")
    if m := _HTML_STRICT.search(body):
        return Refused("html", f"HTML markup: {_excerpt(m.group())}")
    if table := _table(lines):
        return Refused("table", table)
    # Markdown markers in front of a line do not make code prose, nor prose code.
    text_lines = [_LINE_MARKERS.sub("", _EMPHASIS.sub(" ", ln)) for ln in lines if ln.strip()]
    code_lines = [ln for ln in text_lines if _CODE_LINE.search(ln)]
    if code_lines and (len(code_lines) >= 2 or 2 * len(code_lines) >= len(text_lines)):
        return Refused("code", f"{len(code_lines)} code-shaped line(s): {_excerpt(code_lines[0])}")
    prose = _LINK.sub(r"\1", body)
    urls = _URL.findall(prose)
    words = len(_WORD.findall(_URL.sub(" ", prose)))
    if len(urls) >= URL_HEAVY_COUNT or words < URL_HEAVY_WORDS_PER_URL * len(urls):
        return Refused("url-heavy", f"{len(urls)} URL(s) among {words} word(s)")
    return None


def _table(lines: list[str]) -> str | None:
    piped = 0
    tabbed = 0
    for line in lines:
        if _TABLE_RULE.match(line):
            return "Markdown table rule"
        if _BOX_RULE.search(line):
            return "box-drawn table"
        piped = piped + 1 if line.count("|") >= 2 else 0
        tabbed = tabbed + 1 if line.count("\t") >= 2 else 0
        if piped >= 2:
            return "rows of |-separated cells"
        if tabbed >= 2:
            return "rows of tab-separated cells"
    return None


def _blocks(lines: list[str]) -> list[str]:
    """Group lines into speakable blocks: each heading and list item is its own
    block, consecutive plain lines form one paragraph (soft wraps joined)."""
    blocks: list[str] = []
    paragraph: list[str] = []

    def close() -> None:
        if paragraph:
            blocks.append(" ".join(paragraph))
            paragraph.clear()

    for raw in lines:
        line = _QUOTE.sub("", raw)
        if not line.strip():
            close()
        elif _SETEXT.match(line) and paragraph:
            close()  # the underline makes the paragraph a heading
        elif _RULE.match(line) or _SETEXT.match(line):
            close()
        elif heading := _HEADING.match(line):
            close()
            blocks.append(heading.group(1) or "")
        elif bullet := _BULLET.match(line):
            close()
            paragraph.append(line[bullet.end() :])
        else:
            paragraph.append(line.strip())
    close()
    return blocks


def _clean_block(block: str, omitted: list[str]) -> str:
    # Escaped markup characters are still markup to a listener: drop them first,
    # so they cannot pair up with real emphasis markers.
    # Until none is left: removing `\#` from `\\##` uncovers another `\#`,
    # and what is spoken must not change when it is rendered again.
    text = block
    while (stripped := _ESCAPED_MARK.sub("", text)) != text:
        text = stripped
    text = _IMAGE.sub(lambda m: _note(omitted, "image"), text)
    text = _LINK.sub(r"\1", text)
    text = _REF_LINK.sub(r"\1", text)
    text = _AUTOLINK.sub(r"\1", text)
    text = _URL.sub(lambda m: _speak_url(m.group(), omitted), text)
    text = _STRIKE.sub(lambda m: _note(omitted, "strikethrough"), text)
    for pattern, repl in ((_BOLD, r"\2"), (_ITALIC_STAR, r"\1"), (_ITALIC_UNDER, r"\1")):
        previous = None
        while previous != text:
            previous, text = text, pattern.sub(repl, text)
    text = _ESCAPE.sub(r"\1", text)
    # A backslash left over is never spoken, and kept it would escape what
    # follows it when the spoken text is rendered again (`\\.` → `\.` → `.`).
    text = text.replace("\\", "")
    # Removing marks can join an entity ("*&*amp" → "&amp"): unescape what
    # formed, or rendering the spoken text again would change it.
    while (unescaped := html.unescape(text)) != text:
        text = unescaped
    text = _LEFTOVER_MARKS.sub(" ", text)
    text = " ".join(text.split())
    if text and text[-1] not in _TERMINAL and (text[-1].isalnum() or text[-1] in "\"')]”’"):
        text += "."
    return text


def _speak_url(url: str, omitted: list[str]) -> str:
    trailing = ""
    while url and url[-1] in _URL_TRAILING:
        trailing = url[-1] + trailing
        url = url[:-1]
    omitted.append("url")
    if len(url) > URL_MAX_CHARS:
        return trailing
    host = urlsplit(url if "://" in url else f"http://{url}").hostname or ""
    # No "www" label is spoken, wherever it sits: left in ("a.www."), it would
    # read as a URL again when the spoken text is rendered a second time.
    host = ".".join(label for label in host.split(".") if label != "www")
    # A host is spoken only when it reads as words (not an IP address or a port
    # soup), and never when it would read as a URL itself ("a-www.b").
    if (
        re.fullmatch(r"[a-z][a-z0-9-]*(?:\.[a-z0-9-]+)+", host)
        and not host[-1].isdigit()
        and not _URL.search(host)
    ):
        return host + trailing
    return trailing


def _note(omitted: list[str], what: str) -> str:
    omitted.append(what)
    return ""


def _tidy(text: str) -> str:
    text = " ".join(text.split())
    text = _SPACE_BEFORE_PUNCT.sub(r"\1", text)
    text = _REPEATED_STOP.sub(r"\1", text)
    # Nothing spoken starts with punctuation or a leftover block marker.
    text = re.sub(r"^(?:[\s.,;:!?…#>]+|[-+•](?=\s|$))+", "", text)
    return text.strip()


def _excerpt(text: str, limit: int = 40) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
