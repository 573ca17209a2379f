"""Did the daemon behave? A pure referee for one VAC/1 session, fed one message at a time.

The scripted transport reports every message it sends (`sent`) and receives
(`received` / `received_unknown`); `finish()` then lists what misbehaved.
Each problem has a stable `reason` name so tests and scripts can match on it.
The rules are the session-level promises of PROTOCOL.md:

- `seq` is 0 on `hello.ok` and +1 per message after it (§2); a jump or a
  missing `seq` is `seq_gap`.
- every input stream the client did not cancel ends with exactly one
  `audio.input.done` (§4);
- every turn ends with exactly one `turn.done` (§5);
- every `audio.output.done.chunks` equals the chunks received for that stream
  (§5.2), and no chunk follows its `done`;
- no `error` other than `input_gap` (§4: a gap is not fatal).

One race is not misbehaviour: a `vad` stream closes at the daemon's endpoint,
so chunks the client had in flight get `error stream_closed`. That error is
tolerated once the client has seen the endpoint (`speech.stopped` or
`audio.input.done` for that stream), because messages on one connection are
ordered: the notice is always read before the error.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from vac.protocol.messages import (
    AudioInputCancel,
    AudioInputChunk,
    AudioInputCommit,
    AudioInputDone,
    AudioInputStart,
    AudioOutputChunk,
    AudioOutputDone,
    AudioOutputStart,
    AudioOutputVisemes,
    Error,
    HelloOk,
    Inbound,
    OutboundMessage,
    SpeechStarted,
    SpeechStopped,
    TurnDone,
)

SEQ_GAP: Final = "seq_gap"
SESSION_MISMATCH: Final = "session_mismatch"
MISSING_TURN_DONE: Final = "missing_turn_done"
DUPLICATE_TURN_DONE: Final = "duplicate_turn_done"
MISSING_INPUT_DONE: Final = "missing_input_done"
DUPLICATE_INPUT_DONE: Final = "duplicate_input_done"
CHUNK_COUNT_MISMATCH: Final = "chunk_count_mismatch"
CHUNK_AFTER_DONE: Final = "chunk_after_done"
MISSING_OUTPUT_DONE: Final = "missing_output_done"
DUPLICATE_OUTPUT_DONE: Final = "duplicate_output_done"
OUTPUT_RATE_MISMATCH: Final = "output_rate_mismatch"
AUDIO_WHILE_SILENT: Final = "audio_while_silent"
ERROR_RECEIVED: Final = "error_received"

TOLERATED_ERROR_CODES: Final = frozenset({"input_gap"})


@dataclass(frozen=True)
class Problem:
    reason: str
    detail: str
    ref: str | None = None  # the message a received error answered

    def __str__(self) -> str:
        return f"{self.reason}: {self.detail}" + (f" (ref {self.ref})" if self.ref else "")


@dataclass
class _InputStream:
    mode: str
    start_id: str | None = None
    cancelled: bool = False  # by the client, or never opened (its start was refused)
    endpointed: bool = False
    done: int = 0


@dataclass
class _OutputStream:
    turn: str | None
    chunks: int = 0
    done: int = 0


@dataclass
class SessionChecker:
    """Feed it the session's traffic in order; `finish()` lists the problems."""

    problems: list[Problem] = field(default_factory=list)
    hello_ok: HelloOk | None = None
    _next_seq: int | None = None
    _inputs: dict[str, _InputStream] = field(default_factory=dict)
    _open_input: str | None = None
    _turns_done: dict[str, int] = field(default_factory=dict)
    _outputs: dict[str, _OutputStream] = field(default_factory=dict)
    _stream_of_id: dict[str, str] = field(default_factory=dict)

    # ------------------------------------------------------------ client side

    def sent(self, msg: Inbound) -> None:
        match msg:
            case AudioInputStart(stream=stream, mode=mode):
                # §4: starting a stream cancels the open one; the client chose that.
                if self._open_input is not None:
                    self._inputs[self._open_input].cancelled = True
                self._inputs[stream] = _InputStream(mode, start_id=msg.id)
                self._open_input = stream
                self._stream_of_id[msg.id] = stream
            case AudioInputCancel(stream=stream):
                self._input(stream).cancelled = True
                self._close_input(stream)
            case AudioInputChunk(stream=stream) | AudioInputCommit(stream=stream):
                self._stream_of_id[msg.id] = stream

    # ------------------------------------------------------------ daemon side

    def received(self, msg: OutboundMessage) -> None:
        self._check_seq(msg.seq, msg.session, is_hello_ok=isinstance(msg, HelloOk))
        turn = getattr(msg, "turn", None)
        # Every turn a message names, a provisional final's too, ends with one turn.done.
        if isinstance(turn, str) and not isinstance(msg, Error):
            self._turns_done.setdefault(turn, 0)
        match msg:
            case HelloOk():
                self.hello_ok = msg
            case SpeechStarted(stream=stream):
                self._input(stream).endpointed = False
            case SpeechStopped(stream=stream):
                self._input(stream).endpointed = True
            case AudioInputDone(stream=stream):
                self._on_input_done(stream)
            case TurnDone(turn=turn_id):
                self._turns_done[turn_id] += 1
                if self._turns_done[turn_id] > 1:
                    self._add(
                        DUPLICATE_TURN_DONE, f"turn {turn_id} got {self._turns_done[turn_id]}"
                    )
            case AudioOutputStart():
                self._on_output_start(msg)
            case AudioOutputChunk(stream=stream):
                self._on_output_chunk(stream)
            case AudioOutputDone():
                self._on_output_done(msg)
            case AudioOutputVisemes():
                self._check_speaking(msg.stream)
            case Error():
                self._on_error(msg)
            case _:
                pass

    def received_unknown(self, type_name: str, seq: int | None, session: str | None) -> None:
        """A message type this client does not know still counts in `seq` (§2)."""
        self._check_seq(seq, session, is_hello_ok=False)

    def report(self, reason: str, detail: str) -> None:
        """A problem the caller saw itself (e.g. a timeout)."""
        self._add(reason, detail)

    def finish(self) -> list[Problem]:
        """Every problem, including what never arrived. Call once, at the end."""
        for stream, state in self._inputs.items():
            if state.done == 0 and not state.cancelled:
                self._add(MISSING_INPUT_DONE, f"input stream {stream} never got audio.input.done")
        for turn, count in self._turns_done.items():
            if count == 0:
                self._add(MISSING_TURN_DONE, f"turn {turn} never got turn.done")
        for stream, out in self._outputs.items():
            if out.done == 0:
                self._add(
                    MISSING_OUTPUT_DONE, f"output stream {stream} never got audio.output.done"
                )
        return list(self.problems)

    # ---------------------------------------------------------------- queries

    def turn_done(self, turn: str) -> bool:
        return self._turns_done.get(turn, 0) > 0

    def input_done(self, stream: str) -> bool:
        state = self._inputs.get(stream)
        return state is not None and state.done > 0

    def input_endpointed(self, stream: str) -> bool:
        state = self._inputs.get(stream)
        return state is not None and (state.endpointed or state.done > 0)

    def open_turns(self) -> list[str]:
        return [turn for turn, count in self._turns_done.items() if count == 0]

    # -------------------------------------------------------------- internals

    def _add(self, reason: str, detail: str, ref: str | None = None) -> None:
        self.problems.append(Problem(reason, detail, ref))

    def _input(self, stream: str) -> _InputStream:
        # A stream the client never started (e.g. after a resume) is still tracked.
        return self._inputs.setdefault(stream, _InputStream(mode="unknown"))

    def _close_input(self, stream: str) -> None:
        if self._open_input == stream:
            self._open_input = None

    def _check_seq(self, seq: int | None, session: str | None, *, is_hello_ok: bool) -> None:
        if is_hello_ok:
            # §2 / docs/protocol.md: seq restarts at 0 on every hello.ok.
            if seq != 0:
                self._add(SEQ_GAP, f"hello.ok has seq {seq}, expected 0")
            self._next_seq = (seq or 0) + 1
            return
        if self._next_seq is None:
            return  # before a session, messages carry no seq
        if seq is None:
            self._add(SEQ_GAP, f"a message after hello.ok has no seq (expected {self._next_seq})")
            return
        if seq != self._next_seq:
            self._add(SEQ_GAP, f"seq {seq} arrived, expected {self._next_seq}")
        self._next_seq = seq + 1  # resynchronise so one gap is one problem
        if self.hello_ok is not None and session != self.hello_ok.session:
            self._add(SESSION_MISMATCH, f"seq {seq} names session {session}")

    def _on_input_done(self, stream: str) -> None:
        state = self._input(stream)
        state.done += 1
        self._close_input(stream)
        # A cancel can cross a done already on its way; one is still the limit.
        if state.done > 1:
            self._add(DUPLICATE_INPUT_DONE, f"input stream {stream} got {state.done}")

    def _check_speaking(self, stream: str) -> None:
        if self.hello_ok is not None and not self.hello_ok.output.speak:
            self._add(AUDIO_WHILE_SILENT, f"audio.output on {stream} although speak is false")

    def _on_output_start(self, msg: AudioOutputStart) -> None:
        self._check_speaking(msg.stream)
        self._outputs.setdefault(msg.stream, _OutputStream(msg.turn))
        if self.hello_ok is not None and msg.rate != self.hello_ok.output.rate:
            self._add(
                OUTPUT_RATE_MISMATCH,
                f"output stream {msg.stream} at {msg.rate} Hz, negotiated "
                f"{self.hello_ok.output.rate} Hz",
            )

    def _on_output_chunk(self, stream: str) -> None:
        out = self._outputs.setdefault(stream, _OutputStream(turn=None))
        if out.done:
            self._add(CHUNK_AFTER_DONE, f"output stream {stream} sent a chunk after its done")
        out.chunks += 1

    def _on_output_done(self, msg: AudioOutputDone) -> None:
        out = self._outputs.setdefault(msg.stream, _OutputStream(turn=None))
        out.done += 1
        if out.done > 1:
            self._add(DUPLICATE_OUTPUT_DONE, f"output stream {msg.stream} got {out.done}")
        elif msg.chunks != out.chunks:
            self._add(
                CHUNK_COUNT_MISMATCH,
                f"output stream {msg.stream}: done says {msg.chunks} chunks, received {out.chunks}",
            )

    def _on_error(self, msg: Error) -> None:
        stream = msg.stream or (self._stream_of_id.get(msg.ref) if msg.ref else None)
        state = self._inputs.get(stream) if stream is not None else None
        if state is not None and msg.ref is not None and msg.ref == state.start_id:
            # A refused start opened no stream: no audio.input.done is owed.
            state.cancelled = True
            self._close_input(stream or "")
        if msg.code in TOLERATED_ERROR_CODES:
            return
        vad_race = (
            msg.code == "stream_closed"
            and stream is not None
            and state is not None
            and state.mode == "vad"
            and self.input_endpointed(stream)
        )
        if vad_race:
            return
        self._add(ERROR_RECEIVED, f"error {msg.code}: {msg.message}", msg.ref)
