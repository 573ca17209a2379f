"""SIGTERM while the spoken reply to a spoken command streams: a clean stop,
exit 0 (a durability probe: 7 of 7 aborted, SIGABRT, "terminate called
without an active exception": the phrase being synthesised was still in the
engine's native code when the interpreter exited). Real models."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.reliability.harness import Daemon, free_port, spoken_commands, text_only_home
from vac.client.connection import Connection, keys_for
from vac.protocol.messages import (
    AudioInputChunk,
    AudioInputCommit,
    AudioInputStart,
    AudioOutputChunk,
)

pytestmark = pytest.mark.slow


def test_sigterm_during_a_spoken_reply_exits_cleanly(tmp_path: Path) -> None:
    home = text_only_home(tmp_path / "home", voice=True)
    daemon = Daemon(home, free_port(), tmp_path / "daemon.log")
    pcm = spoken_commands()[0]
    for _ in range(2):
        daemon.start(timeout_s=240)
        c = Connection(daemon.endpoint, keys_for(home, "alice"))
        c.hello(speak=True)
        c.send(
            AudioInputStart(
                id=c.next_id(),
                stream="s1",
                encoding="pcm_s16le",
                rate=16000,
                channels=1,
                mode="push_to_talk",
            )
        )
        seq = 0
        for seq, off in enumerate(range(0, len(pcm), 640)):
            c.send(AudioInputChunk(id=c.next_id(), stream="s1", seq=seq), pcm[off : off + 640])
        c.send(AudioInputCommit(id=c.next_id(), stream="s1", last_seq=seq))
        c.expect(AudioOutputChunk, 60)  # the reply is being spoken now
        assert daemon.stop() == 0, daemon.tail()
        c.close()
    assert "terminate called" not in daemon.tail()
