"""The one question a session may be waiting on: "Did you mean Imani or Abeni?".

When the recogniser cannot tell two roster names apart, or a name is no
one's, the steward is asked to choose (`intent.evidence`). The next
utterance either picks one — then the original words are understood again
with that name — or is something else, and the question is dropped. A
question about a missing thing ("What should Kofi repair?") or a deadline
not understood ("When should it be done?") is answered the same way: a
short answer with no verb of its own ("the gate", "by Saturday") goes into
the original words, after the verb or in place of the words not
understood; after 'I heard "water the plants" for Kofi… What should Kofi
do?' an answer with a verb of ours and no one else named ("take care of
the plants") takes the place of the words quoted. Nothing here is durable:
a question is not a decision, and a restart simply forgets it.
"""

from __future__ import annotations

from collections.abc import Sequence
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
        """Remember a question an answer can complete (and forget any older one)."""
        answerable = clarify.heard_as is not None or clarify.fill_at is not None
        self._asked = clarify if answerable else None

    def answer(self, text: str, names: Sequence[str] = ()) -> str | None:
        """The original words with the chosen name, the missing thing or the
        deadline said again, if `text` answers; else None.

        Either way the question is answered: it is asked once.
        """
        asked, self._asked = self._asked, None
        if asked is None:
            return None
        source = asked.source_text
        if asked.reason == "no-verb" and asked.heard_as is not None:
            # 'I heard "water the plants" for Kofi…': "take care of the plants"
            at = source.find(asked.heard_as)
            said = text.strip().rstrip(".!").strip()
            if at < 0 or not intent.says_instead(said, names):
                return None
            return source[:at] + said + source[at + len(asked.heard_as) :]
        if not asked.candidates:
            if not intent.fills_in(text):
                return None
            said = text.strip().rstrip(".!").strip()
            if asked.fill_at is not None:
                return f"{source[: asked.fill_at]} {said}{source[asked.fill_at :]}"
            at = source.find(asked.heard_as or "\0")
            return None if at < 0 else source[:at] + said + source[at + len(asked.heard_as or "") :]
        if asked.heard_as is None:
            return None
        name = intent.chosen(text, asked.candidates)
        if name is None:
            return None
        at = source.lower().find(asked.heard_as.lower())
        if at < 0:
            return None
        return source[:at] + name + source[at + len(asked.heard_as) :]
