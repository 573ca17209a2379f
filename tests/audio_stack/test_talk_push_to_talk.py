"""`vac talk` end to end on real (virtual) devices: speak a command, confirm, hear the reply.

The client is the real program in a real terminal (tmux), opening the
microphone and speaker through PortAudio like on a desktop; the daemon runs
the real recogniser and voice. The spoken reply is recorded where a
loudspeaker would play it and recognised back with the project's own STT.
The assertions stick to what the client will keep saying whatever its
screen becomes: "connected as", "draft:", "confirmed", the reply's words.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from tests.audio_stack.pulse import MIC, PulseStack
from tests.audio_stack.recorder import Recorder
from tests.audio_stack.talk import portaudio_problem, start_talk
from tests.audio_stack.tmux import TmuxServer
from tests.conftest import RunningDaemon
from vac.speech.stt import WhisperStt, load_pcm
from vac.speech.wer import word_error_rate

pytestmark = pytest.mark.slow
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "audio"
COMMAND_WAV = FIXTURES / "kofi_build_bench.joe.wav"  # "Tell Kofi to build a wooden bench ..."
# The negotiation line `vac talk` prints: "DECISION: REPLY".
NEGOTIATION = re.compile(r"^(accept|clarify|counter-offer|defer|refuse): (.+)$", re.MULTILINE)
REPLY_WER_MAX = 0.35
# Longest pause inside one spoken reply is well under this; a reply is over after it.
REPLY_GAP_MS = 1500
# The draft's preview starts within a few hundred ms of the draft (tts_first);
# this much covers a loaded machine.
PREVIEW_WAIT_S = 10.0


def wait_until_spoken(speaker: Recorder, *, since_s: float) -> None:
    """Until what the daemon says after `since_s` is over (at once if it says nothing)."""
    try:
        onset_s = speaker.wait_for_sound(since_s=since_s, timeout_s=PREVIEW_WAIT_S)
    except AssertionError:
        return  # no spoken preview: nothing to wait for
    speaker.wait_for_quiet(quiet_ms=REPLY_GAP_MS, since_s=onset_s, timeout_s=60)


def test_push_to_talk_command_is_drafted_confirmed_and_the_reply_is_heard(
    audio_stack: PulseStack,
    tmux_server: TmuxServer,
    voice_daemon: RunningDaemon,
    checking_stt: WhisperStt,
) -> None:
    if why := portaudio_problem():
        pytest.skip(why)
    timings: dict[str, float] = {}
    speaker = audio_stack.record()
    t_start = time.monotonic()
    talk = start_talk(tmux_server, voice_daemon.home, voice_daemon.endpoint)
    talk.wait_for("connected as alice", timeout_s=30)
    # The mic and speaker are open (PortAudio → ALSA → pulse) before anything is said.
    streams = audio_stack.wait_for_client_streams(recording=1, playing=1, timeout_s=20)
    assert MIC in [s.device for s in streams if s.kind == "source-output"], streams
    timings["connected_s"] = time.monotonic() - t_start

    talk.type_line()  # Enter: start talking
    talk.wait_for("listening", timeout_s=10)
    audio_stack.play_wav(COMMAND_WAV).wait(timeout_s=20)
    # What was played is in the client's hands only after its input latency.
    time.sleep(0.5)
    t_sent = time.monotonic()
    talk.type_line()  # Enter: send
    draft = talk.wait_for(re.compile(r"^draft: (.+)$", re.MULTILINE), timeout_s=60)
    timings["sent_to_draft_s"] = time.monotonic() - t_sent
    assert "Kofi" in talk.capture(history=True)
    assert re.search(r"bench", draft.group(1), re.IGNORECASE), draft.group(0)

    # The daemon speaks a preview of the draft: let it finish before confirming,
    # so that what follows the confirm is the reply alone.
    wait_until_spoken(speaker, since_s=t_sent)
    t_confirm = time.monotonic()
    talk.send_keys("y")  # full-screen: a single key (Enter would start talking)
    talk.wait_for("confirmed", timeout_s=30)
    negotiation = talk.wait_for(NEGOTIATION, timeout_s=30)
    reply_text = negotiation.group(2)
    onset_s = speaker.wait_for_sound(since_s=t_confirm, timeout_s=30)
    end_s = speaker.wait_for_quiet(quiet_ms=REPLY_GAP_MS, since_s=onset_s, timeout_s=60)
    since_onset = speaker.snapshot().since(onset_s)
    reply = since_onset.slice(0, since_onset.sample_at(end_s)).trimmed()
    timings["confirm_to_reply_audio_s"] = onset_s - t_confirm
    timings["reply_audio_s"] = end_s - onset_s
    print("\n" + talk.capture(history=True))
    reply.save_wav(audio_stack.root / "reply.wav")  # kept with VAC_AUDIO_KEEP=1

    heard = checking_stt.transcribe(load_pcm(reply.pcm), final=True)
    wer = word_error_rate(reply_text, heard.text)
    print(
        f"reply shown: {reply_text!r}\nreply heard: {heard.text!r} (WER {wer:.2f})\n"
        + "  ".join(f"{k} {v:.2f}" for k, v in timings.items())
    )
    assert heard.text, heard.drop_reason
    assert wer <= REPLY_WER_MAX, (reply_text, heard.text)

    talk.send_keys("q")
    assert talk.wait_exit(timeout_s=10) == 0, talk.stderr_tail()
