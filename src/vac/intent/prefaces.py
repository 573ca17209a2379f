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
_LEADS: Final = ("", "i'm ", "so ", "i'm so ", "terribly ", "i'm terribly ", "really ", "very ")
_TAILS: Final = (
    "",
    " to ask",
    " to bother you",
    " to trouble you",
    " to be a pain",
    " to be a nuisance",
)
# An apology said before "but" and the request: its words and the "but"
# go, a name said with them stays ("sorry Kofi, but fix the gate", "Kofi,
# sorry to bother you, but…": a review found the name dropped with them).
_SORRY: Final = tuple(
    sorted(
        [
            *(tuple(f"{lead}sorry{tail}".split()) for lead in _LEADS for tail in _TAILS),
            *(tuple(f"i hate to{tail.removeprefix(' to')}".split()) for tail in _TAILS[1:]),
            ("i", "know", "you're", "busy"),
            ("forgive", "me"),
            ("apologies",),
        ],
        key=lambda p: -len(p),
    )
)
_MAY: Final = frozenset({"might", "may", "could", "can"})
_BUT_WITHIN: Final = 4  # words between the apology and its "but" ("sorry Kofi, but")
# Slang said for emphasis: "no cap", "fr", "ngl", "tbh" (never "Fr." the title).
_SLANG: Final = (
    *(("no", "cap"), ("fr", "fr"), ("fr",), ("ngl",), ("tbh",), ("deadass",), ("istg",)),
    *(("lowkey",), ("on", "god")),
)
# Said first only (a typed probe, T26: "k zuri map the attic tmrw" asked who; not "vitamin k").
_LEAD_SLANG: Final = frozenset({"omg", "k", "kk", "pls", "plz", "yo", "oi"})
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
        elif k == 0 and lows[k] in _LEAD_SLANG and len(lows) > 2:  # not "yo" alone
            drop(k, k + 1)
        elif lows[k] in _BUDDY and k <= 1 and (k == 0 or lows[k - 1] not in _OWNERS):
            drop(k, k + 1)  # "tariq bro check…", said first; not "…my lil sis safe"
    _heading(lows, texts, out, drop)
    for k in range(2, len(lows)):  # "might I trouble Kofi to…": "ask" (not "don't trouble…")
        if lows[k] in ("trouble", "bother") and lows[k - 1] == "i" and lows[k - 2] in _MAY:
            out[k] = (texts[k], "ask")
    return out


def _sorry_but(lows: Sequence[str], start: int, drop: _Drop) -> None:
    for k in range(start, min(len(lows), start + 4)):
        said = next((p for p in _SORRY if tuple(lows[k : k + len(p)]) == p), None)
        if said is None:
            continue
        end = k + len(said)
        but = next((j for j in range(end, end + _BUT_WITHIN) if lows[j : j + 1] == ["but"]), None)
        if but is not None and but + 1 < len(lows):
            drop(k, end + (lows[end : end + 1] == [","]))  # the apology (and its comma)
            drop(but, but + 1)
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
