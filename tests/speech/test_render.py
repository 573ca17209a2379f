"""The rendering gate: golden tables both ways, and properties over arbitrary text."""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from vac.speech.render import Refused, Spoken, render_for_speech

SPOKEN_GOLDEN: list[tuple[str, str]] = [
    ("Kofi will build a bench.", "Kofi will build a bench."),
    ("Kofi will build a bench", "Kofi will build a bench."),
    ("# Plan\n\nBuild the bench.", "Plan. Build the bench."),
    ("## Plan ##\nBuild it.", "Plan. Build it."),
    ("Title\n=====\nBody text", "Title. Body text."),
    ("Kofi will **build** a _wooden_ *bench* __today__.", "Kofi will build a wooden bench today."),
    ("Read [the guide](https://example.com/guide) first.", "Read the guide first."),
    ("Read [the guide][1] first.\n\n[1]: https://example.com", "Read the guide first."),
    ("![a diagram](d.png) Done.", "Done."),
    ("Run `make test` now.", "Run make test now."),
    ("Run `rm -rf /tmp/x && make` now.", "Run now."),
    ("- first item\n- second item", "first item. second item."),
    ("1. Open the gate\n2) Close it!", "Open the gate. Close it!"),
    ("- [x] done thing\n- [ ] open thing", "done thing. open thing."),
    ("> Quoted wisdom\n> continues here.", "Quoted wisdom continues here."),
    ("Line one\nwraps here.", "Line one wraps here."),
    ("Para one\n\nPara two", "Para one. Para two."),
    ("Before.\n\n```python\nprint('hi')\nx = 1\n```\n\nAfter.", "Before. After."),
    ("Before.\n~~~\ncode here\n~~~\nAfter.", "Before. After."),
    ("Before.\n```\nunclosed fence runs to the end\nx = 1", "Before."),
    ("Text.\n\n---\n\nMore text.", "Text. More text."),
    ("The ~~old~~ new plan.", "The new plan."),
    ("See https://example.com/docs/page for more.", "See example.com for more."),
    ("Docs at https://www.github.com.", "Docs at github.com."),
    ("Server at http://127.0.0.1:8080/x is up.", "Server at is up."),
    ("Tom &amp; Jerry.", "Tom & Jerry."),
    (
        "Use the file(s) when energy < 50 and trust > 70.",
        "Use the file(s) when energy < 50 and trust > 70.",
    ),
    ("Wait... what?", "Wait... what?"),
    ("snake_case words", "snake case words."),
    (r"Not \*emphasis\*.", "Not emphasis."),
    ("   spaced    out\ttext   ", "spaced out text."),
]


@pytest.mark.parametrize(("text", "spoken"), SPOKEN_GOLDEN)
def test_spoken_golden(text: str, spoken: str) -> None:
    result = render_for_speech(text)
    assert isinstance(result, Spoken), result
    assert result.text == spoken


def test_spoken_names_what_was_omitted() -> None:
    result = render_for_speech("Hi.\n```\ncode\n```\nSee https://example.com and `a_b()`.")
    assert isinstance(result, Spoken)
    assert result.omitted == ("code-block", "inline-code", "url")


REFUSED_GOLDEN: list[tuple[str, str]] = [
    ('{"agent": "Kofi", "verb": "Build"}', "json"),
    ('[{"a": 1}, {"a": 2}]', "json"),
    ("[1, 2, 3]", "json"),
    ('The result is {"agent": "Kofi"} as expected.', "json"),
    ("<p>Hello there</p>", "html"),
    ("Hello<br/>there", "html"),
    ("<!DOCTYPE html>", "html"),
    ("Some text <div class='x'>inside</div>", "html"),
    ("| a | b |\n|---|---|\n| 1 | 2 |", "table"),
    ("a | b | c\nd | e | f", "table"),
    ("name\tage\tcity\nKofi\t30\tAccra", "table"),
    ("+----+----+\n| a  | b  |", "table"),
    ("x = 1\ny = 2", "code"),
    ("def build(bench):\n    return bench", "code"),
    ("print('hello world')", "code"),
    ("if (a && b) {\n  go();\n}", "code"),
    ("import os", "code"),
    ("$ rm -rf build", "code"),
    ("See https://a.com, https://b.com and https://c.com.", "url-heavy"),
    ("https://example.com/a/very/long/path/to/something?with=query&and=more", "url-heavy"),
    ("", "empty-after-cleanup"),
    ("   \n\t ", "empty-after-cleanup"),
    ("```\nonly code\n```", "empty-after-cleanup"),
    ("***", "empty-after-cleanup"),
    ("`x_y()`", "empty-after-cleanup"),
    ("![just an image](a.png)", "empty-after-cleanup"),
]


@pytest.mark.parametrize(("text", "reason"), REFUSED_GOLDEN)
def test_refused_golden(text: str, reason: str) -> None:
    result = render_for_speech(text)
    assert isinstance(result, Refused), result
    assert result.reason == reason
    assert result.detail


def test_code_fence_is_omitted_even_when_it_holds_json() -> None:
    # A fenced block is never read; the prose around it still is.
    result = render_for_speech('Here is the plan.\n```json\n{"a": 1}\n```\nConfirm?')
    assert result == Spoken("Here is the plan. Confirm?", ("code-block",))


def test_long_url_in_prose_is_dropped_not_read() -> None:
    url = "https://example.com/" + "segment/" * 10
    text = f"The full report for today is published at {url} if you need the details later."
    result = render_for_speech(text)
    assert isinstance(result, Spoken)
    assert "example" not in result.text
    assert "segment" not in result.text


_MARKDOWN_PIECES = st.sampled_from(
    [
        "# ",
        "## ",
        "**",
        "*",
        "_",
        "__",
        "`",
        "```",
        "```python\n",
        "~~~",
        "~~",
        "> ",
        "- ",
        "1. ",
        "[",
        "](",
        ")",
        "![",
        "|",
        "---",
        "\n",
        "\n\n",
        " ",
        "\t",
        "https://example.com/x",
        "www.example.org",
        "<b>",
        "{",
        "}",
        '"k": ',
        ":",
        "Kofi",
        "will",
        "build",
        "a bench",
        ".",
        ",",
        "?",
        "\\",
        "&amp;",
        "x = 1",
        ";",
        "#",
        "\u2028",
        "\x00",
    ]
)
_MARKDOWNISH = st.lists(_MARKDOWN_PIECES, max_size=40).map("".join)
_ANY_TEXT = st.one_of(st.text(max_size=300), _MARKDOWNISH)


@settings(max_examples=400, deadline=None)
@given(_ANY_TEXT)
def test_never_raises_and_spoken_text_is_plain(text: str) -> None:
    result = render_for_speech(text)
    assert isinstance(result, Spoken | Refused)
    if isinstance(result, Spoken):
        spoken = result.text
        assert spoken == spoken.strip()
        assert any(ch.isalnum() for ch in spoken)
        assert "```" not in spoken
        assert "**" not in spoken
        assert "`" not in spoken
        assert "\n" not in spoken
        assert not re.search(r"(?m)^\s*(#|>)", spoken)
        assert "  " not in spoken


# Derandomized: CI runs the same 500 examples every time (a red CI blocks
# landing); each bug Hypothesis found at random is kept below as an example.
@settings(max_examples=500, deadline=None, derandomize=True)
@given(_ANY_TEXT)
@example('WWW.A.WWW.?"0:0')  # a "www" label inside a spoken host (found in CI)
@example('WWW.A-WWW.A"0:0')  # a host that reads as a URL itself
@example("[0](\r\r)")  # paragraphs joined into a link
@example("0\\\\.")  # an escaped backslash before an escapable mark (found in CI)
@example("&amp#0")  # an entity that unescapes to another entity (found by Hypothesis)
@example("*&*amp")  # an entity formed by removing marks (found by Hypothesis)
def test_rendering_spoken_text_again_is_stable(text: str) -> None:
    # What was cleaned is plain text: the gate must not refuse or change it again.
    first = render_for_speech(text)
    # "3. x" reads as a numbered list item the second time; that ambiguity is Markdown's.
    if isinstance(first, Spoken) and not re.match(r"\d{1,3}[.)]\s", first.text):
        second = render_for_speech(first.text)
        assert second == Spoken(first.text), (first, second)


def test_escaped_marks_uncovered_by_removing_one_are_removed_too() -> None:
    # Found by Hypothesis: `0\\##` once rendered `0\#`, which renders `0.`.
    first = render_for_speech("0\\\\##")
    assert isinstance(first, Spoken)
    assert render_for_speech(first.text) == Spoken(first.text)
