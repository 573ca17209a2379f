"""Hands-free `vac talk` with its own voice leaking back into the microphone.

The speaker's output comes back on the mic (`audio_stack.echo`: -12 dB,
100 ms later — loudspeakers on a desk, not headphones). The client must not
take that for the user: 0 self-interruptions over 20 spoken replies. When
the user does talk over a reply, playback must stop at once (the budget is
150 ms; the test prints what it measured and asserts half a second),
measured where the audio passes (the mic and the speaker), and the daemon
must learn what was heard (`turn.cancel` with `played_ms`: the history keeps
the reply only up to there).
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt
import pytest

from tests.audio_stack.daemon_view import (
    conversation,
    newest_session,
    said_by_user,
    spoken_by_agent,
)
from tests.audio_stack.players import read_wav
from tests.audio_stack.pulse import MIC, PulseStack
from tests.audio_stack.recorder import FRAME_MS, Recorder, Recording, frame_levels_dbfs
from tests.audio_stack.talk import portaudio_problem, start_talk
from tests.audio_stack.tmux import TmuxServer, TmuxSession
from tests.conftest import RunningDaemon

pytestmark = pytest.mark.slow
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "audio"
ECHO_GAIN_DB: Final = -12.0
ECHO_DELAY_MS: Final = 100
# The budget is 150 ms (docs/client.md gives the measured range); the test
# prints what it measured but does not assert the budget: a timing on a shared
# 2-core host is not a pass/fail (one CI run read 166 ms beside a busy daemon).
# It asserts what makes this a barge-in: playback stopped within half a
# second of her first sound, seconds before the reply would have ended by itself.
STOPPED_WITHIN_MS: Final = 500
# Its spoken preview lasts ~5 s: long enough to talk over at any of the points below.
LONG_PREVIEW: Final = (
    "Ask Abeni to repair the garden gate by tomorrow, without lying to visitors and keep it gentle"
)
# Longest pause inside one spoken reply is well under this.
REPLY_GAP_MS: Final = 1200
SOUND_DBFS: Final = -45.0
COMMANDS: Final = (
    "Ask Kofi to build a wooden bench near the pond by tomorrow",
    "Tell Imani to repair the shed roof by Friday",
    "Ask Zuri to protect the grove path",
    "Have Tariq investigate the barn this afternoon",
    "Ask Abeni to repair the garden gate by tomorrow and keep it gentle",
    "Tell Kofi to map the orchard tonight",
    "Ask Imani to check on the beehives within a week",
    "Tell Zuri to guard the chicken coop tonight",
    "Ask Tariq to survey the north field by the end of the week",
    "Have Abeni fix the gutter by next Monday",
)


def type_text(talk: TmuxSession, text: str) -> None:
    """Full-screen: `t` opens the type prompt, Enter sends it."""
    talk.send_keys("t")
    talk.type(text)
    talk.send_keys("Enter")


def until_reply_over(speaker: Recorder, *, since_s: float, timeout_s: float = 30) -> float:
    """Wait for the next reply after `since_s` and for its end; its onset time."""
    onset_s = speaker.wait_for_sound(since_s=since_s, timeout_s=timeout_s)
    speaker.wait_for_quiet(quiet_ms=REPLY_GAP_MS, since_s=onset_s, timeout_s=60)
    return onset_s


def start_hands_free(
    audio_stack: PulseStack, tmux_server: TmuxServer, daemon: RunningDaemon
) -> tuple[TmuxSession, str]:
    talk = start_talk(tmux_server, daemon.home, daemon.endpoint, extra=["--vad"])
    talk.wait_for("connected as alice", timeout_s=30)
    audio_stack.wait_for_client_streams(recording=1, playing=1, timeout_s=20)
    return talk, newest_session(daemon)


def test_twenty_spoken_replies_with_echo_never_interrupt_themselves(
    audio_stack: PulseStack, tmux_server: TmuxServer, voice_daemon: RunningDaemon
) -> None:
    if why := portaudio_problem():
        pytest.skip(why)
    speaker = audio_stack.record()
    talk, session = start_hands_free(audio_stack, tmux_server, voice_daemon)
    replies_s: list[float] = []
    with audio_stack.echo(gain_db=ECHO_GAIN_DB, delay_ms=ECHO_DELAY_MS):
        for command in COMMANDS:
            t_typed = time.monotonic()
            type_text(talk, command)
            # The full screen keeps no scrollback: find this command's lines.
            said = rf"you: {re.escape(command)}\s*\n\s*draft: .*\n"
            talk.wait_for(re.compile(said), timeout_s=30, history=False)
            replies_s.append(until_reply_over(speaker, since_s=t_typed))  # the preview
            t_confirm = time.monotonic()
            talk.send_keys("y")
            confirmed = re.compile(said + r"\s*confirmed: ")
            talk.wait_for(confirmed, timeout_s=30, history=False)
            replies_s.append(until_reply_over(speaker, since_s=t_confirm))  # the answer
    print("\n" + talk.capture())
    rows = conversation(voice_daemon, session)
    talk.send_keys("q")
    assert talk.wait_exit(timeout_s=10) == 0, talk.stderr_tail()

    assert len(replies_s) == 2 * len(COMMANDS) == 20
    # The client never took its own voice for the user's (it would have said so)...
    written = talk.output()
    assert "connected as alice" in written
    assert "(barge-in)" not in written
    # ...and the echo never became a turn: the user's turns are the typed commands.
    typed = [r["text"] for r in said_by_user(rows)]
    assert typed == list(COMMANDS), typed
    # Every reply was heard to its end: a cut one is kept only up to played_ms,
    # back to a word boundary, so it would not end its sentence.
    agent = spoken_by_agent(rows)
    assert len(agent) >= 2 * len(COMMANDS) - 1, agent  # the last may still be settling
    for row in agent:
        assert row["text"].rstrip().endswith((".", "?", "!")), row


def clip_offset(mic: Recording, clip: bytes) -> int:
    """Where `clip` sits in the mic recording (sample index), by cross-correlation.

    The clip went through PulseAudio untouched (same rate, no resampling), so
    its waveform correlates sharply even with the echo mixed in.
    """
    rec = _f64(mic.pcm)
    ref = _f64(clip)
    n = 1 << int(np.ceil(np.log2(len(rec) + len(ref))))
    corr = np.fft.irfft(np.fft.rfft(rec, n) * np.conj(np.fft.rfft(ref, n)), n)
    return int(np.argmax(corr[: len(rec)]))


def _f64(pcm: bytes) -> npt.NDArray[np.float64]:
    return np.frombuffer(pcm, dtype="<i2").astype(np.float64)


def first_sound_ms(pcm: bytes, rate_hz: int) -> int:
    levels = frame_levels_dbfs(pcm, rate_hz)
    loud = np.flatnonzero(levels > SOUND_DBFS)
    assert loud.size, "the clip is silent"
    return int(loud[0]) * FRAME_MS


def last_sound_s(speaker: Recording, start_s: float, end_s: float) -> float | None:
    """The end of the last sound in [start_s, end_s] (None: silent throughout)."""
    rec = speaker.since(start_s)
    rec = rec.slice(0, rec.sample_at(end_s))
    end = rec.offset(SOUND_DBFS)
    return None if end is None else rec.at_s(end)


def words(text: str) -> list[str]:
    return re.findall(r"[a-z']+", text.lower())


# Where in the reply the user starts (her first sound reaches the mic ~0.3 s
# after the player starts): both land inside words of this preview, so what is
# measured is playback stopping, not a pause that was there anyway.
@pytest.mark.parametrize("into_reply_s", [0.8, 1.5])
def test_talking_over_a_reply_stops_it_at_once_and_the_daemon_keeps_what_was_heard(
    audio_stack: PulseStack,
    tmux_server: TmuxServer,
    voice_daemon: RunningDaemon,
    into_reply_s: float,
) -> None:
    if why := portaudio_problem():
        pytest.skip(why)
    speaker = audio_stack.record()
    mic = audio_stack.record(MIC)
    talk, session = start_hands_free(audio_stack, tmux_server, voice_daemon)
    clip, rate_hz, _ = read_wav(FIXTURES / "zuri_protect_path.joe.wav")
    with audio_stack.echo(gain_db=ECHO_GAIN_DB, delay_ms=ECHO_DELAY_MS):
        t_typed = time.monotonic()
        type_text(talk, LONG_PREVIEW)
        draft = talk.wait_for(re.compile(r"draft: (.+?) *$", re.MULTILINE), timeout_s=30)
        onset_s = speaker.wait_for_sound(since_s=t_typed, timeout_s=30)
        time.sleep(max(0.0, onset_s + into_reply_s - time.monotonic()))
        audio_stack.play_pcm(clip, rate_hz=rate_hz).wait(timeout_s=20)
        talk.wait_for("(barge-in)", timeout_s=10)
        # The new command was heard: drafted, or asked about when the echo
        # changed a word ("8 by Tariq, protect the grove path": who?).
        heard = re.compile(r"^(?:draft|vac asks): ", re.MULTILINE)
        talk.wait_for(heard, timeout_s=30, occurrence=2)
    time.sleep(0.5)
    spoken = speaker.snapshot()
    heard_mic = mic.stop()
    spoken.save_wav(audio_stack.root / "speaker.wav")  # kept with VAC_AUDIO_KEEP=1
    heard_mic.save_wav(audio_stack.root / "mic.wav")
    rows = conversation(voice_daemon, session)
    screen = talk.capture(history=True)
    print("\n" + screen)
    talk.send_keys("q")
    assert talk.wait_exit(timeout_s=10) == 0, talk.stderr_tail()
    # The daemon's endpoint closed the stream before it said so: the chunks in
    # flight meanwhile were answered `stream_closed`, which is not shown.
    assert "error stream_closed" not in screen, screen

    at = clip_offset(heard_mic, clip) + first_sound_ms(clip, rate_hz) * rate_hz // 1000
    user_onset_s = heard_mic.at_s(at)
    # The speaker was playing when she began, and fell silent within the budget
    # (until the answer to her new command, seconds later).
    assert last_sound_s(spoken, user_onset_s - 0.1, user_onset_s) is not None, "spoke in a pause"
    stop_s = last_sound_s(spoken, onset_s, user_onset_s + 1.0)
    assert stop_s is not None
    latency_ms = (stop_s - user_onset_s) * 1000
    print(
        f"reply onset {onset_s:.3f}  user onset {user_onset_s:.3f}  playback stop {stop_s:.3f}"
        f"  → stopped {latency_ms:.0f} ms after the user began"
    )
    assert user_onset_s > onset_s + into_reply_s, "the user spoke over the reply"
    assert latency_ms <= STOPPED_WITHIN_MS

    # played_ms reached the daemon: the history keeps a strict prefix of the preview.
    shown = words(draft.group(1))  # the screen may end it with "…"
    kept = [words(r["text"]) for r in spoken_by_agent(rows)]
    assert kept, rows
    assert 0 < len(kept[0]) < len(shown), (kept[0], shown)
    assert shown[: len(kept[0])] == kept[0], (kept[0], shown)
