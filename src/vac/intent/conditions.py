"""A condition said with an order: "if it rains, have Zuri cover the hay",
"Imani, visit Grandma tomorrow, unless it snows", "fix the gate once the
rain stops". Before, the draft dropped it without a word, and the agent
would have done the job whatever the weather. It is kept as a `custom`
constraint ("if it rains") and read back with the order.

Not a condition: a courtesy said to the agent ("if you have time", "when
you get a chance": priority cues, `manner_cues`), a count ("once a day":
a standing order), or a question ("When will Kofi…?" is asked before
this). Pure: tokens in, the words as said out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from vac.intent import calendar_words as cw
from vac.intent.condition_start import STARTS, start_end
from vac.intent.lexicon import MANNER_CUES, PUNCT, VERB_PHRASES, Tok, phrase_at, phrases, words
from vac.intent.when_match import past_form, word_at

_CUES: Final = frozenset(words("if unless once when whenever provided"))
# After these the cue says how often or how much, not on what condition.
_NOT_A_CONDITION: Final = frozenset(
    words("""a an every more again upon you u you're you've you'd you'll your ur please and in
    daily weekly nightly anything so not that or""")
)
# "Whenever" is a condition only before an event of its own: "…whenever it
# rains", "…whenever we're away"; not "whenever this week", "whenever it
# suits", "whenever we get a chance" (a priority, `manner_cues`).
_EVENT_SUBJECTS: Final = frozenset(
    words(
        """it there the a an we they he she i someone anyone my our his her their we're
        they're he's she's i'm there's it's its"""
    )
)
_NOT_EVENTS: Final = frozenset(
    words(
        """suits suit works work is 's was convenient ok okay fine good possible easy best get
        gets got has have had fits fit no"""
    )
)


def whenever_event(lows: Sequence[str], k: int) -> bool:
    """Whether "whenever" at `k` starts an event of its own."""
    nxt = lows[k + 1] if k + 1 < len(lows) else ""
    then = lows[k + 2] if k + 2 < len(lows) else ""
    # "whenever the baby's asleep" (a typed probe: no rush, the condition dropped)
    return nxt in _EVENT_SUBJECTS and then not in _NOT_EVENTS and then.replace("'", "").isalpha()


# Before the cue, these make it no condition of the order: "even if it rains"
# (whatever the weather), "but not if…" (a ban), "as if…".
_NOT_BEFORE: Final = frozenset(words("even not as"))
# The order's verb asks about what follows: "check with Abeni if the delivery
# came" (up to three words back, no break).
_ASKING_VERBS: Final = frozenset(words("check see ask know find wonder wondering wondered tell"))
_ASKING_OF: Final = _ASKING_VERBS | {"out"}
# Said after a condition at the end, these leave it the order's: "…, thanks".
_COURTESY: Final = frozenset(words("please thanks thank you cheers"))
_MAX_WORDS: Final = 8
# What may follow a condition said after the order (`_more_of_the_order`).
_JOINS: Final = frozenset(words("and but though although"))
_SAID_AFTER_JOIN: Final = frozenset(
    words("""no not don't dont never do please check ask use without by before ideally only
    just stay keep avoid be take""")
)
# A verb among them only with these after it ("check with me", "keep off").
_ITS_NEXT: Final = {
    "check": frozenset(words("with in")),
    "ask": frozenset(words("me first")),
    "use": frozenset(words("your")),
    "keep": frozenset(words("off away out clear")),
    "stay": frozenset(words("off away out clear")),
    "do": frozenset(words("not")),
    "be": frozenset(words("careful gentle quick quiet discreet")),  # "…, and be careful"
    "take": frozenset(words("your care")),  # "…, and take your time"
}
_SAID_AFTER: Final = _SAID_AFTER_JOIN | frozenset(
    words("""urgently urgent asap quickly carefully gently slowly quietly discreetly today
    tonight tomorrow""")
)
# Conditions of several words, or said anywhere (a typed probe: "just in case
# it rains" was dropped, "…the gate should it snow" was the thing).
_CUES_ANYWHERE: Final = phrases(
    [
        *("in case", "as long as", "so long as", "assuming", "supposing", "providing that"),
        *("as soon as", "the moment", "the minute", "the second", "the instant"),
        *("on the condition that", "on condition that"),
        # A typed probe (2026-12-07): "each time it rains, Zuri, check the
        # cellar" was a check now, the repeat and the condition lost.
        *("every time", "each time"),
    ]
)
# After "as soon as": a priority ("as soon as possible", "as soon as you
# can"), not a condition.
_SOON: Final = frozenset(words("possible poss practicable convenient ever humanly"))
_YOU_CAN: Final = frozenset(words("can could are able get have manage may you're"))
# "when you like", "when you can": a courtesy, no condition.
_AS_YOU_LIKE: Final = (_YOU_CAN - {"get", "have", "you're"}) | frozenset(
    words("like want wish please fancy ready free around")
)
_SPARE: Final = frozenset(
    words("chance time minute moment sec second mo jiffy minutes mins moments secs seconds")
)  # "when you've got five minutes" (a ninth typed probe: read back as a condition)
_A_CHANCE: Final = frozenset(words("a the round around time chance sec minute moment"))
# "until", "till", "after" and "before" with a subject of their own: "guard
# the house till we get back", "after the kids are asleep, guard the door";
# not "before Friday", "after lunch", "till six" (times).
_SPAN_CUES: Final = frozenset(words("until till after while whilst"))
_ASKED_FIRST: Final = frozenset(words("me us first okay ok know"))  # "ring me before you…"
# "…before the weekend is over": a time, the deadline (a regression text); "…'s out" (T26).
_TIMES_OVER: Final = frozenset(words("weekend week month day year night evening morning"))
_OUT: Final = frozenset(words("out over done up"))
_SUBJECTS: Final = frozenset(
    words("we they i he she everyone everybody we're they're i'm he's she's it's")
)
_CLAUSE_VERBS: Final = frozenset(
    words("""is are was were has have had gets get got comes come arrives arrive leaves leave
    goes go finishes finish stops stop ends end dries dry clears clear opens open closes
    close starts start wakes wake calls call 's 're 've""")
)
# An event the order waits for or happens during, said as a noun: "fix the
# roof after the storm", "guard the barn during the storm" (a note: "after
# the storm" was asked when, "during the storm" dropped without a word).
# Kept as said, as other conditions are; a time ("after lunch", "during the
# night") is the time parser's, and "before the storm" (a deadline no date
# gives) is still asked.
_EVENT_CUES: Final = frozenset(words("after during"))
_EVENT_OWNERS: Final = frozenset(
    words("the this that tonight's tomorrow's today's my our your his her their")
)
_EVENTS: Final = frozenset(
    words("""storm storms rain rains snow snows frost frosts flood floods gale gales heatwave
    thaw downpour party wedding funeral meeting match game harvest delivery inspection
    visit concert festival fair christening ceremony service""")
)
# After "before it", the weather (a spoken probe: "…before it snows" was asked
# when, as no date says; "before the storm" still is).
_WEATHER: Final = frozenset(
    words("rains snows freezes pours thaws floods storms hails rain snow")  # not "gets dark": today
)
_WEATHER_ENDS: Final = frozenset(words("and but so please thanks"))
# What may follow the event's noun: not "the storm damage", "the party food".
_AFTER_EVENT: Final = frozenset(words("and then but so today tonight tomorrow please thanks"))
_PARTICLES: Final = frozenset(words("down up off out over in"))
# Said after the order as a whole: "fix the gate tomorrow, weather permitting".
_WHOLE: Final = phrases(["weather permitting", "weather allowing"])
# The first words of a fixed condition that is no event ("weather…", "from…").
_FIXED_FIRSTS: Final = frozenset(words("weather from starting beginning as"))
_TOLD: Final = frozenset(words("it he she they this that"))  # "it breaks every time…"
_SHOULD_SUBJECTS: Final = frozenset(words("it there anyone anybody someone somebody"))
# Before "should it…", a question or the order's own "should": "what should it cost".
_NOT_BEFORE_SHOULD: Final = frozenset(
    words("i you we they he she it who what which that this how why where when so")
)
_PEOPLE: Final = frozenset(words("him her them"))
_BOUNDS: Final = frozenset(words("by before until till after"))
_DENIED: Final = frozenset(words("don't dont not never no"))
# A courtesy, no condition (a review: each was read back as one).
_COURTESY_IFS: Final = phrases(
    [
        *("if possible", "if poss", "if you can", "if that works", "if that suits"),
        *(f"if {it} {ok}" for it in ("that's", "it's") for ok in ("ok", "okay", "alright", "fine")),
        *("if it's not too much trouble", "if it's no trouble", "if it's not too much bother"),
        *("if it's no bother", "if that's all right", "if it's all right"),
        *("if it isn't too much trouble", "if it isn't too much bother"),
        *("if it's not too much to ask", "if it isn't too much to ask"),
    ]
)
# Verbs "after" belongs to: "look after", "clean up after", "take after".
_PHRASAL: Final = frozenset(
    words("""look looks looking looked up take takes run runs chase chasing name named
    ask asks asking asked inquire inquiring enquire enquiring""")
)  # "she's been asking after you" (a tenth typed probe: the condition "after you")
# Cues that need a clause after them: not "a fence as long as the garden".
_CLAUSE_CUES: Final = frozenset(
    phrases(["as long as", "so long as", "the moment", "the minute", "the second", "the instant"])
)
_SAID_BEFORE: Final = frozenset(words("only just"))
_YOU: Final = frozenset(words("you u you're"))
# "if you …" is a courtesy ("if you have time", `manner_cues`) but for what
# the agent may come upon: "look into the noise if you hear it again".
_YOU_FIND: Final = frozenset(
    words("see spot notice find hear smell catch discover meet sense feel")
)
# Before the order's own verb inside "if …", the order asked politely: "it'd be
# lovely if Kofi could fix the gate" (a typed probe: read back "…, if Kofi
# could fix the gate").
_ASKED_SO: Final = frozenset(words("could would can will might"))
# A clause starts after these (or first): not "the day when it rained".
_CLAUSE_STARTS: Final = PUNCT | frozenset(words("but and only"))
# Said anywhere, these join a condition; "if" and "when" only where no verb
# takes them as its object ("check if the well is dry", "tell me when…").
_ANYWHERE: Final = frozenset(words("unless once provided if whenever"))  # "…whenever it rains"
_ASKS_IF: Final = frozenset(
    words("check see ask know out wonder wondering wondered tell me us him her them look find")
)


def condition_of(source: str, toks: Sequence[Tok], verb_at: int) -> str | None:
    """The first condition said ("if it rains"), as written (its first
    letter small), or None (`condition_at`)."""
    span = condition_at(toks, verb_at)
    return None if span is None else as_said(source, span)


def as_said(source: str, span: tuple[int, int]) -> str:
    """A condition's words as written, its first letter small ("If it rains")."""
    said = source[span[0] : span[1]]
    return said[:1].lower() + said[1:]


def within(toks: Sequence[Tok], span: tuple[int, int] | None) -> frozenset[int]:
    """The tokens inside a condition's characters when a time said there is
    the condition's, not the deadline: "guard the car if we're not back by
    ten", "fix the boiler unless the engineer is coming on friday", "fix the
    gate once the parts come on monday" (a seventh typed probe: each was the
    deadline; the condition is read back with it). A day said plainly after
    "if" stays the order's: "if it rains tomorrow, cover the hay"."""
    inside = [k for k, t in enumerate(toks) if span and span[0] <= t.start < span[1]]
    cue = next((toks[k].low for k in inside if toks[k].low not in _SAID_BEFORE), "")
    if cue in ("if", "in") and not any(toks[k].low in _BOUNDS for k in inside):
        return frozenset()
    return frozenset(inside)


def condition_at(toks: Sequence[Tok], verb_at: int) -> tuple[int, int] | None:
    """Where the first condition said starts and ends (characters), or None.
    `verb_at` is where the order's verb starts (a character offset): a
    condition said after it must end the order ("…, unless it snows"), not
    lead into more words ("Kofi, fix the gate. If it rains, Zuri will cover
    the hay": Zuri's). A condition of fixed words ("after the storm", "from
    Monday") only when no other is said: "…, after the storm, but only if
    it's safe" keeps the safety (a review: it was dropped)."""
    fixed = {i: end for i in range(len(toks)) if (end := _fixed_end(toks, i))}
    for i in [k for k in range(len(toks)) if k not in fixed] + sorted(fixed):
        width = _cue_width(toks, i)
        if not width or (width == 1 and toks[i].low in _CUES and not _single_cue(toks, i)):
            continue
        if i in fixed:
            end = fixed[i]  # "after the storm | tomorrow": the time is the order's
        elif word_at(toks, i + width) in PUNCT | {""}:
            continue
        else:
            end = i + width
        while (
            i not in fixed
            and end < len(toks)
            and toks[end].low not in PUNCT
            and end - i <= _MAX_WORDS
        ):
            if toks[end].low in ("and", "then") and phrase_at(toks, end + 1, VERB_PHRASES):
                break  # "…while I go out | and report back tonight": an order of its own
            end += 1
        if end - i > _MAX_WORDS:
            continue  # a long clause: not a short condition said with the order
        verb = next((k for k in range(i + 1, end) if toks[k].start == verb_at), None)
        if verb is not None and toks[verb - 1].low in _ASKED_SO:
            continue  # "it would be lovely if Kofi could fix the gate": the order itself
        if verb is not None and verb - i <= 2:
            continue  # "after you check the hens fix the gate": its verb is the order's
        end = end if verb is None else verb  # "if it rains fix the gate": "if it rains"
        rest = [t.low for t in toks[end:] if t.low not in PUNCT]
        if toks[i].start > verb_at and not _more_of_the_order(rest):
            continue
        start = i - (word_at(toks, i - 1) in _SAID_BEFORE)  # "only if…", "just in case…"
        return toks[start].start, toks[end - 1].end
    return None


# After "NAME's" in a clause: where or how they are ("while Mum's at work").
_BEING_WHERE: Final = frozenset(words("at in on away out off busy asleep here home back working"))
_REMARK: Final = re.compile(
    r"(?:i trust you|i'm counting on you|you know what to do|(?:it's )?up to you|your call)\b"
)


def _more_of_the_order(rest: Sequence[str]) -> bool:
    """Whether the words after a condition said after the order are the
    order's own: a courtesy, a priority, a hand or a boundary ("…if it's
    dry, no rush", "…if the parts arrive, but don't spend more than fifty
    pounds"; a typed probe: each dropped its condition without a word), not
    a clause or an order the condition leads into ("If it rains, Zuri will
    cover the hay", "If it rains, cover the hay")."""
    if all(w in _COURTESY for w in rest) or _REMARK.match(" ".join(rest)):
        return True  # "…while we're away, I trust you completely" (a probe: dropped)
    if rest[0] in _JOINS:
        rest = rest[1:]
        if not rest or rest[0] not in _SAID_AFTER_JOIN:
            return False
    first, then = rest[0], rest[1] if len(rest) > 1 else ""
    # "check with me first", "use your judgment", "stay off…"; not "check the pump"
    return first in _SAID_AFTER and _ITS_NEXT.get(first, frozenset({then})) >= {then}


def _fixed_end(toks: Sequence[Tok], i: int) -> int:
    """Where a condition of fixed words at `i` ends ("weather permitting",
    "after the storm", "from next week"), or 0."""
    if (whole := phrase_at(toks, i, _WHOLE)) is not None:
        return i + len(whole)
    if (start := phrase_at(toks, i, STARTS)) is not None:
        return start_end(toks, i, len(start))
    if toks[i].low not in _EVENT_CUES or word_at(toks, i - 1) in _PHRASAL:
        return 0
    said = i - 1 - (word_at(toks, i - 1) in _PARTICLES)
    if past_form(word_at(toks, said)) or word_at(toks, i - 1) == "from":
        return 0  # "what broke during the storm", "the tree that came down after…": past
    k = i + 1 + (word_at(toks, i + 1) in _EVENT_OWNERS)
    if word_at(toks, k) not in _EVENTS:
        return 0
    return k + 1 if word_at(toks, k + 1) in PUNCT | _AFTER_EVENT | {""} else 0


def _cue_width(toks: Sequence[Tok], i: int) -> int:
    """How many words a condition's cue at `i` has (0: none there)."""
    if word_at(toks, i - 1) in _PHRASAL:
        return 0  # "look after the house while…", "clean up after the party"
    if toks[i].low in _EVENT_CUES | _FIXED_FIRSTS and (end := _fixed_end(toks, i)):
        return 0 if _said_before(toks, i, _DENIED, 5) else end - i
    if (cue := phrase_at(toks, i, _CUES_ANYWHERE)) is not None:
        nxt, then = word_at(toks, i + len(cue)), word_at(toks, i + len(cue) + 1)
        if then == "get" and word_at(toks, i + len(cue) + 2) not in _A_CHANCE:
            then = "got"  # "as soon as you get home"; not "… you get a chance"
        if cue[0] == "as" and (nxt in _SOON or (nxt in _YOU and then in _YOU_CAN)):
            return 0  # "as soon as possible", "as soon as you can": how soon
        if cue in _CLAUSE_CUES and not _clause_at(toks, i + len(cue)):
            return 0  # "check the second gate", "a fence as long as the garden"
        if cue[-1] == "time" and (word_at(toks, i - 2) in _TOLD or not _plain(toks, i + 1)):
            return 0  # "it breaks every time the wind blows", "…every time it rains this week"
        return len(cue)  # "in case it rains", "as long as it's dry", "assuming…"
    if toks[i].low == "before" and word_at(toks, i + 1) == "it":  # "…before it snows":
        ends = word_at(toks, i + 3) in PUNCT | _WEATHER_ENDS or i + 3 >= len(toks)  # no date says
        return int(word_at(toks, i + 2) in _WEATHER and ends)  # when (not "…it rains on Friday")
    if toks[i].low in _SPAN_CUES and _said_before(toks, i, _DENIED, 5):
        return 0  # "don't start till I say": a boundary, or the steward's hand
    if toks[i].low == "before" and phrase_at(toks, i, MANNER_CUES) is None:
        # "…before the kids get home", "…before we leave" (a thirteenth typed probe: asked
        # when, "before we"); not "(ask me) before you start", "…the weekend's out" (a time)
        span, out = word_at(toks, i + 2), word_at(toks, i + 3) in _OUT
        over = span in _TIMES_OVER or (out and span.removesuffix("'s") in _TIMES_OVER)
        asked_first = word_at(toks, i - 1) in _ASKED_FIRST or over
        its = word_at(toks, i + 1) in ("it", "it's")  # "before it's too late": still asked
        its = its or [word_at(toks, i + 1), word_at(toks, i + 2)] == ["i", "forget"]  # a filler
        return int(_clause_at(toks, i + 1) and not its and not asked_first and _plain(toks, i))
    at_it = [word_at(toks, i + n) for n in (1, 2, 3)] == ["you're", "at", "it"]
    if toks[i].low == "while" and at_it:
        return 0  # "fix the gate while you're at it": as well, no condition
    if toks[i].low == "after" and not _plain(toks, i, timed=False):
        return 0  # "…, after you've done that check the fence": the order, not its condition
    if toks[i].low in _SPAN_CUES:
        # "…till we get back", "after the kids are asleep"; not "until the end
        # of the month", "after the storm" (times)
        return int(_clause_at(toks, i + 1))
    if toks[i].low == "should":  # "…should it snow": not "you should fix…"
        after = word_at(toks, i + 1) in _SHOULD_SUBJECTS
        # "Zuri, should the alarm go off again, investigate…" (a typed probe:
        # dropped); only set apart, never a question's "Should the kids…?"
        owned = word_at(toks, i + 1) in _EVENT_OWNERS and (
            _clause_at(toks, i + 1) or word_at(toks, i + 3).isalpha()  # "should the river rise"
        )
        after = after or (owned and word_at(toks, i - 1) == ",")
        return int(after and word_at(toks, i - 1) not in _NOT_BEFORE_SHOULD)
    return int(toks[i].low in _CUES)


def _plain(toks: Sequence[Tok], i: int, *, timed: bool = True) -> bool:
    """Whether the clause after a cue at `i`, to its part's end, holds no
    time and no order of ours: "before they arrive on Friday" is due
    Friday, "after you've done that check the fence" orders a check (a
    review of the twenty-first session's "before" conditions)."""
    k = i + 1
    while k < len(toks) and toks[k].low not in PUNCT:
        if timed and (
            toks[k].low in cw.TEMPORAL_WORDS - cw.MEAL_WORDS or toks[k].low[:1].isdigit()
        ):
            return False
        if phrase_at(toks, k, VERB_PHRASES) is not None:
            return False
        k += 1
    return True


def _clause_at(toks: Sequence[Tok], k: int) -> bool:
    """Whether a clause with its own subject starts at `k`: a pronoun ("we
    get back"), or "the" / "my" / "our" and a thing with its verb within a
    few words ("the kids are asleep", "the rain stops"; not "the end of
    the month", "the garden by friday")."""
    nxt = word_at(toks, k)
    if nxt in _SUBJECTS | {
        "you",
        "you've",
        "you're",
        "we've",
        "they've",
        "i've",
        "it",
        "there",
        "there's",
    }:
        return True
    if k < len(toks) and toks[k].text[:1].isupper() and k and toks[k - 1].low not in PUNCT:
        # "as long as Tariq goes with you", "while Mum's at work" (a probe: dropped)
        then = word_at(toks, k + 1)  # not "before Mum's birthday": a time asked about
        return then in _CLAUSE_VERBS or (nxt.endswith("'s") and then in _BEING_WHERE)
    if nxt not in (
        "the",
        "my",
        "our",
        "her",
        "his",
        "their",
        "your",
    ):  # "while her daughter's away"
        return False
    said = [word_at(toks, j) for j in range(k + 2, k + 5)]
    told = word_at(toks, k + 1).endswith("'s")  # "while her daughter's away" (a probe: dropped)
    return told or any(w in _CLAUSE_VERBS or (w.endswith("s") and len(w) > 3) for w in said)


def _single_cue(toks: Sequence[Tok], i: int) -> bool:
    """Whether "if", "unless", "once", "when", "whenever" or "provided" at `i`
    starts a condition of the order (the rules above `condition_at`)."""
    tok = toks[i]
    before = toks[i - 1].low if i else ","
    if before not in _CLAUSE_STARTS and (tok.low not in _ANYWHERE or before in _ASKS_IF):
        return False
    if tok.low == "once" and word_at(toks, i + 1) == "over":
        return False  # "give the gate a once-over"
    # "check with Abeni if…", "find out from Abeni if…": what to ask her
    asked_of = word_at(toks, i - 2) in ("with", "from") and word_at(toks, i - 3) in _ASKING_OF
    asks = tok.low in ("if", "when") and (asked_of or _said_before(toks, i, _ASKING_VERBS, 3))
    if before in _NOT_BEFORE or asks:
        # "check with Abeni if the delivery came"; not "check … whenever it rains",
        # "check the hives once the frost lifts" (a ninth typed probe: dropped)
        return False
    if tok.low == "whenever" and not whenever_event([t.low for t in toks], i):
        return False
    if phrase_at(toks, i, _COURTESY_IFS) is not None:
        return False  # "if possible", "if that's ok", "if it's not too much trouble"
    nxt = word_at(toks, i + 1)
    if tok.low == "provided" and nxt == "that":
        return True
    if tok.low == "if" and nxt == "you're" and word_at(toks, i + 2).endswith("ing"):
        return True  # "if you're passing the orchard, …" (a probe: a courtesy, dropped)
    if _has_the_means(toks, i):  # "…, only if you've got the right screws"
        return True
    if nxt in _YOU and word_at(toks, i + 2) in _YOU_FIND:
        # "…if you spot a leak": what the agent finds, no courtesy; not "if
        # you see Kofi, tell him…", the one told's errand
        seen = toks[i + 3] if i + 3 < len(toks) else None
        return seen is not None and seen.text[:1].islower() and seen.low not in _PEOPLE
    if tok.low in ("when", "once") and nxt in _YOU | {"you've"}:
        # "when you get back", "once you're done with the fence" (an eighth
        # typed probe: dropped); not "when you get a chance", "once you've
        # got time", "when you like" (courtesies)
        said = {word_at(toks, k) for k in range(i + 2, i + 6)}
        return (
            phrase_at(toks, i, MANNER_CUES) is None
            and word_at(toks, i + 2) not in _AS_YOU_LIKE
            and not said & _SPARE
        )
    return nxt not in _NOT_A_CONDITION


def _said_before(toks: Sequence[Tok], i: int, said: frozenset[str], reach: int) -> bool:
    """Whether one of `said` is among the `reach` words before `i`, in its clause."""
    for k in range(i - 1, max(i - reach - 1, -1), -1):
        if toks[k].low in PUNCT:
            return False
        if toks[k].low in said:
            return True
    return False


__all__ = ["as_said", "condition_at", "condition_of", "whenever_event", "within"]


# "if you have the tools", "only if you've got the right screws" (an eleventh
# typed probe: dropped): what the agent needs, no courtesy; not "if you have
# time", "if you've got a minute", "if you have a chance".
_HAVE: Final = (("you", "have"), ("you've", "got"), ("you", "have", "got"), ("you", "got"))
_MEANS_OPENERS: Final = frozenset(words("the a an enough some any all"))
_NO_MEANS: Final = frozenset(words("time minute moment sec second chance mo while spare few"))


def _has_the_means(toks: Sequence[Tok], i: int) -> bool:
    if toks[i].low not in ("if", "unless"):
        return False
    have = next(
        (h for h in _HAVE if [word_at(toks, i + 1 + k) for k in range(len(h))] == [*h]), None
    )
    if have is None:
        return False
    k = i + 1 + len(have)
    said = {word_at(toks, m) for m in range(k, k + 3)}
    return word_at(toks, k) in _MEANS_OPENERS and not said & _NO_MEANS
