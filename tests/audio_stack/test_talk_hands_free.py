"""Hands-free `vac talk` on real (virtual) devices: speak, pause, say "yes", be heard.

The client runs its own VAD (`--vad`): nothing is sent until the test plays
speech into the virtual microphone. The command has a 600 ms pause in the
middle ("Ask Kofi to build a bench … by tomorrow"): the daemon's continuation
window must keep it one turn. Then "yes", spoken, confirms the draft, and the
agent's reply is recorded from the speaker and recognised back.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from tests.audio_stack.daemon_view import conversation, newest_session, said_by_user
from tests.audio_stack.pulse import PulseStack
from tests.audio_stack.talk import portaudio_problem, start_talk
from tests.audio_stack.test_talk_push_to_talk import (
    NEGOTIATION,
    REPLY_GAP_MS,
    REPLY_WER_MAX,
    wait_until_spoken,
)
from tests.audio_stack.tmux import TmuxServer
from tests.conftest import RunningDaemon
from vac.speech.stt import WhisperStt, load_pcm
from vac.speech.wer import word_error_rate

pytestmark = pytest.mark.slow
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "audio"
PAUSED_WAV = FIXTURES / "kofi_bench_paused.joe.wav"  # "Ask Kofi to build a bench | by tomorrow"
YES_WAV = FIXTURES / "yes.joe.wav"
IDLE_S = 2.0
YES_DURATION_S = 1.5  # the reply starts after "yes" has been said


def test_hands_free_paused_command_is_one_draft_and_a_spoken_yes_confirms_it(
    audio_stack: PulseStack,
    tmux_server: TmuxServer,
    voice_daemon: RunningDaemon,
    checking_stt: WhisperStt,
) -> None:
    if why := portaudio_problem():
        pytest.skip(why)
    speaker = audio_stack.record()
    talk = start_talk(tmux_server, voice_daemon.home, voice_daemon.endpoint, extra=["--vad"])
    talk.wait_for("connected as alice", timeout_s=30)
    audio_stack.wait_for_client_streams(recording=1, playing=1, timeout_s=20)
    session = newest_session(voice_daemon)

    # Nobody speaks: the microphone is open, but nothing becomes a turn.
    time.sleep(IDLE_S)
    assert said_by_user(conversation(voice_daemon, session)) == []
    assert "hearing you" not in talk.capture()

    t_spoken = time.monotonic()
    audio_stack.play_wav(PAUSED_WAV).wait(timeout_s=20)
    draft = talk.wait_for(re.compile(r"draft: (.+)"), timeout_s=60)
    assert re.search(r"\bbench\b", draft.group(1), re.IGNORECASE), draft.group(0)
    card = talk.capture()
    assert "Kofi" in card, card
    assert re.search(r"tomorrow|\d{4}-\d\d-\d\d", card), card
    # One turn, not two: the pause did not split the command.
    said = said_by_user(conversation(voice_daemon, session))
    assert len(said) == 1, said
    assert re.search(r"kofi.*bench.*tomorrow", said[0]["text"], re.IGNORECASE), said

    # Let the draft's spoken preview end, then answer it by voice.
    wait_until_spoken(speaker, since_s=t_spoken)
    t_yes = time.monotonic()
    audio_stack.play_wav(YES_WAV).wait(timeout_s=20)
    talk.wait_for("confirmed", timeout_s=30)
    negotiation = talk.wait_for(NEGOTIATION, timeout_s=30)
    onset_s = speaker.wait_for_sound(since_s=t_yes + YES_DURATION_S, timeout_s=30)
    end_s = speaker.wait_for_quiet(quiet_ms=REPLY_GAP_MS, since_s=onset_s, timeout_s=60)
    since_onset = speaker.snapshot().since(onset_s)
    reply = since_onset.slice(0, since_onset.sample_at(end_s)).trimmed()
    print("\n" + talk.capture(history=True))
    reply.save_wav(audio_stack.root / "reply.wav")
    heard = checking_stt.transcribe(load_pcm(reply.pcm), final=True)
    wer = word_error_rate(negotiation.group(2), heard.text)
    print(f"reply shown: {negotiation.group(2)!r}\nreply heard: {heard.text!r} (WER {wer:.2f})")
    assert wer <= REPLY_WER_MAX, (negotiation.group(2), heard.text)

    talk.send_keys("q")
    assert talk.wait_exit(timeout_s=10) == 0, talk.stderr_tail()
