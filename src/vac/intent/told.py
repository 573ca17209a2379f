"""What stands between a name and its verb when the name may be the agent
("Kofi needs to fix…"): words that tell of the deed rather than ask for it
("Kofi could not fix the gate", "Kofi did not…", "Kofi was able to…",
"Kofi did fix…"; as "Kofi couldn't…" always was; "Kofi might fix…", a
guess), and a reminder, which
asks ("Kofi don't forget to fix the gate", "kofee don't forget to…": the
name is the agent, the reminder no negation). "Had better" asks. Pure.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Final

from vac.intent import lexicon as lx
from vac.intent.lexicon import Tok, words

_NEGATING: Final = frozenset(words("not never nor no"))
_PAST: Final = frozenset(words("was were did had"))


def name_then(toks: Sequence[Tok], i: int, verb_at: int) -> tuple[int, bool]:
    """Where the words of a name at `i` may end (before a reminder that
    runs up to the verb), and whether the words up to there tell, not ask."""
    lows = [t.low for t in toks]
    reminded = (k for k in range(i + 1, verb_at) if k + lx.reminder_at(lows, k) == verb_at)
    cut = next(reminded, verb_at)
    said = lows[i:cut]
    past = (k for k, w in enumerate(said) if w in _PAST and said[k + 1 : k + 2] != ["better"])
    # "no" is a pause said without commas ("kofi no (please) fix the gate":
    # "Kofi, no, fix…"), but "no need / no longer / no more" deny the deed.
    denied = any(
        w in _NEGATING and (w != "no" or said[k + 1 : k + 2] in (["need"], ["longer"], ["more"]))
        for k, w in enumerate(said)
    )
    guessed = "might" in said or "may" in said  # "Kofi might / may fix the gate": a guess
    # "Kofi's supposed / meant to fix the boiler": what is expected, news (an
    # eleventh typed probe drafted it for the default agent)
    guessed = guessed or any(w in ("supposed", "meant") for w in said)
    # "Zuri would love to map the coastline": a wish of the agent's, news (a
    # twelfth typed probe drafted it)
    guessed = guessed or any(
        a == "would" and b in ("love", "like", "prefer") for a, b in itertools.pairwise(said)
    )
    # "Kofi could build a rocket if he wanted to", "…if you asked him": what
    # the agent could do, a musing (a twelfth typed probe drafted each)
    guessed = guessed or ("could" in said and _if_willing(lows[verb_at:]))
    told = denied or guessed or _praised(lows, said, verb_at) or _news(lows, said, verb_at)
    return cut, told or next(past, None) is not None


def _if_willing(after: Sequence[str]) -> bool:
    return any(
        w == "if" and (after[k + 1 : k + 3] in _WILLING or after[k + 1 : k + 3] in _ASKED_HIM)
        for k, w in enumerate(after)
    )


_WILLING: Final = [[p, w] for p in ("he", "she", "they") for w in ("wanted", "wants", "tried")]
_ASKED_HIM: Final = [["you", "asked"], ["you", "ask"], ["we", "asked"], ["i", "asked"]]
_PLANNED: Final = frozenset(words("going gonna will 'll"))
# Said with a plan, these make it news ("Kofi's going to fix it anyway", "…
# later I think", "…, so don't worry"), not an order.
_HEDGES: Final = frozenset(words("anyway anyhow reckon think guess worry"))


# Said to pass news on: "Kofi's going to fix the gate tomorrow, just so you
# know" (an eleventh typed probe drafted it), "fyi Zuri will check the hens".
_FOR_YOUR_INFO: Final = (
    ("so", "you", "know"), ("letting", "you", "know"), ("let", "you", "know"), ("fyi",),
    ("for", "your", "information"), ("for", "info"), ("heads", "up"), ("just", "saying"),
    # "Tariq is going to build a shed next month, he told me" (a typed probe, T22)
    *((p, "told", "me") for p in ("he", "she", "they")), ("apparently",),
    *((p, w) for p in ("he", "she", "they") for w in ("said", "says", "mentioned")),
)  # fmt: skip


def _news(lows: Sequence[str], said: Sequence[str], verb_at: int) -> bool:
    planned = any(w in _PLANNED or w.endswith("'ll") for w in said)
    told = any(tuple(lows[k : k + len(p)]) == p for p in _FOR_YOUR_INFO for k in range(len(lows)))
    return planned and (told or any(w in _HEDGES for w in lows) or _own_people(lows[verb_at:]))


# Whose people a plan is about: "Abeni is going to visit her mother on
# Sunday" is Abeni's own plan, news (a spoken probe drafted a Befriend of
# "Mother"); "Kofi will fix the gate" still orders it.
_OWNERS: Final = frozenset(words("her his their"))
_PEOPLE: Final = frozenset(
    words("""mother father mum mom dad mummy daddy gran granny grandma grandpa grandmother
    grandfather sister brother sisters brothers family aunt auntie uncle cousin cousins friend
    friends husband wife son daughter kids children parents boyfriend girlfriend""")
)


def _own_people(after: Sequence[str]) -> bool:
    return any(w in _OWNERS and n in _PEOPLE for w, n in itertools.pairwise(after))


_PRAISE: Final = frozenset(
    words("good great fine excellent wonderful brilliant lovely terrific fantastic perfect bad")
)


def _praised(lows: Sequence[str], said: Sequence[str], verb_at: int) -> bool:
    """ "Imani would make a great teacher": what the agent would be, not a
    thing to build (it was Imani's Build of "Great teacher")."""
    after = lows[verb_at : verb_at + 3]
    return (
        "would" in said
        and after[:2] in (["make", "a"], ["make", "an"])
        and after[2:] != []
        and (after[2] in _PRAISE)
    )
