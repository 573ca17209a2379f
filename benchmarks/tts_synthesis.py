"""Measure piper synthesis time for a short first phrase and a full sentence.

Run: .venv/bin/python benchmarks/tts_synthesis.py [runs]
Prints p50/p95 compute time and the real-time factor (compute / audio duration).
"""

from __future__ import annotations

import statistics
import sys
import time

from vac.speech.phrases import split_phrases
from vac.speech.tts import PiperTts

SENTENCE = "Kofi will build a wooden bench near the pond, by tomorrow, and report any blockers."


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    started = time.perf_counter()
    tts = PiperTts.load()
    print(f"load: {(time.perf_counter() - started) * 1000:.0f} ms")
    tts.synthesize("Warm up.")
    first = split_phrases(SENTENCE)[0]
    cases = (
        ("short phrase", "Sure, I can do that."),
        ("first phrase", first),
        ("sentence", SENTENCE),
    )
    for label, text in cases:
        compute_ms: list[float] = []
        rtf: list[float] = []
        for _ in range(runs):
            phrase = tts.synthesize(text)
            compute_ms.append(phrase.compute_ms)
            rtf.append(phrase.compute_ms / phrase.duration_ms)
        print(
            f"{label} ({len(text)} chars, {phrase.duration_ms} ms audio, {runs} runs): "
            f"p50 {statistics.median(compute_ms):.0f} ms, p95 {_pct(compute_ms, 0.95):.0f} ms, "
            f"RTF p50 {statistics.median(rtf):.3f}, cues {len(phrase.cues)} ({phrase.timing})"
        )
        print(f"  text: {text!r}")


if __name__ == "__main__":
    main()
