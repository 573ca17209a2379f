"""`vac talk`: the thin desktop client — the device shell around `TalkModel`.

Three sources feed one loop on the main thread: the socket (polled), the
microphone (a sounddevice callback filling a bounded queue) and the keyboard
(a reader thread). The socket is only ever touched by the main thread; the
speaker callback only reads the `PlaybackBuffer`. Everything that decides
anything lives in `talk_model.py`, which is tested without a sound card.

On a terminal the client is full-screen (`talk_view.py`: single keys, the
draft as a card, a level meter); with stdin or stdout redirected, or with
`--json`, it prints lines and reads commands a line at a time. `--json`
prints every event the daemon sends as a JSON line on stdout, as `vac
transport --json` does (`events.event_json`); the client's own lines then go
to stderr.

The daemon has `--timeout` seconds to answer the `hello` (less when the
socket monitor says it cannot: nothing listening, a server key that does not
match, a key it does not enrol); then the command fails with the line `vac
say` prints for the same case (exit 3), as does a `bye` from the daemon, and
a daemon that stops answering pings mid-session (`Silent`: killed, the
network cut).
"""

from __future__ import annotations

import contextlib
import queue
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, TextIO

from vac.client.capture import webrtc_is_speech
from vac.client.connection import ClientError, Connection, NoAnswer, Refused, SessionEnded
from vac.client.errors import bye_reason
from vac.client.events import event_json, recv_raw
from vac.client.pacing import chunk_bytes
from vac.client.talk_audio import PlaybackBuffer
from vac.client.talk_model import (
    Action,
    Ended,
    HelloRefused,
    Quit,
    Send,
    Show,
    ShowCard,
    Silent,
    TalkModel,
)
from vac.client.talk_view import FullScreen, KeyReader, View
from vac.protocol.messages import Hello
from vac.protocol.text_safety import escape_for_terminal

INPUT_RATE_HZ: Final = 16000
FRAME_SAMPLES: Final = chunk_bytes(INPUT_RATE_HZ) // 2  # 20 ms frames
MIC_QUEUE_FRAMES: Final = 250  # 5 s; beyond it frames are dropped, not buffered forever
POLL_MS: Final = 10
# What the device may hold beyond the client's buffer: a barge-in cannot stop
# it. PortAudio reports ~35 ms for its "high" default on PulseAudio; 20 ms is
# asked for instead, and the audio-stack tests record every reply played with
# it and recognise it back (no underrun gaps there, the daemon decoding on the
# same cores). Lower is a smaller win and a larger risk of underruns.
OUTPUT_LATENCY_S: Final = 0.02


@dataclass(frozen=True)
class TalkOptions:
    vad: bool = False
    rate_hz: int = 16000
    resume: str | None = None
    timeout_s: float = 30.0  # for the daemon's answer to `hello`, and to pings after it
    as_json: bool = False


def audio_device_problem(portaudio_message: str) -> str:
    """PortAudio's wording ("Error querying device -1") as what a user can act on."""
    if "device -1" in portaudio_message or "querying device" in portaudio_message:
        return (
            "no microphone or speaker found — connect one (python -m sounddevice lists"
            " them), or type instead with vac say"
        )
    return f"cannot open the audio devices ({portaudio_message}) — check python -m sounddevice"


def import_sounddevice() -> Any:
    """sounddevice, or a one-line `ClientError` saying what to install."""
    try:
        import sounddevice
    except ModuleNotFoundError:
        raise ClientError(
            "vac talk needs sounddevice: pip install 'vac[client]' (or 'sounddevice')"
        ) from None
    except OSError:
        # sounddevice raises OSError when the PortAudio shared library is missing.
        raise ClientError(
            "vac talk needs the PortAudio library: e.g. 'apt-get install libportaudio2'"
        ) from None
    return sounddevice


def _read_lines(lines: queue.Queue[str | None]) -> None:
    for line in sys.stdin:
        lines.put(line)
    lines.put(None)  # EOF: the user is done


class _Lines:
    """Prints model output; a transient line (a live partial) is overwritten in place."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self._transient = False
        # Redirected output is a log, not a screen: a live partial, redrawn in
        # place with escape codes on a terminal, is left out of it.
        self._screen = out.isatty()

    def card(self, item: ShowCard) -> None:
        pass  # line mode printed the draft's lines already

    def tick(self, model: TalkModel, now_s: float) -> None:
        pass

    def show(self, item: Show) -> None:
        # Daemon text (transcripts, replies) is user text: never raw escapes.
        text = escape_for_terminal(item.text)
        if item.transient and not self._screen:
            return
        if item.transient:
            self.out.write("\r\x1b[K" + text)
            self.out.flush()
            self._transient = True
            return
        if self._transient:
            self.out.write("\r\x1b[K")
            self._transient = False
        print(text, file=self.out, flush=True)


def run_talk(opts: TalkOptions, connect: Callable[[], Connection]) -> int:
    sd = import_sounddevice()
    playback = PlaybackBuffer(opts.rate_hz)
    model = TalkModel(
        playback,
        vad=opts.vad,
        rate_hz=opts.rate_hz,
        resume=opts.resume,
        timeout_s=opts.timeout_s,
        is_speech=webrtc_is_speech(),
    )
    # Each frame with the time it arrived: the echo gate matches it against what
    # was played then, and the main loop may take several frames at once.
    mic: queue.Queue[tuple[float, bytes]] = queue.Queue(maxsize=MIC_QUEUE_FRAMES)
    lines: queue.Queue[str | None] = queue.Queue()

    def on_mic(indata: Any, frames: int, at: Any, status: Any) -> None:
        if status:  # an overflow: frames lost, the echo delay cannot be trusted
            playback.levels.disturbed(time.monotonic())
        # If the loop fell behind, dropping a frame is better than growing.
        with contextlib.suppress(queue.Full):
            mic.put_nowait((time.monotonic(), bytes(indata)))

    def on_speaker(outdata: Any, frames: int, at: Any, status: Any) -> None:
        if status:  # an underrun: what plays from now is heard later than dated
            playback.levels.disturbed(time.monotonic())
        # The block's level, dated, is what the barge-in gate expects to echo.
        outdata[:] = playback.read(len(outdata), time.monotonic())

    full_screen = sys.stdin.isatty() and sys.stdout.isatty() and not opts.as_json
    if full_screen:
        keys = KeyReader(lines)
    else:
        threading.Thread(target=_read_lines, args=(lines,), name="vac-stdin", daemon=True).start()
    try:
        mic_stream = sd.RawInputStream(
            samplerate=INPUT_RATE_HZ,
            channels=1,
            dtype="int16",
            blocksize=FRAME_SAMPLES,
            callback=on_mic,
        )
        speaker = sd.RawOutputStream(
            samplerate=opts.rate_hz,
            channels=1,
            dtype="int16",
            latency=OUTPUT_LATENCY_S,
            callback=on_speaker,
        )
    except sd.PortAudioError as exc:
        raise ClientError(audio_device_problem(str(exc))) from None
    # With --json, stdout is the events' alone: the client's lines go to stderr.
    out = sys.stderr if opts.as_json else sys.stdout
    with connect() as conn, mic_stream, speaker:
        if not full_screen:
            return _loop(conn, model, mic, lines, _Lines(out), opts)
        with keys, FullScreen(opts.vad, keys) as view:
            return _loop(conn, model, mic, lines, view, opts)


def _loop(
    conn: Connection,
    model: TalkModel,
    mic: queue.Queue[tuple[float, bytes]],
    lines: queue.Queue[str | None],
    screen: View | _Lines,
    opts: TalkOptions,
) -> int:
    started_s = time.monotonic()
    pending: list[Action] = model.start(started_s)
    while True:
        for action in pending:
            match action:
                case Show():
                    screen.show(action)
                case ShowCard():
                    screen.card(action)
                case Send(msg=Hello() as hello):
                    conn.send_hello(hello)  # never blocks, also after a refused handshake
                case Send(msg=msg, payload=payload):
                    conn.send(msg, payload)
                case Quit(reason=reason):
                    if model.hello_ok is not None:
                        conn.bye()  # never blocks, also on a connection gone bad
                    screen.show(Show(reason))  # full-screen: printed with the log at exit
                    return 0
                case HelloRefused(error=error):
                    raise Refused(error)  # as `vac say` (exit 1)
                case Ended(reason=reason):
                    # The daemon's `bye`: not the user's quit (exit 3, as `vac say`).
                    raise SessionEnded(
                        reason, f"the daemon ended the session ({bye_reason(reason)})"
                    )
                case Silent(waited_s=waited_s):
                    # Gone without a `bye` (killed, the network cut): exit 3.
                    raise NoAnswer(
                        f"no answer from the daemon at {conn.endpoint} for {waited_s:g} s"
                        " (pings unanswered) — is it still running? try 'vac preflight'"
                    )
        pending = []
        now_s = time.monotonic()
        if model.hello_ok is None and (conn.hopeless() or now_s - started_s >= opts.timeout_s):
            # Nothing listens, the keys do not match, or no answer in time:
            # the line `vac say` gives for the same case (exit 3).
            raise conn.no_answer(opts.timeout_s)
        wait_ms = POLL_MS
        while conn.sock.poll(wait_ms):
            event = recv_raw(conn, 0, started_s)
            if opts.as_json:
                print(event_json(event), flush=True)
            if event.msg is not None:
                pending += model.on_message(event.msg, event.payload)
            wait_ms = 0  # take whatever else is already there, then the microphone
        conn.hello_ok = model.hello_ok  # a closing socket then lets the bye leave
        while not mic.empty():
            at_s, pcm = mic.get_nowait()
            pending += model.on_mic_frame(pcm, at_s)
        while not lines.empty():
            line = lines.get_nowait()
            pending += model.on_eof() if line is None else model.on_line(line, now_s)
        pending += model.on_tick(now_s)
        screen.tick(model, now_s)
