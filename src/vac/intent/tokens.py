"""Tokens: the words and punctuation of a command, with their offsets into
it, so that every span read from them is the source's own text."""

from __future__ import annotations

import re
from typing import Final, NamedTuple

from vac.intent.made import made_as_meant
from vac.intent.prefaces import prefaces_dropped


class Tok(NamedTuple):
    text: str  # as written
    low: str  # lower-cased, curly apostrophes straightened
    start: int  # character offsets into the source text
    end: int


# "a.s.a.p." is one word; "12/11" too (a date whose order the writer's
# country decides: asked about, `when`), never a clock time; "20-12-2026"
# is read as "20/12/2026" (a typed probe: it was dropped without a word).
_TOKEN_RE: Final = re.compile(
    r"\d{4}-\d{2}-\d{2}|[Aa]\.[Ss]\.[Aa]\.[Pp]\.?|[Ww]/[Oo]\b|\d{1,2}/\d{1,2}(?:/\d{2,4})?"
    r"|(?<![\d-])\d{1,2}-\d{1,2}-(?:\d{4}|\d{2})(?![\d-])"  # "20-12-2026": as with slashes
    r"|(?<![\d.])\d{1,2}\.\d{1,2}\.(?:\d{4}|\d{2})(?![\d.])"  # "12.12.2026" (it was 12:12)
    r"|(?<![\d-])\d{1,2}-\d{1,2}(?=\s*(?:[.,;!?]|$))"  # "by 12-20" last (not "3-4 days")
    r"|\b[Oo] ?[Cc]lock\b"  # "4 o clock", "4 oclock": o'clock
    r"|\d{1,3}(?=(?:h|hrs?|mins?)\b)"  # "in 2h", "in 30min": the count, then its unit
    r"|\d+\.\d+(?=\s*(?:m|cm|mm|km|kg|metres?|meters?|ft|feet|inch(?:es)?|litres?|x)\b)"  # "1.5 m"
    r"|[^\W_]+(?:['’][^\W_]+)*|[.,;:!?]"  # letters of any script: "café", "Zoë"
    r"|(?<=\s)[-–—](?=\s)|(?<=\w)—(?=\w)"  # a dash set apart: a pause, read as a comma
    # "fix the gate & the fence": "and" (a probe: in the thing); not "B & Q"
    r"|(?<=\s)(?<!\b[A-Za-z]\s)[&+](?=\s)(?!\s[A-Za-z]\b)"
)
SLASH_DATE_RE: Final = re.compile(r"^\d{1,2}/\d{1,2}(?:/\d{2,4})?$")
_DASHED_DATE_RE: Final = re.compile(r"^\d{1,2}([-.])\d{1,2}(?:\1\d{2,4})?$")
PUNCT: Final[frozenset[str]] = frozenset(".,;:!?")
ISO_DATE_RE: Final = re.compile(r"^\d{4}-\d{2}-\d{2}$")


SHORTHAND: Final = (
    {"dont": "don't", "pls": "please", "plz": "please", "u": "you", "ur": "your"}
    | {w: "tomorrow" for w in ("tmrw", "tmr", "tmw", "tomoz", "2moro", "2morrow")}
    | {"tonite": "tonight", "2nite": "tonight", "thx": "thanks", "thnx": "thanks"}
    | {w: "tomorrow" for w in ("tomorow", "tommorow", "tommorrow", "tomorroww", "tomorrowish")}
    | {"cld": "could", "cud": "could", "wld": "would", "wen": "when"}
    | {"ya": "yeah", "yea": "yeah", "yeh": "yeah"}
    | {"ty": "thanks", "o clock": "o'clock", "oclock": "o'clock"}
    | {"urgnet": "urgent", "urgetn": "urgent", "urgant": "urgent", "urgen": "urgent"}
    | {"wks": "weeks", "wk": "week", "hrs": "hours", "hr": "hour", "mins": "minutes"}
    | {"b4": "before", "2day": "today", "wkend": "weekend", "wknd": "weekend", "nxt": "next"}
    | {"evry": "every", "nite": "night", "w": "with", "thats": "that's"}  # "check w me first"
    | {"tn": "tonight", "rn": "now"}  # typed only so ("TN" is Tennessee; a typed probe, T22)
    # A typed probe: "this arvo" was the thing's, "by chrimbo" dropped.
    | {"arvo": "afternoon", "chrimbo": "christmas", "crimbo": "christmas", "chrissy": "christmas"}
    | {"brekkie": "breakfast", "brekky": "breakfast", "soonish": "soon"}
    | {"abeg": "please", "cn": "can"}  # Nigerian "abeg" (please); "cn u" (a probe: asked who)
    | {"chk": "check", "teh": "the", "afer": "after"}  # an eleventh typed probe
    # …and contractions typed without the apostrophe ("shes busy sat, do friday")
    | {"shes": "she's", "hes": "he's", "theyre": "they're", "youre": "you're", "whats": "what's"}
    | {"isnt": "isn't", "doesnt": "doesn't", "didnt": "didn't", "wasnt": "wasn't"}
    | {"couldnt": "couldn't", "wouldnt": "wouldn't", "shouldnt": "shouldn't", "wont": "won't"}
    | {"arent": "aren't", "havent": "haven't", "hasnt": "hasn't", "theres": "there's"}
    | {"&": "and", "+": "and"}  # "fix the gate & the fence" (a probe: in the thing)
    # Scots (a fourteenth typed probe: "dinnae let them near the burn" was dropped)
    | {"dinnae": "don't", "didnae": "didn't", "cannae": "can't", "wouldnae": "wouldn't"}
    # Caribbean (a typed probe: "fix it fuh me" drafted the thing "It fuh me")
    | {"fuh": "for", "wid": "with"}
)
_SMALL_ONLY: Final = frozenset({"u", "ur", "w", "tn", "rn"})
# A unit written onto its count ("2h", "30min"): a span's unit only there.
_UNIT_AFTER_COUNT: Final = {
    **{"h": "hours", "hr": "hours", "hrs": "hours"},
    **{"min": "minutes", "mins": "minutes"},
}
# Day and month words typed one slip off ("fridya", "tomorrw", "wednesdy",
# "decmber", "chrismas"): a typed probe found them dropped without a word.
# A letter left out or two swapped; in words of seven letters or more, one
# letter wrong too. Never a word of its own ("frida" is a name).
_SLIPPED: Final = [
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "tomorrow",
    "tonight",
    "weekend",
    "january",
    "february",
    "august",
    "september",
    "october",
    "november",
    "december",
    "christmas",
]
# The verbs typed one slip off ("chek", "gaurd", "repiar", "inspct", "vist",
# "buld": an eleventh typed probe found each asked what to do): a letter
# left out or two swapped, never one letter wrong ("protect" → "project").
_VERBS_SLIPPED: Final = (
    "check",
    "guard",
    "inspect",
    "repair",
    "restore",
    "survey",
    "explore",
    "examine",
    "investigate",
    "protect",
    "defend",
    "shield",
    "watch",
    "build",
    "construct",
    "assemble",
    "support",
    "assist",
    "comfort",
    "befriend",
    "visit",
    "report",
    "measure",
    "patrol",
    "sketch",
    "babysit",
)
# Slips that are words of their own, or texted for others ("isit": is it,
# "wath": what, "surey": surely; a review): never read as the verb or day.
_NOT_SLIPS: Final = frozenset(
    {"frida", "heck", "insect", "shied", "ketch", "parol", "repot", "isit", "wath", "surey"}
    | {"gard", "guar", "assis"}
)


def _slips(word: str, wrong: bool = True) -> set[str]:
    n = len(word)
    out = {word[:k] + word[k + 1 :] for k in range(n)}
    out |= {word[:k] + word[k + 1] + word[k] + word[k + 2 :] for k in range(n - 1)}
    if n >= 7 and wrong:
        out |= {word[:k] + c + word[k + 1 :] for k in range(n) for c in _LETTERS}
    return out - {word}


_LETTERS: Final = "abcdefghijklmnopqrstuvwxyz"
TYPED_SLIPS: Final = {s: w for w in _SLIPPED for s in _slips(w) if s not in _NOT_SLIPS}
# Only typed in small letters ("Mrs Vist", "Gard" are names).
VERB_SLIPS: Final = {
    s: w for w in _VERBS_SLIPPED for s in _slips(w, wrong=False) if s not in _NOT_SLIPS
}
# "by 5ish", "around 7ish": the hour said ("5ish" was no time at all, dropped).
_ISH_RE: Final = re.compile(r"^(\d{1,2})ish$")
_BEFORE_YOU: Final = frozenset(
    {"can", "could", "would", "will", "do", "did", "thank", "see", "are", "were", "if", "when"}
)
# "18h00", "9h30": the hour and its minutes as France and Quebec write them.
_H_RE: Final = re.compile(r"^([01]?\d|2[0-3])h([0-5]\d)$")


_DAYS_ISH: Final = frozenset(
    ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "tonight"]
)


# Titles written with a full stop ("Mrs. Okafor", "Dr. Mensah"; Whisper
# writes them so): the stop ends no sentence.
# Only those said before a name: "Kwame Sr. Do it…" ends a sentence.
_TITLES: Final = frozenset({"mr", "mrs", "ms", "dr", "mt", "prof"})
# Written before an amount ("£150"): kept in its token's text (`budget`).
MONEY_SIGNS: Final = "£$€₦₹¥"


def raw_tokens(text: str) -> list[Tok]:
    """`text`'s words and punctuation, shorthand spelled out ("tmrw"), a
    title's full stop left out (`lexicon.tokenize` also drops hesitations)."""
    out: list[Tok] = []
    for m in _TOKEN_RE.finditer(text):
        low = m.group().lower().replace("’", "'")
        if low == "." and out and out[-1].low in _TITLES and out[-1].end == m.start():
            nxt = text[m.end() : m.end() + 2]
            if len(nxt) == 2 and nxt[0] == " " and nxt[1].isupper():
                continue  # "Mrs. Okafor": a name follows; "… the Dr." ends a sentence
        if low in _UNIT_AFTER_COUNT and out and out[-1].low.isdigit():
            low = _UNIT_AFTER_COUNT[low]  # "2h", "in 5 min": two hours, five minutes
        elif low == "ya" and out and out[-1].low in _BEFORE_YOU:
            low = "you"  # "can ya fix…", "thank ya" (not the "ya" of "ya, do it")
        elif low in SHORTHAND and (m.group() == low or low not in _SMALL_ONLY):  # not "Ur"
            low = SHORTHAND[low]  # "dont" (ASR drops the apostrophe), "pls", "tmrw"
        elif low in TYPED_SLIPS:
            low = TYPED_SLIPS[low]  # "by fridya": Friday
        elif low in VERB_SLIPS and m.group() == low:
            low = VERB_SLIPS[low]  # "chek the gate": check
        elif hours := _H_RE.match(low):
            low = f"{int(hours.group(1)):02d}{hours.group(2)}"  # "by 18h00": 1800, read as 18:00
        elif ish := _ISH_RE.match(low):
            low = ish.group(1)
        elif low.endswith("ish") and low[:-3] in _DAYS_ISH:
            low = low[:-3]  # "fridayish", "tomorrowish": the day said
        elif low.startswith("a.s.a.p"):
            low = "asap"
        elif low == "w/o":
            low = "without"  # "don't do anything w/o asking me"
        elif _DASHED_DATE_RE.match(low) and not re.fullmatch(r"\d{1,2}\.\d{1,2}", low):
            low = re.sub(r"[-.]", "/", low)  # "by 20-12-2026": `when.slash_date` reads it
        elif low in ("-", "–", "—"):
            low = ","  # "Kofi - the back gate - fix it"
        elif low == "am" and out and out[-1].low in _DO_AM:
            low = "it"  # West African "fix am", "check am": "it" (a probe: the thing "Am")
        if m.start() and text[m.start() - 1] in MONEY_SIGNS and low[:1].isdigit():
            # "£150": the sign is no token, but the amount is written with it
            out.append(Tok(text[m.start() - 1 : m.end()], low, m.start() - 1, m.end()))
            continue
        out.append(Tok(m.group(), low, m.start(), m.end()))
    said = _nouns_set_apart(_fillers_marked(_tell_heard(_up_to(out))))
    lows = [t.low for t in said]
    made = made_as_meant(lows, [t.text for t in said])
    said = [t._replace(low=made[k]) if k in made else t for k, t in enumerate(said)]
    anew = prefaces_dropped([t.low for t in said], [t.text for t in said])
    said = [_as(t, *anew[k]) if k in anew else t for k, t in enumerate(said)]
    return _i_said(_days_said_so(said))


def _as(tok: Tok, text: str, low: str) -> Tok:
    return tok._replace(text=text, low=low, end=tok.start + len(text))


# "im gonna…", "ill ask Kofi…", "id like…" typed without the apostrophe (an
# eleventh typed probe: "im gonna visit grandma myself" was the default
# agent's order). "ill" and "id" only first in a part and before these.
_ILL_BEFORE: Final = frozenset(
    {"ask", "tell", "get", "have", "do", "go", "be", "see", "sort", "take", "fix", "check"}
    | {"just", "need", "let", "try", "make", "call", "come"}
)
_ID_BEFORE: Final = frozenset(["like", "love", "rather", "prefer", "want", "better", "need"])
_I_SAID: Final = {"im": "i'm", "ive": "i've"}


def _i_said(out: list[Tok]) -> list[Tok]:
    for k, tok in enumerate(out):
        first = k == 0 or out[k - 1].low in PUNCT
        after = out[k + 1].low if k + 1 < len(out) else ""
        said = _I_SAID.get(tok.low) if tok.text.islower() else None
        if first and tok.low == "ill" and after in _ILL_BEFORE:
            said = "i'll"
        elif first and tok.low == "id" and after in _ID_BEFORE:
            said = "i'd"
        if said is not None:
            out[k] = tok._replace(low=said)
    return out


# Said between commas inside a phrase, as "uh" is: "a, like, a bird table",
# "the, what's it called, the fan" (a ninth typed probe: each was asked what).
_FILLER_PHRASES: Final = (
    ("like",),
    ("you", "know"),
    ("what's", "it", "called"),
    ("what's", "it"),
    ("oh", "what's", "it"),
    ("what", "do", "you", "call", "it"),
    ("whatchamacallit",),
    ("thingy",),
    # "Before I forget, Kofi, fix the gate" (a typed probe: asked when, "Before I forget").
    ("before", "i", "forget"),
    ("while", "i", "think", "of", "it"),
    ("while", "i", "remember"),  # a conversation probe: asked who
)
_FILLER_FIRST: Final = frozenset(p[0] for p in _FILLER_PHRASES)
# A trailing-off "…" after these is a pause inside the phrase: "fix the... the hinge".
_MID_PHRASE: Final = frozenset({"the", "a", "an", "my", "our", "your", "this", "that", "some"})


def _fillers_marked(out: list[Tok]) -> list[Tok]:
    """A filler phrase between commas as the hesitation "uh" (`lexicon.fluent`
    drops it), and "..." after a determiner as one comma."""
    marked: list[Tok] = []
    k = 0
    while k < len(out):
        tok = out[k]
        dots = k + 1 < len(out) and out[k + 1].low == "." and out[k + 1].start == tok.end
        if tok.low == "." and dots and marked and marked[-1].low in _MID_PHRASE:
            while k < len(out) and out[k].low == ".":
                k += 1
            marked.append(tok._replace(low=","))
            continue
        said = None
        if tok.low in _FILLER_FIRST:  # most words start none: no list built for them
            lows = [t.low for t in out[k : k + 5]]
            said = next((p for p in _FILLER_PHRASES if lows[: len(p)] == list(p)), None)
        after = out[k + len(said)].low if said and k + len(said) < len(out) else ""
        lead = not marked or marked[-1].low in (",", ".", "!", "?", "and", "oh", "so", "also")
        if said and lead and after == ",":  # "oh and before I forget, Kofi needs to…"
            marked.append(tok._replace(low="uh"))
            k += len(said)
            continue
        marked.append(tok)
        k += 1
    return marked


# Days said so (a seventh typed probe: each left in the thing, no deadline):
# "this night" (Nigerian English: tonight), "the day after next" (the day
# after tomorrow).
_SAID_AS: Final = {
    ("this", "night"): "tonight",
    # Scots: "the morra" (an eleventh typed probe: "Boiler the morra").
    ("the", "morra"): "tomorrow",
    # How the recogniser writes "tomorrow" said slowly (a spoken-style probe).
    **{(w, "morrow"): "tomorrow" for w in ("too", "2", "two", "to")},
}
_DAY_NAMES: Final = frozenset(
    {"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}
    | {"tomorrow", "tonight", "noon", "midnight"}
)
# "buy" is "by" only after a thing and before a day ending the clause: not
# "…then buy Friday tickets", "go buy Sunday lunch" (a review).
_ENDS: Final = frozenset({".", ",", "!", "?", ";"})
_BEFORE_A_DEED: Final = frozenset(
    {"then", "go", "and", "to", "please", "can", "could", "you", "will", "i", "we", "also", "or"}
    | {"say", "said", "just", "should", "must"}
)
_NEXT_AFTER: Final = frozenset({"week", "weekend", "month", "year", "time"})


_MONTHS: Final = frozenset(
    re.findall(
        r"\w+",
        "january february march april may june july august september october november december",
    )
)


# "watch the kids up to 6", "up until the evening": "until" (a typed probe:
# the time was dropped, or the thing was "Kids up"). "up to" only before a
# time: "it's up to you", "up to the attic" are no time.
_UP_TO_TIME: Final = frozenset(
    {"morning", "afternoon", "evening", "night", "midnight", "noon", "midday", "lunch"}
    | {"lunchtime", "dinner", "dinnertime", "teatime", "bedtime", "dark", "sunset", "dusk"}
    | {"tonight", "tomorrow", "today"}
    | _DAY_NAMES
)

_UP_VERBS: Final = frozenset(
    {"got", "get", "gets", "came", "come", "comes", "went", "go", "goes", "been", "be", "was"}
    | {"were", "is", "are", "fed", "grown", "acted", "act", "acts", "stayed", "stay", "ran"}
)
_AFTER_AN_HOUR: Final = frozenset({"", ".", ",", "!", "?", "am", "pm", "o'clock", "tonight"})


def _up_to(out: list[Tok]) -> list[Tok]:
    for k, tok in enumerate(out[:-2]):
        if tok.low != "up" or (k and (out[k - 1].low in _UP_VERBS or out[k - 1].low[-3:] == "ing")):
            continue  # "what the kids got up to", "came up to the mark", "acting up until"
        after = [t.low for t in out[k + 1 : k + 4]] + ["", ""]
        time = after[1] if after[1] != "the" else after[2]
        hour = time[:1].isdigit() and after[2] in _AFTER_AN_HOUR  # not "up to 3 hours"
        if after[0] in ("until", "till", "til"):
            out[k] = tok._replace(low="uh")  # dropped as a hesitation is
        elif after[0] == "to" and (time in _UP_TO_TIME or hour):
            out[k] = tok._replace(low="uh")
            out[k + 1] = out[k + 1]._replace(low="until")
    return out


def _tell_heard(out: list[Tok]) -> list[Tok]:
    """ "Till Tariq to watch…" first in a sentence: "tell" as the recogniser
    wrote it (a spoken probe, 2026-12-07: asked who should do it). Not "till
    Tariq gets home" (a name then "to" only)."""
    for k, tok in enumerate(out[:-2]):
        first = k == 0 or out[k - 1].low in (".", "!", "?")
        named = out[k + 1].text[:1].isupper() and out[k + 2].low == "to"
        named = named and out[k + 1].low not in _DAY_NAMES | _MONTHS  # "Till Tuesday to fix…"
        if first and tok.low in ("till", "til") and named:
            out[k] = tok._replace(low="tell")
    return out


def _days_said_so(out: list[Tok]) -> list[Tok]:
    for k in range(len(out) - 1, 0, -1):
        before, tok = out[k - 1], out[k]
        after = out[k + 1].low if k + 1 < len(out) else ""
        said_as = _SAID_AS.get((before.low, tok.low))  # "this night", "too morrow"
        if said_as == "tomorrow" and before.low == "the" and after not in _ENDS | {""}:
            said_as = None  # "the morra festival": a name (a review)
        if said_as == "tomorrow" and before.low == "to" and tok.text[:1].isupper():
            said_as = None  # "drive to Morrow": a place (a review)
        if said_as is not None:
            out[k - 1 : k + 1] = [Tok(f"{before.text} {tok.text}", said_as, before.start, tok.end)]
        elif (
            before.low in ("buy", "bye")
            and tok.low in _DAY_NAMES
            and (after in _ENDS or after == "")
            and k > 1
            and out[k - 2].low.isalpha()
            and out[k - 2].low not in _BEFORE_A_DEED
        ):
            out[k - 1] = before._replace(low="by")  # "fix the gate buy Friday." (heard so)
        elif (
            tok.low == "next"
            and [t.low for t in out[max(k - 2, 0) : k]] == ["day", "after"]
            and after not in _NEXT_AFTER
            and not after.endswith("day")
        ):
            out[k] = tok._replace(low="tomorrow")
        elif (
            before.low == "latest"
            and tok.low in _DAY_NAMES | {"today"}
            and k > 1
            and out[k - 2].low != "the"
        ):
            # "repair it latest tomorrow" (Nigerian, Indian English; an eleventh typed probe)
            out[k - 1] = before._replace(low="by")
    return out


# Before "am" as West African English's "it" ("abeg fix am"); never "I am".
_DO_AM: Final = frozenset(
    {"fix", "repair", "mend", "patch", "check", "inspect", "guard", "watch", "protect", "build"}
    | {"help", "visit", "map", "survey", "handle", "sort"}
)


# Words that are a verb of ours only before what they act on ("glue the
# chair leg back on"); else a thing ("get some glue for the chair", "the glue
# is in the shed": a review found each a Repair).
_VERB_ONLY_BEFORE: Final = frozenset({"glue", "superglue"})
_ACTED_ON: Final = frozenset(
    {"the", "a", "an", "my", "your", "our", "his", "her", "their", "this", "that"}
    | {"these", "those", "it", "them", "back", "together"}
)


def _nouns_set_apart(out: list[Tok]) -> list[Tok]:
    for k, tok in enumerate(out):
        after = out[k + 1].low if k + 1 < len(out) else ""
        if tok.low in _VERB_ONLY_BEFORE and after not in _ACTED_ON:
            out[k] = tok._replace(low=f"{tok.low}-thing")
        elif tok.low == "make" and after in _FOR_ONE and _made_food(out, k + 2):
            out[k] = tok._replace(low="make-food")  # "make me a coffee": no Build (a probe)
        elif tok.low == "make" and _chore(out, k + 1):  # "make a cup of tea for Grandma",
            out[k] = tok._replace(low="make-food")  # "make the beds" (a typed probe: Builds)
        elif tok.low == "fix" and _food_next(out, k + 1 + (after in _FOR_ONE)):
            # "fix dinner for the kids", "fix me a sandwich" (a ninth typed
            # probe: "repair dinner"); not "fix the dinner table"
            out[k] = tok._replace(low="fix-food")
    return out


def _food_next(out: list[Tok], k: int) -> bool:
    """Whether a meal or a drink, and no more of a thing, is said at `k`."""
    k += k < len(out) and out[k].low in ("a", "an", "some", "the", "us", "them")
    if k >= len(out) or out[k].low not in _FOOD:
        return False
    after = out[k + 1].low if k + 1 < len(out) else ""
    return after in _AFTER_THE_THING | _AFTER_A_MEAL


def _chore(out: list[Tok], k: int) -> bool:
    """Whether "make" before `k` makes food, drink or the beds: a chore."""
    said = [t.low for t in out[k : k + 3]] + ["", ""]
    if said[0] in ("a", "an", "some") and _made_food(out, k + 1):
        return True
    owned = said[0] in ("the", "my", "your", "our", "their")
    return owned and said[1] in ("bed", "beds") and said[2] in _AFTER_BEDS  # not "the bed frame"


_AFTER_BEDS: Final = frozenset(
    {"", ",", ".", "!", "?", "upstairs", "downstairs", "please", "today", "tonight", "and", "now"}
)


def _made_food(out: list[Tok], k: int) -> bool:
    """Whether the thing made from `k` is food or drink ("a cup of tea"; not
    "a table for lunch")."""
    for tok in out[k : k + 5]:
        if tok.low in _FOOD:
            return True
        if tok.low in _AFTER_THE_THING:
            return False
    return False


_AFTER_THE_THING: Final = frozenset(
    {"for", "with", "in", "at", "by", "to", "before", "after", "on", ",", ".", "?", "!"}
)
# "Could you make me a cup of tea?" was a Build of "Cup of tea" (a spoken-style
# probe): food and drink made for someone is no job of the household's agents.
_AFTER_A_MEAL: Final = frozenset({"", "tonight", "today", "tomorrow", "now", "please", "and"})
_FOR_ONE: Final = frozenset({"me", "us", "you", "him", "her", "them", "everyone"})
_FOOD: Final = frozenset(
    {"coffee", "tea", "cuppa", "sandwich", "breakfast", "lunch", "dinner", "supper", "toast"}
    | {"drink", "snack", "meal", "soup", "juice", "smoothie", "omelette", "pasta", "cocktail"}
)
