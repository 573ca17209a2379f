"""The harness itself: devices, the mic feed, recording times, echo, tmux."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from tests.audio_stack.players import read_wav, silence_pcm
from tests.audio_stack.pulse import MIC, MIC_FEED_MONITOR, SPEAKER, SPEAKER_MONITOR, PulseStack
from tests.audio_stack.recorder import Recording
from tests.audio_stack.talk import portaudio_problem
from tests.audio_stack.tmux import TmuxServer

pytestmark = pytest.mark.slow
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "audio"
RATE_HZ = 16000


def tone_pcm(duration_ms: int, freq_hz: float = 440.0, dbfs: float = -6.0) -> bytes:
    t = np.arange(RATE_HZ * duration_ms // 1000) / RATE_HZ
    wave = 32768 * 10 ** (dbfs / 20) * np.sin(2 * np.pi * freq_hz * t)
    return wave.astype("<i2").tobytes()


def samples(rec: Recording) -> np.ndarray:
    return np.frombuffer(rec.pcm, dtype="<i2").astype(np.float64)


def aligned_correlation(a: np.ndarray, b: np.ndarray, max_lag: int) -> float:
    """Best Pearson correlation of a and b over shifts of up to max_lag samples
    (the trims are 10 ms frame-aligned, so the two may start a few ms apart)."""
    best = -1.0
    for lag in range(-max_lag, max_lag + 1):
        x, y = (a[lag:], b) if lag >= 0 else (a, b[-lag:])
        n = min(len(x), len(y))
        best = max(best, float(np.corrcoef(x[:n], y[:n])[0, 1]))
    return best


def rms_dbfs(rec: Recording) -> float:
    samples = np.frombuffer(rec.pcm, dtype="<i2").astype(np.float64)
    return float(20 * np.log10(np.sqrt(np.mean(samples**2)) / 32768))


def test_portaudio_opens_the_stack_as_alsa_default(audio_stack: PulseStack) -> None:
    if why := portaudio_problem():
        pytest.skip(why)
    probe = (
        "import sounddevice as sd; print(sd.query_devices());"
        "s = sd.RawInputStream(samplerate=16000, channels=1, dtype='int16'); s.start();"
        "import time; time.sleep(0.3); s.stop(); print('opened')"
    )
    proc = subprocess.run(
        [sys.executable, "-c", probe],
        env=audio_stack.env,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert proc.returncode == 0, proc.stderr
    assert "pulse" in proc.stdout and "default" in proc.stdout and "opened" in proc.stdout


def test_a_wav_played_into_the_feed_is_heard_on_the_mic_and_dated(
    audio_stack: PulseStack,
) -> None:
    mic = audio_stack.record(MIC)
    feed = audio_stack.record(MIC_FEED_MONITOR)
    wav = FIXTURES / "yes.joe.wav"
    played_at_s = time.monotonic()
    audio_stack.play_wav(wav).wait(timeout_s=10)
    audio_stack.play_pcm(silence_pcm(300)).wait(timeout_s=5)  # let the tail through
    heard, fed = mic.stop(), feed.stop()
    onset_s, fed_onset_s = heard.onset_s(), fed.onset_s()
    assert onset_s is not None and fed_onset_s is not None
    # The onset is after the player started and not long after; two recorders agree.
    assert 0.0 < onset_s - played_at_s < 1.5, onset_s - played_at_s
    assert abs(onset_s - fed_onset_s) < 0.03
    # The same audio comes out: length and shape (16 kHz in, 16 kHz out, no resampling).
    pcm, _, _ = read_wav(wav)
    src = samples(Recording(pcm, RATE_HZ, 0).trimmed(pad_ms=0))
    got = samples(heard.trimmed(pad_ms=0))
    assert abs(len(got) - len(src)) < RATE_HZ * 0.03
    correlation = aligned_correlation(got, src, max_lag=RATE_HZ // 50)
    assert correlation > 0.95, correlation


def test_the_recorder_waits_for_sound_and_quiet(audio_stack: PulseStack) -> None:
    speaker = audio_stack.record(SPEAKER_MONITOR)
    since_s = time.monotonic()
    audio_stack.play_pcm(silence_pcm(200) + tone_pcm(400), device=SPEAKER)
    onset_s = speaker.wait_for_sound(since_s=since_s, timeout_s=5)
    quiet_from_s = speaker.wait_for_quiet(quiet_ms=300, since_s=onset_s, timeout_s=5)
    assert 0.35 < quiet_from_s - onset_s < 0.45  # the tone's 400 ms
    tone = speaker.snapshot().since(onset_s).slice(0, RATE_HZ * 4 // 10)
    assert abs(rms_dbfs(tone) - (-9.0)) < 1.0  # -6 dBFS peak sine: -9 dBFS RMS


@pytest.mark.parametrize(("gain_db", "delay_ms"), [(-12.0, 100), (-20.0, 250)])
def test_echo_leaks_the_speaker_into_the_mic(
    audio_stack: PulseStack, gain_db: float, delay_ms: int
) -> None:
    speaker, mic = audio_stack.record(SPEAKER_MONITOR), audio_stack.record(MIC)
    with audio_stack.echo(gain_db=gain_db, delay_ms=delay_ms):
        time.sleep(1.0)  # the loopback settles on its latency
        since_s = time.monotonic()
        audio_stack.play_pcm(tone_pcm(500), device=SPEAKER).wait(timeout_s=5)
        played_s = speaker.wait_for_sound(since_s=since_s, timeout_s=5)
        leaked_s = mic.wait_for_sound(since_s=since_s, timeout_s=5, threshold_dbfs=-60)
        mic.wait_for_quiet(quiet_ms=200, since_s=leaked_s, timeout_s=5, threshold_dbfs=-60)
    delay_s = leaked_s - played_s
    print(f"echo: asked {delay_ms} ms at {gain_db} dB; measured {delay_s * 1000:.0f} ms", end="")
    assert delay_ms / 1000 - 0.05 < delay_s < delay_ms / 1000 + 0.15
    middle = mic.snapshot().since(leaked_s + 0.1).slice(0, RATE_HZ * 3 // 10)
    level_db = rms_dbfs(middle) - (-9.0)
    print(f", {level_db:.1f} dB")
    assert abs(level_db - gain_db) < 1.5
    # Unloaded: the speaker no longer reaches the mic.
    after_s = time.monotonic()
    audio_stack.play_pcm(tone_pcm(300), device=SPEAKER).wait(timeout_s=5)
    time.sleep(delay_ms / 1000 + 0.3)
    assert mic.snapshot().since(after_s).onset(threshold_dbfs=-60) is None


def test_tmux_runs_a_program_on_the_stack(audio_stack: PulseStack, tmux_server: TmuxServer) -> None:
    script = 'echo "server=$PULSE_SERVER extra=$EXTRA"; read line; echo "got <$line>"; exit 3'
    session = tmux_server.start("probe", ["sh", "-c", script], env={"EXTRA": "x1"})
    session.wait_for(f"server={audio_stack.env['PULSE_SERVER']} extra=x1", timeout_s=5)
    session.type_line("hello there")
    session.wait_for("got <hello there>", timeout_s=5)
    assert session.wait_exit(timeout_s=5) == 3
    # tmux's "Pane is dead" line may scroll the screen by one: read the history.
    assert session.capture(history=True).splitlines()[0].startswith("server=")
    with pytest.raises(AssertionError, match="exited with 3"):
        session.wait_for("never printed", timeout_s=5)


def test_client_streams_are_told_from_the_harness(
    audio_stack: PulseStack, tmux_server: TmuxServer
) -> None:
    audio_stack.record(SPEAKER_MONITOR)  # the harness's own: not listed
    assert audio_stack.client_streams() == []
    tmux_server.start("app", ["sh", "-c", "exec parec --raw > /dev/null"])
    streams = audio_stack.wait_for_client_streams(recording=1, playing=0, timeout_s=10)
    assert [(s.kind, s.device) for s in streams] == [("source-output", MIC)]
