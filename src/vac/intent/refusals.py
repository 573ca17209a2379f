"""Refusal memory: what the agents refused each principal, the newest kept.

What it is for (PROTOCOL §5.1, §9): a steward cannot launder an ask its
agent refused. Pushing the refused objective again, or a new one with the
same agent, verb and target (a re-said command gets a new id), is coercion:
the daemon refuses it without asking the agent, and audits it. An agent
cannot launder one either: it never confirms anything.

The bound: each principal's newest `per_principal` refusals (by when they
were refused; a refusal pushed again is refused again, so it becomes the
newest). Without it every refused ask stayed in memory for good, and a
steward pressing refused asks in a loop grew the daemon without limit. The
oldest beyond it is forgotten here (the event log keeps it): confirming
that objective again is `objective_unknown`, as for any settled one the
daemon no longer holds, and an ask like it goes to its agent afresh, where
the values check still refuses what crosses a value. To launder one
refusal a steward would need `per_principal` newer ones, each refused (and
each coercion audited): the default is 1000.

Per principal, like the rule: one steward's refusals never colour another's
ask, nor push another's out.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from typing import Final

from vac.protocol.objective import Objective

DEFAULT_MAX_REFUSALS: Final = 1000

# principal, agent (lower case), verb, target ref
Signature = tuple[str, str, str, str]


def signature(principal: str, obj: Objective) -> Signature:
    return principal, obj.agent.lower(), obj.verb, obj.target.ref


class RefusalMemory:
    """Refused objective ids per principal, oldest first, with their signatures."""

    def __init__(self, per_principal: int = DEFAULT_MAX_REFUSALS) -> None:
        if per_principal < 1:
            raise ValueError("per_principal must be at least 1")
        self.per_principal = per_principal
        self._by_principal: dict[str, OrderedDict[str, Signature]] = {}
        self._signatures: Counter[Signature] = Counter()

    def knows(self, principal: str, obj: Objective) -> bool:
        """Was this objective (by id), or one with its agent, verb and target,
        refused when `principal` asked, and is that still remembered?"""
        mine = self._by_principal.get(principal)
        if mine is not None and obj.id in mine:
            return True
        return self._signatures[signature(principal, obj)] > 0

    def holds(self, principal: str, objective_id: str) -> bool:
        mine = self._by_principal.get(principal)
        return mine is not None and objective_id in mine

    def count(self, principal: str) -> int:
        return len(self._by_principal.get(principal, ()))

    def add(
        self, principal: str, obj: Objective
    ) -> tuple[Signature | None, list[tuple[str, Signature]]]:
        """Remember a refusal as the newest. Returns what undoes it: the
        signature the id had before (None: it was not remembered), and the
        refusals forgotten to stay within the bound, oldest first."""
        mine = self._by_principal.setdefault(principal, OrderedDict())
        before = mine.pop(obj.id, None)
        if before is not None:
            self._drop_signature(before)
        sig = signature(principal, obj)
        mine[obj.id] = sig
        self._signatures[sig] += 1
        forgotten: list[tuple[str, Signature]] = []
        while len(mine) > self.per_principal:
            oid, old = mine.popitem(last=False)
            self._drop_signature(old)
            forgotten.append((oid, old))
        return before, forgotten

    def undo_add(self, principal: str, objective_id: str, before: Signature | None) -> None:
        """Take back an `add` (its decision was not written)."""
        mine = self._by_principal.get(principal)
        if mine is None or objective_id not in mine:
            return
        self._drop_signature(mine.pop(objective_id))
        if before is not None:
            mine[objective_id] = before
            self._signatures[before] += 1
        if not mine:
            del self._by_principal[principal]

    def restore(self, principal: str, objective_id: str, sig: Signature) -> None:
        """Put back a refusal an undone decision pushed out, as the oldest."""
        mine = self._by_principal.setdefault(principal, OrderedDict())
        if objective_id in mine:
            return
        mine[objective_id] = sig
        mine.move_to_end(objective_id, last=False)
        self._signatures[sig] += 1

    def forget_principal(self, principal: str) -> int:
        mine = self._by_principal.pop(principal, OrderedDict())
        for sig in mine.values():
            self._drop_signature(sig)
        return len(mine)

    def _drop_signature(self, sig: Signature) -> None:
        self._signatures[sig] -= 1
        if self._signatures[sig] <= 0:
            del self._signatures[sig]
