"""Spoken replies rescored against the reply grammar, in process, on one split.

Every item of the split (replies, non-commands, commands) is recognised by
`WhisperStt` as if a draft were pending (`reply_expected=True`), and the
intent layer's reply decision (`vac.intent.spoken_reply`) is compared with
the words-only decision it replaces. Non-replies must never become a reply.
The scores are saved so the thresholds can be swept without the model:

    .venv/bin/python -m benchmarks.reply_rescoring --split dev --out /tmp/replies.json
    .venv/bin/python -m benchmarks.reply_rescoring --sweep /tmp/replies.json

`--lexicon` scores every reply phrase the parser knows (and the split's
non-replies of six words or fewer) instead of the split's items: with
`--voices` the benchmark does not use (`FRESH_VOICES`), new audio to tune on
without the held-out recordings:

    .venv/bin/python -m benchmarks.reply_rescoring --lexicon --voices fresh --out /tmp/fresh.json

Tune on dev only (docs/understanding.md). Also reports the cost of the
rescoring: the same audio recognised with and without it, in this process.
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import time
from pathlib import Path
from typing import Any, Final, NamedTuple

import numpy as np
from benchmarks.understanding import DEFAULT_VOICES, render
from benchmarks.understanding_corpus import ROSTER, split_items

from vac import intent
from vac.intent import reply_evidence as rv
from vac.speech.stt import SttConfig, WhisperStt


def _decide(row: dict[str, Any]) -> str:
    evidence = intent.Evidence(
        words=(intent.WordProb(0, 1, 1.0),),
        replies=tuple(intent.ReplyChoice(*r) for r in row["replies"]),
    )
    heard = intent.spoken_reply(row["heard"], row["confidence"], evidence)
    if heard is None:
        return "none"
    return heard.kind if heard.sure else f"unsure-{heard.kind}"


def _before(row: dict[str, Any]) -> str:
    heard = intent.spoken_reply(row["heard"], row["confidence"], intent.Evidence())
    if heard is None:
        return "none"
    return heard.kind if heard.sure else f"unsure-{heard.kind}"


def summary(rows: list[dict[str, Any]], decide: Any = _decide) -> dict[str, Any]:
    replies = [r for r in rows if r["reply"]]
    others = [r for r in rows if not r["reply"]]
    return {
        "replies": len(replies),
        "right": sum(1 for r in replies if decide(r) == r["reply"]),
        "wrong_polarity": sum(
            1 for r in replies if decide(r) in ("confirm", "reject") and decide(r) != r["reply"]
        ),
        "non_replies": len(others),
        "non_reply_acted": sum(1 for r in others if decide(r) in ("confirm", "reject")),
        "non_reply_confirmed": sum(1 for r in others if decide(r) == "confirm"),
    }


def sweep(rows: list[dict[str, Any]]) -> None:
    print("confirm_margin reject_margin heard_slack | right/replies wrong non-reply-acted")
    grid = itertools.product((1.0, 2.0, 3.0, 4.0, 5.0), (1.0, 2.0, 3.0), (1.0, 2.0, 3.0, 4.0, 5.0))
    for cm, rm, hs in grid:
        rv.CONFIRM_MARGIN, rv.REJECT_MARGIN, rv.HEARD_SLACK = cm, rm, hs  # type: ignore[misc]
        s = summary(rows)
        print(
            f"{cm:4.1f} {rm:4.1f} {hs:4.1f} | {s['right']}/{s['replies']} "
            f"{s['wrong_polarity']} {s['non_reply_acted']}"
        )


# espeak-ng voices the understanding benchmark does not render.
FRESH_VOICES: Final = (
    "espeak-en-gb-scotland",
    "espeak-en-029",
    "espeak-en-us-nyc",
    "espeak-en-gb-x-gbclan",
    "espeak-en+m3",
    "espeak-en-us+f2",
)


class _Said(NamedTuple):
    text: str
    reply: str | None


def _lexicon(split: str) -> list[_Said]:
    """Every reply phrase, then the split's short non-replies."""
    said = [_Said(phrase, kind) for phrase, kind in intent.reply_phrases()]
    short = [i for i in split_items(split) if i.kind != "reply" and len(i.text.split()) <= 6]
    return said + [_Said(i.text, None) for i in short]


def run(split: str, voices: list[str], *, lexicon: bool = False) -> list[dict[str, Any]]:
    stt = WhisperStt(SttConfig(), vocabulary=ROSTER, replies=intent.reply_phrases())
    rows: list[dict[str, Any]] = []
    items = _lexicon(split) if lexicon else split_items(split)
    for voice in voices:
        for item in items:
            pcm = np.frombuffer(render(item.text, voice), dtype="<i2")
            t0 = time.perf_counter()
            stt.transcribe(pcm, final=True)
            t1 = time.perf_counter()
            got = stt.transcribe(pcm, final=True, reply_expected=True)
            t2 = time.perf_counter()
            rows.append(
                {
                    "voice": voice,
                    "text": item.text,
                    "reply": item.reply,
                    "heard": got.text,
                    "confidence": got.confidence,
                    "replies": [(r.kind, r.text, r.logprob) for r in got.replies],
                    "plain_ms": (t1 - t0) * 1000,
                    "with_ms": (t2 - t1) * 1000,
                }
            )
    return rows


def report(rows: list[dict[str, Any]]) -> None:
    for r in rows:
        if r["reply"] or _decide(r) != "none":
            best = {
                k: max((s[2] for s in r["replies"] if s[0] == k), default=None)
                for k in ("heard", "confirm", "reject")
            }
            print(
                f"{r['voice']:18} {r['text']!r:16} heard {r['heard']!r:22} c={r['confidence']:.2f} "
                f"{ {k: None if v is None else round(v, 1) for k, v in best.items()} } "
                f"before={_before(r)} after={_decide(r)}"
            )
    extra = [r["with_ms"] - r["plain_ms"] for r in rows if r["replies"] and "with_ms" in r]
    print("before:", summary(rows, _before))
    print("after: ", summary(rows))
    if extra:
        print(
            f"rescoring ran on {len(extra)} of {len(rows)} utterances; extra ms per call "
            f"p50 {statistics.median(extra):.0f} max {max(extra):.0f}"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--split", default="dev")
    ap.add_argument("--voices", default=",".join(DEFAULT_VOICES), help='or "fresh"')
    ap.add_argument("--lexicon", action="store_true", help="every reply phrase, not the split's")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--sweep", type=Path, help="sweep the thresholds over saved rows")
    args = ap.parse_args()
    if args.sweep:
        rows = json.loads(args.sweep.read_text())
        report(rows)
        sweep(rows)
        return
    voices = list(FRESH_VOICES) if args.voices == "fresh" else args.voices.split(",")
    rows = run(args.split, voices, lexicon=args.lexicon)
    if args.out:
        args.out.write_text(json.dumps(rows, indent=1))
    report(rows)


if __name__ == "__main__":
    main()
