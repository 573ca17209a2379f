"""How a change to a pending draft is said: the words of one (a day, how
soon, a name), and the everyday words wrapped around one.

A conversation probe (the twenty-first session) found changes that work
said plainly ("push it back a day", "not Kofi, Zuri", "any day is fine",
"Imani instead") asked about when wrapped: "can we push it back a day",
"ok but not Kofi, Zuri", "no problem, but make it Zuri", "any day is fine
really", "can Imani do it instead? Tariq's at work", "Imani should go
instead". `unwrapped` gives the plain forms to read when the words as said
change nothing; the draft is changed only when one of them is a change.
Pure: text in, text out.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Final

from vac.intent import calendar_words as cw
from vac.intent.lexicon import words

# Said before a change: agreement, then "but", then a request's frame.
_AGREED: Final = re.compile(
    r"^\W*(?:(?:ok|okay|yes|yeah|sure|fine|right|alright|great|cool|no\s+problem|no\s+worries)"
    r"\W+)?but\W+",
    re.IGNORECASE,
)
_FRAMED: Final = re.compile(
    r"^\W*(?:(?:can|could)\s+(?:we|you|they|i)|let'?s|(?:i'?d|we'?d)\s+(?:like|prefer)\s+to"
    r"|(?:no\W+)?(?:it|that)\s+(?:has|needs)\s+to\s+be"  # "no, it has to be today" (a probe)
    r"|(?:i|we)\s+(?:want|need)\s+to|please|just|maybe|perhaps)\s+(?=\w)",
    re.IGNORECASE,
)
_TRAILING: Final = re.compile(
    r"\W+(?:really|please|thanks|thank\s+you|then|if\s+possible|if\s+that'?s\s+(?:ok|okay|fine)"
    r"|i\s+(?:guess|think|suppose|reckon)"  # "by the end of the week I guess" (a probe)
    r"|whenever\s+(?:it\s+)?suits\s+(?:her|him|them|you|me))\W*$",
    re.IGNORECASE,
)
# A correction said another way than "no, …": "actually the shed door",
# "sorry, the shed door", "that's wrong, it's the shed roof".
_CORRECTED: Final = re.compile(
    r"^\W*(?:(?:actually|sorry|oops|my\s+bad|my\s+mistake)\W+"
    r"|(?:that'?s|that\s+is|it'?s)\s+(?:wrong|not\s+right|incorrect)\W+(?:it'?s\s+|it\s+is\s+)?)"
    r"(?=(?:the|my|our)\s)",
    re.IGNORECASE,
)
# "Imani should go instead", "have Imani go instead", "send Imani instead";
# "ask Kofi then", "ok, try Kofi" (a conversation probe, T22c: "I didn't
# change anything" to a counter-offer).
_GOES: Final = re.compile(
    r"^\W*(?:(?:have|get|send|let|can|could)\s+)?(\w+)\s+(?:should\s+|can\s+|could\s+|will\s+)?"
    r"(?:go|do\s+it|take\s+it|handle\s+it)?\s*instead\W*$"
    r"|^\W*(?:(?:ok|okay|fine|alright|then)\W+)?(?:ask|try|get|send)\s+(\w+)"
    r"(?:\s+(?:then|instead))*\W*$",
    re.IGNORECASE,
)
# A reason, then the change after ", so": the change (a conversation probe).
_SO_THEN: Final = re.compile(r",\s*so\s+(\w[^,]*)$", re.IGNORECASE)
# A yes, then a change said after a break: "yes — oh wait, make it Friday",
# "go ahead, make it Friday", "do it, but by Friday", "yes, the west field",
# "go ahead — sorry, I mean Kofi" (a conversation probe, T22c: "I didn't
# change anything", and the next yes confirmed the old draft).
_YES_FIRST: Final = re.compile(
    r"^\W*(?:yes|yeah|yep|yup|sure|go\s+ahead|do\s+it|confirm(?:ed)?)\W+"
    r"(?:(?:oh\W+)?(?:wait|hang\s+on|hold\s+on|sorry|actually|i\s+mean|no)\W+)*(?=\w)",
    re.IGNORECASE,
)
# Agreement said first, no "but": "fine, let Imani do it instead", "ok, make
# it Friday" (a conversation probe: "I couldn't change the draft").
_OK_FIRST: Final = re.compile(
    r"^\W*(?:(?:ok|okay|fine|alright|all\s+right|well|oh|hmm)\W+)+(?=\w)", re.IGNORECASE
)
# The agent before taken back: "no wait, Tariq was right", "go back to Tariq",
# "stick with Tariq", "Tariq after all" (a conversation probe: asked again,
# and a yes confirmed the agent the steward had just undone).
_BACK_TO: Final = re.compile(
    r"^\W*(?:(?:no|nah|wait|oh|actually|sorry|hmm|ok|okay)\W+)*(?:"
    r"(\w+)\s+(?:was|is)\s+(?:right|fine|better|ok(?:ay)?)(?:\s+after\s+all)?"
    r"|(?:go\s+back\s+to|back\s+to|stick\s+with|let'?s\s+stick\s+with|keep)\s+(\w+)"
    r"|(\w+)\s+after\s+all)\W*$",
    re.IGNORECASE,
)
# A thing said alone after a correction: its determiner and up to three
# words, none of a clause ("actually, the plumber comes Monday" is news).
_THING_MAX: Final = 4
_NO_THING: Final = frozenset(
    ("is", "are", "was", "were", "comes", "come", "will", "can", "needs", "has", "does", "fine")
) | frozenset((*cw.WEEKDAYS, "today", "tonight", "tomorrow", "again"))
# Someone, or something that happened, said after "actually" / "sorry": no
# thing to change to ("actually my wife", "sorry, the phone rang"; a review).
_NOT_A_THING: Final = frozenset(
    re.findall(
        r"\w+",
        """wife husband partner landlord landlady neighbour neighbor neighbours kids kid children
        toddler baby son daughter mum mom dad boss cat dog phone doorbell""",
    )
)
# After the change, words that take it back or keep the draft: only the whole is read.
_TAKEN_BACK: Final = frozenset(
    ("no", "not", "nah", "actually", "never", "mind", "leave", "keep", "fine", "wait", "cancel")
) | frozenset(("forget", "instead", "rather", "sorry", "hmm", "don't", "scratch", "ignore"))
_PAST: Final = frozenset(
    ("rang", "went", "came", "broke", "fell", "left", "ran", "got", "arrived", "called")
)
_NO_ONE: Final = frozenset(("i", "we", "you", "he", "she", "they", "it", "someone", "somebody"))
_SENTENCES: Final = re.compile(r"(?<=[?.!])\s+")
# "nope, wrong person": the agent is wrong, and no other named (a probe: asked again).
WRONG_AGENT: Final = re.compile(
    r"^\W*(?:(?:no|nope|nah|sorry|oops|ok|okay|fine|alright)\W+)?(?:(?:that'?s|it'?s)\s+)?"
    r"(?:(?:the\s+)?wrong\s+(?:person|agent|guy|girl|helper|name)"
    # "ok ask someone else then", "get someone else to do it" (a conversation
    # probe, T22c: the list of verbs, the counter-offer still waiting)
    r"|(?:(?:ask|get|find|try|send|have)\s+)?(?:someone|somebody|anyone|anybody)\s+else"
    r"(?:\s+(?:to\s+)?(?:do\s+it|take\s+it|go))?(?:\s+(?:then|instead|please))*)\W*$",
    re.IGNORECASE,
)


# "no, get Zuri to do it tonight": the agent and the time, one change each
# (a conversation probe: only the time was changed).
_DOES_IT_THEN: Final = re.compile(
    r"\b(?:(?:get|have|let|ask|make)\s+(\w+)\s+(?:to\s+)?|(?:can|could)\s+(\w+)\s+)do\s+it\s+"
    r"(?=\w)(?!(?:instead|properly|right|well|again|yourself|himself|herself|then|please|pls"
    r"|not|too|for|with|alone|anyway|though|tho|thanks|thank|cheers|actually|now|if|and|but|or"
    r"|innit|eh|yeah|ok|okay|mate)\b)",
    re.IGNORECASE,
)


_ASKED_INSTEAD: Final = re.compile(r"^\W*(?:can|could)\s+(\w+)\s+do\s+it\s+instead\W*$", re.I)


def one_each(text: str, names: Collection[str]) -> str:
    """ "get Zuri to do it tonight" → "Zuri, and tonight": each said apart;
    "Can Zuri do it instead?" → "Zuri can do it instead"."""
    text = _ASKED_INSTEAD.sub(r"\1 can do it instead", text)
    agents = {n.lower() for n in names}

    def apart(m: re.Match[str]) -> str:
        name = m[1] or m[2]
        return f"{name}, and " if name.lower() in agents else m[0]

    text = _DO_INSTEAD.sub(r"\1", _DOES_IT_THEN.sub(apart, text))
    text = _WRONG_ONE.sub("no, ", text)  # "wrong one, the fence" (T28c: asked what to do)
    if (who := _WHO_SHOULD.match(text)) is not None and who["name"].lower() in agents:
        text = f"{who['name']} can do it instead"  # "I think Imani should handle that one"
    return _NAME_THEN_WHEN.sub(
        lambda m: f"{m[1]}{m[2]}, and " if m[2].lower() in agents else m[0], text
    )


# "do the fence instead": the thing instead (a conversation probe, T28c: "do" was read as
# the start of a question).
_DO_INSTEAD: Final = re.compile(
    r"^(\W*(?:(?:no|nope|actually|ok|okay|sorry)\W+)*)do\s+(?=(?:the|my|our|this|that)\s"
    r"+(?!(?:\w+ing|laundry|dishes|washing|school|kids|children|baby|shopping)\b)\w+(?:\s+\w+)?"
    r"\s+instead[.!]*$)",
    re.IGNORECASE,
)
# The one who should do it, said in a sentence (a conversation probe, T29c:
# "it should be Kofi who does it", "I want Imani to do it" changed nothing).
_WHO_SHOULD: Final = re.compile(
    r"^\W*(?:(?:i\s+think|i\s+want|i'?d\s+(?:like|prefer|rather)|i\s+would\s+(?:like|prefer)"
    r"|actually|no)\W+)?(?:it\s+should\s+be\s+)?(?P<name>\w+)\s+(?:should\s+|to\s+|who\s+|can\s+)?"
    r"(?:does|do|handle|handles|take|takes)\s+(?:it|that|this)(?:\s+one)?(?:\s+instead)?\W*$",
    re.IGNORECASE,
)
_WRONG_ONE: Final = re.compile(
    r"^\W*(?:(?:that's|it's|that\s+is)\s+the\s+)?wrong\s+(?:one|thing)\W+"
    r"(?:(?:it's|it\s+is|i\s+meant?|i\s+said)\s+)?(?=(?:the|my|our)\s+(?!\w+ing\b|kids\b)"
    r"\w+(?:\s+\w+)?[.!]*$)",
    re.IGNORECASE,
)
# "no, Kofi by Friday", "make it Kofi tonight": the name and the time each a
# change (a conversation probe, T28c: the time taken, the name dropped).
_NAME_THEN_WHEN: Final = re.compile(
    r"^(\W*(?:(?:no|nope|nah|actually|sorry)\s*[,.!]\s*|make\s+(?:it|that)\s+)+)(\w+)\s+"
    # A time only: not "after all", "this time", "on his own", "by himself" (a review)
    r"(?=(?:by|before|until|till)\s+(?!(?:him|her|them)sel)|(?:tonight|today|tomorrow)\b"
    r"|(?:on|at|over)\s+the\s+weekend|(?:on|this|next|after)\s+(?:mon|tue|wed|thu|fri|sat|sun|week"
    r"|weekend|month|morning"
    r"|afternoon|evening|lunch|dinner|work|school|the\s+\d))",
    re.IGNORECASE,
)


def unwrapped(text: str) -> tuple[str, ...]:
    """The plain forms of a change said with everyday words around it, the
    barest last; none when there is nothing around it."""
    forms: list[str] = []
    weighed = _WEIGHED.split(text)  # "Friday... or Saturday? Saturday", "Kofi? no, Tariq"
    said = _SENTENCES.split(text.strip())
    rest = {w.strip(",.!?;:").lower() for w in " ".join(said[1:]).split()}
    if len(said) > 1 and not rest & _TAKEN_BACK:  # "can Imani do it instead? Tariq's at work":
        text = said[0]  # the reason after it (not "…? Never mind, Tariq is fine": a review)
        forms.append(text)
    for pattern in (_YES_FIRST, _AGREED, _OK_FIRST, _FRAMED, _TRAILING):
        bare = pattern.sub("", text).strip()
        if bare and bare != text:
            text = bare
            forms.append(text)
    corrected = _CORRECTED.match(text)
    thing = text[corrected.end() :].strip(" .!").lower().split() if corrected else []
    alone = not set(thing) & (_NO_THING | _NOT_A_THING | _PAST)
    if 1 < len(thing) <= _THING_MAX and alone:  # a thing alone
        forms.append(_CORRECTED.sub("no, ", text, count=1))
    back = _BACK_TO.match(text)
    name = back and (back[1] or back[2] or back[3])
    if name and name.lower() not in _NO_ONE | {"that", "this", "the", "one"}:
        forms.append(f"{name} instead")  # "no wait, Tariq was right"
    then = _SO_THEN.search(text)  # "they're coming Saturday, so Friday evening please"
    if then is not None:
        forms.append(then[1])
    goes = _GOES.match(text)
    who = goes and (goes.group(1) or goes.group(2))
    if who and who.lower() not in _NO_ONE:  # a name: not "I should go…"
        forms.append(f"{who} instead")
    last = _HEDGES.sub("", weighed[-1]).strip(" ,.!")
    alike = any(_kind(w) == _kind(last) != "" for w in weighed[:-1])  # not "Tariq? Saturday"
    if alike and 0 < len(last.split()) <= _THING_MAX:
        forms.append(last)  # the choice said last (T26c: the first kept, then confirmed)
    if (plain := _ACTUALLY.sub("", text)) != text:
        forms.append(plain)  # "actually it's not urgent" (T27c: "couldn't change")
    return tuple(dict.fromkeys(forms))


def _kind(said: str) -> str:
    """What a choice weighed aloud is of: "day" ("Friday", "tomorrow's better"),
    "name" (a word with a capital), else ""."""
    words = re.findall(r"[A-Za-z']+", said)
    if any(w.lower().removesuffix("'s") in _DAYS for w in words):
        return "day"
    return "name" if any(w[:1].isupper() for w in words) else ""


_DAYS: Final = frozenset((*cw.WEEKDAYS, "today", "tomorrow", "tonight", "weekend"))
_ACTUALLY: Final = re.compile(r"^\W*actually\W+(?=\w)", re.IGNORECASE)
# A choice weighed aloud, the last said after a question mark or a trailing off.
_WEIGHED: Final = re.compile(r"\?|\.\.\.+|…")
_HEDGES: Final = re.compile(
    r"^\W*(?:(?:hmm+|um+|uh+|er+|erm|well|or|no|nah|actually|wait|yeah|ok|okay)\b\W*)*"
    r"|\s*(?:'s|\s+is|\s+would\s+be)\s+better\W*$|\s+then\W*$",
    re.IGNORECASE,
)


# Asked to wait, the draft read back (a conversation probe: "hold on, not yet"
# was asked "Should someone repair, map, …?").
_WAIT: Final = (
    r"(?:hold\s+on|hang\s+on|wait|not\s+(?:just\s+|right\s+)?(?:yet|now)|let\s+me\s+think"
    r"|(?:one|a|just\s+a|give\s+me\s+a)\s+(?:sec|second|moment|minute|mo|tick))"
)
WAITING: Final = re.compile(
    rf"^\W*(?:(?:ok|okay|um|erm|uh|oh|no|hmm|thanks|thank\s+you)\W+)*{_WAIT}"
    rf"(?:\W+(?:{_WAIT}|please|thanks|thank\s+you))*\W*$",
    re.IGNORECASE,
)


# Words of a change: a day, how soon, a hand given.
_CHANGE_WORDS: Final = frozenset(
    (
        *("today", "tonight", "tomorrow", "week", "weekend", "instead", "rather", "check"),
        *cw.WEEKDAYS,
        *("urgent", "urgently", "asap", "priority", "rush", "hurry", "decide", "judgement"),
        "judgment",
    )
)


def sounds_like_a_change(text: str, names: Collection[str]) -> bool:
    """Whether short words name an agent, a day or how soon: likely meant as a change."""
    words = text.split()
    lows = {w.strip(",.!?;:'\"").lower() for w in words}
    return len(words) <= 8 and bool(lows & (_CHANGE_WORDS | {n.lower() for n in names}))


# Words said before a change that change nothing ("oh, no deadline", "ok, normal priority").
_LEAD_IN: Final = (
    r"^\W*(?:(?:no|nope|nah|oh|actually|sorry|and|but|also|ok|okay|wait|so|well|please)\W+)*"
)
# A deadline taken off: "no deadline", "forget the deadline", "there's no
# due date", "it doesn't need a deadline", "any time is fine".
NO_DEADLINE: Final = re.compile(
    _LEAD_IN + r"(?:"
    r"(?:(?:(?:there'?s|there\s+is|it\s+has|with|and|but|just)\s+)?(?:no|without\s+a)"
    r"|(?:please\s+)?(?:remove|drop|forget(?:\s+about)?|scrap|scratch|cancel|delete|clear|lose|ditch"
    r"|skip|ignore|take\s+(?:off|away|out)|get\s+rid\s+of)\s+(?:the|that|this)"
    r"|(?:it\s+)?(?:doesn'?t|does\s+not)\s+need\s+a|no\s+need\s+for\s+a)"
    r"\s+(?:deadlines?|due\s+date|time\s+limit)(?:\s+(?:on\s+it|then|please|needed|at\s+all))?"
    r"|(?:any\s*time|any\s+day|whenever)(?:\s+is|'s)?\s+(?:fine|ok|okay|good|works)"
    r"|take\s+(?:the|that)\s+(?:deadline|due\s+date)\s+off"
    r")\W*$",
    re.IGNORECASE,
)
# Said to the draft read back, these ask to wait: "in a minute" moved the
# deadline to today, "in a sec" made it a priority (a review).
HOLD_ON: Final = re.compile(
    r"^\W*(?:(?:oh|um|erm|ok|okay|just|yeah|yes)\W+)*(?:in|one|just|wait|hold\s+on|hang\s+on"
    r"|give\s+me)?\s*(?:a|one|a\s+little)?\s*(?:minute|min|sec|second|mo|moment|bit|jiffy|tick)"
    r"\W*(?:please)?\W*$",
    re.IGNORECASE,
)
# The usual priority said as a change: the draft said plainly has it already,
# so the change read against it changed nothing (it was asked again).
NORMAL_PRIORITY: Final = re.compile(
    _LEAD_IN + r"(?:(?:make|set|change|put)\s+(?:it|that)\s+(?:to\s+|at\s+|back\s+to\s+)?"
    r"|(?:just\s+|it'?s\s+|it\s+is\s+)?(?:at\s+)?)?(?:a\s+|the\s+)?"
    r"(?:medium|normal|regular|standard|average|usual|mid|moderate)\s+prio(?:rity)?"
    r"(?:\s+(?:please|is\s+fine|then|instead))?\W*$",
    re.IGNORECASE,
)


# A part that only says no before the change ("no, it's urgent, …").
BARE_NO: Final = frozenset({"", "no", "nope", "nah", "actually", "wait", "sorry", "no wait"})


def name_lost(text: str, agent: str, names: Collection[str]) -> bool:
    """Whether `text` names a roster name that is not `agent`."""
    said = {w.strip(",.!?;:").removesuffix("'s").lower() for w in text.split()}
    return any(n.lower() in said and n != agent for n in names)


# "the back one, not the front" to "…the front door": "one" is the thing's
# own word (a conversation probe, T22c: "I couldn't change the draft").
_THE_ONE: Final = re.compile(r"\b(the|that|this)\s+([a-z]+)\s+one\b", re.IGNORECASE)
_NOT_WHICH: Final = frozenset({"other", "same", "first", "second", "last", "next", "right"})


def one_as_the_thing(text: str, label: str) -> str:
    """`text` with "the <word> one" said as the draft's thing (its last word)."""
    words = label.lower().split()
    if len(words) < 2:
        return text  # "the back one" to "the gate": which gate? as said
    # "the side one" to "the back gate": the side gate; "the big one" to "the
    # shed door": the big shed door (T27c: "big door", confirmed)
    kind = words[1:] if words[0] in _WHICH_WORDS else words
    return _THE_ONE.sub(
        lambda m: m[0] if m[2].lower() in _NOT_WHICH else f"{m[1]} {m[2]} {' '.join(kind)}", text
    )


_WHICH_WORDS: Final = frozenset(
    words("""back front side left right big small top bottom upper lower old new little large
    main north south east west inner outer middle near far first second other""")
)
