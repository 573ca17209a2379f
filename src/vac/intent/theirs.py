"""The agent's own judgment said with "his", "her" or "their" after "use":
"he can use his judgment", "use her own discretion" read as "your" (a typed probe and a
conversation probe, T22c: the free hand was not read). Pure: words in, the
words to read anew out (`tokens` reads them so)."""

from __future__ import annotations

from collections.abc import Sequence

_AFTER: tuple[str, ...] = ("judgment", "judgement", "discretion")


def _word(lows: Sequence[str], k: int) -> str:
    return lows[k] if k < len(lows) else ""


def theirs_as_yours(lows: Sequence[str]) -> dict[int, str]:
    """Where "his" / "her" / "their" stands for the agent's own judgment."""
    return {
        k: "your"
        for k, low in enumerate(lows[:-1])
        if low in ("his", "her", "their")
        and k
        and lows[k - 1] == "use"  # not "leave it to his judgement" (a cue as said)
        and (lows[k + 1] in _AFTER or (lows[k + 1] == "own" and _word(lows, k + 2) in _AFTER))
    }


__all__ = ["theirs_as_yours"]
