"""Word tables for times and dates (read by `when`).

Lower-case tokens as `lexicon.tokenize` gives them. Kept apart from the
resolver so the rules there read without the lists in the way.
"""

from __future__ import annotations

from typing import Final

from vac.intent.lexicon import phrases, words

WEEKDAY_NAMES: Final = words("Monday Tuesday Wednesday Thursday Friday Saturday Sunday")
MONTH_NAMES: Final = words(
    "January February March April May June July August September October November December"
)
# Full names are weekdays anywhere; abbreviations ("fri", "sat", "sun") only
# after a cue ("by", "on", "this", "next"): "the sun" is not a Sunday.
WEEKDAYS: Final[dict[str, int]] = {w.lower(): n for n, w in enumerate(WEEKDAY_NAMES)}
WEEKDAY_ABBREVIATIONS: Final[dict[str, int]] = {
    **{w.lower()[:3]: n for n, w in enumerate(WEEKDAY_NAMES)},
    "tues": 1,
    "weds": 2,
    "thur": 3,
    "thurs": 3,
}
# A weekday by name, in full or written short.
DAY_NAMES: Final = frozenset({*WEEKDAYS, *WEEKDAY_ABBREVIATIONS})
# Months, full or abbreviated; a month only counts next to a day number
# ("May 4", "4 May"), so "you may" and "march to the river" are not dates.
MONTHS: Final[dict[str, int]] = {
    **{w.lower(): n + 1 for n, w in enumerate(MONTH_NAMES)},
    **{w.lower()[:3]: n + 1 for n, w in enumerate(MONTH_NAMES)},
    "sept": 9,
}

# Parts of the day. A date holds no time, so each only fixes which day.
PARTS_OF_DAY: Final = frozenset(words("morning afternoon evening night"))
# Clock words → minute of the day they name. A time already past today means
# tomorrow ("by noon" said at 13:00); midnight is the end of today.
CLOCK_WORDS_MINUTE: Final[dict[str, int]] = {
    "noon": 12 * 60,
    "midday": 12 * 60,
    "lunch": 12 * 60,
    "lunchtime": 12 * 60,
    "midnight": 24 * 60,
    "dawn": 6 * 60,
    "sunrise": 6 * 60,
    "daybreak": 6 * 60,
    "dinner": 18 * 60,
    "dinnertime": 18 * 60,
    "supper": 18 * 60,
    "sunset": 19 * 60,
    "dusk": 19 * 60,
    "nightfall": 19 * 60,
    "sundown": 19 * 60,
    "dark": 19 * 60,
    "bedtime": 21 * 60,
    "teatime": 17 * 60,
    "suppertime": 18 * 60,
    "sunup": 6 * 60,
}
# Clock words that are things too ("by the bed", "make tea", "the breakfast
# table"): a time only right after a cue ("before bed", "by tea"), and no
# word that makes "by …" look like a time (`TEMPORAL_WORDS`).
CLOCK_WORDS_CUED: Final[dict[str, int]] = {"bed": 21 * 60, "tea": 17 * 60, "breakfast": 8 * 60}
# How a clock word reads back when it is not its own best name.
CLOCK_WORDS_SAID: Final[dict[str, str]] = {"bed": "bedtime", "tea": "teatime"}
# Meals said with "time" after them: "by lunch time", "before tea time".
MEAL_WORDS: Final = frozenset(words("lunch dinner supper tea breakfast bed"))
# Span units → days (hours and minutes are handled as clock time).
DAY_UNITS: Final[dict[str, int]] = {
    "day": 1,
    "days": 1,
    "nights": 1,  # "three nights from now" (an eighth typed probe: left in the thing)
    "week": 7,
    "weeks": 7,
    "fortnight": 14,
    "fortnights": 14,
}
MONTH_UNITS: Final = frozenset({"month", "months"})
HOUR_UNITS: Final[dict[str, int]] = {"hour": 60, "hours": 60, "minute": 1, "minutes": 1}
# "a couple of days", "a few days", "several days": how many they mean.
VAGUE_COUNTS: Final[dict[tuple[str, ...], int]] = {
    ("a", "couple", "of"): 2,
    ("couple", "of"): 2,
    ("a", "couple"): 2,
    ("a", "few"): 3,
    ("few",): 3,
    ("several",): 3,
    ("a",): 1,
    ("an",): 1,
    ("one",): 1,
}
VAGUE_COUNT_PHRASES: Final = phrases(" ".join(k) for k in VAGUE_COUNTS)
# Words that hedge a span without changing it: "in about two hours", "within
# roughly a week", "in like 2 hrs", "in under an hour". The span is the deadline.
SPAN_HEDGES: Final = phrases(
    [
        *words("about around roughly approximately approx like maybe say just only under"),
        "less than",
        "no more than",
        "not more than",
        "at most",
        "around about",
        "more or less",
    ]
)

# Words that, right after "by", make the phrase a time, even one the resolver
# cannot place ("by the harvest", "by then"): these become a question. Any
# word ending in "day" ("by Fooday", "by the holiday") counts too.
TEMPORAL_WORDS: Final = frozenset(
    {
        *WEEKDAYS,
        *WEEKDAY_ABBREVIATIONS,
        *MONTHS,
        *PARTS_OF_DAY,
        *CLOCK_WORDS_MINUTE,
        *DAY_UNITS,
        *MONTH_UNITS,
        *HOUR_UNITS,
        *words("today tonight tomorrow yesterday weekend year years end time eod"),
        *words("term half-term halfterm"),  # a school's: asked (a blind probe: dropped)
        *words("am pm o'clock"),
        *words("harvest festival feast holidays christmas easter solstice equinox"),
        # Feasts whose date moves (or differs by household): asked, never dropped.
        *words("hanukkah chanukah diwali eid ramadan passover thanksgiving"),
        *words("mothers mother's fathers father's pentecost lent carnival"),
        # Not "spring" or "fall": "by the spring" is as likely a place.
        *words("summer autumn winter season"),
    }
)
# After "by the" (and words before it), these name an event, not a place:
# "by the school fete", "by the vicar's visit" (a typed probe: stored as the
# place of the work, the deadline dropped). The last word of the phrase
# decides: "by the wedding marquee" is a place; so are "by the barbecue",
# "by the game", "by the fair" (a review).
EVENT_WORDS: Final = frozenset(
    words("""fete party funeral wedding ides visit christening meeting concert recital
    exam exams interview appointment reunion gala ceremony graduation anniversary arrival
    return opening parade show service match""")
)
# Before a weekday's name, these make it a feast whose date moves ("by
# Easter Monday", "by Good Friday", "by Black Friday"): asked about (a typed
# probe: each was the coming weekday).
FEAST_BEFORE_DAY: Final = frozenset(
    words("""easter good black cyber shrove ash palm mothering remembrance bowl holy maundy
    whit plough giving small""")
)
# A day's name before these is a street's ("on Friday Street"): no time.
STREET_WORDS: Final = frozenset(
    words("street st road rd lane avenue ave boulevard crescent terrace")
)
# After "on", only what names a day makes a time ("on the thirty-second"),
# not an event: "report on the harvest" is a report, not a deadline.
ON_DAY_WORDS: Final = frozenset({*DAY_NAMES, *MONTHS})

# Holidays on a fixed date (month, day, as read back); only after a cue
# ("by Christmas"): "buy Christmas lights" is no deadline. Easter moves:
# it stays a question.
HOLIDAYS: Final[dict[str, tuple[int, int, str]]] = {
    "christmas eve": (12, 24, "Christmas Eve"),
    "christmas day": (12, 25, "Christmas"),
    "christmas": (12, 25, "Christmas"),
    "xmas eve": (12, 24, "Christmas Eve"),
    "xmas day": (12, 25, "Christmas"),
    "xmas": (12, 25, "Christmas"),
    "boxing day": (12, 26, "Boxing Day"),
    "new year's eve": (12, 31, "New Year's Eve"),
    "nye": (12, 31, "New Year's Eve"),
    "new years eve": (12, 31, "New Year's Eve"),
    "new year's day": (1, 1, "New Year's Day"),
    "new years day": (1, 1, "New Year's Day"),
    "new year's": (1, 1, "New Year's Day"),
    "new years": (1, 1, "New Year's Day"),
    "new year": (1, 1, "New Year's Day"),
    "halloween": (10, 31, "Halloween"),
    "valentine's day": (2, 14, "Valentine's Day"),
    "valentines day": (2, 14, "Valentine's Day"),
    # A typed probe (2026-12-06): these were dropped without a word.
    "valentine's": (2, 14, "Valentine's Day"),
    "valentines": (2, 14, "Valentine's Day"),
    "st patrick's day": (3, 17, "St Patrick's Day"),
    "st patricks day": (3, 17, "St Patrick's Day"),
    "saint patrick's day": (3, 17, "St Patrick's Day"),
    "bonfire night": (11, 5, "Bonfire Night"),
    # A typed probe (2026-12-06, the third): dropped without a word.
    "guy fawkes": (11, 5, "Bonfire Night"),
    "hogmanay": (12, 31, "Hogmanay"),
    "australia day": (1, 26, "Australia Day"),
    "independence day": (7, 4, "Independence Day"),
    "canada day": (7, 1, "Canada Day"),
    "guy fawkes night": (11, 5, "Bonfire Night"),
}
HOLIDAY_PHRASES: Final = phrases(HOLIDAYS)

# Seasons: a deadline said with one is asked about ("by spring").
SEASONS: Final = frozenset(words("spring summer autumn fall winter"))

# Before "next", these make it "what comes next", not a day ("what's next tomorrow").
WHATS_NEXT: Final = frozenset({"what's", "whats", "what", "is", "comes", "come", "up", "the"})
