"""Word error rate, for fixtures and the benchmark: (S + D + I) / reference words."""

from __future__ import annotations

from vac.speech.transcript_filter import normalise


def word_error_rate(reference: str, hypothesis: str) -> float:
    """Levenshtein distance over normalised words divided by the reference length."""
    ref = normalise(reference).split()
    hyp = normalise(hypothesis).split()
    if not ref:
        return 0.0 if not hyp else 1.0
    row = list(range(len(hyp) + 1))
    for i, ref_word in enumerate(ref, start=1):
        diagonal, row[0] = row[0], i
        for j, hyp_word in enumerate(hyp, start=1):
            cost = min(row[j] + 1, row[j - 1] + 1, diagonal + (ref_word != hyp_word))
            diagonal, row[j] = row[j], cost
    return row[len(hyp)] / len(ref)
