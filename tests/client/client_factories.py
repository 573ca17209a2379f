"""Builders for daemon → client messages in client tests (uniquely named module)."""

from __future__ import annotations

from typing import Any

import msgspec

from vac.protocol.messages import (
    AudioInputDone,
    AudioOutputChunk,
    AudioOutputDone,
    AudioOutputStart,
    HelloOk,
    InputFormat,
    Limits,
    ObjectiveDraft,
    OutputFormat,
    Preview,
    TranscriptFinal,
    TurnDone,
)
from vac.protocol.objective import Objective

SESSION = "sess-1"


def objective(**overrides: Any) -> Objective:
    base: dict[str, Any] = {
        "id": "obj-1",
        "revision": 1,
        "agent": "Kofi",
        "verb": "Build",
        "target": {"ref": "prop:bench", "kind": "prop", "label": "Wooden bench"},
        "constraints": [],
        "priority": 55,
        "deadline": None,
        "forbidden_lines": [
            {"text": "Respect the agent's autonomy", "value_ref": "value:respect-agent-autonomy"}
        ],
        "autonomy": "brief",
        "status": "draft",
        "confirmed_by_steward": False,
        "accepted_by_agent": False,
        "source_text": "tell kofi to build a wooden bench",
        "confidence": 0.9,
    }
    base.update(overrides)
    return msgspec.convert(base, Objective)


def hello_ok(rate: int = 16000, speak: bool = True, heartbeat_ms: int = 10000) -> HelloOk:
    return HelloOk(
        session=SESSION,
        seq=0,
        principal="alice",
        role="steward",
        version=1,
        features=[],
        input=InputFormat(),
        output=OutputFormat(rate=rate, speak=speak),
        limits=Limits(8192, 30000, 10000, 256, 500),
        heartbeat_ms=heartbeat_ms,
        resumed=False,
        pending=[],
    )


def spoken_turn(
    stream: str = "in-1", turn: str = "turn-1", out: str = "out-1", chunks: int = 3
) -> list[Any]:
    """One good push-to-talk turn, without session/seq (see `stamp`)."""
    return [
        TranscriptFinal(stream=stream, turn=turn, text="build a bench", confidence=0.9),
        AudioInputDone(stream=stream, reason="transcribed", turn=turn),
        ObjectiveDraft(turn=turn, objective=objective(), preview=Preview(summary="Kofi builds")),
        AudioOutputStart(
            turn=turn,
            stream=out,
            generation=1,
            rate=16000,
            text="Kofi builds",
            encoding="pcm_s16le",
            channels=1,
        ),
        *[AudioOutputChunk(stream=out, generation=1, index=i) for i in range(chunks)],
        AudioOutputDone(stream=out, generation=1, reason="completed", chunks=chunks),
        TurnDone(turn=turn, status="parsed", latency_ms={"ack": 120}),
    ]


def stamp(messages: list[Any], first_seq: int = 1) -> list[Any]:
    """Give each message the session and consecutive seq a connection would."""
    return [
        msgspec.structs.replace(m, session=SESSION, seq=first_seq + i)
        for i, m in enumerate(messages)
    ]
