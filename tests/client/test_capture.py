"""Hands-free capture and the echo-aware barge-in gate, on real speech and the real webrtcvad.

The echo here is simulated in numpy (the reply, delayed and attenuated, plus
the user); `tests/audio_stack/` does the same through PulseAudio devices.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.speech.audio import load_fixtures
from vac.client.capture import HandsFree, webrtc_is_speech
from vac.client.echo import EchoGate, PlayedLevels
from vac.client.echo_path import EchoPath
from vac.client.talk_audio import rms_s16

FRAME = 640  # 20 ms of 16 kHz s16le
SPEECH = [f for f in load_fixtures() if f.speech]
BY_NAME = {f.name: f for f in load_fixtures()}


def frames(pcm: bytes) -> list[bytes]:
    return [pcm[i : i + FRAME] for i in range(0, len(pcm) - FRAME + 1, FRAME)]


def as_i16(pcm: bytes) -> np.ndarray:
    return np.frombuffer(pcm, dtype="<i2").astype(np.float64)


def to_pcm(x: np.ndarray) -> bytes:
    return np.clip(np.round(x), -32768, 32767).astype("<i2").tobytes()


# ------------------------------------------------------------------ capture


def onset_rule() -> object:
    """As `TalkModel` decides an onset when nothing plays: voiced and over the floor."""
    is_speech, floor = webrtc_is_speech(), EchoGate().floor_rms
    return lambda f: is_speech(f) and rms_s16(f) > floor


def test_silence_and_noise_never_open_a_stream() -> None:
    onset = onset_rule()
    for name in ("silence_2s", "noise_2s"):
        hf = HandsFree()
        assert all(hf.feed(f, onset(f)) is None for f in frames(BY_NAME[name].pcm))  # type: ignore[operator]


@pytest.mark.parametrize("fx", SPEECH[:6], ids=lambda f: f.name)
def test_onset_is_found_and_the_pre_roll_reaches_back_before_it(fx: object) -> None:
    onset = onset_rule()
    hf = HandsFree()
    pcm = fx.pcm  # type: ignore[attr-defined]
    opened = [
        (i, sent)
        for i, f in enumerate(frames(pcm))
        if (sent := hf.feed(f, onset(f))) is not None  # type: ignore[operator]
    ]
    assert opened, "speech never opened a stream"
    i, sent = opened[0]
    onset_ms = (i + 1) * 20
    # The fixtures have 300 ms of silence before the voice: the pre-roll covers it.
    assert 300 < onset_ms < 500
    first_sent_ms = onset_ms - 20 * len(sent)
    assert first_sent_ms <= 300  # nothing of the first syllable is lost
    assert len(sent) * 20 >= 300


def test_pre_roll_is_bounded_and_forgotten() -> None:
    hf = HandsFree(pre_roll_ms=400)
    for _ in range(1000):
        hf.feed(bytes(FRAME), False)
    assert len(hf._ring) == 20
    hf.forget()
    assert len(hf._ring) == 0


def test_streaming_sends_every_frame_until_the_daemon_closes() -> None:
    hf = HandsFree(start_frames=1)
    assert hf.feed(b"a", True) == [b"a"]
    assert hf.feed(b"b", False) == [b"b"]
    hf.stream_closed()
    assert hf.feed(b"c", False) is None


# --------------------------------------------------------------------- echo


def _reply_and_echo(
    reply: bytes,
    echo_gain: float,
    delay_ms: int,
    user: bytes | None = None,
    user_at_ms: int = 0,
    rt60_ms: int = 0,
) -> tuple[list[bytes], list[bytes]]:
    """The frames the speaker played, and the microphone: delayed, attenuated echo (+ user).

    `rt60_ms` > 0 adds a room: the echo path's impulse response is a direct
    path plus an exponentially decaying noise tail reaching -60 dB at rt60_ms.
    """
    ref = as_i16(reply)
    if rt60_ms:
        n = 16 * rt60_ms
        tail = np.random.default_rng(7).standard_normal(n) * 10 ** (-3 * np.arange(n) / n)
        tail *= 0.3 / np.sqrt(np.sum(tail**2))  # the tail: ~-10 dB of the direct path
        tail[0] = 1.0
        ref_echo = np.convolve(ref, tail)[: len(ref)]
    else:
        ref_echo = ref
    mic = np.zeros(len(ref) + 16 * delay_ms)
    mic[16 * delay_ms :] += echo_gain * ref_echo
    if user is not None:
        u = as_i16(user)
        start = 16 * user_at_ms
        end = min(len(mic), start + len(u))
        mic[start:end] += u[: end - start]
    return frames(reply), frames(to_pcm(mic[: len(ref)]))


def _run(gate: EchoGate, played: list[bytes], mic: list[bytes], start_s: float = 0.0) -> int | None:
    """Feed frame by frame as the client does; the frame index of a barge-in, if any."""
    is_speech = webrtc_is_speech()
    levels = PlayedLevels()
    for i, (p, m) in enumerate(zip(played, mic, strict=True)):
        now_s = start_s + i * 0.02
        levels.played(now_s, rms_s16(p))
        if gate.update(rms_s16(m), is_speech(m), levels, now_s):
            return i
    return None


# Echo at -12 dB (a loud laptop speaker next to its microphone) and -20 dB,
# with 40-200 ms of device and room delay: 20 replies, no self-interruption.
ECHO_CASES = [(g, d) for g in (0.25, 0.1) for d in (40, 80, 120, 160, 200)]


@pytest.mark.parametrize(("gain", "delay_ms"), ECHO_CASES)
def test_the_reply_echo_never_interrupts_itself(gain: float, delay_ms: int) -> None:
    gate = EchoGate()
    for n, fx in enumerate(SPEECH[:2]):  # one gate across replies, as in a session
        played, mic = _reply_and_echo(fx.pcm, gain, delay_ms)
        assert _run(gate, played, mic, start_s=100.0 * n) is None, (fx.name, gain, delay_ms)
    # The gate learned where the echo comes back (one 20 ms frame of slack).
    assert gate.path.delay_s is not None
    assert abs(gate.path.delay_s * 1000 - delay_ms) <= 20, gate.path.delay_s


@pytest.mark.parametrize("rt60_ms", [300, 600])
def test_a_reverberant_room_does_not_make_the_reply_interrupt_itself(rt60_ms: int) -> None:
    gate = EchoGate()
    for n, fx in enumerate(SPEECH[:4]):
        played, mic = _reply_and_echo(fx.pcm, 0.25, 80, rt60_ms=rt60_ms)
        assert _run(gate, played, mic, start_s=100.0 * n) is None, (fx.name, rt60_ms)


@pytest.mark.parametrize("delay_ms", [40, 120, 200])
def test_the_user_talking_over_the_reply_is_heard_within_100_ms(delay_ms: int) -> None:
    reply = BY_NAME["abeni_repair_gate.joe"].pcm
    user = BY_NAME["kofi_build_bench.espeak-en-us"].pcm
    user_at_ms = 2000
    played, mic = _reply_and_echo(reply, 0.25, delay_ms, user, user_at_ms)
    # Onset: the user's first frame above -40 dBFS (the file has ~300 ms of
    # silence first; espeak adds a little of its own).
    first = next(i for i, f in enumerate(frames(user)) if rms_s16(f) > 328)
    speech_onset_ms = user_at_ms + first * 20
    hit = _run(EchoGate(), played, mic)
    assert hit is not None
    assert 0 <= (hit + 1) * 20 - speech_onset_ms <= 100


def test_without_the_reference_the_echo_would_have_interrupted() -> None:
    """The gate's own control: the same echo against a plain energy threshold."""
    _, mic = _reply_and_echo(BY_NAME["abeni_repair_gate.joe"].pcm, 0.25, 80)
    is_speech = webrtc_is_speech()
    fired = [rms_s16(m) > 600 and is_speech(m) for m in mic]
    runs = max((len(r) for r in "".join("x" if f else " " for f in fired).split()), default=0)
    assert runs >= 3  # an energy gate would have fired on its own reply


def test_played_levels_peak_looks_back_only_as_far_as_asked() -> None:
    levels = PlayedLevels()
    for i, rms in enumerate([100.0, 5000.0, 200.0, 300.0]):
        levels.played(i * 0.1, rms)
    no_tail = float("inf")  # only the window counts
    assert levels.faded_peak(0.35, 0.3, no_tail) == 5000.0
    assert levels.faded_peak(0.45, 0.3, no_tail) == 300.0
    assert levels.faded_peak(10.0, 0.3, no_tail) == 0.0


def test_played_levels_fade_behind_the_window() -> None:
    levels = PlayedLevels()
    levels.played(0.0, 10000.0)
    levels.played(0.3, 100.0)
    assert levels.faded_peak(0.3, 0.1, tail_db_per_s=100.0) == pytest.approx(
        10000.0 * 10 ** (-100.0 * 0.2 / 20)
    )
    assert levels.faded_peak(0.3, 0.1, tail_db_per_s=float("inf")) == 100.0
    assert levels.faded_peak(5.0, 0.1, tail_db_per_s=100.0) == 0.0  # beyond the tail


def test_a_learned_delay_narrows_the_reference_to_what_echoes_now() -> None:
    """In a pause of the reply, the last loud word no longer sets the bar once the
    delay is known: the reference falls by its tail instead of staying at the peak."""
    levels = PlayedLevels()
    for i in range(40):  # 400 ms: a loud word, then a pause
        levels.played(i * 0.01, 8000.0 if i < 10 else 0.0)
    unknown, known = EchoPath(), EchoPath(delay_s=0.05)
    now_s = 0.39
    assert unknown.reference(levels, now_s) == pytest.approx(8000.0)  # within delay_max_s
    # Known: only blocks near now - 50 ms count; the word ended 240 ms before that.
    assert known.reference(levels, now_s) < 8000.0 * 10 ** (-20 / 20)


def test_the_delay_is_learned_only_from_a_good_fit() -> None:
    path = EchoPath()
    levels = PlayedLevels()
    rng = np.random.default_rng(3)
    for i in range(100):  # the mic hears noise unrelated to what was played
        levels.played(i * 0.02, float(rng.uniform(0, 5000)))
        path.observe(i * 0.02, float(rng.uniform(0, 5000)), levels)
    assert path.delay_s is None
    assert path.correlation < 0.6


def test_a_device_underrun_voids_the_learned_delay_until_a_fit_after_it() -> None:
    """After an ALSA underrun the played blocks are heard later than dated: the
    reference is the whole window again (a full-suite CI run had a reply
    interrupt itself right after two underruns) until a good fit follows."""
    levels = PlayedLevels()
    for i in range(40):  # 400 ms: a loud word, then a pause
        levels.played(i * 0.01, 8000.0 if i < 10 else 0.0)
    path = EchoPath(delay_s=0.05)
    now_s = 0.39
    narrow = path.reference(levels, now_s)
    assert narrow < 8000.0 * 10 ** (-20 / 20)
    levels.disturbed(0.2)
    assert path.reference(levels, now_s) == pytest.approx(8000.0)
    path.fitted_s = 0.3  # a good fit on frames after the underrun
    assert path.reference(levels, now_s) == pytest.approx(narrow)


def test_an_underrun_starts_the_fit_window_again() -> None:
    levels = PlayedLevels()
    path = EchoPath()
    for i in range(10):
        levels.played(i * 0.02, 1000.0)
        path.observe(i * 0.02, 500.0, levels)
    assert len(path.frames()) == 10
    levels.disturbed(0.19)
    path.observe(0.2, 500.0, levels)
    assert [t for t, _ in path.frames()] == [0.2]
