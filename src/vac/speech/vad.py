"""Voice activity: webrtcvad decisions per 20 ms frame and a hysteresis endpointer.

`Endpointer` is sans-IO and clock-free: it is fed one voiced/unvoiced decision
per frame and derives every offset from the frame count, so `at_ms` values are
stream offsets (gap filling happens upstream, before the audio reaches here).
`VadStream` only frames bytes and asks webrtcvad; all decisions live in the
endpointer's transition table.
"""

from __future__ import annotations

import enum
from typing import Final

import msgspec
import webrtcvad

RATE_HZ: Final = 16_000
SAMPLE_BYTES: Final = 2  # s16le mono


class VadConfig(msgspec.Struct, frozen=True, kw_only=True):
    """Hysteresis and detector settings; defaults follow the issue (60 ms / 400 ms)."""

    aggressiveness: int = 2  # webrtcvad mode 0 (permissive) .. 3 (strict)
    frame_ms: int = 20
    start_frames: int = 3  # voiced frames in a row before speech starts (60 ms)
    endpoint_silence_ms: int = 400  # trailing unvoiced audio that ends an utterance
    # webrtcvad calls the first ~80 ms of steady noise speech while its noise
    # model adapts; decisions in this span are taken as unvoiced.
    warmup_ms: int = 120

    def __post_init__(self) -> None:
        if self.aggressiveness not in (0, 1, 2, 3):
            raise ValueError(f"aggressiveness must be 0..3, got {self.aggressiveness}")
        if self.frame_ms not in (10, 20, 30):
            raise ValueError(f"webrtcvad frames are 10, 20 or 30 ms, got {self.frame_ms}")
        if self.start_frames < 1:
            raise ValueError(f"start_frames must be >= 1, got {self.start_frames}")
        if not 0 <= self.warmup_ms <= 1_000:
            raise ValueError(f"warmup_ms must be within 0..1000, got {self.warmup_ms}")
        if not 300 <= self.endpoint_silence_ms <= 500:
            raise ValueError(
                f"endpoint_silence_ms must be within 300..500, got {self.endpoint_silence_ms}"
            )

    @property
    def stop_frames(self) -> int:
        # Rounded up: the endpoint never comes earlier than the configured silence.
        return -(-self.endpoint_silence_ms // self.frame_ms)

    @property
    def frame_bytes(self) -> int:
        return RATE_HZ * self.frame_ms // 1000 * SAMPLE_BYTES


class VoiceStarted(msgspec.Struct, frozen=True, tag="speech_started"):
    at_ms: int  # start of the first voiced frame of the run that confirmed speech


class VoiceStopped(msgspec.Struct, frozen=True, tag="speech_stopped"):
    at_ms: int  # end of the last voiced frame


class Endpoint(msgspec.Struct, frozen=True, tag="endpoint"):
    """The endpointer's decision that the utterance is over (`vad` mode commits on it)."""

    at_ms: int  # end of the frame that completed the trailing silence
    last_voiced_ms: int  # at_ms - last_voiced_ms is the `endpoint` latency stage


VadEvent = VoiceStarted | VoiceStopped | Endpoint


class _State(enum.Enum):
    SILENCE = "silence"
    MAYBE_SPEECH = "maybe_speech"  # a voiced run shorter than start_frames
    SPEECH = "speech"
    MAYBE_SILENCE = "maybe_silence"  # an unvoiced run shorter than stop_frames


# (state, frame is voiced) -> next state, before the run-length check below.
_TRANSITIONS: Final[dict[tuple[_State, bool], _State]] = {
    (_State.SILENCE, False): _State.SILENCE,
    (_State.SILENCE, True): _State.MAYBE_SPEECH,
    (_State.MAYBE_SPEECH, False): _State.SILENCE,
    (_State.MAYBE_SPEECH, True): _State.MAYBE_SPEECH,
    (_State.SPEECH, False): _State.MAYBE_SILENCE,
    (_State.SPEECH, True): _State.SPEECH,
    (_State.MAYBE_SILENCE, False): _State.MAYBE_SILENCE,
    (_State.MAYBE_SILENCE, True): _State.SPEECH,
}

# A tentative state whose run reached its threshold is promoted.
_PROMOTIONS: Final[dict[_State, _State]] = {
    _State.MAYBE_SPEECH: _State.SPEECH,
    _State.MAYBE_SILENCE: _State.SILENCE,
}


class Endpointer:
    """Hysteresis over per-frame VAD decisions: `feed(voiced) -> events`."""

    def __init__(self, config: VadConfig | None = None) -> None:
        self._config = config or VadConfig()
        self._state = _State.SILENCE
        self._frames = 0  # frames consumed; the stream offset is frames * frame_ms
        self._run = 0  # length of the current tentative run
        self._run_start_ms = 0
        self._last_voiced_end_ms = 0
        self._voiced_ms = 0

    @property
    def in_speech(self) -> bool:
        return self._state in (_State.SPEECH, _State.MAYBE_SILENCE)

    @property
    def speech_pending(self) -> bool:
        """Voiced frames that may become speech (not yet `start_frames` of them)."""
        return self._state is _State.MAYBE_SPEECH

    @property
    def voiced_ms(self) -> int:
        """Voiced audio inside confirmed speech; 0 means the stream had no speech."""
        return self._voiced_ms

    @property
    def processed_ms(self) -> int:
        return self._frames * self._config.frame_ms

    @property
    def last_voiced_end_ms(self) -> int:
        """Stream offset where the last voiced frame of confirmed speech ended."""
        return self._last_voiced_end_ms

    def feed(self, voiced: bool) -> list[VadEvent]:
        """Consume one frame's decision; return the events it caused (usually none)."""
        frame_ms = self._config.frame_ms
        start_ms = self._frames * frame_ms
        end_ms = start_ms + frame_ms
        self._frames += 1
        previous = self._state
        state = _TRANSITIONS[(previous, voiced)]
        if state is not previous:
            self._run = 0
            self._run_start_ms = start_ms
        if state in _PROMOTIONS:
            self._run += 1
        if voiced and state is _State.SPEECH:
            self._last_voiced_end_ms = end_ms
            self._voiced_ms += frame_ms

        events: list[VadEvent] = []
        if state is _State.MAYBE_SPEECH and self._run >= self._config.start_frames:
            state = _PROMOTIONS[state]
            self._last_voiced_end_ms = end_ms
            self._voiced_ms += self._run * frame_ms
            events.append(VoiceStarted(at_ms=self._run_start_ms))
        elif state is _State.MAYBE_SILENCE and self._run >= self._config.stop_frames:
            state = _PROMOTIONS[state]
            events.append(VoiceStopped(at_ms=self._last_voiced_end_ms))
            events.append(Endpoint(at_ms=end_ms, last_voiced_ms=self._last_voiced_end_ms))
        self._state = state
        return events

    def finish(self) -> list[VadEvent]:
        """End of input (commit): close an open utterance without an endpoint decision."""
        if not self.in_speech:
            self._state = _State.SILENCE
            return []
        self._state = _State.SILENCE
        return [VoiceStopped(at_ms=self._last_voiced_end_ms)]


class VadStream:
    """webrtcvad + `Endpointer` over PCM chunks of any size (16 kHz s16le mono)."""

    def __init__(self, config: VadConfig | None = None) -> None:
        self._config = config or VadConfig()
        self._vad = webrtcvad.Vad(self._config.aggressiveness)
        self._endpointer = Endpointer(self._config)
        # Never more than one frame minus one byte: memory per stream stays bounded.
        self._carry = b""
        self._warmup_frames = -(-self._config.warmup_ms // self._config.frame_ms)
        self._frames = 0

    @property
    def voiced_ms(self) -> int:
        return self._endpointer.voiced_ms

    @property
    def processed_ms(self) -> int:
        return self._endpointer.processed_ms

    @property
    def in_speech(self) -> bool:
        return self._endpointer.in_speech

    @property
    def speech_pending(self) -> bool:
        return self._endpointer.speech_pending

    @property
    def trailing_unvoiced_ms(self) -> int:
        """Unvoiced audio since the last voiced frame (0 before any speech)."""
        if not self._endpointer.voiced_ms:
            return 0
        return self._endpointer.processed_ms - self._endpointer.last_voiced_end_ms

    def feed(self, pcm: bytes) -> list[VadEvent]:
        """Frame `pcm` (plus any carried remainder) and return the endpointer's events."""
        size = self._config.frame_bytes
        data = self._carry + pcm if self._carry else pcm
        whole = len(data) - len(data) % size
        events: list[VadEvent] = []
        view = memoryview(data)
        for offset in range(0, whole, size):
            voiced = self._vad.is_speech(view[offset : offset + size].tobytes(), RATE_HZ)
            self._frames += 1
            events.extend(
                self._endpointer.feed(bool(voiced) and self._frames > self._warmup_frames)
            )
        self._carry = bytes(view[whole:])
        return events

    def finish(self) -> list[VadEvent]:
        """Commit: drop the sub-frame remainder and close an open utterance."""
        self._carry = b""
        return self._endpointer.finish()
