"""What of a reply the user heard, cut at `played_ms` (PROTOCOL §5.2): a golden table."""

from __future__ import annotations

import pytest

from vac.runtime.history import END_SLACK_MS, SpokenPhrase, heard_text

PHRASES = [
    SpokenPhrase("I'll build the wooden bench by tomorrow.", 0, 2000),
    SpokenPhrase("Is that all right?", 2000, 1000),
]


@pytest.mark.parametrize(
    ("played_ms", "heard"),
    [
        (0, ""),
        (100, ""),  # not one whole word yet
        (700, "I'll build the"),  # cut back to the last whole word
        (1999, "I'll build the wooden bench by tomorrow."),  # rounding: the end
        (2000 - END_SLACK_MS, "I'll build the wooden bench by tomorrow."),
        (2000 - END_SLACK_MS - 1, "I'll build the wooden bench by"),
        (2500, "I'll build the wooden bench by tomorrow. Is that"),
        (2999, "I'll build the wooden bench by tomorrow. Is that all right?"),
        (10_000, "I'll build the wooden bench by tomorrow. Is that all right?"),
    ],
)
def test_heard_text_keeps_whole_words_and_a_played_end_is_the_end(
    played_ms: int, heard: str
) -> None:
    assert heard_text(PHRASES, played_ms) == heard
