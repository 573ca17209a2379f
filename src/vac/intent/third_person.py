"""How much the agent decides, said of them rather than to them: "tell him
to check with me first", "he should check with me first", "she can use her
judgment", "let him decide". A conversation probe (T22c) found each no
change to the pending draft ("I didn't change anything"), and the yes after
it confirmed the old autonomy. The runtime reads them so only when the
draft names no one else the pronoun could mean ("…support grandma || she
can use her judgment" is grandma's: a review). Pure: words in, words out.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Final

from vac.intent.change_plainly import plainly
from vac.intent.hand_said import hand_or_haste
from vac.intent.particles import KIN
from vac.intent.tokens import raw_tokens
from vac.protocol.objective import Objective

# Said of the agent before how free they are: dropped, what follows is it.
_OF_THEM: Final = re.compile(
    r"^\W*(?:(?:and|but|also|oh|yes|yeah|ok|okay|just|sure|do\s+it|go\s+ahead)\W+)*"
    r"(?:(?:tell|ask|remind)\s+(?:him|her|them)\s+to"
    r"|(?:he|she|they)\s+(?:should|must|can|could|will|may|has\s+to|have\s+to|needs\s+to"
    r"|need\s+to|ought\s+to))\s+(?=\w)",
    re.IGNORECASE,
)
_DECIDES: Final = re.compile(
    r"^\W*(?:let\s+(?:him|her|them)|(?:he|she|they)\s+(?:can|should|may))\s+(?:decide"
    # "he can do it however he likes", "let him do it his own way" (T23c: no change)
    r"|do\s+it\s+(?:(?:however|how|any\s+way|the\s+way)\s+(?:he|she|they)\s+(?:likes?|wants?"
    r"|sees?\s+fit|thinks?\s+best|prefers?)|(?:his|her|their)\s+own\s+way))\W*$",
    re.IGNORECASE,
)
# "she's not to go on the main road", "he is not to use the ladder": a boundary
# said of them (T23c: no change; "she mustn't…" was one).
_NOT_TO: Final = re.compile(
    r"^\W*(?:(?:and|but|also|oh)\W+)?(?:he|she|they)(?:'s|'re|\s+is|\s+are)\s+not\s+to\s+"
    r"(?!(?:blame|worry|be\s+blamed)\b)(?=\w)",  # not "he's not to blame" (a review)
    re.IGNORECASE,
)
# "tell her it's urgent", "let him know there's no rush": the change itself.
_TELL_THEM: Final = re.compile(
    r"^\W*(?:(?:and|but|also|oh)\W+)?(?:tell|let)\s+(?:him|her|them)(?:\s+know)?(?:\s+that)?"
    r"\s+(?=it'?s\b|it\s+is\b|there'?s\b|no\s+rush)",
    re.IGNORECASE,
)
_THEIRS: Final = re.compile(
    r"\b(?:his|her|their)(\s+(?:own\s+)?(?:judge?ment|discretion|call)\b)", re.IGNORECASE
)


def said_to_them(said: str, pending: Objective, names: Collection[str] = ()) -> str:
    """`said` as if said to the agent when it says how free they are
    ("he should check with me first" → "check with me first"), else as is;
    as is too when the draft `pending` names someone the pronoun could mean."""
    said = plainly(said, pending, names)  # "Tariq would be better for that": "no, Tariq"
    plural = bool(re.search(r"\b(?:they|them|their)\b", said, re.IGNORECASE))
    if not _no_one_else(pending, names, plural):
        return said
    if _DECIDES.match(said):
        return "use your judgment"
    if (banned := _NOT_TO.match(said)) is not None:
        return f"and don't {said[banned.end() :]}"
    if (told := _TELL_THEM.match(said)) is not None:
        said = said[told.end() :]
    found = _OF_THEM.match(said)
    if found is None:
        return said
    bare = _THEIRS.sub(r"your\1", said[found.end() :])
    return bare if hand_or_haste([t.low for t in raw_tokens(bare)], names) else said


def _no_one_else(pending: Objective, names: Collection[str], plural: bool) -> bool:
    """Whether the draft names no one but its agent whom the pronoun could
    mean: no other roster name, no person or animal as its thing ("…support
    grandma || she can use her judgment"), and for "they" no things ("…the
    hens || let them decide"; a review)."""
    said = {w.strip(",.!?;:").removesuffix("'s").lower() for w in pending.source_text.split()}
    others = {n.lower() for n in names} - {pending.agent.lower()}
    head = (pending.target.label.lower().split() or [""])[-1]
    alive = head in _ALIVE or bool(said & _ALIVE)
    return not (said & others) and not alive and not (plural and head.endswith("s"))


# Whom "he", "she" or "they" may mean in a draft: "the kids", "grandma's fence".
_ALIVE: Final = KIN | frozenset(
    {"aunt", "sister", "brother", "sis", "bro", "kids", "kid", "children", "child", "baby"}
    | {"babies", "neighbour", "neighbours", "neighbor", "neighbors", "friend", "friends"}
    | {"teacher", "landlord", "landlady", "boy", "girl", "man", "woman", "lady", "dog", "dogs"}
    | {"cat", "cats", "puppy", "kitten", "horse", "hens", "chickens", "goats", "sheep", "cows"}
    | {"pony", "wife", "husband", "son", "daughter", "cousin", "parents", "family", "guests"}
    | {"visitors", "tenant", "tenants", "he", "she", "they", "him", "her", "them", "his", "their"}
)


__all__ = ["said_to_them"]
