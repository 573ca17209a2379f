"""Do finals that arrive together recognise faster batched? (docs/stt.md, issue: scaling)

B utterances (the project's spoken fixtures, 2-6 s) are recognised the way
`WhisperStt`'s fast path does it — log-Mel features padded to the 10 s
window, CTranslate2 `encode`, greedy `generate` with the roster prompt — in
four layouts on the same machine, and the wall time until all B are done is
reported (median of `--reps`):

- `2 proc x 1 thread`: today's layout; each worker takes every other one, one at a time.
- `2 proc x 1 thread, batched`: each worker batches its share.
- `1 proc x 2 threads`: one model, one utterance at a time.
- `1 proc x 2 threads, batched`: one model, one `encode` and one `generate` for all B.

The name-slot rescoring and evidence passes after `generate` are left out:
they are per utterance in every layout.

    python -m benchmarks.batched_finals --batch 2,4 --reps 5
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import time
from typing import Any

import numpy as np

WINDOW_FRAMES = 1000  # 10 s of 10 ms Mel frames: WhisperStt's window
NAMES = ("Abeni", "Kofi", "Zuri", "Tariq", "Imani")
FIXTURES = (
    "kofi_build_bench.joe",
    "zuri_protect_path.joe",
    "abeni_repair_gate.joe",
    "tariq_investigate_barn.joe",
)


class Recogniser:
    def __init__(self, threads: int) -> None:
        from faster_whisper import WhisperModel
        from faster_whisper.tokenizer import Tokenizer

        from vac.speech.slots import roster_sentence
        from vac.speech.stt import default_model_dir

        self.model = WhisperModel(
            str(default_model_dir()), device="cpu", compute_type="int8", cpu_threads=threads
        )
        tok = Tokenizer(self.model.hf_tokenizer, False, task="transcribe", language="en")
        prompt = roster_sentence(NAMES) or ""
        self.prompt = [
            tok.sot_prev,
            *tok.encode(" " + prompt),
            *tok.sot_sequence,
            tok.no_timestamps,
        ]

    def run(self, audios: list[np.ndarray], batched: bool) -> list[str]:
        import ctranslate2
        from faster_whisper.audio import pad_or_trim
        from faster_whisper.transcribe import get_ctranslate2_storage

        feats = [pad_or_trim(self.model.feature_extractor(a), WINDOW_FRAMES) for a in audios]
        groups = [feats] if batched else [[f] for f in feats]
        texts: list[str] = []
        for group in groups:
            stacked = np.ascontiguousarray(np.stack(group))
            encoded = self.model.model.encode(get_ctranslate2_storage(stacked), to_cpu=True)
            result = self.model.model.generate(
                ctranslate2.StorageView.from_array(np.asarray(encoded)),
                [self.prompt] * len(group),
                beam_size=1,
                max_length=len(self.prompt) + 120,
                no_repeat_ngram_size=4,
            )
            texts += [self.model.hf_tokenizer.decode(r.sequences_ids[0]) for r in result]
        return texts


def _audios(n: int) -> list[np.ndarray]:
    from tests.speech.audio import load_fixtures

    by_name = {f.name: f for f in load_fixtures()}
    chosen = [by_name[FIXTURES[i % len(FIXTURES)]] for i in range(n)]
    return [np.frombuffer(f.pcm, dtype="<i2").astype(np.float32) / 32768.0 for f in chosen]


_worker: Recogniser | None = None


def _init(threads: int) -> None:
    global _worker
    _worker = Recogniser(threads)
    _worker.run(_audios(1), batched=False)  # warm


def _job(args: tuple[int, list[int], bool]) -> float:
    n, indices, batched = args
    assert _worker is not None
    audios = _audios(n)
    started = time.perf_counter()
    _worker.run([audios[i] for i in indices], batched)
    return time.perf_counter() - started


def measure(batch: int, reps: int) -> dict[str, float]:
    out: dict[str, float] = {}
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(2, initializer=_init, initargs=(1,)) as pool:
        for batched in (False, True):
            walls = []
            for _ in range(reps):
                shares = [list(range(0, batch, 2)), list(range(1, batch, 2))]
                started = time.perf_counter()
                pool.map(_job, [(batch, s, batched) for s in shares if s])
                walls.append((time.perf_counter() - started) * 1000)
            label = "2 proc x 1 thread" + (", batched" if batched else "")
            out[label] = statistics.median(walls)
    one = Recogniser(2)
    audios = _audios(batch)
    one.run(audios[:1], batched=False)  # warm
    for batched in (False, True):
        walls = []
        for _ in range(reps):
            started = time.perf_counter()
            one.run(audios, batched)
            walls.append((time.perf_counter() - started) * 1000)
        out["1 proc x 2 threads" + (", batched" if batched else "")] = statistics.median(walls)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", default="2,4", help="finals arriving together (default 2,4)")
    parser.add_argument("--reps", type=int, default=5)
    args = parser.parse_args(argv)
    results: dict[str, Any] = {}
    for batch in (int(b) for b in args.batch.split(",")):
        results[str(batch)] = measure(batch, args.reps)
        for layout, ms in results[str(batch)].items():
            print(f"B={batch}  {layout:32s} {ms:7.1f} ms (median of {args.reps})")
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
