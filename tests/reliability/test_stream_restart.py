"""Input streams across a daemon restart (PROTOCOL §4), over real sockets.

A real `vac daemon` process with the real recogniser: a spoken command, a
stream with no speech and a cancelled one; then the daemon stops (cleanly,
or `kill -9` the moment the `transcript.final` arrives) and the session is
resumed. Stream ids stay used (`stream_exists`), and a repeated commit with
a new message id is answered with the stream's outcome again, never a
second turn. Before the fix the restarted daemon answered `stream_unknown`
and accepted the old id as a new stream.
"""

from __future__ import annotations

import signal
import sqlite3
from pathlib import Path

import pytest

from tests.reliability.harness import Daemon, free_port, text_only_home
from tests.speech.audio import load_fixtures
from vac.client.connection import Connection, keys_for
from vac.home import Home
from vac.protocol.messages import (
    AudioInputCancel,
    AudioInputCommit,
    AudioInputDone,
    AudioInputStart,
    Error,
    ObjectiveDraft,
    OutboundMessage,
    TranscriptFinal,
    TurnDone,
)

pytestmark = pytest.mark.slow
FIXTURES = {f.name: f for f in load_fixtures()}
SPEECH = FIXTURES["kofi_build_bench.joe"].pcm
SILENCE = FIXTURES["silence_2s"].pcm


def voice_home(root: Path) -> Home:
    """The real recogniser; no text-to-speech (nothing here is spoken back)."""
    home = text_only_home(root, voice=True)
    home.config_file.write_text("[tts]\nenabled = false\n")
    return home


def start(c: Connection, stream: str, msg_id: str) -> None:
    c.send(
        AudioInputStart(
            id=msg_id, stream=stream, encoding="pcm_s16le", rate=16000, channels=1,
            mode="push_to_talk",
        )
    )  # fmt: skip


def answer(c: Connection, ref: str) -> OutboundMessage:
    """The daemon's first answer to the message `ref`, whatever it is."""
    msg, _ = c.recv_until(lambda m: m.ref == ref, 10)[-1]
    return msg


def spoken_turns(db: Path) -> int:
    """What the user said, as the event log holds it: one row per turn begun."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return int(con.execute("SELECT COUNT(*) FROM conversation WHERE role='user'").fetchone()[0])
    finally:
        con.close()


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGKILL], ids=["clean", "kill9"])
def test_closed_streams_are_kept_across_a_restart(tmp_path: Path, stop: signal.Signals) -> None:
    home = voice_home(tmp_path / "home")
    daemon = Daemon(home, free_port(), tmp_path / "daemon.log")
    daemon.start()
    opened: list[Connection] = []

    def connect() -> Connection:
        opened.append(Connection(daemon.endpoint, keys_for(home, "alice")))
        return opened[-1]

    try:
        c = connect()
        session = c.hello().session
        c.stream_pcm("gone", SPEECH[: 640 * 10], commit=False)
        c.send(AudioInputCancel(id="cancel-gone", stream="gone"))
        quiet_seq = c.stream_pcm("quiet", SILENCE)
        quiet = c.expect(AudioInputDone, 20)
        assert (quiet.stream, quiet.reason) == ("quiet", "no_speech")
        last_seq = c.stream_pcm("s1", SPEECH)
        final = c.expect(TranscriptFinal, 60)
        assert final.stream == "s1" and final.text
        if stop == signal.SIGTERM:
            done = c.expect(TurnDone, 30)
            assert done.turn == final.turn
        # kill -9 the moment the final arrived: it was announced, so it is durable.
        daemon.kill(stop)

        daemon.start()
        c = connect()
        ok = c.hello(resume=session)
        assert ok.resumed and ok.session == session
        turns_before = spoken_turns(home.db_file)

        # (a) A repeated commit, a new id: the same final, the same turn.
        c.send(AudioInputCommit(id="again-s1", stream="s1", last_seq=last_seq))
        again = answer(c, "again-s1")
        assert isinstance(again, TranscriptFinal), again
        assert (again.ref, again.stream, again.turn, again.text, again.confidence) == (
            "again-s1",
            "s1",
            final.turn,
            final.text,
            final.confidence,
        )
        c.send(AudioInputCommit(id="again-quiet", stream="quiet", last_seq=quiet_seq))
        quiet_again = answer(c, "again-quiet")
        assert isinstance(quiet_again, AudioInputDone), quiet_again
        assert (quiet_again.ref, quiet_again.reason, quiet_again.turn) == (
            "again-quiet",
            "no_speech",
            None,
        )
        # (b) Every id used before the restart stays used.
        for stream in ("s1", "quiet", "gone"):
            start(c, stream, f"reuse-{stream}")
            err = answer(c, f"reuse-{stream}")
            assert isinstance(err, Error), err
            assert (err.code, err.ref, err.stream) == ("stream_exists", f"reuse-{stream}", stream)
        # A chunk-less commit of the cancelled stream: closed, as before the restart.
        c.send(AudioInputCommit(id="commit-gone", stream="gone", last_seq=9))
        err = answer(c, "commit-gone")
        assert isinstance(err, Error), err
        assert (err.code, err.ref) == ("stream_closed", "commit-gone")

        rest = list(c.drain(1.5))
        second_turn = (TranscriptFinal, ObjectiveDraft, TurnDone, AudioInputDone, Error)
        assert not [m for m in rest if isinstance(m, second_turn)], rest
        assert spoken_turns(home.db_file) == turns_before  # no second turn began
    finally:
        for conn in opened:
            conn.close()
        daemon.stop()
