"""What the user actually heard of a reply (PROTOCOL §5.2).

History keeps only what was played: the reply text is cut at `played_ms`,
back to the last whole word, so an unheard or half-heard word is never kept.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

# A report this close to a phrase's end is its end. The client counts what it
# played in whole ms of bytes at its rate; the daemon's phrase durations are
# the voice's own samples, rounded, and its streaming resampler holds a few ms
# back until the reply's end. Without slack, a reply played to the last
# sample came out 1-2 ms short and lost its last word (measured on the audio
# stack: "I'll build the wooden bench by").
END_SLACK_MS: Final = 20


@dataclass(frozen=True, slots=True)
class SpokenPhrase:
    text: str
    start_ms: int
    duration_ms: int


def heard_text(phrases: list[SpokenPhrase], played_ms: int) -> str:
    """The prefix of the reply heard within `played_ms`, cut at a word boundary.

    Within a phrase, time is mapped to characters proportionally (speech rate
    is close to uniform inside one phrase); the cut then moves back to the
    previous word end, so the estimate errs towards keeping less.
    """
    heard: list[str] = []
    for phrase in phrases:
        end_ms = phrase.start_ms + phrase.duration_ms
        if played_ms + END_SLACK_MS >= end_ms:
            heard.append(phrase.text)
            continue
        if played_ms > phrase.start_ms and phrase.duration_ms > 0:
            fraction = (played_ms - phrase.start_ms) / phrase.duration_ms
            cut = int(len(phrase.text) * fraction)
            prefix = phrase.text[:cut]
            # A word is heard only if the character after the cut is a space
            # (the word ended inside the played span).
            if cut < len(phrase.text) and not phrase.text[cut].isspace():
                prefix = prefix.rsplit(" ", 1)[0] if " " in prefix else ""
            prefix = prefix.rstrip(" ,;:")
            if prefix:
                heard.append(prefix)
        break
    return " ".join(heard)
