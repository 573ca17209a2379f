"""Plain spoken English for objectives: the steward's read-back and the
agent's replies share these phrasings, so both say the same thing the same
way. Output is plain text only (no markdown): it is read aloud."""

from __future__ import annotations

import datetime as dt
import re
from typing import Final

import msgspec

from vac.protocol.objective import ForbiddenLine, Objective

VERB_SPOKEN: Final = {
    "Repair": "repair",
    "Map": "map",
    "Investigate": "look into",
    "Protect": "protect",
    "Build": "build",
    "Support": "support",
    "Befriend": "befriend",
    "Report": "report on",
}
PACE_SPOKEN: Final = {
    "gentle": "gently",
    "careful": "carefully",
    "slow": "slowly",
    "rest first": "after a rest",
}
_WEEKDAYS: Final = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_MONTHS: Final = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


def target_spoken(objective: Objective) -> str:
    """ "the garden gate" for a thing, the bare name for an agent."""
    label = objective.target.label
    if objective.target.kind == "agent":
        return label
    return "the " + label[:1].lower() + label[1:]


def deadline_date(deadline: str | None) -> dt.date | None:
    return None if deadline is None else dt.date.fromisoformat(deadline[:10])


def deadline_passed_at(deadline: str | None, now: dt.datetime) -> bool:
    """Whether `deadline` has passed at `now`: a date when its day is over, an
    RFC 3339 date-time (§5.1 allows both) at that moment."""
    if deadline is None:
        return False
    if "T" in deadline and now.tzinfo is not None:
        try:
            at = dt.datetime.fromisoformat(deadline)
        except ValueError:
            at = None
        if at is not None and at.tzinfo is not None:  # the schema requires an offset
            return now > at
    return now.date() > deadline_date(deadline)  # type: ignore[operator]


def when_spoken(deadline: str | None, now: dt.datetime) -> str:
    """ "today", "by tomorrow", "by Sunday 3 May" relative to `now`; "" if none."""
    day = deadline_date(deadline)
    if day is None:
        return ""
    delta = (day - now.date()).days
    if delta == 0:
        return "today"
    if delta == 1:
        return "by tomorrow"
    return f"by {_WEEKDAYS[day.weekday()]} {day.day} {_MONTHS[day.month - 1]}"


def is_default_line(line: ForbiddenLine) -> bool:
    # The default line protects the agent; it is not a promise to read back.
    return line.value_ref.startswith("forbidden-line:")


_CAPITAL_ARTICLES: Final = frozenset({"The", "A", "An", "My", "Our", "Your"})


def boundary_spoken(line: ForbiddenLine) -> str:
    """ "Do not lie to visitors" → "won't lie to visitors" (third or first person)."""
    if line.text.startswith("Do not "):
        return "won't " + line.text[len("Do not ") :]
    if line.text.startswith("No "):  # "No power tools": "with no power tools"
        return "with no " + line.text[len("No ") :]
    if line.text.startswith("Not "):  # "Not in the rain": "but not in the rain"
        return "but not " + line.text[len("Not ") :]
    if line.text.startswith(("Nothing ", "Nobody ")):  # "but nobody in the deep end"
        return "but " + line.text[:1].lower() + line.text[1:]
    return "will " + line.text[:1].lower() + line.text[1:]


_HOW_FREE: Final = {"direct-tether": "checking with you first", "free": "as they see fit"}


class Wording(msgspec.Struct, frozen=True):
    """The steward's own words for the thing and the time ("a wooden bench",
    "by 3 pm tomorrow"), kept with the draft so that it is said the same way
    again (after a change, or restated with a question), with what they
    were said for: they are only used while the draft still says that."""

    label: str  # the target's label the phrase names
    phrase: str | None
    deadline: str | None  # the deadline `when` says
    when: str | None
    said_on: str  # the ISO date they were said on: "tomorrow" holds that day only


def wording_of(
    objective: Objective, phrase: str | None, when: str | None, now: dt.datetime
) -> Wording:
    return Wording(objective.target.label, phrase, objective.deadline, when, now.date().isoformat())


def kept_wording(objective: Objective, now: dt.datetime, *said: Wording | None) -> Wording:
    """The words that still hold for `objective`: the first of `said` that
    names its thing, and the first that names its time (said today: a
    "tomorrow" is not said again the day after)."""
    today = now.date().isoformat()
    words = [w for w in said if w is not None]
    phrase = next((w.phrase for w in words if w.label == objective.target.label), None)
    # The time said last that still holds: a change's own ("every Sunday"
    # said to a draft with no time: a typed probe found it dropped from the
    # read-back), else the draft's.
    when = next(
        (
            w.when
            for w in reversed(words)
            if w.when and w.deadline == objective.deadline and w.said_on == today and _holds(w.when)
        ),
        None,
    )
    return Wording(objective.target.label, phrase, objective.deadline, when, today)


def _holds(when: str | None) -> bool:
    """Whether a time said once may be said again later: not one counted from
    when it was said ("in two hours", "within the hour")."""
    return when is None or not when.lower().startswith(("in ", "within "))


def restate(
    objective: Objective, wording: Wording | None, *, now: dt.datetime, note: str | None = None
) -> str:
    """`summarise` in the steward's own words where they still hold: a draft
    changed by "make it urgent" is still "by 3 pm tomorrow", not "by tomorrow"."""
    kept = kept_wording(objective, now, wording)
    return summarise(objective, now=now, phrase=kept.phrase, when=kept.when, note=note)


def summarise(
    objective: Objective,
    *,
    now: dt.datetime,
    phrase: str | None = None,
    when: str | None = None,
    note: str | None = None,
) -> str:
    """The sentence read back to the steward before anything binds:
    "Kofi will build a wooden bench near the pond by tomorrow — confirm?".

    `phrase` and `when` let the parser keep the steward's own wording ("a
    wooden bench", "tonight"); `note` is appended in parentheses (what was
    heard, or that no agent was named)."""
    always = " always" if objective.autonomy == "standing-intent" else ""
    target = phrase or target_spoken(objective)
    if target.split(" ", 1)[0] in _CAPITAL_ARTICLES:  # "The bathroom lock." said as a change
        target = target[:1].lower() + target[1:]
    parts = [f"{objective.agent} will{always} {VERB_SPOKEN[objective.verb]} {target}"]
    location = next((c.value for c in objective.constraints if c.kind == "location"), None)
    if location:
        parts.append(f" {location}")
    when = when if when is not None else when_spoken(objective.deadline, now)
    if when:
        parts.append(f" {when}")
    for condition in (c.value for c in objective.constraints if c.kind == "custom"):
        parts.append(f", {of_the_agent(condition)}")  # "…, unless it snows"; each one (amend)
    if objective.autonomy in _HOW_FREE:  # the steward checks the hand given too
        parts.append(f", {_HOW_FREE[objective.autonomy]}")
    pace = next((c.value for c in objective.constraints if c.kind == "pace"), None)
    if pace:
        parts.append(f", {PACE_SPOKEN.get(pace, pace)}")
    for line in objective.forbidden_lines:
        if not is_default_line(line):
            said = boundary_spoken(line)
            parts.append(f", {said}" if said.startswith(("with ", "but ")) else f", and {said}")
    if objective.priority >= 90:
        parts.insert(0, "Urgent: ")
    elif objective.priority >= 65:  # "soon", "high priority": heard, not only "urgent"
        parts.append(", as a priority")
    elif objective.priority < 40:  # said, so a change to it is heard ("no rush" said after)
        parts.append(", no rush")
    sentence = "".join(parts) + " — confirm?"
    return f"{sentence} ({note})" if note else sentence


# Said to the agent, read back to the steward: the agent's "you" is "they"
# ("when you get back": an eighth typed probe; after a verb "them": "if
# Abeni asks you to", a review), the speaker's "I" / "we" is "you" ("if I'm
# not back by ten"); "thank you" stays.
_SPOKEN_TO: Final = {
    "you": "they", "you're": "they're", "you've": "they've", "you'll": "they'll",
    "you'd": "they'd", "your": "their", "yours": "theirs", "yourself": "themselves",
    "i": "you", "i'm": "you're", "i've": "you've", "i'll": "you'll", "i'd": "you'd",
    "im": "you're", "ive": "you've",  # typed without the apostrophe
    "me": "you", "my": "your", "myself": "yourself", "i am": "you are", "i was": "you were",
    "we": "you", "we're": "you're", "we've": "you've", "we'll": "you'll", "we'd": "you'd",
    "us": "you", "our": "your", "ours": "yours", "ourselves": "yourselves",
}  # fmt: skip
_PERSON_WORDS: Final = re.compile(
    r"(?<![\w'])(?:"
    + "|".join(sorted(map(re.escape, _SPOKEN_TO), key=len, reverse=True))
    + r")(?![\w'])",
    re.I,
)
# After an object "you": the end, a break, "to", "otherwise"… ("asks you to").
_AS_OBJECT: Final = re.compile(r"(?:$|[,.;!?]|(?:to|otherwise|again|back|up|out|in|for|first)\b)")
# Before a subject "you": a condition's cue or a break.
_SUBJECT_BEFORE: Final = re.compile(
    r"(?:^|[,;]|\b(?:if|when|once|unless|until|till|after|before|as|and|but|that|while|"
    r"whenever|provided|soon|long|case|assuming|because|or))\s*$",
    re.I,
)


def of_the_agent(condition: str) -> str:
    """A condition as the steward hears it: the agent's "you" is "they", the
    speaker's "I" / "we" is "you"."""

    def said(m: re.Match[str]) -> str:
        word, before = m.group(0).lower(), condition[: m.start()]
        after = condition[m.end() :].lstrip().lower()
        if (m.group(0).isupper() and len(word) > 1) or re.search(r"\bthank\s*$", before, re.I):
            return m.group(0)  # "the US parts", "…says thank you"
        if word == "you" and not _SUBJECT_BEFORE.search(before) and _AS_OBJECT.match(after):
            return "them"  # "if Abeni asks you to"; not "if Zuri thinks you should"
        return _SPOKEN_TO[word]

    return _PERSON_WORDS.sub(said, condition)
