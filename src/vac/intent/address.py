"""Who a command is for: the addressing frame and the agent it names.

"ask / tell / have / get / let NAME (to) …", "NAME, …", "…, NAME" and "NAME
(needs to) build …" (`address_of`); failing those, the same after a few
words that lead in ("when you get a chance, Kofi, …", "is it possible to
have Kofi …", `_within`). A name no one on the roster has is reported as
`unknown` (the parser asks who was meant), unless the recogniser heard that
one word in the name slot it rescored and the roster name it ranked first
is spelled like it (`near`, spoken words only): then that name, flagged.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from typing import Final, NamedTuple

from vac.intent import lexicon as lx
from vac.intent.correction import past_make_that, restart_at
from vac.intent.lexicon import Tok, words
from vac.intent.name_last import AFTER_NAME, heard_apart, named_no_one, said_before_time
from vac.intent.news_first import TOLD_BEFORE, named_after_news, news_of, to_is_told
from vac.intent.parts import ASKED_ON, apart_at
from vac.intent.relay import passed_on
from vac.intent.roster import STOPWORDS, Resolution, Roster, near_agent, resolve_agent
from vac.intent.told import name_then
from vac.intent.verb_cues import WEAK_VERB_CUES
from vac.intent.when_match import word_at
from vac.intent.wish import polite_frame, remarks, wished_subject

_GROUP_WORDS: Final = frozenset(
    words("everyone everybody all someone somebody anyone anybody team squad")
)


# Said with a name as its address: "Kofi dear, fix…", "Dear Imani, …", "Kofi love, …".
_ENDEARMENTS: Final = frozenset(words("dear darling sweetie honey sweetheart mate buddy pal love"))


class Address(NamedTuple):
    start: int  # the command clause is toks[start:end], without toks[cut]
    end: int
    resolution: Resolution | None = None
    unknown: str | None = None  # a name that was clearly addressed but is not ours
    # Who was named with the agent and is no one on the roster ("Kofi and the
    # team"): an objective has one agent, and the summary says so.
    others: str | None = None
    # The pronoun taken to mean the agent a lead-in named ("when Kofi gets
    # home, tell him…"): the summary says so, for the steward to check.
    pronoun: str | None = None
    # The addressing words inside the clause ("First thing tomorrow, Kofi,
    # fix the gate", "Is it possible to have Kofi fix the gate"): taken out,
    # and a comma left in their place, so no phrase runs across them.
    cut: tuple[int, int] | None = None

    def shifted(self, by: int) -> Address:
        """The same address in words that start `by` tokens later."""
        cut = None if self.cut is None else (self.cut[0] + by, self.cut[1] + by)
        return self._replace(start=self.start + by, end=self.end + by, cut=cut)

    def clause(self, toks: Sequence[Tok]) -> list[Tok]:
        if self.cut is None:
            return list(toks[self.start : self.end])
        at, to = self.cut
        # A comma in their place, or the full stop the name came after ("The
        # bins go out weekly. Kofi, fix the gate": two sentences still).
        comma = toks[at] if toks[at].low in ".!?" else Tok(",", ",", toks[at].start, toks[at].start)
        return [*toks[self.start : at], comma, *toks[to : self.end]]


def resolve_span(toks: Sequence[Tok], roster: Roster) -> Resolution | None:
    """Ground an addressing span; the name must be all it says besides
    fillers ("hey coffee" yes, "never mislead Kofi" no)."""
    if not toks or any(t.low in lx.PUNCT for t in toks):
        return None
    res = resolve_agent(" ".join(t.text for t in toks), roster)
    if res is None:
        return None
    heard = res.heard_as.split()
    low = [t.low.replace("'", "") for t in toks]
    for start in range(len(low) - len(heard) + 1):
        if low[start : start + len(heard)] == heard:
            rest = low[:start] + low[start + len(heard) :]
            return res if all(w in STOPWORDS or w in _ENDEARMENTS for w in rest) else None
    return None


# "to", and "too": how Whisper writes a "to" followed by a pause; before a
# sentence break also "2" / "two" ("Ask Abeni 2. Repair the gate").
_TO_HEARD = frozenset({"to", "too"})
_TO_BEFORE_BREAK = frozenset({"2", "two"})


def _verb_through(toks: Sequence[Tok], j: int, k: int) -> bool:
    """A verb phrase starts at `j` and runs through `k`."""
    phrase = lx.phrase_at(toks, j, lx.VERB_PHRASES)
    return phrase is not None and j + len(phrase) > k


# "Kofi and the team", "Kofi and the kids": words after the "and" at most.
_OTHERS_MAX_WORDS: Final = 3


def _with_others(
    toks: Sequence[Tok], i: int, ends: frozenset[str], roster: Roster
) -> Address | None:
    """ "NAME and <others> to/," with one roster name and others who are none:
    the clause starts after the "to" (or comma), for that agent alone."""
    n = len(toks)
    if i + 2 >= n or toks[i + 1].low != "and":
        return None
    res = resolve_span(toks[i : i + 1], roster)
    if res is None or res.method not in ("exact", "fuzzy"):
        return None
    for k in range(i + 3, min(i + 3 + _OTHERS_MAX_WORDS, n)):
        if toks[k].low in ends:
            others = toks[i + 2 : k]
            if any(not _someone_else(toks, j, roster) for j in range(i + 2, k)):
                return None
            return Address(k + 1, n, res, others=" ".join(t.text for t in others))
    return None


def _someone_else(toks: Sequence[Tok], j: int, roster: Roster) -> bool:
    """Whether word `j` may name people who are not on the roster ("the
    team", "me"). Not a name, nor a word written like one ("Yuri" may be a
    misheard Zuri: the parser asks who), nor a verb or a frame ("Kofi and
    the kids get to know…", "Kofi and ask him…"), nor punctuation."""
    tok = toks[j]
    return not (
        tok.low in lx.PUNCT
        or tok.low in lx.FRAME_WORDS
        or (tok.text[:1].isupper() and tok.low != "i")
        or resolve_span([tok], roster) is not None
        or lx.phrase_at(toks, j, lx.VERB_PHRASES) is not None
    )


def _frame(
    toks: Sequence[Tok], i: int, roster: Roster, near: tuple[str, str] | None
) -> Address | None:
    """ "ask / tell / have / direct / get / let NAME (to) …"; a one-word name no
    one has is taken as the roster name the recogniser ranked first in the
    slot where it heard that word (`near`), if spelled like it."""
    rest, n = i + 1, len(toks)
    if (joined := _with_others(toks, rest, _TO_HEARD, roster)) is not None:
        return joined
    for k in range(rest + 1, min(rest + 4, n)):
        if toks[k].low in lx.PUNCT:
            said_apart = (  # "Ask Kofi. To fix…": the verb right after
                k + 1 < n
                and toks[k + 1].low in _TO_HEARD
                and lx.phrase_at(toks, k + 2, lx.VERB_PHRASES) is not None
            )
            res = resolve_span(toks[rest:k], roster) if said_apart else None
            if res is not None:
                return Address(k + 2, n, res)
            break
        broken = k + 1 < n and toks[k + 1].low in lx.PUNCT
        # "2" for "to" before a break, or before the verb ("Ask Kofi 2 repair…")
        two = broken or lx.phrase_at(toks, k + 1, lx.VERB_PHRASES) is not None
        if toks[k].low not in _TO_HEARD and not (toks[k].low in _TO_BEFORE_BREAK and two):
            continue
        if any(_verb_through(toks, j, k) for j in range(rest + 1, k)):
            break  # "have Imani get to know …": the "to" is the verb's own
        span = toks[rest:k]
        # "Ask Kofi to … build a bench": said with a pause, it is heard as
        # "Ask Kofi too. Build a bench" — the clause starts after the break.
        start = k + 1
        while start < n and toks[start].low in lx.PUNCT:
            start += 1
        if all(t.low in lx.PRONOUNS for t in span):
            return Address(start, n)  # "ask them to …": whoever is current
        res = resolve_span(span, roster)
        if res is not None:
            return Address(start, n, res)
        if (
            toks[i].low in lx.NAMING_FRAMES
            and span[0].low not in lx.DETERMINERS
            and (span[0].low in _GROUP_WORDS or not all(t.low in STOPWORDS for t in span))
            and (toks[i].low != "send" or span[0].text[:1].isupper())  # not "send help to…"
        ):
            unknown = " ".join(t.text for t in span)
            if (guess := _slot_guess(span, near, roster)) is not None:
                return Address(start, n, guess)
            return Address(k + 1, n, unknown=unknown)
        break
    for size in (1, 2, 3):  # "have Kofi build …"
        if rest + size < n and lx.phrase_at(toks, rest + size, lx.VERB_PHRASES) is not None:
            if all(t.low in lx.PRONOUNS for t in toks[rest : rest + size]):
                return Address(rest + size, n)  # "have him build …": whoever is current
            res = resolve_span(toks[rest : rest + size], roster)
            if res is not None:
                return Address(rest + size, n, res)
            if size == 1 and (no_one := named_no_one(toks[rest], toks, roster)) is not None:
                guess = _slot_guess(toks[rest : rest + 1], near, roster)  # "have Yori comfort…"
                return Address(rest + 1, n, guess, unknown=None if guess else no_one)
    return None


def address_of(toks: Sequence[Tok], roster: Roster, near: tuple[str, str] | None = None) -> Address:
    n = len(toks)
    while n and toks[n - 1].low in lx.PUNCT:
        n -= 1
    i = 0
    while i < n:  # "okay, Kofi, …", "please, …", "good morning Zuri. Please…"
        greeting = lx.phrase_at(toks, i, _GREETINGS)
        if greeting is None and toks[i].low not in lx.FILLERS | lx.PUNCT:
            break
        i += len(greeting or (toks[i].low,))
    hit = lx.find_first(toks[:n], lx.VERB_PHRASES, skip=remarks(toks))  # read once for all
    hit = past_make_that(toks[:n], hit, lambda t: _exact([t], roster))
    restart = restart_at(toks, i, hit[0] if hit else n, lambda t: _exact([t], roster))
    if restart is not None:  # "Kofi, no, Zuri, fix the gate": the name said last
        return address_of(toks[restart:n], roster, near).shifted(restart)
    if i < n and toks[i].low in lx.FRAME_WORDS:
        framed = _frame(toks[:n], i, roster, near)  # "ask Kofi to tell Zuri to fix…": Zuri's
        relay = framed and framed.resolution and _relayed(toks[:n], framed.start, roster)
        if framed is not None:  # not "…tell Zuri to wait, then fix…" (a review): Kofi's
            return relay if relay and lx.phrase_at(toks, relay.start, lx.VERB_PHRASES) else framed
    if (joined := _with_others(toks[:n], i, frozenset({","}), roster)) is not None:
        return joined  # "Kofi and the kids, fix the gate"
    commas = [k for k in range(i, n) if toks[k].low == ","]
    if commas and 1 <= commas[0] - i <= 3:  # "Kofi, build a bench"
        res = resolve_span(toks[i : commas[0]], roster) or _near(toks[i : commas[0]], near, roster)
        if res is not None:
            return _relayed(toks[:n], commas[0] + 1, roster) or Address(commas[0] + 1, n, res)
    # "Kofi. Fix the gate.", "Kofi... fix", "Kofi: fix": a pause after the
    # name, written as a full stop (the recogniser often does) or a colon.
    # The name alone, and the order right after it: not "Kofi. He's busy. Fix…",
    # "Kofi. He's away. Fix…".
    if i + 1 < n and toks[i + 1].low in _NAME_BREAKS:
        res = _named(toks[i : i + 1], roster)
        start = i + 1
        while start < n and toks[start].low in lx.PUNCT | lx.ASKING_WORDS:  # "Kofi. Can you fix…"
            start += 1
        if (
            res is not None
            and (res.method in ("exact", "fuzzy") or heard_apart(toks, i))  # "Coffee. Fix…"
            and lx.phrase_at(toks, start, lx.VERB_PHRASES) is not None
        ):
            return Address(start, n, res)
    last = n  # "fix the gate, Kofi, please"
    while last > i and toks[last - 1].low in AFTER_NAME:
        last -= 1
    ends = [k for k in range(i, last) if toks[k].low == "," or toks[k].low in _NAME_BREAKS]
    if ends and 1 <= last - ends[-1] - 1 <= 3:  # "build a bench, Kofi", "… bench. Kofi."
        tail = toks[ends[-1] + 1 : last]
        res = _named(tail, roster)
        if res is not None and (
            toks[ends[-1]].low == ","
            or (len(tail) == 1 and res.method in ("exact", "fuzzy"))  # not "It's for Kofi."
        ):
            return Address(i, ends[-1], res)
    if (vocative := _vocative(toks[:n], i, roster)) is not None:
        return vocative  # "fix the fence, Tariq, urgently"
    if (said := said_before_time(toks, i, last, lambda t: resolve_span(t, roster))) is not None:
        return Address(i, said[0], said[1], cut=said[2])  # "fix the fence Kofi (by friday)"
    # The name before a verb: "Kofi build a bench", "Kofi will be able to…";
    # before a weak cue too ("could Kofi meet the tenants", "could Kofi find
    # time to fix…"), but the weak cue is no verb to start a lead-in before
    # ("find Kofi and tell him…": the later verb, or none).
    verbs = [hit]
    if hit is not None and " ".join(hit[1]) in WEAK_VERB_CUES:
        if resolve_span(toks[hit[0] + len(hit[1]) : hit[0] + len(hit[1]) + 1], roster):
            verbs = []  # "Kofi find Zuri and tell her…": whose order is asked
        later = lx.find_first(toks[hit[0] + 1 : n], lx.VERB_PHRASES)
        hit = None if later is None else (hit[0] + 1 + later[0], later[1])
        verbs.append(hit)
    for verb in verbs:
        if verb is not None and 1 <= verb[0] - i <= 5:
            name_end, told = name_then(toks, i, verb[0])  # "Kofi could not…", "Kofi don't forget…"
            span = list(toks[i:name_end])
            while len(span) > 1 and span[-1].low in _MODALS:  # "Kofi needs to build…"
                span.pop()
            if len(span) < name_end - i and span[-1].low.endswith("'s"):  # "Kofi's gonna fix…"
                t = span.pop()
                span.append(Tok(t.text[:-2], t.low[:-2], t.start, t.end - 2))
            res = resolve_span(span, roster) if len(span) <= 3 and not told else None
            if res is not None:
                return Address(verb[0], n, res)
    verb_at = hit[0] if hit is not None else n
    if (news := named_after_news(toks[:n], i, verb_at, lambda t: _exact([t], roster))) is not None:
        return Address(news[1], n, resolve_span(toks[news[0] : news[0] + 1], roster))
    return _within(toks[:n], i, roster, verb_at) or Address(i, n)


def _relayed(toks: Sequence[Tok], k: int, roster: Roster) -> Address | None:
    """The order passed on after "NAME," (`relay.passed_on`): the one told's."""
    j = passed_on(toks, k, lambda t: _exact(t, roster))
    inner = None if j is None else address_of(toks[j:], roster)
    if j is None or inner is None or inner.resolution is None:
        return None
    if toks[j].low in ("if", "when") and not inner.pronoun:
        return None  # "Abeni, if it rains, fix the gate": Abeni's
    return inner.shifted(j)


def _vocative(toks: Sequence[Tok], i: int, roster: Roster) -> Address | None:
    """A name said alone between commas after the order has begun ("fix
    the fence, Tariq, urgently"): the agent, and the clause without it.
    Never when the name is not alone ("…, for Kofi, …"), starts a second
    order ("fix the gate, Zuri, map the river"), is one of a list ("visit
    Grandma, Imani, and the kids"), when another roster name is said, or
    when the speaker does it ("I'll fix the gate, Kofi, don't worry")."""
    lows = [t.low for t in toks]
    # …or before a full stop and a remark: "Fix the gate, Kofi. It's urgent." (a spoken probe)
    commas = [k for k in range(i + 1, len(toks)) if lows[k] in (",", ".", "!")]
    found: list[tuple[int, Resolution]] = []
    for left, right in itertools.pairwise(commas):
        apart = right - left == 2 and lows[left] == ","
        res = _named(toks[left + 1 : right], roster) if apart else None
        if res is not None and lows[left + 1] not in STOPWORDS:
            found.append((left, res))
    # "I need you to fix the gate, Kofi, by Friday" asks it of Kofi (it went
    # to the default agent); "I'll fix the gate, Kofi, don't worry" does not
    asked_you = bool(found) and _ASKED_YOU.search(" ".join(lows[: found[0][0]])) is not None
    if len(found) != 1 or (any(w in _SPEAKER for w in lows[: found[0][0]]) and not asked_you):
        return None
    left, res = found[0]
    first = lx.find_first(toks[i:left], lx.VERB_PHRASES)
    told = False
    if first is not None and first[0] > 1:  # "to" only as someone's deed told,
        before = toks[i + first[0] - 1].low  # not "Try to fix…, Kofi, …" (a review)
        told = before in TOLD_BEFORE and (before != "to" or to_is_told(toks, i, i + first[0]))
    if told and not asked_you:
        return None  # "the plumber's coming to fix the boiler, Abeni, let him in": news
    after = toks[left + 3 : left + 5]
    if after and (
        lx.phrase_at(toks, left + 3, lx.VERB_PHRASES) is not None
        or (
            after[0].low in ("and", "or")
            and len(after) > 1
            and (after[1].low in lx.DETERMINERS or after[1].text[:1].isupper())
        )
    ):
        return None
    named_elsewhere = (
        resolve_span([t], roster) for k, t in enumerate(toks) if k != left + 1 and k >= i
    )
    if any(r is not None and r.method in ("exact", "fuzzy") for r in named_elsewhere):
        return None
    return Address(i, len(toks), res, cut=(left, left + 3))


_SPEAKER: Final = frozenset(words("i i'll i'm i've i'd we we'll we're let's"))
# "I need you to fix the gate, Kofi, …": asked of the one named, not the speaker's
_ASKED_YOU: Final = re.compile(r"\bi(?: really)? (?:need|want|'d like|would like) you to\b")


_NAME_BREAKS: Final = frozenset(".:;!?")  # "Zuri? Could you check the garage?"
# Said first, before the name: "Good morning Zuri. Please check the well.",
# "Thanks Kofi. Can you fix the gate?", "Sorry, Kofi. Fix the gate please."
_GREETINGS: Final = lx.phrases(
    ["good morning", "good afternoon", "good evening", "morning", "thanks", "thank you", "sorry"]
)
# Between a name said apart and its verb: "Kofi. Can you fix the gate?"
_NEGATING: Final = frozenset(words("not no never nor"))


def _near(span: Sequence[Tok], near: tuple[str, str] | None, roster: Roster) -> Resolution | None:
    """ "Duri, build a shelter": a one-word name no one has, said first, is the
    roster name the recogniser ranked first in that slot, if spelled like it
    (as after "ask"/"tell": `_frame`). Spoken only: `near` is None typed.
    Never a word people open with ("Sorry, fix the gate": "sorry" is spelled
    more like Zuri than "Duri" is), nor one written in lower case."""
    if len(span) != 1 or span[0].low in _OPENERS or not span[0].text[:1].isupper():
        return None
    return _slot_guess(span, near, roster)


def _slot_guess(
    span: Sequence[Tok], near: tuple[str, str] | None, roster: Roster
) -> Resolution | None:
    """The roster name the recogniser ranked first in the name slot, when the
    slot held exactly this one word and it is spelled like that name."""
    if near is None or len(span) != 1 or [t.low for t in lx.tokenize(near[0])] != [span[0].low]:
        return None
    return near_agent(span[0].text, near[1], roster)


# Said first and apart, and not a name (`lx.FILLERS` are skipped before).
_OPENERS: Final = frozenset(
    words("""sorry sir madam sure thanks look actually honestly guys folks everyone friends
    first also then today tonight tomorrow yes no quick quickly again""")
)


def _exact(span: Sequence[Tok], roster: Roster) -> bool:
    res = resolve_span(span, roster)
    return res is not None and res.method in ("exact", "fuzzy")


def _named(span: Sequence[Tok], roster: Roster) -> Resolution | None:
    """The agent a span apart names: never "not Kofi" / "no Kofi"."""
    if any(t.low in _NEGATING for t in span):
        return None
    return resolve_span(span, roster)


# Between a name and its verb: "Kofi needs to / has to / is going to / ought to fix…".
_MODALS: Final = frozenset(
    words("needs need has got gotta gonna ought going is to should must will can could please")
    + words("would be able better had mind possibly just kindly")
)
# How far into the sentence an agent is still being addressed: "When you
# get a chance, Kofi, …", "Would it be possible for Imani to …".
_LEAD_MAX_WORDS: Final = 10
# Frames that name the agent after a few words of politeness: "is it
# possible to have Kofi fix…", "what about asking Kofi to…", "I'd like Kofi
# to…", "could we get Tariq to…", "is it possible for Kofi to…".
_INNER_FRAMES: Final = lx.FRAME_WORDS | frozenset(
    words("asking telling having getting letting for like want need")
)


def _within(toks: Sequence[Tok], i: int, roster: Roster, verb_at: int) -> Address | None:
    """An agent addressed after a lead-in and before the first verb: the clause keeps the
    lead-in ("first thing tomorrow, Kofi, fix the gate": its deadline), not the address."""
    n = len(toks)
    last = min(i + _LEAD_MAX_WORDS, verb_at, n)
    # ", Kofi, …", and a name said apart after a sentence: "The fence is
    # down. Kofi, fix it.", "Tomorrow. Kofi, fix the gate." (not after another
    # roster name: "Kofi is here. Zuri, fix the gate." is asked about).
    far = min(verb_at, n, i + 3 * _LEAD_MAX_WORDS)  # further in, right before the order only
    commas = [k for k in range(i + 1, far + 1) if k < n and apart_at(toks, k)]
    for left, right in itertools.pairwise(commas):
        asked = all(t.low in ASKED_ON for t in toks[right + 1 : verb_at])
        if 1 <= right - left - 1 <= (3 if right <= last else 1) and (right <= last or asked):
            res = resolve_span(toks[left + 1 : right], roster)
            alone = resolve_span(toks[right + 1 : right + 2], roster) is None
            if (
                res is not None
                and alone
                # a pronoun after it may mean the one in the news ("Kofi is home,
                # Zuri, tell him to…": a review): then that name still counts
                and _named_before(toks, i, left, roster, news=not _pronoun_in(toks, right)) is None
            ):
                cut = None if toks[left].low == "so" else (left, right + 1)  # news before "so"
                if (relay := _relayed(toks, right + 1, roster)) and relay.cut is None:  # "…, Zuri,
                    return relay._replace(start=i, cut=(left, relay.start))  # ask Kofi to…"
                return Address(right + 1 if cut is None else i, n, res, cut=cut)
            if res is not None:
                return None  # ", Kofi, Zuri, …": not one agent
    for j in range(i + 1, last):
        if toks[j].low not in _INNER_FRAMES:
            continue
        framed = _frame(toks, j, roster, None)
        if framed is None or framed.others is not None or framed.unknown is not None:
            continue
        if framed.resolution is not None:
            return Address(i, n, framed.resolution, cut=(j, framed.start))
        res = _named_before(toks, i, j, roster)
        if res is not None:
            said = next((t.text for t in toks[j + 1 : framed.start] if t.low in lx.PRONOUNS), None)
            return Address(i, n, res, cut=(j, framed.start), pronoun=said)
    return _wished(toks, i, roster, verb_at)


def _wished(toks: Sequence[Tok], i: int, roster: Roster, verb_at: int) -> Address | None:
    """A roster name wished to do the order (`wish.wished_subject`): the agent."""
    k = wished_subject(toks, i, verb_at, _LEAD_MAX_WORDS)
    res = None if k is None else resolve_span(toks[k : k + 1], roster)
    if k is None or res is None or res.method not in ("exact", "fuzzy"):
        return None
    return Address(i, len(toks), res, cut=(i if polite_frame(toks, i, k) else k, verb_at))


def _pronoun_in(toks: Sequence[Tok], k: int) -> bool:
    """ "…, Zuri, tell him to…", "…, should he…": a pronoun passed an order to,
    right after the address (not "…, Zuri, look after him": whom to look after)."""
    for j in range(k + 1, min(k + 5, len(toks))):
        if toks[j].low in lx.PRONOUNS:
            return word_at(toks, j - 1) not in _ACTS_ON  # "…, Zuri, please tell him…"
    return False


# Before a pronoun the order acts on: "look after him", "help her", "for him".
_ACTS_ON: Final = frozenset(
    words("after for with to on about at of help visit watch mind protect guard check see")
)


def _named_before(
    toks: Sequence[Tok], i: int, j: int, roster: Roster, *, news: bool = False
) -> Resolution | None:
    """ "When Kofi gets home, tell him to…": the one roster agent the lead-in
    names, whom the frame's pronoun means (two names: no one). `news`: a name
    that is the subject of news does not count ("Kofi fixed the tap last
    week, but Zuri, check…": a typed probe, fourteen such were asked who)."""
    found = [
        resolve_span([t], roster)
        for k, t in enumerate(toks[i:j], start=i)
        if t.low not in STOPWORDS and not (news and news_of(toks, k))
    ]
    named = {r.agent: r for r in found if r is not None and r.method in ("exact", "fuzzy")}
    return next(iter(named.values())) if len(named) == 1 else None
