"""A scripted VAC/1 daemon on a real CURVE socket, for testing the transport's loop.

It answers audio with a canned turn (final transcript, draft, a spoken reply,
turn.done) so the transport's waiting, confirming, barge-in and recording can
be tested before and independently of the real audio pipeline. Knobs inject
the misbehaviours the transport must catch.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any

import msgspec
import zmq

from tests.client.client_factories import objective
from vac.client.connection import ClientKeys
from vac.protocol.codec import decode_inbound, encode_outbound
from vac.protocol.messages import (
    AudioInputChunk,
    AudioInputCommit,
    AudioInputDone,
    AudioInputStart,
    AudioOutputChunk,
    AudioOutputDone,
    AudioOutputStart,
    Error,
    Hello,
    HelloOk,
    InputFormat,
    Limits,
    Negotiation,
    ObjectiveConfirm,
    ObjectiveConfirmed,
    ObjectiveDraft,
    OutputFormat,
    Ping,
    Pong,
    Preview,
    SpeechStarted,
    SpeechStopped,
    TranscriptFinal,
    TurnCancel,
    TurnDone,
)


@dataclass
class _Reply:
    turn: str
    stream: str
    chunks: int
    final_status: str
    sent: int = 0
    next_s: float = 0.0


@dataclass
class FakeDaemon:
    reply_chunks: int = 5
    chunk_interval_s: float = 0.0
    vad_endpoint_after_chunks: int = 25
    drop_turn_done: bool = False
    skip_a_seq: bool = False
    # Every chunk past this many gets `error rate_limited` (a --fast burst).
    rate_limit_after_chunks: int | None = None
    received: list[Any] = field(default_factory=list)
    endpoint: str = ""
    keys: ClientKeys | None = None

    def __post_init__(self) -> None:
        server_public, server_secret = zmq.curve_keypair()
        public, secret = zmq.curve_keypair()
        self.keys = ClientKeys(server_public, public, secret)
        self._ctx: zmq.Context[Any] = zmq.Context()
        self._sock = self._ctx.socket(zmq.ROUTER)
        self._sock.setsockopt(zmq.LINGER, 0)
        self._sock.curve_server = True
        self._sock.curve_secretkey = server_secret
        port = self._sock.bind_to_random_port("tcp://127.0.0.1")
        self.endpoint = f"tcp://127.0.0.1:{port}"
        self._stop = threading.Event()
        self._seq = 0
        self._turns = 0
        self._rid = b""
        self._rate = 16000
        self._modes: dict[str, str] = {}
        self._closed: set[str] = set()
        self._chunks_in: dict[str, int] = {}
        self._reply: _Reply | None = None
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self._sock.close(linger=0)
        self._ctx.term()

    # ------------------------------------------------------------------ loop

    def _run(self) -> None:
        while not self._stop.is_set():
            if self._sock.poll(2):
                frames = self._sock.recv_multipart()
                self._rid = frames[0]
                msg, _ = decode_inbound(frames[1:])
                self.received.append(msg)
                self._on(msg)
            self._step_reply()

    def _send(self, msg: Any, payload: bytes | None = None) -> None:
        if isinstance(msg, HelloOk):
            self._seq = 0
        msg = msgspec.structs.replace(msg, session="fake-session", seq=self._seq)
        self._seq += 2 if (self.skip_a_seq and self._seq == 3) else 1
        self._sock.send_multipart([self._rid, *encode_outbound(msg, payload)])

    def _on(self, msg: Any) -> None:
        match msg:
            case Hello():
                self._rate = msg.output.rate
                self._send(
                    HelloOk(
                        ref=msg.id,
                        principal="alice",
                        role="steward",
                        version=1,
                        features=[],
                        input=InputFormat(),
                        output=OutputFormat(rate=msg.output.rate, speak=msg.output.speak),
                        limits=Limits(8192, 30000, 10000, 256, 500),
                        heartbeat_ms=10000,
                        resumed=False,
                        pending=[],
                    )
                )
            case Ping():
                self._send(Pong(ref=msg.id))
            case AudioInputStart(stream=stream, mode=mode):
                self._modes[stream] = mode
                self._chunks_in[stream] = 0
            case AudioInputChunk(stream=stream):
                if stream in self._closed:
                    self._send(self._error("stream_closed", msg.id, stream=stream))
                    return
                self._chunks_in[stream] += 1
                n = self._chunks_in[stream]
                if self.rate_limit_after_chunks is not None and n > self.rate_limit_after_chunks:
                    self._send(self._error("rate_limited", msg.id))
                    return
                if self._modes[stream] == "vad" and n == 5:
                    self._send(SpeechStarted(stream=stream, at_ms=100))
                if self._modes[stream] == "vad" and n == self.vad_endpoint_after_chunks:
                    self._send(SpeechStopped(stream=stream, at_ms=n * 20))
                    self._spoken_turn(stream, msg.id)
            case AudioInputCommit(stream=stream):
                if stream not in self._closed:
                    self._spoken_turn(stream, msg.id)
            case ObjectiveConfirm():
                self._confirm_turn(msg)
            case TurnCancel(turn=turn):
                reply = self._reply
                if reply is not None and reply.turn == turn:
                    self._send(
                        AudioOutputDone(
                            stream=reply.stream, generation=1, reason="cancelled", chunks=reply.sent
                        )
                    )
                    self._send(TurnDone(turn=turn, status="cancelled", latency_ms={}))
                    self._reply = None
            case _:
                pass

    def _error(self, code: str, ref: str, **kw: Any) -> Error:
        return Error(code=code, message=code, ref=ref, retryable=False, **kw)

    def _new_turn(self) -> str:
        self._turns += 1
        return f"turn-{self._turns}"

    def _spoken_turn(self, stream: str, ref: str) -> None:
        self._closed.add(stream)
        turn = self._new_turn()
        self._send(TranscriptFinal(ref=ref, stream=stream, turn=turn, text="hi", confidence=0.9))
        self._send(AudioInputDone(stream=stream, reason="transcribed", turn=turn))
        obj = objective(id=f"obj-{self._turns}")
        self._send(ObjectiveDraft(turn=turn, objective=obj, preview=Preview(summary="a bench")))
        self._start_reply(turn, "parsed")

    def _confirm_turn(self, msg: ObjectiveConfirm) -> None:
        turn = self._new_turn()
        obj = objective(id=msg.objective_id, status="confirmed", confirmed_by_steward=True)
        self._send(
            ObjectiveConfirmed(ref=msg.id, turn=turn, objective_id=msg.objective_id, objective=obj)
        )
        self._send(
            Negotiation(
                turn=turn,
                objective_id=msg.objective_id,
                decision="accept",
                reply="On it.",
                reason="fits",
                evidence=[],
                answered_by="policy",
            )
        )
        self._start_reply(turn, "completed")

    def _start_reply(self, turn: str, status: str) -> None:
        stream = f"out-{turn}"
        self._send(
            AudioOutputStart(
                turn=turn,
                stream=stream,
                generation=1,
                rate=self._rate,
                text="ok",
                encoding="pcm_s16le",
                channels=1,
            )
        )
        self._reply = _Reply(turn, stream, self.reply_chunks, status, next_s=time.monotonic())

    def _step_reply(self) -> None:
        reply = self._reply
        if reply is None or time.monotonic() < reply.next_s:
            return
        if reply.sent < reply.chunks:
            payload = b"\x10\x00" * (self._rate // 50)  # 20 ms at the output rate
            self._send(
                AudioOutputChunk(stream=reply.stream, generation=1, index=reply.sent), payload
            )
            reply.sent += 1
            reply.next_s = time.monotonic() + self.chunk_interval_s
            return
        self._send(
            AudioOutputDone(
                stream=reply.stream, generation=1, reason="completed", chunks=reply.sent
            )
        )
        if not self.drop_turn_done:
            self._send(TurnDone(turn=reply.turn, status=reply.final_status, latency_ms={"ack": 5}))
        self._reply = None
