"""The one question a session may be waiting on: "Did you mean Imani or Abeni?".

When the recogniser cannot tell two roster names apart, the steward is asked
to choose (`intent.evidence`). The next utterance either picks one — then the
original words are understood again with that name — or is something else,
and the question is dropped. Nothing here is durable: a question is not a
decision, and a restart simply forgets it.
"""

from __future__ import annotations

from typing import NamedTuple

from vac import intent


class Clarification(NamedTuple):
    """A question instead of a decision: the wire `reason`, what is asked, the choices named."""

    reason: str
    question: str
    candidates: tuple[str, ...] = ()


class PendingChoice:
    def __init__(self) -> None:
        self._asked: intent.Clarify | None = None

    def offer(self, clarify: intent.Clarify) -> None:
        """Remember a question that names its candidates (and forget any older one)."""
        self._asked = clarify if clarify.candidates and clarify.heard_as else None

    def answer(self, text: str) -> str | None:
        """The original words with the chosen name, if `text` picks one; else None.

        Either way the question is answered: it is asked once.
        """
        asked, self._asked = self._asked, None
        if asked is None or asked.heard_as is None:
            return None
        name = intent.chosen(text, asked.candidates)
        if name is None:
            return None
        source = asked.source_text
        at = source.lower().find(asked.heard_as.lower())
        if at < 0:
            return None
        return source[:at] + name + source[at + len(asked.heard_as) :]
