"""The verb slot rescored against the lexicon's verbs, in process, on one split.

Every command and non-command of the split is recognised by `WhisperStt`
twice, without and with the verb slot rescored, then parsed and weighed as
the daemon does (`vac.intent.understand`). Reported: how many
commands got the right verb, got a draft with a wrong verb that is not
flagged (the dangerous error), were asked again for the verb (`no-verb`),
and how many non-commands became drafts; and the cost per rescoring.

    .venv/bin/python -m benchmarks.verb_rescoring --split dev

Tune on dev only (docs/understanding.md).
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import time
from collections import Counter
from typing import Any

import numpy as np
from benchmarks.understanding import DEFAULT_VOICES, render
from benchmarks.understanding_corpus import ROSTER, split_items

from vac import intent
from vac.runtime.heard import evidence_of
from vac.speech.stt import SttConfig, Transcript, WhisperStt

NOW = dt.datetime(2026, 12, 2, 10, 0, tzinfo=dt.UTC)


def outcome(item: Any, heard: Transcript) -> str:
    result = intent.understand(
        heard.text,
        confidence=heard.confidence,
        evidence=evidence_of(heard),
        now=NOW,
        roster=intent.default_roster(),
        current_agent=None,
        objective_id="o",
    )
    if isinstance(result, intent.Clarify):
        return f"clarify:{result.reason}"
    if item.kind != "command":
        return "draft"
    flagged = "verb" in result.uncertain
    if result.objective.verb == item.verb:
        return "verb-right-flagged" if flagged else "verb-right"
    return "verb-wrong-flagged" if flagged else "verb-wrong"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--split", default="dev")
    ap.add_argument("--voices", default=",".join(DEFAULT_VOICES))
    args = ap.parse_args()
    plain = WhisperStt(SttConfig(), vocabulary=ROSTER)
    rescoring = WhisperStt(
        SttConfig(),
        vocabulary=ROSTER,
        verbs=intent.verb_words(),
        heard_verbs=intent.heard_verb_phrases(),
    )
    before: Counter[str] = Counter()
    after: Counter[str] = Counter()
    extra_ms: list[float] = []
    for voice in args.voices.split(","):
        for item in split_items(args.split):
            if item.kind == "reply":
                continue
            pcm = np.frombuffer(render(item.text, voice), dtype="<i2")
            t0 = time.perf_counter()
            a = plain.transcribe(pcm, final=True)
            t1 = time.perf_counter()
            b = rescoring.transcribe(pcm, final=True)
            t2 = time.perf_counter()
            was, now = outcome(item, a), outcome(item, b)
            before[f"{item.kind}:{was}"] += 1
            after[f"{item.kind}:{now}"] += 1
            if b.heard_verb is not None:
                extra_ms.append((t2 - t1 - (t1 - t0)) * 1000)
            if was != now or b.heard_verb is not None or now == "clarify:no-verb":
                print(f"{voice:18} {item.text[:44]!r:46} {a.text!r} -> {b.text!r}: {was} -> {now}")
    print("before:", dict(sorted(before.items())))
    print("after: ", dict(sorted(after.items())))
    if extra_ms:
        print(
            f"verb slot replaced in {len(extra_ms)}; extra ms p50 "
            f"{statistics.median(extra_ms):.0f} max {max(extra_ms):.0f}"
        )


if __name__ == "__main__":
    main()
