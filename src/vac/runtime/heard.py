"""What the listener hands the coordinator: a final transcript and its evidence."""

from __future__ import annotations

from dataclasses import dataclass

from vac import intent
from vac.protocol.messages import InputDoneReason
from vac.runtime.latency import LatencyTrace
from vac.speech.stt import Transcript


@dataclass
class FinalHeard:
    """A final transcript that starts a turn."""

    stream: str
    text: str
    confidence: float
    reason: InputDoneReason
    ref: str | None
    trace: LatencyTrace
    evidence: intent.Evidence | None = None  # per-word and name-slot evidence
    turn_id: str | None = None  # fixed earlier when a provisional final named it


def evidence_of(result: Transcript) -> intent.Evidence | None:
    """The recogniser's evidence, in the terms of the intent layer (None if it gave none)."""
    if not result.words:
        return None
    return intent.Evidence(
        words=tuple(intent.WordProb(w.start, w.end, w.prob) for w in result.words),
        names=tuple(intent.NameChoice(n.name, n.posterior) for n in result.names),
        replies=tuple(intent.ReplyChoice(r.kind, r.text, r.logprob) for r in result.replies),
        name_heard=result.name_heard,
        alternatives=tuple(intent.Alternative(a.text, a.behind) for a in result.alternatives),
    )
