"""Receiving and recording daemon events for the scripted transport.

The transport reads frames itself instead of `Connection.recv` because a
message type this client does not know must still be seen: it counts in
`seq` (§2) and belongs in `events.jsonl`. The JSON line is the header exactly
as received (unknown fields included) plus two client annotations with a
leading underscore: `_recv_ms` (ms since the transport started) and, on
chunks, `_payload_bytes`. Audio itself is never written to the event log.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import IO, Any

import msgspec

from vac.client.connection import Connection, Timeout
from vac.protocol.codec import decode_outbound
from vac.protocol.messages import OutboundMessage
from vac.protocol.text_safety import escape_for_terminal

_loose = msgspec.msgpack.Decoder(dict[str, Any])


@dataclass(frozen=True)
class Received:
    header: dict[str, Any]
    msg: OutboundMessage | None  # None for a type this client does not know
    payload: bytes | None
    recv_ms: int

    @property
    def type_name(self) -> str:
        return str(self.header.get("type"))


def recv_raw(conn: Connection, timeout_s: float, started_s: float) -> Received:
    """The next message of any type; `Timeout` if none within `timeout_s`.

    A frame sequence that is not VAC/1 at all raises `ProtocolError`.
    """
    if not conn.sock.poll(int(max(0.0, timeout_s) * 1000)):
        raise Timeout(f"no message from the daemon within {timeout_s:.1f} s")
    frames = conn.sock.recv_multipart()
    msg, payload = decode_outbound(frames)
    header = _loose.decode(frames[1])
    recv_ms = int((time.monotonic() - started_s) * 1000)
    return Received(header, msg, payload, recv_ms)


def _json_default(value: object) -> object:
    if isinstance(value, bytes):
        return f"<{len(value)} bytes>"
    return repr(value)


def event_json(event: Received) -> str:
    data = dict(event.header)
    data["_recv_ms"] = event.recv_ms
    if event.payload is not None:
        data["_payload_bytes"] = len(event.payload)
    return json.dumps(data, sort_keys=True, default=_json_default)


def describe(header: dict[str, Any]) -> str | None:
    """A short line for a person, or None for events too frequent to print (chunks).

    Escaped for a terminal: summaries, questions, replies and error messages
    carry text from people and models, and an ESC in one must not drive the
    screen of whoever runs the transport.
    """
    line = _describe(header)
    return None if line is None else escape_for_terminal(line)


def _describe(header: dict[str, Any]) -> str | None:
    kind = str(header.get("type"))
    h = header
    match kind:
        case "audio.output.chunk":
            return None  # ten a second; audio.output.done reports the count
        case "hello.ok":
            out = h.get("output", {})
            return f"hello.ok: session {h.get('session')} as {h.get('principal')}, " + (
                f"output {out.get('rate')} Hz speak={out.get('speak')}"
            )
        case "transcript.final" if h.get("provisional"):
            # Heard at a pause that may continue: shown, its turn not waited for.
            return f"transcript.final (provisional): {h.get('text')!r}"
        case "transcript.partial" | "transcript.final":
            return f"{kind}: {h.get('text')!r}"
        case "objective.confirmed" | "objective.rejected":
            obj = h.get("objective", {})
            what = " · ".join(str(obj.get(k)) for k in ("agent", "verb"))
            label = (obj.get("target") or {}).get("label")
            return f"{kind}: {what} · {label} [id {h.get('objective_id')}, {obj.get('status')}]"
        case "objective.draft":
            obj = h.get("objective", {})
            summary = h.get("preview", {}).get("summary")
            return f"objective.draft: {summary}  [id {obj.get('id')} rev {obj.get('revision')}]"
        case "objective.clarify":
            return f"objective.clarify: {h.get('question')} ({h.get('reason')})"
        case "negotiation":
            return f"negotiation: {h.get('decision')} — {h.get('reply')}"
        case "audio.output.start":
            return f"audio.output.start: {h.get('stream')} at {h.get('rate')} Hz: {h.get('text')!r}"
        case "audio.output.done":
            return (
                f"audio.output.done: {h.get('stream')} {h.get('reason')}, {h.get('chunks')} chunks"
            )
        case "audio.output.visemes":
            cues = h.get("cues") or []
            return f"audio.output.visemes: {h.get('stream')} {len(cues)} cues ({h.get('timing')})"
        case "turn.done":
            return f"turn.done: {h.get('turn')} {h.get('status')} latency_ms={h.get('latency_ms')}"
        case "error":
            return f"error {h.get('code')}: {h.get('message')}"
    rest = {k: v for k, v in h.items() if k not in ("type", "session", "seq", "ref")}
    return f"{kind}: {json.dumps(rest, sort_keys=True, default=_json_default)}"


class EventSink:
    """Every received event to `events.jsonl` (if any) and to stdout (JSON or human)."""

    def __init__(self, jsonl: IO[str] | None, stdout: IO[str], *, as_json: bool) -> None:
        self._jsonl = jsonl
        self._stdout = stdout
        self._as_json = as_json
        # Human mode: the same line again (hundreds of rate_limited errors
        # for a WAV streamed too fast) is counted, not printed again.
        self._last: str | None = None
        self._repeats = 0

    def write(self, event: Received) -> None:
        line = event_json(event)
        if self._jsonl is not None:
            self._jsonl.write(line + "\n")
        if self._as_json:
            print(line, file=self._stdout, flush=True)
        elif (text := describe(event.header)) is not None:
            if text == self._last:
                self._repeats += 1
                return
            self._flush_repeats()
            self._last = text
            print(text, file=self._stdout, flush=True)

    def _flush_repeats(self) -> None:
        if self._repeats:
            print(f"  (the line above {self._repeats} more times)", file=self._stdout, flush=True)
            self._repeats = 0

    def close(self) -> None:
        self._flush_repeats()
        if self._jsonl is not None:
            self._jsonl.close()
