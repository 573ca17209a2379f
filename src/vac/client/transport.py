"""`vac transport`: the scripted, non-interactive voice transport.

It streams WAV files as a microphone client would — 20 ms chunks, paced in
real time unless `--fast` — waits for each turn to finish, optionally barges
in or confirms drafts, records every event and the reply audio, and exits 0
only if the session behaved (see `SessionChecker`). One thread, one socket:
waiting is done by polling the socket, so events are handled while audio is
still being sent.
"""

from __future__ import annotations

import struct
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Final

from vac.client.checker import (
    MISSING_INPUT_DONE,
    MISSING_OUTPUT_DONE,
    MISSING_TURN_DONE,
    Problem,
    SessionChecker,
)
from vac.client.connection import EXIT_NO_ANSWER, Connection, Timeout
from vac.client.events import EventSink, Received, recv_raw
from vac.client.pacing import chunk_bytes, sleep_before_s, split_chunks
from vac.client.replies import BargeInSchedule, ReplyCollector
from vac.client.wavio import PcmAudio, WavError, read_input_wav, write_wav
from vac.protocol.errors import ProtocolError
from vac.protocol.messages import (
    OPT_IN_FEATURES,
    AudioInputChunk,
    AudioInputCommit,
    AudioInputStart,
    AudioOutputChunk,
    AudioOutputDone,
    AudioOutputStart,
    ClientBye,
    Error,
    Hello,
    HelloOk,
    Inbound,
    InputMode,
    ObjectiveConfirm,
    ObjectiveDraft,
    OutputRequest,
    Ping,
    Pong,
    ServerBye,
    TurnCancel,
)

TIMEOUT: Final = "timeout"
CONNECTION: Final = "connection"
# A counter-offer brings a new draft; confirming it may bring another. Bound it.
MAX_CONFIRMS_PER_WAV: Final = 3
# In vad mode the daemon should endpoint by itself; a commit is the fallback. With
# --fast every chunk is sent before the endpoint can be announced, so give it time.
VAD_ENDPOINT_GRACE_S: Final = 1.5
# After the last turn, listen briefly so that a late duplicate is still caught.
FINAL_DRAIN_S: Final = 0.3
# What a session ended by the daemon (`bye`) leaves unfinished: not misbehaviour.
CUT_SHORT: Final = frozenset({MISSING_INPUT_DONE, MISSING_TURN_DONE, MISSING_OUTPUT_DONE})
# WAVE_FORMAT_IEEE_FLOAT, and WAVE_FORMAT_EXTENSIBLE (whose sub-format says).
_WAV_FLOAT: Final = 3
_WAV_EXTENSIBLE: Final = 0xFFFE


@dataclass(frozen=True)
class TransportOptions:
    wavs: list[Path]
    out_dir: Path | None = None
    as_json: bool = False
    fast: bool = False
    barge_in_after_ms: int | None = None
    vad: bool = False
    rate_hz: int = 16000
    speak: bool = True
    confirm: bool = False
    timeout_s: float = 30.0
    resume: str | None = None


class _Abort(Exception):
    """The session cannot go on (timeout, broken frames); the problem is recorded."""


class _Ended(_Abort):
    """The daemon ended the session (`bye`); nothing more will come."""


class Transport:
    def __init__(self, conn: Connection, opts: TransportOptions, stdout: IO[str]) -> None:
        self.conn = conn
        self.opts = opts
        self.checker = SessionChecker()
        self.replies = ReplyCollector()
        self.barge = (
            BargeInSchedule(opts.barge_in_after_ms, opts.rate_hz)
            if opts.barge_in_after_ms is not None
            else None
        )
        jsonl = None
        if opts.out_dir is not None:
            opts.out_dir.mkdir(parents=True, exist_ok=True)
            # A directory used before keeps nothing of that run: events.jsonl
            # is rewritten, so replies it does not name go too.
            for stale in opts.out_dir.glob("reply-*.wav"):
                stale.unlink(missing_ok=True)
            jsonl = (opts.out_dir / "events.jsonl").open("w", encoding="utf-8")
        self.sink = EventSink(jsonl, stdout, as_json=opts.as_json)
        self.started_s = time.monotonic()
        self.last_sent_s = self.started_s
        self.hello_ok: HelloOk | None = None
        self.drafts: list[ObjectiveDraft] = []
        # ids the daemon has answered (a message with that `ref`), and those it refused.
        self.refs_seen: set[str] = set()
        self.error_refs: set[str] = set()
        self.events_seen = 0
        self.ended: ServerBye | None = None  # the daemon's `bye`, if it sent one
        self.wavs_done = 0

    # ------------------------------------------------------------------ run

    def run(self, audio: list[PcmAudio]) -> list[Problem]:
        try:
            self._hello()
            for n, pcm in enumerate(audio, start=1):
                self._stream(f"in-{n}-{self.conn.next_id()}", pcm)
                self._settle()
                self.wavs_done = n
            self._drain(FINAL_DRAIN_S)
            self._send(ClientBye(id=self.conn.next_id()))
        except _Abort:
            pass
        finally:
            self._write_replies()
            self.sink.close()
        return self.checker.finish()

    def _hello(self) -> None:
        hello = Hello(
            id=self.conn.next_id(),
            versions=[1],
            client="vac-transport",
            output=OutputRequest(rate=self.opts.rate_hz, speak=self.opts.speak),  # type: ignore[arg-type]
            resume=self.opts.resume,
            features=list(OPT_IN_FEATURES),
        )
        self.conn.send_hello(hello)  # never blocks, also after a refused handshake
        self.checker.sent(hello)
        self.last_sent_s = time.monotonic()
        try:
            self._wait(
                lambda: self.hello_ok is not None or hello.id in self.error_refs,
                "hello.ok",
                no_answer=True,
            )
        except _Abort:
            timed_out = all(p.reason == TIMEOUT for p in self.checker.problems)
            if self.events_seen == 0 and self.ended is None and timed_out:
                # Not a word from the daemon: say why (down, keys), exit 3.
                raise self.conn.no_answer(self.opts.timeout_s) from None
            raise
        if self.hello_ok is None:
            raise _Abort  # refused (e.g. session_unknown); the checker has the error

    def _stream(self, stream: str, audio: PcmAudio) -> None:
        mode: InputMode = "vad" if self.opts.vad else "push_to_talk"
        start_id = self.conn.next_id()
        self._send(
            AudioInputStart(
                id=start_id,
                stream=stream,
                encoding="pcm_s16le",
                rate=audio.rate_hz,
                channels=1,
                mode=mode,
            )
        )
        first_s = time.monotonic()
        last_seq: int | None = None
        for seq, chunk in enumerate(split_chunks(audio.pcm, chunk_bytes(audio.rate_hz))):
            if not self.opts.fast:
                wait_s = sleep_before_s(seq, time.monotonic() - first_s)
                self._service_until(time.monotonic() + wait_s)
            else:
                self._service_until(time.monotonic())
            # The stream closed without us (a vad endpoint, auto-commit, overrun) or
            # never opened (the start was refused): more chunks would only be errors.
            if self.checker.input_done(stream) or start_id in self.error_refs:
                break
            self._send(AudioInputChunk(id=self.conn.next_id(), stream=stream, seq=seq), chunk)
            last_seq = seq
        if start_id in self.error_refs:
            return  # the start was refused: no stream, so no audio.input.done to wait for
        # A vad stream that the daemon endpointed is closed; committing it would only
        # ask for its outcome again. Push-to-talk always commits unless already done.
        # vad: the audio goes on after `speech.stopped` until the daemon closes the
        # stream, since speech inside its continuation window continues the
        # utterance (`hello.ok.limits.continuation_ms`).
        if self.opts.vad:
            grace_s = VAD_ENDPOINT_GRACE_S + self._continuation_s()
            grace_end_s = time.monotonic() + grace_s
            while not self.checker.input_done(stream) and time.monotonic() < grace_end_s:
                self._service_until(min(grace_end_s, time.monotonic() + 0.05))
        ended = self.checker.input_done(stream)
        if last_seq is not None and not ended:
            self._send(AudioInputCommit(id=self.conn.next_id(), stream=stream, last_seq=last_seq))
        self._wait(
            lambda: self.checker.input_done(stream) or start_id in self.error_refs,
            f"audio.input.done for {stream}",
        )

    def _continuation_s(self) -> float:
        limits = self.hello_ok.limits if self.hello_ok is not None else None
        return limits.continuation_ms / 1000 if limits is not None else 0.0

    def _settle(self) -> None:
        """Wait for every open turn; with --confirm, confirm new drafts and wait again."""
        confirmed: set[tuple[str, int]] = set()
        while True:
            self._wait(lambda: not self.checker.open_turns(), "turn.done")
            if not self.opts.confirm or len(confirmed) >= MAX_CONFIRMS_PER_WAV:
                break
            todo = [
                d for d in self.drafts if (d.objective.id, d.objective.revision) not in confirmed
            ]
            if not todo:
                break
            draft = todo[-1]  # the newest draft supersedes older ones of this WAV
            confirmed.update((d.objective.id, d.objective.revision) for d in todo)
            confirm_id = self.conn.next_id()
            self._send(
                ObjectiveConfirm(
                    id=confirm_id,
                    objective_id=draft.objective.id,
                    revision=draft.objective.revision,
                )
            )
            # The confirm turn's first message carries ref = confirm_id (§5).
            self._wait(_answered(self.refs_seen, confirm_id), f"an answer to confirm {confirm_id}")
        self.drafts.clear()

    # --------------------------------------------------------------- sending

    def _send(self, msg: Inbound, payload: bytes | None = None) -> None:
        self.conn.send(msg, payload)
        self.checker.sent(msg)
        self.last_sent_s = time.monotonic()

    def _keepalive(self, now_s: float) -> None:
        # §3: send something at least every heartbeat_ms; half of it leaves slack.
        if (
            self.hello_ok is not None
            and now_s - self.last_sent_s > self.hello_ok.heartbeat_ms / 2000
        ):
            self._send(Ping(id=self.conn.next_id()))

    def _fire_barge_ins(self, now_s: float) -> None:
        if self.barge is None:
            return
        for cut in self.barge.due(now_s):
            if not self.checker.turn_done(cut.turn):
                self._send(
                    TurnCancel(id=self.conn.next_id(), turn=cut.turn, played_ms=cut.played_ms)
                )

    # ------------------------------------------------------------- receiving

    def _service_until(self, until_s: float) -> None:
        """Handle whatever arrives until `until_s` (at least one non-blocking poll)."""
        while True:
            now_s = time.monotonic()
            self._fire_barge_ins(now_s)
            self._keepalive(now_s)
            left_s = until_s - now_s
            if self.barge is not None and (due_s := self.barge.next_due_s()) is not None:
                left_s = min(left_s, due_s - now_s)
            try:
                self._handle(recv_raw(self.conn, max(0.0, left_s), self.started_s))
            except Timeout:
                if time.monotonic() >= until_s:
                    return
            except ProtocolError as exc:
                self.checker.report(CONNECTION, str(exc))
                raise _Abort from None

    def _wait(self, done: Callable[[], bool], what: str, *, no_answer: bool = False) -> None:
        """Handle events until `done()`; `--timeout` seconds without any event aborts.

        `no_answer`: nothing has come yet; a handshake the daemon refused ends
        the wait at once instead of after `--timeout`.
        """
        last_event_s = time.monotonic()
        while not done():
            if no_answer and self.events_seen == 0 and self.conn.hopeless():
                raise self.conn.no_answer(self.opts.timeout_s)
            seen = self.events_seen
            self._service_until(min(time.monotonic() + 0.05, last_event_s + self.opts.timeout_s))
            if self.events_seen != seen:
                last_event_s = time.monotonic()
            elif time.monotonic() - last_event_s >= self.opts.timeout_s:
                self.checker.report(
                    TIMEOUT, f"no event for {self.opts.timeout_s:.1f} s while waiting for {what}"
                )
                raise _Abort

    def _drain(self, quiet_s: float) -> None:
        self._service_until(time.monotonic() + quiet_s)

    def _handle(self, event: Received) -> None:
        # A pong answers our own keepalive; counting it as progress would let a
        # daemon that never finishes a turn keep the transport waiting forever.
        if not isinstance(event.msg, Pong):
            self.events_seen += 1
        self.sink.write(event)
        msg = event.msg
        if msg is None:
            self.checker.received_unknown(
                event.type_name, event.header.get("seq"), event.header.get("session")
            )
            return
        self.checker.received(msg)
        if msg.ref is not None and not isinstance(msg, Error):
            self.refs_seen.add(msg.ref)
        now_s = time.monotonic()
        match msg:
            case HelloOk():
                self.hello_ok = msg
            case ObjectiveDraft():
                self.drafts.append(msg)
            case Error(ref=ref) if ref is not None:
                self.error_refs.add(ref)
                self.refs_seen.add(ref)  # an answer too: stop waiting for it
            case AudioOutputStart(stream=stream, turn=turn):
                self.replies.start(stream, turn)
            case AudioOutputChunk(stream=stream, index=index):
                payload = event.payload or b""
                reply = self.replies.chunk(stream, index, payload)
                if self.barge is not None:
                    self.barge.on_chunk(stream, reply.turn, len(payload), now_s)
            case AudioOutputDone(stream=stream):
                if self.barge is not None:
                    self.barge.on_done(stream)
            case ServerBye():
                # PROTOCOL §3: the session is over (shutdown, idle, ...); waiting
                # for more would only end in a timeout.
                self.ended = msg
                raise _Ended
            case _:
                pass

    def _write_replies(self) -> None:
        if self.opts.out_dir is None:
            return
        rate_hz = self.hello_ok.output.rate if self.hello_ok else self.opts.rate_hz
        for reply in self.replies.replies.values():
            write_wav(self.opts.out_dir / f"reply-{reply.number}.wav", reply.pcm(), rate_hz)


def _answered(refs_seen: set[str], msg_id: str) -> Callable[[], bool]:
    return lambda: msg_id in refs_seen


def _float_wav(path: Path) -> tuple[int, int, int] | None:
    """(bits, channels, rate) if `path` is a float WAV (`wave` only says "unknown format")."""
    try:
        with path.open("rb") as fh:
            head = fh.read(4096)
    except OSError:
        return None
    if head[:4] != b"RIFF" or head[8:12] != b"WAVE":
        return None
    at = 12
    while at + 8 <= len(head):
        chunk, size = head[at : at + 4], struct.unpack_from("<I", head, at + 4)[0]
        if chunk == b"fmt " and at + 24 <= len(head):
            tag, channels, rate = struct.unpack_from("<HHI", head, at + 8)
            bits = struct.unpack_from("<H", head, at + 22)[0]
            if tag == _WAV_EXTENSIBLE and at + 34 <= len(head):
                tag = struct.unpack_from("<H", head, at + 32)[0]  # the sub-format GUID
            return (bits, channels, rate) if tag == _WAV_FLOAT else None
        at += 8 + size + (size & 1)
    return None


def read_wav(path: Path) -> PcmAudio:
    """`read_input_wav`, with a refusal that says how to convert the file."""
    convert = f"sox {path} -b 16 -c 1 -r 16000 out.wav"
    try:
        return read_input_wav(path)
    except WavError as exc:
        if (found := _float_wav(path)) is not None:
            bits, channels, rate = found
            if (channels, rate) == (1, 16000):
                convert = f"sox {path} -b 16 out.wav"
            raise WavError(
                f"{path} is {bits}-bit float WAV; vac needs 16-bit PCM — convert with {convert}"
            ) from None
        if "no such file" in str(exc) or "no audio frames" in str(exc):
            raise
        raise WavError(f"{exc} — convert with {convert}") from None


def run_transport(
    opts: TransportOptions, connect: Callable[[], Connection], stdout: IO[str] = sys.stdout
) -> int:
    """Read every WAV (refusing a bad one before connecting), run, report; the exit code.

    0 the session behaved; 1 it misbehaved; 2 a usage problem (raised);
    3 no answer from the daemon (raised as `NoAnswer`), or the daemon ended
    the session with `bye` before the last WAV was done — that is not the
    session misbehaving, so only the problems before it count.
    """
    audio = [read_wav(path) for path in opts.wavs]
    with connect() as conn:
        transport = Transport(conn, opts, stdout)
        problems = transport.run(audio)
    ended = transport.ended
    if ended is not None:
        problems = [p for p in problems if p.reason not in CUT_SHORT]
    if problems:
        print("vac transport: the session misbehaved:", file=sys.stderr)
        # Each reason once, in order, with its count; an error's own ref is
        # no part of it (415 `rate_limited` chunks are one line), the first shown.
        said: dict[str, list[str | None]] = {}
        for problem in problems:
            said.setdefault(f"{problem.reason}: {problem.detail}", []).append(problem.ref)
        for line, refs in said.items():
            if len(refs) == 1:
                tail = f" (ref {refs[0]})" if refs[0] else ""
            else:
                tail = f" (×{len(refs)}" + (f"; the first ref {refs[0]})" if refs[0] else ")")
            print(f"  - {line}{tail}", file=sys.stderr)
        return 1
    if ended is not None:
        print(
            f"vac transport: the daemon ended the session (bye {ended.reason}) after"
            f" {transport.wavs_done} of {len(audio)} WAV files; nothing misbehaved before that",
            file=sys.stderr,
        )
        return EXIT_NO_ANSWER
    files = "WAV file" if len(audio) == 1 else "WAV files"
    print(f"vac transport: ok ({len(audio)} {files})", file=sys.stderr)
    return 0
