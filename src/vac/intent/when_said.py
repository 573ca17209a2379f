"""Times as people say them around the matchers (`when.resolve` reads these):

- a day said as fine: "tomorrow's fine", "Friday's OK" (the day, not
  "tomorrow's weather");
- a clock time with its day after it: "at 3 pm on Friday", "by noon
  Saturday", "at 10 am on the 12th" (that day, not today);
- "after" an event or a clause ("after the match", "after you get back"):
  when to start, which no word places, so it is asked about; "after work"
  and "after school" are today, as "after lunch" is;
- "around" / "at about" before a time ("around noon", "at about 4"): the
  time; before a holiday or season ("around Easter"): asked about.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Protocol

from vac.intent import calendar_words as cw
from vac.intent.lexicon import DETERMINERS, PUNCT, Tok, words
from vac.intent.numbers import number_at
from vac.intent.when_match import FINE, Hit, word_at

# "tomorrow's fine": the day, said as good enough.
_DAY_WORDS: Final = frozenset({*words("today tonight tomorrow weekend noon"), *cw.DAY_NAMES})


def said_as_fine(clause: Sequence[Tok]) -> list[Tok]:
    """The clause with "tomorrow's fine" read as "tomorrow is fine" (the
    token's own words; its offsets stay). "tomorrow's weather" stays."""
    out = list(clause)
    for k, tok in enumerate(clause):
        day = tok.low.removesuffix("'s")
        if day != tok.low and day in _DAY_WORDS and word_at(clause, k + 1) in FINE:
            out[k] = tok._replace(low=day)
    return out


def with_its_day(time_phrase: str, day: Hit) -> Hit:
    """A clock time and the day said right after it ("at 3 pm | on Friday"):
    that day, read back with the time ("at 3 pm on Friday")."""
    time_phrase = time_phrase.removesuffix(" tomorrow")  # a time past today: that day's
    said = day.phrase.removeprefix("by ").removeprefix("on ")
    on = "" if said.startswith("tomorrow") else "on "  # "at 3 o'clock tomorrow"
    return Hit(day.day, f"{time_phrase} {on}{said}", day.end)


# Said between a clock time and its day: "at 3 or 4 tomorrow", "by 6 or so
# on Friday", "by 6 at the latest tomorrow", "at 3, please, tomorrow".
_BETWEEN: Final = (("or", "so"), ("at", "the", "latest"), ("at", "latest"), (",",), ("please",))


def _alternates_end(clause: Sequence[Tok], k: int) -> int:
    """Past what may stand between a clock time and its day: another hour
    ("or 4", "or 4 pm"), "or so", "at the latest", a comma, "please"."""
    while k < len(clause):
        said = next(
            (w for w in _BETWEEN if all(word_at(clause, k + n) == x for n, x in enumerate(w))),
            None,
        )
        if said is not None:
            k += len(said)
        elif word_at(clause, k) in ("or", "and") and (
            (hour := number_at(clause, k + 1)) is not None or word_at(clause, k + 1)[:1].isdigit()
        ):
            k = hour.end if hour is not None else k + 2  # "or 4", "or four", "or 4pm"
            k += word_at(clause, k) in ("am", "pm", "o'clock")
        else:
            return k
    return k


def day_starts(clause: Sequence[Tok], k: int) -> int | None:
    """Where a day said after a clock time starts (past "on": "at 3 pm on
    Friday"; past another hour: "at 3 or 4 tomorrow"), or None when no day
    can start there."""
    k = _alternates_end(clause, k)
    low = word_at(clause, k)
    if low == "on":
        return k + 1
    # A weekday written short too: "by 5 pm fri" was today's 5 pm (a typed probe).
    days = (*cw.DAY_NAMES, *cw.MONTHS, "the", "this", "next", "tomorrow")
    return k if low in days or low[:1].isdigit() else None


def day_is_the_hours(clause: Sequence[Tok], time_end: int, day_at: int, day_end: int) -> bool:
    """Whether the day at `day_at` is said of the clock time ending at
    `time_end`: past a comma only when nothing but "please" follows it in its
    part ("by 6, tomorrow"; not "at 3, tomorrow check the hives": its day)."""
    if "," not in (word_at(clause, k) for k in range(time_end, day_at)):
        return True
    after = word_at(clause, day_end)
    return after in ("", "please") or after in PUNCT


# "after work", "after school": today, like "after lunch".
AFTER_TODAY: Final = frozenset(words("work school tea teatime suppertime"))
# Events whose day no word says: "after the match" is asked about.
_EVENTS: Final = frozenset(
    words(
        """match game party meeting service wedding funeral show concert film movie trip
        holiday holidays visit rain storm guests practice training shift appointment class
        lesson lessons church market fair race ceremony rehearsal exam exams test festival
        harvest celebration dance recital football"""
    )
)
_OWNERS: Final = frozenset(words("the a my our your his her their this that next"))
# A clause said after "after": "after you get back", "after we've eaten".
_SUBJECTS: Final = frozenset(
    words("""you we i they he she you're we're i'm they're he's she's you've we've i've
    they've everyone everybody""")
)


# Before "after", these make it no time: "clean up after the party" (its
# mess), "named after", "run after the dog"; "look after" is a verb of ours.
_NOT_WHEN_AFTER: Final = frozenset(
    words("up clean tidy sweep mop pick look looking run running go chase named take takes")
)


def after_what(clause: Sequence[Tok], j: int) -> int | None:
    """Where the words of "after <an event or a clause>" end when they say
    when to start (`j` is the word after "after"), else None."""
    if word_at(clause, j - 2) in _NOT_WHEN_AFTER:
        return None
    k = j
    while word_at(clause, k) in _OWNERS:
        k += 1
    low = word_at(clause, k)
    event = k > j and low in _EVENTS  # "after the match", not "after rain" (a noun said alone)
    clause_said = k == j and low in _SUBJECTS and word_at(clause, k + 1) not in ("", *PUNCT)
    if not (event or clause_said):
        return None
    end = k + 1
    while end < len(clause) and end - j < 6 and clause[end].low not in PUNCT:
        if clause[end].low in ("and", "but", "so", "then", "please"):
            break
        end += 1
    return end


# Said in the past, before "at" or a day: "went off at 5", "broke at 6",
# "the bike the kids got on Tuesday" (a typed probe: each was the
# deadline). Not the order's own verbs.
_HAPPENED: Final = frozenset(
    words(
        "went came rang broke fell began woke ran stopped started swarmed happened "
        "arrived beeped died failed cracked burst leaked flooded yesterday got bought found lost "
        "stuck frozen heard saw slammed"
    )
)


# Before a past word, these make it describe the thing: "the cracked window
# tomorrow", "the stuck gate on Friday" (a review: each lost its deadline).
_THING_OWNERS: Final = DETERMINERS - {"that"}  # "the door that slammed" is a clause
# After a past deed and before "at": "went off at 5", "woke up at 6".
# "I was thinking / hoping on Friday you could…": that day is the order's.
_PLANNING: Final = frozenset(words("thinking hoping wondering planning"))
_DEED_PARTICLES: Final = frozenset(words("off up down out over in on away back"))


def it_happened(clause: Sequence[Tok], at: int) -> bool:
    """A past deed (or "yesterday") right before "at" or a day, or before its
    particle ("went off at 5"); not a past word that describes a thing."""
    before = word_at(clause, at - 1)
    if _it_happens(clause, at):
        return True  # "the tap that always drips at night": when it drips, not when due
    if before in _HAPPENED and word_at(clause, at - 2) not in _THING_OWNERS:
        return True  # "the kids got on Tuesday", "stuck at 3"
    was = word_at(clause, at - 2) in ("was", "were")
    if before.endswith("ing") and was and before not in _PLANNING:
        return True  # "it was banging at midnight", "the tap was leaking on Tuesday" (probes)
    if before in ("back", "here", "there") and was:
        return True  # "the foxes were back on Monday" (a typed probe: due Monday)
    deed = word_at(clause, at - 2)
    return (
        deed in _HAPPENED
        and before in _DEED_PARTICLES
        and word_at(clause, at - 3) not in _THING_OWNERS
    )


# Between "that" and a verb that says what the thing does, as a habit.
_HABIT: Final = frozenset(words("always usually often sometimes still only never ever just"))


def _it_happens(clause: Sequence[Tok], at: int) -> bool:
    """A clause that says what the thing does, right before "at" or a day:
    "the tap that always drips at night", "the dog that barks in the
    morning", "the light that comes on at 6" (a typed probe: due tonight)."""
    if word_at(clause, at) not in ("at", "in"):
        return False  # "check the gate that sticks on Friday": check it on Friday
    k = at - 1 - (word_at(clause, at - 1) in _DEED_PARTICLES)
    verb = word_at(clause, k)
    if len(verb) < 4 or not verb.endswith("s") or verb.endswith(("ss", "'s", "us")):
        return False
    k -= 1 + (word_at(clause, k - 1) in _HABIT)
    return word_at(clause, k) in ("that", "which", "who")


# Before a day, these say it is not the one ("any day but Tuesday", "other
# than Friday") or the earliest one ("no earlier than Friday"); after it, "at
# the earliest" does. A typed probe (2026-12-06): each was the deadline.
# Before an order to wait: "…, but wait until Friday", "wait until Friday, then…";
# not "it can / won't / will have to wait until Friday", "I'll wait…" (a review).
_TOLD_TO_WAIT: Final = frozenset(words(", but please just and then so ; :")) | {""}
_NOT_THAT_DAY: Final = frozenset(
    {
        ("earlier", "than"),
        ("sooner", "than"),
        ("apart", "from"),
        ("other", "than"),
        ("except", "for"),
    }
)
_ANY_BUT: Final = frozenset(words("day days time anytime"))


def not_the_deadline(clause: Sequence[Tok], at: int, end: int) -> tuple[int, int] | None:
    """Where the words that make the day at clause[at:end] one it is not
    due, or the earliest it may start, begin and end (asked about unless
    another time is said); None when they are not said."""
    before = (word_at(clause, at - 2), word_at(clause, at - 1))
    if before in _NOT_THAT_DAY:
        return at - 2 - (word_at(clause, at - 3) in ("no", "not")), end
    waits = before[1] in ("wait", "hold") and before[0] in _TOLD_TO_WAIT  # not "it won't wait…"
    if waits and word_at(clause, at) in ("until", "till", "til"):
        return at - 1, end  # "wait until Friday": when it may start (T28: "by Friday")
    if before[1] == "but" and before[0] in _ANY_BUT:
        return at - 2 - (word_at(clause, at - 3) in ("any", "every")), end
    after = [word_at(clause, end + n) for n in range(3)]
    if after == ["at", "the", "earliest"]:
        return at, end + 3
    return (at, end + 2) if after[:2] == ["at", "earliest"] else None


# Times of day a standing order repeats at ("at night", "in the morning").
_TIMES_OF_DAY: Final = frozenset(
    words("night morning mornings evening evenings afternoon afternoons dawn dusk nights")
)


# The words of a span within a day ("from dawn to dusk", "from 9 am to 5 pm").
_HOURS_SPAN: Final = _TIMES_OF_DAY | frozenset(
    words("""from between starting beginning to until till til through thru and the am pm
    a.m. p.m. noon midday midnight sunrise sunset o'clock half past quarter""")
)


# An hour said in words: "lock up every night at ten" (a ninth typed probe:
# due today; "at 10" was the repeat's).
_HOURS_SAID: Final = frozenset(
    words("""one two three four five six seven eight nine ten eleven twelve fifteen twenty
    thirty forty forty-five fifty""")
)


class _Said(Protocol):
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...


def repeats_at(clause: Sequence[Tok], when: _Said) -> bool:
    """Whether the deadline phrase is a time of day a standing order repeats
    at ("guard the gate at night from now on", "check the hens from dawn to
    dusk every day"), not a day it is due (`when` is the deadline's `When`)."""
    said = [t.low for t in clause[when.start : when.end]]
    if said[:1] in (["from"], ["between"], ["starting"], ["beginning"]):
        return all(w in _HOURS_SPAN or w[:1].isdigit() for w in said)
    hours = _HOURS_SPAN | cw.CLOCK_WORDS_MINUTE.keys() | cw.CLOCK_WORDS_CUED.keys() | _HOURS_SAID
    if said[:1] in (["at"], ["before"], ["by"], ["until"], ["till"]) and all(
        w in hours or w in ("in", "at") or w[:1].isdigit() for w in said[1:]
    ):
        return True  # "lock up every evening at 9", "… before bed", "… at 7 in the morning"
    if said[:1] == ["after"] and said[-1] in _DAILY_EVENTS:
        return True  # "every weekday after school", "every evening after dinner" (a typed probe)
    if any(w in _NTH_OF for w in said) and any(w in cw.WEEKDAYS for w in said):
        return True  # "on the first Monday of every month" (a typed probe: due 1 April)
    return len(said) in (2, 3) and said[0] in ("at", "in") and said[-1] in _TIMES_OF_DAY


# What a day's routine is timed by: "after school", "after dinner".
_DAILY_EVENTS: Final = frozenset(
    words("school work dinner lunch breakfast tea supper class college nursery church")
)
_NTH_OF: Final = frozenset(words("first second third fourth last 1st 2nd 3rd 4th"))
