"""The corpus of the understanding benchmark (docs/understanding.md).

Household speech, each item with what it *means* — not what today's parser
happens to make of it. Three kinds:

- `command`: an order for a roster agent, with the objective it should become:
  agent, verb, the target's key noun, a deadline *rule* (relative to the day
  the benchmark runs, so it never goes stale), a priority band, the autonomy
  mode, whether it sets a boundary, and the place (if it names one);
- `other`: small talk and questions, which must not become a draft;
- `reply`: a spoken yes / no / cancel said while one draft is pending, with
  whether it should confirm or reject that draft.

The split into *dev* and *held-out* is deterministic (see `split_of`).
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Final, Literal

Kind = Literal["command", "other", "reply"]
Split = Literal["dev", "heldout"]
PriorityBand = Literal["urgent", "high", "normal", "low"]

ROSTER: Final = ("Abeni", "Kofi", "Zuri", "Tariq", "Imani")
VERBS: Final = ("Repair", "Map", "Investigate", "Protect", "Build", "Support", "Befriend", "Report")
WEEKDAYS: Final = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")

# Priority bands over the objective's 0-100 priority.
PRIORITY_BANDS: Final[dict[PriorityBand, tuple[int, int]]] = {
    "urgent": (85, 100),
    "high": (65, 84),
    "normal": (40, 64),
    "low": (0, 39),
}


@dataclass(frozen=True)
class Item:
    text: str
    kind: Kind
    agent: str | None = None
    verb: str | None = None
    target: str | None = None  # the key noun (last word) must be in the label
    deadline: str | None = None  # a rule for `resolve_deadline`; None: no deadline
    priority: PriorityBand = "normal"
    autonomy: str = "brief"
    boundary: bool = False
    location: str | None = None  # a word the location constraint must contain
    reply: Literal["confirm", "reject"] | None = None

    @property
    def key(self) -> str:
        return hashlib.sha256(self.text.encode()).hexdigest()[:12]


def _c(
    text: str,
    agent: str,
    verb: str,
    target: str,
    *,
    deadline: str | None = None,
    priority: PriorityBand = "normal",
    autonomy: str = "brief",
    boundary: bool = False,
    location: str | None = None,
) -> Item:
    return Item(
        text,
        "command",
        agent=agent,
        verb=verb,
        target=target,
        deadline=deadline,
        priority=priority,
        autonomy=autonomy,
        boundary=boundary,
        location=location,
    )


FREE: Final = "free"
ASK_FIRST: Final = "direct-tether"  # "check with me first": the tightest tether
ALWAYS: Final = "standing-intent"

# fmt: off
COMMANDS: Final[tuple[Item, ...]] = (
    # Repair
    _c("Ask Abeni to repair the garden gate by tomorrow, without lying to the visitors",
       "Abeni", "Repair", "garden gate", deadline="+1d", boundary=True),
    _c("Tell Kofi to fix the fence near the barn, no rush",
       "Kofi", "Repair", "fence", priority="low", location="barn"),
    _c("Zuri, please mend the lantern tonight", "Zuri", "Repair", "lantern", deadline="+0d"),
    _c("Could you have Tariq patch the roof by Friday",
       "Tariq", "Repair", "roof", deadline="weekday:fri"),
    _c("Get Imani to restore the old clock, use your judgment",
       "Imani", "Repair", "clock", autonomy=FREE),
    _c("Ask Abeni to fix the water pump urgently and don't touch the wiring",
       "Abeni", "Repair", "pump", priority="urgent", boundary=True),
    _c("Kofi, repair the chicken coop in three days", "Kofi", "Repair", "coop", deadline="+3d"),
    _c("Tell Zuri to fix the leaking tap in the kitchen, but check with me first",
       "Zuri", "Repair", "tap", autonomy=ASK_FIRST, location="kitchen"),
    _c("Ask Tariq to mend the fishing nets by the end of the week",
       "Tariq", "Repair", "nets", deadline="eow"),
    _c("Have Imani repair the bridge by December 24",
       "Imani", "Repair", "bridge", deadline="date:12-24"),
    # Map
    _c("Ask Zuri to map the grove path and report blockers", "Zuri", "Map", "path"),
    _c("Tell Abeni to chart the river by tomorrow", "Abeni", "Map", "river", deadline="+1d"),
    _c("Kofi, please survey the north meadow, no rush",
       "Kofi", "Map", "meadow", priority="low"),
    _c("Could you have Imani explore the old cave without going in alone",
       "Imani", "Map", "cave", boundary=True),
    _c("Get Tariq to scout the ridge tonight, carefully",
       "Tariq", "Map", "ridge", deadline="+0d"),
    _c("Ask Zuri to map the orchard by Wednesday",
       "Zuri", "Map", "orchard", deadline="weekday:wed"),
    _c("Tell Imani to survey the hills in two days, use your judgment",
       "Imani", "Map", "hills", deadline="+2d", autonomy=FREE),
    _c("Abeni, map the stream behind the mill urgently",
       "Abeni", "Map", "stream", priority="urgent", location="mill"),
    _c("Ask Kofi to chart the coast by the end of the week",
       "Kofi", "Map", "coast", deadline="eow"),
    _c("Have Tariq explore the forest trail, check with me first",
       "Tariq", "Map", "trail", autonomy=ASK_FIRST),
    # Investigate
    _c("Have Tariq investigate the noise in the barn",
       "Tariq", "Investigate", "noise", location="barn"),
    _c("Ask Imani to look into the broken window by tomorrow",
       "Imani", "Investigate", "window", deadline="+1d"),
    _c("Tell Kofi to inspect the well today", "Kofi", "Investigate", "well", deadline="+0d"),
    _c("Zuri, please check on the beehives urgently",
       "Zuri", "Investigate", "beehives", priority="urgent"),
    _c("Could you have Abeni examine the cracked wall, no rush",
       "Abeni", "Investigate", "wall", priority="low"),
    _c("Get Imani to look at the smoke near the barn without snooping in anyone's room",
       "Imani", "Investigate", "smoke", boundary=True, location="barn"),
    _c("Ask Tariq to investigate the missing tools by Saturday",
       "Tariq", "Investigate", "tools", deadline="weekday:sat"),
    _c("Tell Kofi to look into the flickering lights, use your judgment",
       "Kofi", "Investigate", "lights", autonomy=FREE),
    _c("Abeni, inspect the storeroom by December 31",
       "Abeni", "Investigate", "storeroom", deadline="date:12-31"),
    _c("Ask Zuri to examine the old boat in four days, don't touch the engine",
       "Zuri", "Investigate", "boat", deadline="+4d", boundary=True),
    # Protect
    _c("Tell Tariq to guard the village tonight", "Tariq", "Protect", "village", deadline="+0d"),
    _c("Ask Zuri to protect the grove path without hurting anyone",
       "Zuri", "Protect", "path", boundary=True),
    _c("Kofi, please watch over the children at the pond",
       "Kofi", "Protect", "children", location="pond"),
    _c("Could you have Abeni defend the granary, urgently",
       "Abeni", "Protect", "granary", priority="urgent"),
    _c("Get Imani to guard the orchard every night",
       "Imani", "Protect", "orchard", autonomy=ALWAYS),
    _c("Ask Tariq to protect the sheep in the north field by Thursday",
       "Tariq", "Protect", "sheep", deadline="weekday:thu", location="field"),
    _c("Tell Abeni to watch the gate tomorrow, use your judgment",
       "Abeni", "Protect", "gate", deadline="+1d", autonomy=FREE),
    _c("Imani, shield the seedlings from the frost, no rush",
       "Imani", "Protect", "seedlings", priority="low"),
    _c("Ask Kofi to guard the workshop tonight and don't lock anyone out",
       "Kofi", "Protect", "workshop", deadline="+0d", boundary=True),
    _c("Have Zuri protect the beehives, check with me first",
       "Zuri", "Protect", "beehives", autonomy=ASK_FIRST),
    # Build
    _c("Tell Kofi to build a wooden bench near the pond by tomorrow",
       "Kofi", "Build", "bench", deadline="+1d", location="pond"),
    _c("Ask Abeni to make a new table for the kitchen", "Abeni", "Build", "table"),
    _c("Zuri, please build a shelter behind the shed by Friday",
       "Zuri", "Build", "shelter", deadline="weekday:fri", location="shed"),
    _c("Could you have Tariq put up a fence around the garden, urgently",
       "Tariq", "Build", "fence", priority="urgent", location="garden"),
    _c("Get Imani to craft a birdhouse, use your judgment",
       "Imani", "Build", "birdhouse", autonomy=FREE),
    _c("Ask Kofi to construct a footbridge over the stream in three days",
       "Kofi", "Build", "footbridge", deadline="+3d"),
    _c("Tell Tariq to assemble the new shelves without damaging the wall",
       "Tariq", "Build", "shelves", boundary=True),
    _c("Abeni, build a chicken coop by the end of the week, no rush",
       "Abeni", "Build", "coop", deadline="eow", priority="low"),
    _c("Ask Imani to make a swing for the children by December 24",
       "Imani", "Build", "swing", deadline="date:12-24"),
    _c("Have Zuri build a compost bin, check with me first",
       "Zuri", "Build", "bin", autonomy=ASK_FIRST),
    # Support
    _c("Have Imani help with the harvest", "Imani", "Support", "harvest"),
    _c("Ask Abeni to comfort the children without lying to them",
       "Abeni", "Support", "children", boundary=True),
    _c("Tell Kofi to assist the teacher tomorrow", "Kofi", "Support", "teacher", deadline="+1d"),
    _c("Zuri, please support the baker today, no rush",
       "Zuri", "Support", "baker", deadline="+0d", priority="low"),
    _c("Could you have Tariq help the fishermen at the dock by Saturday",
       "Tariq", "Support", "fishermen", deadline="weekday:sat", location="dock"),
    _c("Get Imani to assist the midwife urgently",
       "Imani", "Support", "midwife", priority="urgent"),
    _c("Ask Kofi to help the farmers, use your judgment",
       "Kofi", "Support", "farmers", autonomy=FREE),
    _c("Tell Zuri to support the elders every day", "Zuri", "Support", "elders", autonomy=ALWAYS),
    _c("Abeni, help the nurse in two days, but check with me first",
       "Abeni", "Support", "nurse", deadline="+2d", autonomy=ASK_FIRST),
    _c("Ask Tariq to comfort the lost child without scaring him",
       "Tariq", "Support", "child", boundary=True),
    # Befriend
    _c("Ask Abeni to make friends with the new neighbors", "Abeni", "Befriend", "neighbors"),
    _c("Tell Zuri to befriend the fox beside the river",
       "Zuri", "Befriend", "fox", location="river"),
    _c("Kofi, please visit the miller tomorrow", "Kofi", "Befriend", "miller", deadline="+1d"),
    _c("Could you have Imani get to know the new teacher, no rush",
       "Imani", "Befriend", "teacher", priority="low"),
    _c("Get Tariq to say hello to the visitors at the inn",
       "Tariq", "Befriend", "visitors", location="inn"),
    _c("Ask Zuri to visit the old fisherman by Sunday without lying to him",
       "Zuri", "Befriend", "fisherman", deadline="weekday:sun", boundary=True),
    _c("Tell Kofi to befriend the shepherd, use your judgment",
       "Kofi", "Befriend", "shepherd", autonomy=FREE),
    _c("Abeni, visit the weaver in three days", "Abeni", "Befriend", "weaver", deadline="+3d"),
    _c("Ask Imani to make friends with the baker urgently",
       "Imani", "Befriend", "baker", priority="urgent"),
    _c("Have Tariq visit the blacksmith by the end of the week, check with me first",
       "Tariq", "Befriend", "blacksmith", deadline="eow", autonomy=ASK_FIRST),
    # Report
    _c("Zuri, update me on the harvest", "Zuri", "Report", "harvest"),
    _c("Ask Kofi to report on the water level by tomorrow",
       "Kofi", "Report", "level", deadline="+1d"),
    _c("Tell Abeni to report on the storm damage tonight",
       "Abeni", "Report", "damage", deadline="+0d"),
    _c("Could you have Tariq report on the patrol urgently",
       "Tariq", "Report", "patrol", priority="urgent"),
    _c("Get Imani to tell me about the new lambs, no rush",
       "Imani", "Report", "lambs", priority="low"),
    _c("Ask Zuri to let me know about the bridge repairs by Friday",
       "Zuri", "Report", "repairs", deadline="weekday:fri"),
    _c("Tell Kofi to update me on the beehives every day",
       "Kofi", "Report", "beehives", autonomy=ALWAYS),
    _c("Abeni, report on the supplies in the cellar by December 24",
       "Abeni", "Report", "supplies", deadline="date:12-24", location="cellar"),
    _c("Ask Imani to report on the school without naming the children",
       "Imani", "Report", "school", boundary=True),
    _c("Have Tariq report on the night watch in two days, use your judgment",
       "Tariq", "Report", "watch", deadline="+2d", autonomy=FREE),
)
# fmt: on

OTHERS: Final[tuple[Item, ...]] = tuple(
    Item(text, "other")
    for text in (
        "Good morning everyone",
        "What time is it",
        "How are you today",
        "Thank you so much",
        "Is it going to rain tomorrow",
        "What did Kofi do yesterday",
        "I had a lovely walk this morning",
        "Where is Abeni right now",
        "The soup is delicious",
        "Who is awake",
    )
)

REPLIES: Final[tuple[Item, ...]] = tuple(
    Item(text, "reply", reply="confirm")
    for text in ("yes", "yes please", "confirm", "go ahead", "okay, do it", "sure", "sounds good")
) + tuple(
    Item(text, "reply", reply="reject")
    for text in (
        "no",
        "cancel that",
        "scrap that",
        "never mind",
        "no thanks",
        "forget it",
        "cancel",
    )
)

CORPUS: Final[tuple[Item, ...]] = COMMANDS + OTHERS + REPLIES

# Short replies for the dev half only, outside the split. The split gave dev
# only replies of two words or more, and held-out's one-word replies showed
# that tiny.en hears those worst (docs/understanding.md): these let the reply
# decision be tuned on one-word replies without moving a single held-out item
# (adding to CORPUS would re-deal the reply groups). None is a held-out text.
DEV_REPLIES: Final[tuple[Item, ...]] = tuple(
    Item(text, "reply", reply="confirm")
    for text in ("yep", "okay", "correct", "do it", "yeah", "approved")
) + tuple(
    Item(text, "reply", reply="reject")
    for text in ("nope", "stop", "don't", "reject", "nah", "stop that")
)

# The command a reply item is said after: a harmless draft nobody refuses.
REPLY_SETUP: Final = "ask Kofi to build a bench"


# Statements about the household, for the dev half only, outside the split
# as `DEV_REPLIES`: a past or habitual verb ("fixed", "helped", "maps") must
# not make a draft. A review found such sentences drafted by a rule that was
# then taken out; the corpus's own non-commands held none of them.
DEV_OTHERS: Final[tuple[Item, ...]] = tuple(
    Item(text, "other")
    for text in (
        "Kofi fixed the fence yesterday",
        "Zuri helped me with the bags",
        "Who repaired the gate",
        "The maps are in the drawer",
        "Tariq builds the best tables",
        "Has Imani visited the market",
    )
)


# Commands for the dev half only, outside the split as `DEV_OTHERS`: written
# on 2026-12-05 in the household's style with other words ("mend", "scout",
# "chart", "assemble", "say hello to") and never the held-out half's texts.
# Dev's own 40 commands turned out easier than held-out's (5 clarified of 200
# spoken, held-out 17): on these, tiny.en's espeak errors look like
# held-out's (no-verb clarifies 12 of 176), so a rule tuned here is tuned on
# the kind of audio it must fix. American spelling, as Whisper writes.
# fmt: off
DEV_COMMANDS: Final[tuple[Item, ...]] = (
    _c("Ask Kofi to fix the squeaky door by Thursday",
       "Kofi", "Repair", "door", deadline="weekday:thu"),
    _c("Imani, patch up the tent by Sunday", "Imani", "Repair", "tent", deadline="weekday:sun"),
    _c("Tell Tariq to mend the torn sail tomorrow", "Tariq", "Repair", "sail", deadline="+1d"),
    _c("Have Zuri repair the broken ladder urgently",
       "Zuri", "Repair", "ladder", priority="urgent"),
    _c("Abeni, restore the faded mural, no rush", "Abeni", "Repair", "mural", priority="low"),
    _c("Get Kofi to fix the leaking roof in two days", "Kofi", "Repair", "roof", deadline="+2d"),
    _c("Could you ask Imani to repair the wheelbarrow", "Imani", "Repair", "wheelbarrow"),
    _c("Ask Tariq to map the east forest by Monday",
       "Tariq", "Map", "forest", deadline="weekday:mon"),
    _c("Kofi, chart the coastline tomorrow", "Kofi", "Map", "coastline", deadline="+1d"),
    _c("Tell Imani to survey the valley, use your judgment",
       "Imani", "Map", "valley", autonomy=FREE),
    _c("Have Abeni scout the hills this afternoon", "Abeni", "Map", "hills", deadline="+0d"),
    _c("Zuri, explore the abandoned mill, but check with me first",
       "Zuri", "Map", "mill", autonomy=ASK_FIRST),
    _c("Ask Imani to look into the strange noise in the attic",
       "Imani", "Investigate", "noise", location="attic"),
    _c("Tariq, inspect the boat by tomorrow", "Tariq", "Investigate", "boat", deadline="+1d"),
    _c("Tell Abeni to check the water tank urgently",
       "Abeni", "Investigate", "tank", priority="urgent"),
    _c("Have Zuri examine the sick goat today", "Zuri", "Investigate", "goat", deadline="+0d"),
    _c("Get Tariq to investigate the broken window by Friday",
       "Tariq", "Investigate", "window", deadline="weekday:fri"),
    _c("Could you have Kofi look at the generator, no rush",
       "Kofi", "Investigate", "generator", priority="low"),
    _c("Ask Zuri to guard the gate tonight", "Zuri", "Protect", "gate", deadline="+0d"),
    _c("Imani, watch over the children this afternoon",
       "Imani", "Protect", "children", deadline="+0d"),
    _c("Have Tariq defend the storehouse, but don't hurt anyone",
       "Tariq", "Protect", "storehouse", boundary=True),
    _c("Abeni, keep an eye on the goats, no rush", "Abeni", "Protect", "goats", priority="low"),
    _c("Tell Kofi to protect the seedlings from the frost", "Kofi", "Protect", "seedlings"),
    _c("Ask Tariq to build a shed by the end of the week",
       "Tariq", "Build", "shed", deadline="eow"),
    _c("Kofi, make a new bench tomorrow", "Kofi", "Build", "bench", deadline="+1d"),
    _c("Tell Imani to construct a fence around the garden in five days",
       "Imani", "Build", "fence", deadline="+5d"),
    _c("Have Abeni craft a wooden box, use your judgment", "Abeni", "Build", "box", autonomy=FREE),
    _c("Zuri, put up a shelter near the river", "Zuri", "Build", "shelter", location="river"),
    _c("Get Kofi to assemble the new table urgently", "Kofi", "Build", "table", priority="urgent"),
    _c("Ask Imani to help the neighbors with the move", "Imani", "Support", "neighbors"),
    _c("Tariq, assist the cook tonight", "Tariq", "Support", "cook", deadline="+0d"),
    _c("Have Zuri comfort the sick child", "Zuri", "Support", "child"),
    _c("Get Abeni to take care of the baby goats, no rush",
       "Abeni", "Support", "goats", priority="low"),
    _c("Kofi, support the new farmer by Saturday",
       "Kofi", "Support", "farmer", deadline="weekday:sat"),
    _c("Ask Kofi to befriend the new neighbors", "Kofi", "Befriend", "neighbors"),
    _c("Zuri, visit the old miller by Sunday",
       "Zuri", "Befriend", "miller", deadline="weekday:sun"),
    _c("Tell Tariq to make friends with the shepherd", "Tariq", "Befriend", "shepherd"),
    _c("Have Abeni say hello to the new teacher tomorrow",
       "Abeni", "Befriend", "teacher", deadline="+1d"),
    _c("Imani, get to know the blacksmith, use your judgment",
       "Imani", "Befriend", "blacksmith", autonomy=FREE),
    _c("Ask Abeni to report on the harvest by Friday",
       "Abeni", "Report", "harvest", deadline="weekday:fri"),
    _c("Tariq, update me on the well tonight", "Tariq", "Report", "well", deadline="+0d"),
    _c("Kofi, let me know about the broken cart", "Kofi", "Report", "cart"),
    _c("Tell Zuri to report on the river level urgently",
       "Zuri", "Report", "level", priority="urgent"),
    _c("Get Imani to tell me about the new calves", "Imani", "Report", "calves"),
)
# fmt: on


def _stratum(item: Item) -> str:
    if item.kind == "command":
        return f"command:{item.verb}"
    if item.kind == "reply":
        return f"reply:{item.reply}"
    return "other"


def splits(corpus: tuple[Item, ...] = CORPUS) -> dict[str, Split]:
    """text → split. Deterministic and balanced.

    Items are grouped by stratum (the verb of a command, confirm/reject of a
    reply, non-commands together); in each group they are ordered by
    (agent, sha256 of the text) and dealt alternately to dev and held-out,
    starting with dev. So every verb is split 5/5, every name within ±1 per
    verb, and the result depends only on the texts (not on file order).
    """
    groups: dict[str, list[Item]] = defaultdict(list)
    for item in corpus:
        groups[_stratum(item)].append(item)
    out: dict[str, Split] = {}
    for stratum in sorted(groups):
        ordered = sorted(groups[stratum], key=lambda it: (it.agent or "", it.key))
        for n, item in enumerate(ordered):
            out[item.text] = "dev" if n % 2 == 0 else "heldout"
    return out


def split_items(split: str, corpus: tuple[Item, ...] = CORPUS) -> list[Item]:
    """The items of one split ("dev", "heldout", or "both"), in corpus order;
    dev (and both) end with `DEV_COMMANDS`, `DEV_OTHERS` and `DEV_REPLIES`
    when `corpus` is the corpus."""
    of = splits(corpus)
    items = [it for it in corpus if split == "both" or of[it.text] == split]
    if split in ("dev", "both") and corpus == CORPUS:
        items += DEV_COMMANDS + DEV_OTHERS + DEV_REPLIES
    return items


def resolve_deadline(rule: str | None, today: date) -> date | None:
    """The date a deadline rule means on `today`.

    `+Nd` N days on; `weekday:fri` the next Friday after today (a week on
    when today is Friday: "by Friday" said on a Friday means the next one);
    `eow` the end of this week, the coming Sunday (today on a Sunday), as the
    parser's "this week"; `date:MM-DD` that date this year, or next year
    once it has passed.
    """
    if rule is None:
        return None
    if rule.startswith("+") and rule.endswith("d"):
        return today + timedelta(days=int(rule[1:-1]))
    if rule.startswith("weekday:"):
        wanted = WEEKDAYS.index(rule.removeprefix("weekday:"))
        ahead = (wanted - today.weekday()) % 7 or 7
        return today + timedelta(days=ahead)
    if rule == "eow":
        return today + timedelta(days=(6 - today.weekday()) % 7)
    if rule.startswith("date:"):
        month, day = (int(p) for p in rule.removeprefix("date:").split("-"))
        this_year = date(today.year, month, day)
        return this_year if this_year >= today else date(today.year + 1, month, day)
    raise ValueError(f"unknown deadline rule {rule!r}")
