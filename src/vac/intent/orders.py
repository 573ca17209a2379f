"""Where the order in a clause is, and whether there is more than one.

`named_before`: the roster agents named before the verb (the parser asks
about them rather than send the draft to the default agent). `meant_verb`:
the verb a weak cue ("find time to fix…") leads to. `another_order`: the
words of a second order after the first ("…, and Zuri, map the river"),
which the draft's summary names. `noun_words`: where a verb's word is a
noun ("the vegetable patch"). `unknown_deed`: the words an agent was asked
to do when none is a verb of ours ("Kofi, water the plants"), which
`no_verb_question` quotes; `needless`: the words said to be unnecessary ("no
need to fix the gate"); `speaker_does_it`: the speaker's own plan ("I'll
fix the gate"). Pure: tokens in, indices and words out.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Final

from vac.intent import bans, passive
from vac.intent import lexicon as lx
from vac.intent.address import Address, resolve_span
from vac.intent.lexicon import Tok, words
from vac.intent.roster import STOPWORDS, Roster
from vac.intent.sure_of_others import their_deed
from vac.intent.verb_cues import DONE_FORMS, THIRD_PERSON, WEAK_VERB_CUES
from vac.intent.when_match import word_at
from vac.intent.wish import mind_is_no_order, remarks

# After these a verb's word is a noun: "the maps are in the drawer", "my
# report is late". Not "her" or "that", which also stand before verbs
# ("help her build…", "say that…"), nor "a": the recogniser writes it for an
# unstressed "to" ("Tell me what a fix the tap" for "Tell Zuri to fix").
_NOUN_MARKERS: Final = frozenset(words("the my our your his their its this these those any"))
# After "that" and a verb's word, these make the word a noun: "that map you made".
_SAID_OF_IT: Final = frozenset(words("you he she they we i is was looks you've"))
# A possessive is one too ("Zuri's map of the river is wrong", "Kofi's fix
# for the gate"), not these contractions of "is" / "us" / "has".
_NOT_POSSESSIVE: Final = frozenset(
    words("""it's that's there's here's what's who's where's when's how's let's he's she's
    one's everyone's everything's nothing's something's""")
)
# Words of a noun phrase before its last noun: "the old vegetable patch".
_NOUN_WORDS: Final = 3
# After a verb these start what it acts on: "the neighbours fix the gate",
# "the kids help me", "the boys help out"; so does a name ("…help Grandma").
_OBJECT_STARTS: Final = lx.DETERMINERS | frozenset(words("me us him them it with out up"))
# A time said before the verb: "Kofi, this week fix fences" (not "night":
# "the night watch roster").
_TIME_NOUNS: Final = frozenset(
    words("""morning afternoon evening week weekend month year time day days after before
    until tomorrow today tonight monday tuesday wednesday thursday friday saturday sunday""")
)


def noun_words(clause: Sequence[Tok], roster: Roster) -> frozenset[int]:
    """Where a verb's word is a noun: right after a determiner ("the map"),
    or ending the words of a noun phrase after one ("the vegetable patch
    near the barn", "the night watch roster", "the security check area"),
    unless what it acts on follows ("have the neighbours fix the gate")."""
    out: set[int] = set()
    for i, t in enumerate(clause):
        if t.low == "that" and word_at(clause, i + 2) in _SAID_OF_IT:
            out.add(i + 1)  # "that map you made is brilliant" (a probe: drafted a Map)
        possessive = t.low.endswith("'s") and len(t.low) > 2 and t.low not in _NOT_POSSESSIVE
        if t.low not in _NOUN_MARKERS and not possessive:
            continue
        out.add(i + 1)
        if word_at(clause, i - 1) in lx.FRAME_WORDS:
            continue  # "have the neighbours fix fences": who, then the verb
        for j in range(i + 2, min(i + 2 + _NOUN_WORDS, len(clause))):
            before = clause[j - 1]
            if not before.low.isalpha() or before.low in STOPWORDS | _TIME_NOUNS:
                break  # "this week fix fences", "the day after tomorrow guard sheep"
            if lx.phrase_at(clause, j - 1, lx.VERB_PHRASES) is not None:
                break  # "the kids fix…": a verb ends the noun phrase
            cue = lx.phrase_at(clause, j, lx.VERB_PHRASES)
            if cue is None:
                continue
            after = j + len(cue)
            acts_on = after < len(clause) and (
                clause[after].low in _OBJECT_STARTS
                or clause[after].text[:1].isupper()
                or resolve_span([clause[after]], roster) is not None
            )
            if not acts_on:
                out.add(j)
            break
    return frozenset(out) | remarks(clause)


# "No need to fix the gate, Kofi, it's fine": the verb after these is not
# asked for. Manner and autonomy cues that hold them ("no need to rush",
# "no need to ask me") are read as before: neither has a verb of ours.
_NEEDLESS: Final = lx.phrases(
    [
        "no need to",
        "don't need to",
        "do not need to",
        "doesn't need to",
        "does not need to",
        "needn't",
        "need not",
        "don't have to",
        "do not have to",
        "doesn't have to",
        "does not have to",
        "not necessary to",
        "no point in",
        # A duty released: "I shan't need you to guard the gate tonight after all"
        "shan't need you to",
        "won't need you to",
        "will not need you to",
        "won't need to",
        "no call to",
        "don't need you to",
    ]
)


def needless(clause: Sequence[Tok]) -> frozenset[int]:
    """The words said to be unnecessary ("no need to fix the gate"): from
    the cue over the deed's first word, to the next punctuation, stop
    ("…, but check the hives"), dash, or verb of ours ("no need to ask just
    fix the gate"; not one after "or"). Not "need not only…", which asks for
    more. And the speaker's own "I don't know…" (`bans.speakers_own`)."""
    out: set[int] = set()
    stop = -1  # where the last scan stopped: every word before it passed
    for i in range(len(clause)):
        cue = lx.phrase_at(clause, i, _NEEDLESS)
        if cue is None or word_at(clause, i + len(cue)) == "only":
            continue
        j = i + len(cue) + 1
        if j <= stop:  # "no need to do it no need to do it…": linear, not one scan per cue
            j = stop
        while (
            j < len(clause)
            and clause[j].low not in lx.PUNCT
            and clause[j].start == clause[j - 1].end + 1  # a dash or more between: apart
            and lx.phrase_at(clause, j, lx.FORBID_STOPS) is None
            # "no need to fix the gate or check the hives": neither
            and (lx.phrase_at(clause, j, lx.VERB_PHRASES) is None or clause[j - 1].low == "or")
        ):
            j += 1
        stop = j
        out.update(range(i, min(j, len(clause))))
    return frozenset(out) | bans.speakers_own(clause)  # "I can never find the…, map it"


_CONDITION_CUES: Final = frozenset(words("if when once unless whenever after before until till"))


# "If Kofi's free…", "once Kofi's back…"; not "once Kofi's car arrives".
_HOW_ONE_IS: Final = frozenset(
    words("free back home done finished around available here there up awake out in off busy")
    + words("ready not able")
)


def named_before(clause: Sequence[Tok], verb_at: int, roster: Roster) -> list[str]:
    """The roster agents named (closely spelled) before the verb."""
    # "If Kofi's free later, he can…" (a probe: the default agent's) as
    # "Kofi"; not "Kofi's bike is broken, can you…", said to the default.
    bare = (
        t._replace(text=t.text.removesuffix("'s"), low=t.low.removesuffix("'s"))
        if word_at(clause, k - 1) in _CONDITION_CUES and word_at(clause, k + 1) in _HOW_ONE_IS
        else t
        for k, t in enumerate(clause[:verb_at])
    )
    found = (resolve_span([t], roster) for t in bare if t.low not in lx.PUNCT)
    names = [r.agent for r in found if r is not None and r.method in ("exact", "fuzzy")]
    return list(dict.fromkeys(names))


def meant_verb(
    clause: Sequence[Tok], hit: tuple[int, lx.Phrase], skip: frozenset[int], roster: Roster
) -> tuple[int, lx.Phrase] | None:
    """After a weak cue ("find time to fix…"), the verb of another cue within
    `_WEAK_REACH` words; None when a deed's form stands there instead ("make
    sure the gate is fixed": `intent.passive` reads that); else the weak cue.
    A weak cue before an agent's name ("find Kofi and tell him to fix…",
    "make sure Kofi fixes…") is never the verb: the later one, or none."""
    end = hit[0] + len(hit[1])
    named = end + (word_at(clause, end) == "that")  # "make sure (that) Kofi fixes…"
    agent_next = named < len(clause) and resolve_span([clause[named]], roster) is not None
    if word_at(clause, named) in ("he", "she", "they"):
        return None  # "make sure he locks it after": who? (a probe: "protect he locks it")
    if hit[1][0] == "make" and their_deed([t.low for t in clause[named : named + 5]]):
        return None  # "make sure the kids don't go in the garage": theirs (T26: a ban on ours)
    reach = len(clause) if agent_next else min(end + _WEAK_REACH, len(clause))
    for j in range(end, reach):
        if clause[j].low in ("and", "then") and not agent_next:
            break  # "meet the teacher and help her…": a second order
        if j in skip:  # a boundary, or the word after "the" ("make sure the gate…")
            continue
        later = lx.phrase_at(clause, j, lx.VERB_PHRASES)
        if later is not None and " ".join(later) not in WEAK_VERB_CUES:
            return j, later
    if agent_next or any(clause[j].low in DONE_FORMS for j in range(end, reach)):
        return None
    if word_at(clause, end + (word_at(clause, end) in lx.DETERMINERS)) in _NO_THING:
        return None  # "find time to water the plants": no verb of ours, nothing to find
    return hit


# After a weak cue these are no thing to act on ("find time to…", "find a way to…").
_NO_THING: Final = frozenset(words("time moment minute chance way"))


_WEAK_REACH: Final = 5


def another_order(
    source: str, clause: Sequence[Tok], start: int, skip: frozenset[int]
) -> str | None:
    """The words of a second order after the first ("…, and Zuri, map the
    river", "…, then check the well"): a verb within four words of "and",
    "then", "also" or a comma, outside boundaries and autonomy phrases."""
    for k in range(start, len(clause)):
        if clause[k].low not in _THEN:
            continue
        ahead = range(k + 1, min(k + 5, len(clause)))
        said_after = source[clause[k + 1].start : clause[-1].end] if k + 1 < len(clause) else ""
        if any(
            _second_verb(clause, j) or _said_of(clause, j, k) for j in ahead if j not in skip
        ) or (
            # "…and the roof needs patching": an order said about the thing
            said_after and passive.as_order(said_after) is not None
        ):
            first = k + 1 + (k + 1 < len(clause) and clause[k + 1].low in _THEN)
            if first < len(clause):
                return source[clause[first].start : clause[-1].end]
    return None


_THEN: Final = frozenset(words("and then also ,"))
# After these the verb's words are how to do the first ("make it quick",
# "take care of yourself", "watch your step", "check with Kofi first").
_HOW_NOT_WHAT: Final = frozenset(words("it it's yourself yourselves your sure with out"))


def _said_of(clause: Sequence[Tok], j: int, k: int) -> bool:
    """A verb of ours said of someone after "and" ("make sure Kofi fixes the
    gate and Zuri checks the hives"): a second order, said unseen before."""
    return j - 1 > k and clause[j].low in THIRD_PERSON and clause[j - 1].text[:1].isupper()


def _second_verb(clause: Sequence[Tok], j: int) -> bool:
    """Whether a verb at `j` starts another order: not reporting back on the
    first ("and report back", "and let me know"), not a manner ("make it
    quick", "watch your step"), not a boundary's ("no help from the kids")."""
    cue = lx.phrase_at(clause, j, lx.VERB_PHRASES)
    if cue is None or lx.verb_of(cue) == "Report" or word_at(clause, j - 1) in ("no", "not"):
        return False
    if mind_is_no_order(clause, j):  # "…, and mind the paint"
        return False
    return word_at(clause, j + len(cue)) not in _HOW_NOT_WHAT


# Said between the agent's name and the deed: "Kofi, please just water…".
_BEFORE_DEED: Final = frozenset(words("please and just kindly"))
# Words quoted at most: the deed and its thing, not the whole sentence; a
# second order or a reason after these is not quoted.
_DEED_WORDS: Final = 7
# A clause starting with these starts with when or why, not with a deed:
# "Kofi, after lunch, start on the gate…", "Kofi, when you've fixed it…".
_NOT_DEED_STARTS: Final = frozenset(
    words("""after before when whenever while if unless until till once because since
    as today tonight tomorrow yesterday later soon first next last honestly actually
    basically""")
)
_DEED_ENDS: Final = lx.PUNCT | frozenset(words("and then but so because"))


def unknown_deed(source: str, clause: Sequence[Tok], roster: Roster) -> str | None:
    """The words of an order with no verb of ours, as said, when the clause
    starts with one ("water the plants", "sweep the porch"; "God the
    orchard" when the recogniser wrote it; "good morning"): up to the first
    punctuation, "and", or a word that ends a target ("by Friday"), seven
    words at most. None when the clause does not
    start with a word of its own ("Kofi, the gate…", "Kofi, I think…",
    "Kofi, after lunch…")."""
    k = 0
    while k < len(clause) and (
        clause[k].low in _BEFORE_DEED or (clause[k].low == "go" and word_at(clause, k + 1) == "and")
    ):
        k += 1
    if k >= len(clause) or not clause[k].low.isalpha():
        return None
    if clause[k].low in STOPWORDS | _NOT_DEED_STARTS | lx.QUESTION_FIRST:
        return None  # "Kofi, honestly…", "Tariq, how about Kofi…"
    if lx.phrase_at(clause, k, lx.FORBID_MARKERS) or resolve_span([clause[k]], roster):
        return None  # "Kofi, never fix the gate": a boundary; "Kofi, Kofi, Kofi"
    if lx.contains(clause, lx.VERB_PHRASES, skip=noun_words(clause, roster)):
        return None  # a verb of ours is there, but not as the order ("meet Zuri at…")
    end = k + 1  # to a time, a manner, a place or the like ("…the plants | by Friday")
    while end < len(clause) and clause[end].low not in _DEED_ENDS:
        if end - k == _DEED_WORDS or lx.phrase_at(clause, end, lx.TARGET_STOPS):
            break
        end += 1
    more = end - k == _DEED_WORDS and end < len(clause) and clause[end].low not in _DEED_ENDS
    return source[clause[k].start : clause[end - 1].end] + ("…" if more else "")


EIGHT_VERBS: Final = "repair, map, look into, protect, build, support, befriend or report on"


def no_verb_question(
    source: str, clause: Sequence[Tok], address: Address, roster: Roster
) -> tuple[str, str | None]:
    """Quote the deed when an agent was addressed with one that is not ours
    ("Kofi, water the plants"): the user learns what was heard and why it
    was not passed on, a misheard verb included. With the question, the
    deed's words when quoted whole, which an answer with a verb of ours
    ("take care of the plants") takes the place of (`runtime.choices`)."""
    deed = unknown_deed(source, clause, roster) if address.cut is None else None
    if address.resolution is None and (courtesy := _courtesy(lx.tokenize(source))):
        return courtesy, None  # "thanks", "hello": not a list of verbs (a typed probe)
    if address.resolution is None or (deed is None and address.resolution.method != "exact"):
        return f"I heard you, but not what to do. Should someone {EIGHT_VERBS} something?", None
    agent = address.resolution.agent
    if deed is None:  # "Kofi, the radiator's cold": said to Kofi, whose the answer is
        return f"I heard you, but not what to do. Should {agent} {EIGHT_VERBS} something?", None
    question = (
        f'I heard "{deed}" for {agent}, but I only pass on these: {EIGHT_VERBS} '
        f"something. What should {agent} do?"
    )
    return question, None if deed.endswith("…") else deed


# Words that only thank or greet: answered in kind, with what vac can do.
_THANKS: Final = frozenset(
    words("thanks thank you ta cheers thx much so very ever lot kindly appreciated appreciate it")
    + words("a that's great lovely brilliant perfect wonderful awesome amazing mate")
)
_HELLO: Final = frozenset(
    words("hello hi hey hiya yo morning good afternoon evening there dear all everyone")
)


def courtesy(clause: Sequence[Tok]) -> str | None:
    """The answer in kind to thanks or a greeting said alone, else None."""
    return _courtesy(clause)


def _courtesy(clause: Sequence[Tok]) -> str | None:
    lows = [t.low for t in clause if t.low not in lx.PUNCT]
    if not lows or len(lows) > 6:
        return None
    if {*lows} <= _THANKS and lows[0] in ("thanks", "thank", "ta", "cheers", "thx"):
        return "You're welcome. Tell me whenever someone should do something."
    if {*lows} <= _HELLO and lows[0] in ("hello", "hi", "hey", "hiya", "yo", "good", "morning"):
        return f"Hello. What should someone do? I pass on: {EIGHT_VERBS} something."
    while lows and " ".join(lows) not in _BYE and lows[0] in _THANKS:
        lows = lows[1:]  # "thanks, bye", "cheers, that's everything for now"
    if " ".join(lows) in _BYE:  # a conversation probe (T22c): asked what to do
        return "Okay. Tell me whenever someone should do something."
    return None


# Said to end: "that's all", "bye", "nothing else" (after thanks, or alone).
_BYE: Final = frozenset(
    f"{said}{rest}"
    for said in (
        *("bye", "bye bye", "goodbye", "good night", "goodnight", "night", "see you"),
        *("see ya", "that's all", "that's it", "that's everything", "that will be all"),
        *("that'll be all", "nothing else", "nothing more", "all done", "i'm done", "done"),
    )
    for rest in ("", " for now", " for today", " then", " now")
)


# "I'll fix the gate", "I need to fix it myself": the speaker's own plan, no
# request to anyone (unless an agent is named: "I'd like Kofi to…").
# "we're gonna…", "let's fix…", "we've got to…": ours too, unless named.
_WE: Final = frozenset(words("we we'll we're we've we'd let's lets"))
_I: Final = frozenset(words("i i'll i'm i'd i've")) | _WE
_MY_OWN: Final = frozenset(
    words(
        "will am are going to gonna gotta need have must should can could want wanna like would "
        "shall might may just also myself ourselves really first then ought got better off "
        "heading about out "
        # "I might not fix…", "we always guard…", "I used to fix…": the
        # speaker's own deed or habit (each was the default agent's draft).
        "not never always usually often sometimes normally used "
        # "I'll go fix the gate", "we'll go and check", "I'll try to fix it"
        # (a probe: each was the default agent's draft, unflagged)
        "go come try and "
        # "I forgot to fix the gate", "I keep forgetting to visit Grandma": what
        # the speaker did not do (a blind probe, T29: drafts); not "I meant" (a review)
        "forgot forget forgetting keep kept remember remembered "
        "all both"  # "let's all check the roof", "we all need to…" (T29: the default agent's)
    )
)
# "Shall we fix the gate?", "should I fix it?": the speaker's plan asked.
_ASKING: Final = frozenset(words("shall should can could must may"))

_LEAD_INS: Final = frozenset(
    words("ok okay so well um uh hmm now then yes yeah no maybe perhaps probably definitely")
    # "great, now I have to fix the gate myself", "guess I'll fix it then"
    + words("great fine right alright oh anyway guess suppose sigh ugh")
)


def speaker_does_it(clause: Sequence[Tok], verb_at: int, *, named: bool) -> bool:
    """Whether the words before the verb are "I (will / need to / am going to …)",
    or "we…" when no agent is named ("We need to fix the gate, Kofi" is Kofi's)."""
    said = [t.low for t in clause[:verb_at] if t.low not in _LEAD_INS and t.low not in lx.PUNCT]
    if said and said[-1] in ("need", "want", "like", "would"):
        return False  # "I need help with the fence": the verb is the object
    if said[-3:-1] == ["mind", "if"] and said[-1] in _I:
        return True  # "(Kofi,) do you mind if I check the hives?": leave asked
    if said[-2:] in (["let", "me"], ["let", "us"]) or said[-1:] == ["lemme"]:
        return True  # "hang on, let me check with my wife first": the speaker's own
    if said[-3:] == ["remind", "me", "to"] or said[:3] == ["note", "to", "self"]:
        return True  # "remind me to fix the gate tomorrow": the speaker's (a probe: Abeni's)
    if not named and said[-1:] == ["to"] and said[-3:-1] in _TOLD_ME:
        # "she told me to fix the gate": the speaker was asked (not "…said to…",
        # nor with it handed on: "…, can someone do it?", a review)
        after = [t.low for t in clause[verb_at:]]
        return not any(a in _ASKING and b in _WHO for a, b in itertools.pairwise(after))
    tail = [t.low for t in clause[:verb_at]]
    tail = tail[max((k for k, w in enumerate(tail) if w in lx.PUNCT), default=-1) + 1 :]
    if _with_me(tail):  # in the order's own words: not "my wife and I are away, check…"
        return True  # "me and Zuri will check the hens", "my wife and I will…" (a probe)
    # "we'll fix it, Kofi": ours still; "Kofi, we've got to / we'd better…": his
    mine = _I - {"we", "we've", "we'd", "let's", "lets"} if named else _I
    if not named and len(said) > 1 and said[0] in _ASKING and said[1] in _I:
        said = said[1:]  # "shall we fix the gate?"
    return bool(said) and said[0] in mine and len(said) <= 5 and all(w in _MY_OWN for w in said[1:])


_ME: Final = frozenset(words("i me myself i'll"))
_WHO: Final = frozenset(words("you someone somebody anyone anybody u"))
# Before "to" and the verb, what the speaker was asked (a twelfth typed probe
# drafted each for the default agent): "my boss asked me to…", "the vet told
# us to…", "he wants me to…".
_TOLD_ME: Final = [
    [told, me]
    for told in words("told asked asks wants want wanted needs reminded begged expects")
    for me in ("me", "us")
]
_PLANNED: Final = frozenset(words("will 'll going gonna are shall i'll"))


def said_as_mine(
    clause: Sequence[Tok], verb_at: int, toks: Sequence[Tok], address: Address
) -> bool:
    """The speaker's own deed ("I'll fix the gate", "me and Zuri will…"),
    unless the clause was cut around the agent's name ("I'd like Kofi to…")."""
    named = address.resolution is not None
    return (not named or address.cut is None) and (
        speaker_does_it(clause, verb_at, named=named)
        or planned_with_me([t.low for t in toks[: address.start]])
    )


def planned_with_me(lead: Sequence[str]) -> bool:
    """The words before the agent's address name the speaker with the agent
    and a plan ("me and Zuri will…", "Kofi and I will…": a probe drafted it
    for the agent); not "me and Zuri, check the hens"."""
    return not set(lead) & lx.PUNCT and _with_me(lead)


def _with_me(said: Sequence[str]) -> bool:
    """ "me and X will", "X and I are going to": the speaker among who does it."""
    if "and" not in said[:4]:
        return False
    k = said.index("and")
    pair = {said[k - 1] if k else "", said[k + 1] if k + 1 < len(said) else ""}
    return bool(pair & _ME) and any(w in _PLANNED for w in said[k + 1 : k + 4])


# "I'll ask Kofi to…", "I was going to tell Zuri to…": the speaker's plan
# to pass it on, not a request to pass it on now (an eleventh typed probe
# drafted each). Not "I'd like Kofi to…", "I want Kofi to…", "I'll have
# Kofi fix…", "I'll get Kofi to…" (an order, as "I'll have the fish"), nor
# with "pass it on", "can you", "please" after it (a review).
_ASK_LATER: Final = frozenset(words("ask tell remind"))  # "I'll get Kofi to…" as "have"
# Said after it, the plan is passed on now: "…, can you pass it on", "…, please".
_PASS_ON: Final = frozenset(words("pass can could please"))
_PLANS: Final = (
    ("i'll",), ("i", "will"), ("i'm", "going", "to"), ("i'm", "gonna"), ("i", "was", "going", "to"),
    ("i", "was", "gonna"), ("i", "might"), ("i", "may"), ("i'll", "probably"), ("i'll", "just"),
)  # fmt: skip


# "get" only in a plan not yet made: "I might get Kofi to…" ("I'll get Kofi to…" orders).
_PLANS_UNSURE: Final = tuple(p for p in _PLANS if p[1:2] in (("might",), ("may",), ("was",)))


def asking_later(toks: Sequence[Tok], cut: tuple[int, int] | None) -> bool:
    """Whether the agent's name was cut from "<my plan> ask NAME to…"."""
    if cut is None or (frame := toks[cut[0]].low) not in _ASK_LATER | {"get"}:
        return False
    lead = tuple(t.low for t in toks[: cut[0]] if t.low not in lx.PUNCT)
    passed_on = any(t.low in _PASS_ON for t in toks[cut[1] :])
    plans = _PLANS if frame != "get" else _PLANS_UNSURE
    return not passed_on and any(lead[-len(plan) :] == plan for plan in plans)
