"""Builders shared by the runtime tests that drive a real pipeline and sessions."""

from __future__ import annotations

from typing import Any

from vac import intent
from vac.protocol.messages import OutputFormat
from vac.runtime.pipeline import Engines, Pipeline
from vac.runtime.session import Outbox, Replies, Session
from vac.runtime.store import AsyncEventLog
from vac.speech.vad import VadConfig


def bound_session(
    sid: str, principal: str, agent: str | None = None, *, max_control: int = 1000
) -> Session:
    """An attached, silent session (an agent's when `agent` names one)."""
    return Session(
        sid,
        principal,
        "test",
        OutputFormat(rate=16000, speak=False),
        Outbox(max_chunks=64, max_control=max_control),
        Replies(window=64),
        connection=sid.encode(),
        agent=agent,
    )


def text_pipeline(transport: Any, store: AsyncEventLog, **kwargs: Any) -> Pipeline:
    """A text-only pipeline with the default household (no engines)."""
    kwargs.setdefault("max_pending_drafts", 8)
    engines = Engines(stt=None, tts=None, vad=VadConfig())
    return Pipeline(transport, store, engines, intent.config_from_builtins({}), **kwargs)
