"""Words said before or around an order that are no part of it, read as a
hesitation is: a wake word ("hey google, Imani should…"), an apology that
leads to "but" ("I hate to be a nuisance, but could Zuri repair…",
"terribly sorry, but would Tariq mind…"), slang said for emphasis ("kofi
no cap the dog's been acting weird", "tariq bro check the xbox"), and the
heading of a task list ("set a task for Kofi: protect the seedlings",
"Kofi's task: fix the gate"). A typed probe (T22) found each asked who
should do it, or the name lost ("Kofi's task: fix the gate" was Abeni's).
Pure: the words (as written and lower-cased) in, the words to read anew
out, by index: (as written, lower-cased).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

_WAKE: Final = (
    ("hey", "google"),
    ("ok", "google"),
    ("okay", "google"),
    ("hey", "alexa"),
    ("alexa",),
    ("hey", "vac"),
    ("ok", "vac"),
    ("okay", "vac"),
    ("ayo",),  # a greeting: "ayo zuri go…"
)
# An apology or a plea said before "but" and the request.
_SORRY: Final = frozenset(
    {"sorry", "nuisance", "bother", "trouble", "pain", "busy", "apologies", "forgive", "hate"}
)
_SORRY_WORDS_MAX: Final = 10
# Slang said for emphasis: "no cap", "fr", "ngl", "tbh" (never "Fr." the title).
_SLANG: Final = (
    *(("no", "cap"), ("fr", "fr"), ("fr",), ("ngl",), ("tbh",), ("deadass",), ("istg",)),
    *(("lowkey",), ("on", "god")),
)
# Said to the one addressed, after their name or first: "tariq bro check…".
_BUDDY: Final = frozenset({"bro", "bruv", "bruh", "fam", "dude", "sis"})
_OWNERS: Final = frozenset(
    {"my", "your", "his", "her", "our", "their", "the", "a", "little", "big"}
)
# A task list's heading before a name and a colon: "set a task for Kofi:",
# "new job for Zuri:", "pass to Kofi:", "message for Imani:".
_HEADING: Final = frozenset(
    {"set", "a", "task", "new", "job", "for", "pass", "this", "to", "message", "note", "please"}
    | {"kindly", "could", "you", "one", "another", "quick", "here's", "here", "is", "the", "on"}
    | {"add", "put", "list", "jobs", "tasks", "chore", "chores", "today's", "todays"}
)
_TASK: Final = frozenset({"task", "tasks", "job", "jobs", "chore", "chores", "list", "to-do"})
_HEADING_WORDS_MAX: Final = 8
_Drop = Callable[[int, int], None]
_NOT_A_NAME: Final = frozenset({"self", "me", "myself", "us", "you", "yourself", "all", "everyone"})


def prefaces_dropped(lows: Sequence[str], texts: Sequence[str]) -> dict[int, tuple[str, str]]:
    """The words of a preface, read anew ("uh" drops them; "Kofi's" → "Kofi")."""
    out: dict[int, tuple[str, str]] = {}

    def drop(frm: int, to: int) -> None:
        out.update({k: (texts[k], "uh") for k in range(frm, to)})

    wake = next((w for w in _WAKE if tuple(lows[: len(w)]) == w), None)
    start = len(wake) if wake else 0
    drop(0, start)
    start += start < len(lows) and lows[start] == ","
    _sorry_but(lows, start, drop)
    for k in range(len(lows)):
        slang = next((s for s in _SLANG if tuple(lows[k : k + len(s)]) == s), None)
        if slang and (slang[0] != "fr" or texts[k] == "fr"):
            drop(k, k + len(slang))
        elif lows[k] in _BUDDY and k <= 1 and (k == 0 or lows[k - 1] not in _OWNERS):
            drop(k, k + 1)  # "tariq bro check…", said first; not "…my lil sis safe"
    _heading(lows, texts, out, drop)
    return out


def _sorry_but(lows: Sequence[str], start: int, drop: _Drop) -> None:
    end = min(len(lows), start + _SORRY_WORDS_MAX + 2)
    for k in range(start + 1, end):
        if lows[k] == "but" and k + 1 < len(lows) and set(lows[start:k]) & _SORRY:
            drop(start, k + 1)
            return


def _heading(
    lows: Sequence[str], texts: Sequence[str], out: dict[int, tuple[str, str]], drop: _Drop
) -> None:
    colon = next((k for k, w in enumerate(lows[: _HEADING_WORDS_MAX + 1]) if w == ":"), None)
    if colon is None or colon == 0:
        return
    name = colon - 1
    if lows[name] in _TASK and name > 0 and lows[name - 1].endswith("'s"):
        out[name] = (texts[name], "uh")  # "Kofi's task:" → "Kofi:"
        name -= 1
        said = texts[name][:-2]
        out[name] = (said, said.lower())
    headed = lows[name - 1] in ("for", "to") if name else False  # not "…is a remark:"
    headed = headed and lows[name] not in _NOT_A_NAME  # "note to self:" (the speaker's)
    if headed and all(w in _HEADING for w in lows[:name]):
        drop(0, name)  # "set a task for Kofi:" → "Kofi:"


__all__ = ["prefaces_dropped"]
