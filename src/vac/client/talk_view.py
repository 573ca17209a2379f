"""The terminal side of full-screen `vac talk`: single keys in, a redrawn screen out.

`KeyReader` puts the terminal in cbreak mode (keys arrive one by one, not
echoed; Ctrl-C still interrupts) and turns keys into the model's line
commands on the same queue line mode uses, so the model cannot tell the two
apart. `FullScreen` keeps a `ScreenState`, renders it (`talk_screen.render`)
on the alternate screen and redraws at most every `REDRAW_S`, so a busy
meter never floods the terminal. Both restore the terminal on exit, also
after an exception.
"""

from __future__ import annotations

import contextlib
import os
import queue
import shutil
import sys
import termios
import threading
import tty
from types import TracebackType
from typing import TYPE_CHECKING, Any, Final

from vac.client.talk_model import Show, ShowCard
from vac.client.talk_screen import ScreenState, render
from vac.protocol.text_safety import escape_for_terminal

if TYPE_CHECKING:
    from vac.client.talk_model import TalkModel

REDRAW_S: Final = 0.05
MAX_PROMPT_CHARS: Final = 2000
ESC: Final = "\x1b"
ENTER: Final = ("\r", "\n")
BACKSPACE: Final = ("\x7f", "\x08")
QUIT_KEYS: Final = ("q", "\x03", "\x04")  # q, Ctrl-C, Ctrl-D


class KeyReader:
    """Keys → line commands: space/Enter talk, y, n, e (edit prompt), t (type prompt), q."""

    def __init__(self, lines: queue.Queue[str | None]) -> None:
        self.lines = lines
        self.prompt: str | None = None
        self.prompt_label = ""
        self._prefix = ""
        self._saved: list[Any] | None = None
        self.changed = threading.Event()

    def __enter__(self) -> KeyReader:
        self._fd = sys.stdin.fileno()
        self._saved = termios.tcgetattr(self._fd)
        tty.setcbreak(self._fd)
        threading.Thread(target=self._run, name="vac-keys", daemon=True).start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._saved is not None:
            termios.tcsetattr(self._fd, termios.TCSADRAIN, self._saved)

    def _run(self) -> None:
        while True:
            try:
                data = os.read(self._fd, 64)
            except OSError:
                data = b""
            if not data:
                self.lines.put(None)  # the terminal is gone: quit
                return
            for key in data.decode("utf-8", "replace"):
                self.key(key)
            self.changed.set()

    def key(self, key: str) -> None:
        """One key (public for tests)."""
        if self.prompt is not None:
            self._prompt_key(key)
            return
        match key:
            case " " | "\r" | "\n":
                self.lines.put("")  # talk / send (push-to-talk)
            case "y" | "n":
                self.lines.put(key)
            case "e":
                self._open_prompt("edit FIELD=VALUE: ", "e ")
            case "t":
                self._open_prompt("type: ", "")
            case _ if key in QUIT_KEYS:
                # "q", not the end of input: it quits also before the session,
                # where the end of input waits for the daemon's answer.
                self.lines.put("q")

    def _open_prompt(self, label: str, prefix: str) -> None:
        self.prompt, self.prompt_label, self._prefix = "", label, prefix

    def _prompt_key(self, key: str) -> None:
        assert self.prompt is not None
        if key in ENTER:
            text, self.prompt = self.prompt.strip(), None
            if text:
                self.lines.put(self._prefix + text)
        elif key == ESC:
            self.prompt = None
        elif key in BACKSPACE:
            self.prompt = self.prompt[:-1]
        elif key.isprintable() and len(self.prompt) < MAX_PROMPT_CHARS:
            self.prompt += key


class View:
    """What `_loop` talks to: model output in, a screen kept up to date."""

    def __init__(self, vad: bool, keys: KeyReader | None = None) -> None:
        self.state = ScreenState(hands_free=vad)
        self.keys = keys
        self._dirty = True
        self._drawn_s = 0.0

    def show(self, item: Show) -> None:
        if item.detail:
            return  # the card shows it
        text = escape_for_terminal(item.text)
        if item.transient:
            self.state.partial = text
        else:
            self.state.partial = "" if text.startswith("you: ") else self.state.partial
            self.state.add(text)
        self._dirty = True

    def card(self, item: ShowCard) -> None:
        self.state.card = item.card
        self._dirty = True

    def tick(self, model: TalkModel, now_s: float) -> None:
        st = self.state
        if model.hello_ok is not None:
            st.principal = model.hello_ok.principal
        st.status = status_of(model)
        st.level_rms = model.level_rms
        if self.keys is not None:
            st.prompt, st.prompt_label = self.keys.prompt, self.keys.prompt_label
            if self.keys.changed.is_set():
                self.keys.changed.clear()
                self._dirty = True
        if now_s - self._drawn_s >= REDRAW_S:
            self._drawn_s = now_s
            self.draw()
            self._dirty = False

    def draw(self) -> None:
        """Subclasses put the screen somewhere; the base only renders it."""


class FullScreen(View):
    """The alternate screen of a real terminal, restored on exit."""

    def __enter__(self) -> FullScreen:
        sys.stdout.write("\x1b[?1049h\x1b[?25l")  # alternate screen, cursor hidden
        sys.stdout.flush()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        with contextlib.suppress(OSError, ValueError):
            sys.stdout.write("\x1b[?25h\x1b[?1049l")
            sys.stdout.flush()
            # The conversation stays readable after the client exits.
            for line in list(self.state.log)[-20:]:
                print(line)

    def draw(self) -> None:
        size = shutil.get_terminal_size((80, 24))
        lines = render(self.state, size.columns, size.lines)
        sys.stdout.write("\x1b[H" + "\r\n".join(lines))
        sys.stdout.flush()


def status_of(model: TalkModel) -> str:
    if model.hello_ok is None:
        return "connecting (q quits)"
    if model.stream is not None:
        return "listening" if not model.vad else "hearing you"
    if model.playback.playing:
        return "speaking (talk over me to interrupt)"
    if model.active_turn is not None:
        return "thinking"
    return "waiting for you to speak" if model.vad else "press space to talk"
