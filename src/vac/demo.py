"""`make demo`: the whole pipeline once, on bundled audio, in a throw-away home.

Starts a real daemon (real models, real sockets, CURVE on), enrolls a demo
principal, streams a spoken command from `fixtures/`, confirms the draft,
writes the agent's spoken reply to a WAV and prints what happened stage by
stage with the measured latencies. Then stops the daemon with SIGTERM.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any, Final

from vac.child_daemon import ending_on_signals, running_daemon, scratch_home
from vac.client.connection import Connection, keys_for
from vac.client.wavio import read_input_wav, write_wav
from vac.daemon import keys
from vac.errors import VacError
from vac.home import Home
from vac.protocol.messages import (
    AudioOutputChunk,
    AudioOutputStart,
    Negotiation,
    ObjectiveClarify,
    ObjectiveConfirm,
    ObjectiveDraft,
    OutboundMessage,
    SpeechStarted,
    TranscriptFinal,
    TranscriptPartial,
    TurnDone,
)
from vac.protocol.text_safety import escape_for_terminal

ROOT: Final = Path(__file__).resolve().parents[2]
FIXTURE: Final = ROOT / "fixtures" / "audio" / "kofi_build_bench.joe.wav"
OUT_DIR: Final = ROOT / "demo-out"
OUTPUT_RATE_HZ: Final = 22050


def turn(conn: Connection) -> list[tuple[OutboundMessage, bytes | None]]:
    return conn.recv_until(lambda m: isinstance(m, TurnDone), 60)


def show(step: str, text: str) -> None:
    print(f"  {step:<22} {text}")


def latency_rows(done: TurnDone) -> str:
    return "  ".join(f"{k}={v} ms" for k, v in done.latency_ms.items()) or "-"


def main() -> int:
    """The demo; SIGTERM or Ctrl-C stop its daemon and remove its home (exit 143, 130)."""
    OUT_DIR.mkdir(exist_ok=True)
    try:
        with ending_on_signals(), scratch_home("vac-demo-") as home:
            keys.init_server(home)
            keys.enroll(home, "demo")
            print(f"vac demo — throw-away home {home.root}", flush=True)
            t0 = time.monotonic()
            with running_daemon(home) as (proc, endpoint):
                took_s = time.monotonic() - t0
                print(f"  daemon ready on {endpoint} in {took_s:.1f} s (models loaded once)")
                code = run(home, endpoint)
            print(f"  daemon stopped with exit code {proc.returncode}")
            return code
    except KeyboardInterrupt:
        return 130  # Ctrl-C: the daemon is stopped and the home removed; nothing to add
    except VacError as exc:  # e.g. the daemon's own line when it did not start
        print(f"vac demo: {escape_for_terminal(str(exc))}", file=sys.stderr)
        return int(getattr(exc, "exit_code", 2))


def run(home: Home, endpoint: str) -> int:
    pcm = read_input_wav(FIXTURE).pcm
    with Connection(endpoint, keys_for(home, "demo")) as conn:
        ok = conn.hello(rate=OUTPUT_RATE_HZ, speak=True, client="vac-demo")
        print(f"  session {ok.session} as {ok.principal!r}; features: {', '.join(ok.features)}")
        print(f"\n1. streaming {FIXTURE.name} ({len(pcm) // 32} ms of speech, 20 ms chunks)")
        # Twice real time, so partial transcripts show up while "speaking".
        conn.stream_pcm("demo-1", pcm, pace_s=0.01)
        draft: ObjectiveDraft | None = None
        first_done: TurnDone | None = None
        for msg, _ in turn(conn):
            match msg:
                case SpeechStarted():
                    show("speech.started", f"at {msg.at_ms} ms")
                case TranscriptPartial():
                    show("transcript.partial", repr(msg.text))
                case TranscriptFinal():
                    show("transcript.final", f"{msg.text!r} (confidence {msg.confidence:.2f})")
                case ObjectiveDraft():
                    draft = msg
                    show("objective.draft", msg.preview.summary)
                    show("", json.dumps(_brief(msg.objective)))
                case ObjectiveClarify():
                    show("objective.clarify", msg.question)
                case AudioOutputStart():
                    show("spoken preview", repr(msg.text))
                case TurnDone():
                    first_done = msg
                    show("turn.done", f"{msg.status}: {latency_rows(msg)}")
        if draft is None:
            print("demo: no draft was parsed", file=sys.stderr)
            return 1
        print("\n2. the steward confirms the draft")
        conn.send(ObjectiveConfirm(id=conn.next_id(), objective_id=draft.objective.id))
        reply_pcm = bytearray()
        reply_stream = ""
        last_done: TurnDone | None = None
        for msg, payload in turn(conn):
            match msg:
                case Negotiation():
                    show("negotiation", f"{msg.decision}: {msg.reply}")
                case AudioOutputStart():
                    reply_stream = reply_stream or msg.stream
                case AudioOutputChunk() if payload is not None and msg.stream == reply_stream:
                    reply_pcm += payload
                case TurnDone():
                    last_done = msg
                    show("turn.done", f"{msg.status}: {latency_rows(msg)}")
        wav = OUT_DIR / "reply.wav"
        write_wav(wav, bytes(reply_pcm), OUTPUT_RATE_HZ)
        secs = len(reply_pcm) / 2 / OUTPUT_RATE_HZ
        print(f"\n3. the agent's spoken reply: {wav} ({secs:.1f} s at {OUTPUT_RATE_HZ} Hz)")
        print("\nmeasured latency (ms), this run:")
        for name, done in (("spoken command", first_done), ("confirm", last_done)):
            if done is not None:
                print(f"  {name:<16} {latency_rows(done)}")
    return 0


def _brief(objective: Any) -> dict[str, Any]:
    keep = ("agent", "verb", "target", "deadline", "priority", "autonomy", "status")
    import msgspec

    data = msgspec.to_builtins(objective)
    return {k: data[k] for k in keep}


if __name__ == "__main__":
    sys.exit(main())
