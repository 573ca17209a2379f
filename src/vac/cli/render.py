"""Daemon events as people read them: one line each, a short card for a draft."""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

import msgspec

from vac.protocol.text_safety import escape_for_terminal


def target_label(obj: dict[str, Any]) -> str:
    target = obj.get("target") or {}
    label, kind = target.get("label"), target.get("kind")
    return f"{label} ({kind})" if kind else str(label)


def _draft_card(data: dict[str, Any]) -> str:
    obj = data["objective"]
    oid = obj["id"]
    rows = [
        ("id", f"{oid} (revision {obj.get('revision')})"),
        ("agent", obj.get("agent")),
        ("verb", obj.get("verb")),
        ("target", target_label(obj)),
        ("deadline", obj.get("deadline") or "none"),
    ]
    lines = [f"draft: {data['preview']['summary']}"]
    lines += [f"  {name:<9} {value}" for name, value in rows]
    lines.append(f"  confirm with: vac confirm {oid}")
    lines.append(f"  reject with:  vac reject {oid}")
    return "\n".join(lines)


def _human(kind: str, data: dict[str, Any]) -> str | None:
    """One readable line per event (a short card for a draft); None to skip."""
    match kind:
        case "objective.draft":
            return _draft_card(data)
        case "transcript.final":
            return f"heard: {data['text']}"
        case "transcript.partial":
            return None
        case "objective.clarify":
            return f"question: {data['question']} ({data['reason']})"
        case "objective.confirmed":
            return f"confirmed: {data['objective_id']}"
        case "objective.rejected":
            return f"rejected: {data['objective_id']}"
        case "negotiation":
            return f"negotiation: {data['decision']} — {data['reply']}"
        case "turn.done":
            stages = ", ".join(f"{k} {v} ms" for k, v in sorted(data["latency_ms"].items()))
            return f"turn done: {data['status']}" + (f" ({stages})" if stages else "")
        case "pong":
            return None
    rest = {k: v for k, v in data.items() if k not in ("turn",)}
    return f"{kind}: {json.dumps(rest, sort_keys=True)}"


def print_event(msg: Any, as_json: bool, out: TextIO | None = None) -> None:
    data = msgspec.to_builtins(msg)
    out = out or sys.stdout
    if as_json:  # json.dumps escapes every control character (ensure_ascii)
        print(json.dumps(data, sort_keys=True), file=out, flush=True)
        return
    kind = data.pop("type")
    for noise in ("session", "seq", "ref"):
        data.pop(noise, None)
    line = _human(kind, data)
    # Text from the daemon (and, through it, from people) is escaped before a
    # terminal sees it: an ESC in a reply must not drive the screen.
    if line is not None:
        print(escape_for_terminal(line), file=out, flush=True)
