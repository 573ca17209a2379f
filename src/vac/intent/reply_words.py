"""The words of a reply to the pending draft: yes, no, or neither.

`classify_reply` reads a whole utterance (typed, or the transcript of a
spoken one); `reply_phrases` are what the recogniser scores a short
spoken utterance against (`speech/replies.py`). The phrases in
`CONFIRM_HEARD` and `REJECT_HEARD` are understood but not scored: the
scoring's margins were tuned on the others (docs/understanding.md), and
more candidates cost time at every spoken reply.
"""

from __future__ import annotations

import re
from typing import Final, Literal

from jellyfish import metaphone

from vac.intent.reply_hedges import without_hedges
from vac.intent.reply_praise import without_praise
from vac.intent.tokens import SHORTHAND

Reply = Literal["confirm", "reject"]

_CONFIRM: Final[frozenset[str]] = frozenset(
    {
        "yes",
        "yeah",
        "yep",
        "yup",
        "yes please",
        # The daemon's own re-prompt after an unclear "yes" asks for this.
        "yes confirm",
        "confirm",
        "confirmed",
        "do it",
        "yes do it",
        "go ahead",
        "yes go ahead",
        "go for it",
        "sure",
        "ok",
        "okay",
        "okay do it",
        "ok do it",
        "sounds good",
        "sound good",  # how the recogniser often writes it
        "that's right",
        "correct",
        "approved",
    }
)
_REJECT: Final[frozenset[str]] = frozenset(
    {
        "no",
        "nope",
        "nah",
        "no thanks",
        "no thank you",
        "cancel",
        "cancel that",
        "cancel it",
        "never mind",
        "nevermind",
        "stop",
        "stop that",
        "don't",
        "forget it",
        "scrap that",
        "no don't",
        "reject",
        "rejected",
        # Scored too since 2026-12-06: with no "not that" to score, a spoken
        # "not that one" heard "That's that one." confirmed the draft (a probe).
        "not that",
        "not that one",
    }
)
# Understood, not scored against the audio (see the module's docstring).
CONFIRM_HEARD: Final[frozenset[str]] = frozenset(
    {
        "yes go",  # an eleventh typed probe: each was no reply
        "ok good",
        "okay good",
        "just do it",  # a review: as a change it gave a free hand, not the yes meant
        "alright",
        "all right",
        "sure thing",
        "absolutely",
        "definitely",
        "of course",
        "that works",
        *("perfect", "make it so"),
        *("send it", "send it on", "pass it on", "go ahead and send it", "go ahead and pass it on"),
        "go on",
        "yes that's right",
        "that's it",
        "that is right",
        "exactly",
        "confirm it",
        "confirm that",
        "please do",
        "do that",
        "proceed",
        "affirmative",
        "approve",
        "approve it",
        "accept",
        "accepted",
        "looks good",
        "sounds right",
        "sounds great",
        "that's fine",
        # Added 2026-12-04 from a list of everyday yeses (not from the benchmark);
        # not "fine", "great" or "all good": small talk too ("fine, thanks").
        "fine by me",
        "agreed",
        "certainly",
        "i confirm",
        "roger",
        "roger that",
        "okay then",
        "ok then",
        "works for me",
        "yes exactly",
        # Added 2026-12-05, as the list above.
        "that's correct",
        "that is correct",
        "do it now",
        "go ahead and do it",
        "yes do it now",
        # Added 2026-12-05 from a probe of new typed replies.
        "go on then",
        "do that then",
        "looks right",
        "looks right to me",
        "looks good to me",
        "that looks right",
        "ok cool",
        "okay cool",
        "sure why not",
        "why not",
        # From a probe of how a grandparent and a non-native speaker reply.
        "splendid",
        "very good",
        "carry on",
        "quite right",
        "that's quite right",
        "do go ahead",
        # Added 2026-12-06 from a spoken probe and a typed one (no reply before).
        "alright then",
        "all right then",
        "sounds good to me",
        "right go on then",
        "yeah go on",
        "yes go on",
        "yeah go on then",
        "yes please go ahead",
        "please do go ahead",
        "is correct",
        "is fine",
        "it is correct",
        "it is fine",
        # A typed probe's households (2026-12-05): British, teen, plain.
        "aye",
        "lovely",
        "ta",
        "cheers",
        "brilliant",
        "spot on",
        "right you are",
        "that'll do",
        "that'll do nicely",
        # ("fine", "good", "great" alone stay small talk: "Fine, thanks.")
        "all good",
        "that's perfect",
        "please go ahead",
        "yes it is",
        "is good",
        # A typed probe's elder and teen (2026-12-06): "Yes, that would be lovely."
        "yes sir",
        "that would be lovely",
        "that would be wonderful",
        "that would be great",
        "that would be perfect",
        "that'd be great",
        "that'd be lovely",
        "bet",
        "for sure",
        "yup that's it",
        "yes is ok",
        "yes is ok for me",
        # A typed conversation probe (2026-12-06, the sixth): no reply before.
        "yes ma",
        "yes madam",
        "exactly right",
        "yes exactly right",
        "that's what i said",
        "yes that's what i said",
        "no wahala",
        # A spoken probe (2026-12-06): asked again, typed too.
        "sounds fine",
        # A typed conversation probe (2026-12-06, the seventh): asked again.
        "yes boss",
        "kindly proceed",
        "please proceed",
        *("righto", "right oh", "crack on", "crack on then"),
        "no problem go ahead",
        "no worries go ahead",
        "good confirm",
        # Typed probes of the twentieth session: asked what to do ("fine"
        # and "great" alone stay small talk, as above).
        *("yes do", "fine yes", "yes fine", "ok fine", "okay fine", "ok great", "okay great"),
        *("great yes", "yes great", "excellent", "yes no problem", "yes good", "fine go ahead"),
        *("good yes", "yse"),  # T27c: asked which verb
        *("oh yes", "nah yeah", "i guess so", "guess so", "i suppose so", "suppose so"),
        "make it happen",
        "yeah go ahead",
        *("go ahead with that", "go ahead with it"),  # T26c: "yes, go ahead with that" asked
        "ok go ahead",
        "okay go ahead",
        "k go ahead",
        # A spoken probe (2026-12-06, the sixteenth session): asked again.
        "that is fine",
        "ok go",
        "okay go",
    }
)
REJECT_HEARD: Final[frozenset[str]] = frozenset(
    {
        "wrong",
        "that's wrong",
        "negative",
        "abort",
        "drop it",
        "no way",
        "don't do it",
        "scratch that",
        "scratch it",
        "forget that",
        "never mind that",
        "ignore that",
        "ignore it",
        "discard it",
        "discard that",
        "delete it",
        "delete that",
        "withdraw it",
        "reject it",
        "reject that",
        "decline",
        "declined",
        "deny",
        "denied",
        "incorrect",
        "that is wrong",
        "that's not right",
        "leave it",
        "skip it",
        "don't bother",
        # Added 2026-12-04 with the yeses above.
        "forget about it",
        "i don't want that",
        "i don't want it",
        "cancel this",
        # Added 2026-12-05 with the yeses above. Not "hang on" / "hold on":
        # they ask to wait, and the draft stays pending.
        "hold off",
        "let's not",
        "wait no",
        "perhaps not",
        "perhaps not just now",
        "is wrong",
        *("scrap it", "call it off"),  # "call it off": T23c (not "undo that": a change undone)
        # A conversation probe (T26c): no reply ("hold off on that": the draft waits no more).
        *("call that off", "withdraw that", "withdraw it", "hold off on that", "hold off on it"),
        "not today",
        "i don't think so",
        "i not want this",
        # A typed probe (2026-12-06): a mind changed, the job done meanwhile.
        *("i have changed my mind", "i've changed my mind", "changed my mind", "i changed my mind"),
        "i want cancel",
        "i want to cancel",
        "i want to cancel it",
        "i fixed it",
        "i did it myself",
        "i'll do it myself",
        # A conversation probe (the twenty-first session): asked again.
        *("i fixed it myself", "i sorted it myself", "i'll sort it myself", "i'll fix it myself"),
        *("i'll do it myself actually", "don't worry i'll do it myself"),
        *("don't worry i'll sort it myself", "don't worry i'll fix it myself"),
        # A spoken probe (the twenty-first session): "No, that's not what I said." asked again.
        *("that's not what i said", "that's not what i meant", "not what i said"),
        "already done",
        # A typed probe (2026-12-06, the third): no reply before.
        "forget i said anything",
        "forget i said that",
        "forget i asked",
        "leave it for now",
        "don't worry about it",
        "don't worry about that",
        "never mind leave it",
        # A typed conversation probe (2026-12-06, the sixth): no reply before.
        "hold off for now",
        "let's leave it",
        "let's leave it for now",
        "not needed anymore",
        "not needed any more",
        "no longer needed",
        "cancel the whole thing",
        "i sorted it",
        "i've sorted it",
        "it's already fixed",
        "already fixed",
        "already sorted",
        "leave am",
        "cancel am",
        "don't do that",
        # A typed conversation probe (2026-12-06, the seventh): asked again.
        "not worth it",
        "nah not worth it",
        "no need",
        "no need again",
        "leave it jare",
        "let's not bother",
        "let's not bother with that",
        "kindly cancel",
        "kindly cancel it",
        *("bin it", "bin that"),  # "no, bin that": a conversation probe (T23c), asked
        "nah bin it",
        "no thanks i'll get a man in",
        "no thanks i'll get someone in",
        # A thirteenth typed probe (2026-12-07): asked again.
        *("absolutely not", "definitely not", "certainly not", "of course not", "yeah nah"),
    }
)
_YES: Final = _CONFIRM | CONFIRM_HEARD
_NO: Final = _REJECT | REJECT_HEARD
_REJECT_LEADS: Final = frozenset({"no", "nope", "cancel", "stop", "scrap", "scratch"})
# ... and what they sound like, long ones only: "council", "console", "Kensal" (a spoken "cancel").
_REJECT_LEAD_SOUNDS: Final = frozenset(metaphone(w) for w in ("cancel", "scrap", "stop"))
# A spoken "no"/"cancel" may act on lower recogniser confidence than a "yes":
# a wrongly rejected draft costs a repetition, a wrongly confirmed one binds an
# agent. tiny.en scores one-word replies low (0.4-0.7) even when right.
REJECT_MIN_CONFIDENCE: Final = 0.4

# Politeness around a reply does not make it "more content".
_POLITE_PREFIX: Final = (
    *("oh ", "um ", "uh ", "er ", "erm ", "uhm ", "well ", "hmm ", "mm ", "mmm ", "eh "),  # T23c
    *("actually ", "in fact ", "great ", "perfect ", "cool "),  # "great, send it"; not alone
    "sorry ",  # "sorry, yes" (T29c: asked what to do)
)
# Before a whole reply only, not more ("thanks, no, Zuri" is a change: a review):
# "thanks, yes", "oya cancel am" (Nigerian: come on), "ok, yes" (not "okay, no").
# "hold on" and "wait" only before a no ("hold on, no"): "wait, yes" confirmed the draft.
_THEN_REPLY: Final = ("thanks ", "thank you ", "oya ", "right ", "ok ", "okay ", "ok now ", "now ")
_THEN_NO: Final = ("hold on ", "wait ")
# …and these, said with a no first (an eleventh typed probe: "no hang on, forget it",
# "no actually never mind" were no reply). A reject phrase must follow.
_THEN_NO_SAID: Final = ("no hang on ", "no actually ", "nah actually ", "no wait ", "actually ")
# Before a reply phrase only ("Please cancel that.", "On reflection, please
# cancel that."): "please no rush" is no "no rush" reply (it rejected a
# spoken draft; typed, it changes the priority).
_COURTEOUS_PREFIX: Final = (
    *("please ", "on reflection ", "on second thoughts ", "on second thought "),
    *("dear ", "oh dear "),
)
# Statements that refuse, and so do not when asked ("already done?").
_DONE_ALREADY: Final = (
    *("i fixed it", "i did it myself", "already done", "do it myself", "changed my mind"),
    *("already fixed", "already sorted", "i sorted it", "i've sorted it", "not needed"),
)
_POLITE_SUFFIX: Final = (
    *(" please", " thanks", " thank you", " dear", " thank you very much", " thanks very much"),
    *(" thanks a lot", " thank you so much", " cheers", " mate", " love"),
    *(" thank you kindly", " thanks so much", " thank you ever so much", " kindly", " sorry"),
)
# "yess", "noo": a word said long is the word.
_LONG: Final = {
    "yess": "yes", "yesss": "yes", "noo": "no", "nooo": "no", "okk": "ok", "yessir": "yes",
    "naw": "nah", "nahh": "nah", "nvm": "nevermind", "yh": "yes",
}  # fmt: skip


def reply_phrases() -> tuple[tuple[str, Reply], ...]:
    """Every confirm and reject phrase the parser knows, for the recogniser to
    score a short utterance against (sorted: the same order in every worker)."""
    confirm: tuple[tuple[str, Reply], ...] = tuple((p, "confirm") for p in sorted(_CONFIRM))
    return confirm + tuple((p, "reject") for p in sorted(_REJECT))


def classify_reply(text: str) -> Reply | None:
    """ "yes" / "do it" → confirm, "no" / "never mind" → reject; anything that
    says more ("no, tell Kofi instead") → None, so it is parsed as a new turn."""
    spoken = re.sub(
        r"[^a-z' ]+",
        " ",
        re.sub("[❌✖]", " no ", re.sub("[👍✅✔☑]", " yes ", text.lower().replace("’", "'"))),
    ).split()
    spoken = [_LONG.get(w, SHORTHAND.get(w, w)) for w in spoken]  # "yes pls", "ok thx"
    if len(spoken) == 1:
        spoken = [_SHORT_WHOLE.get(spoken[0], spoken[0])]
    # "no, no, no", "yes yes": a word said again is said once; "do not" is "don't".
    # "yes o", "no o, leave am": the West African "o" after a yes or no is its stress.
    spoken = [
        w for n, w in enumerate(spoken) if not (w == "o" and n and spoken[n - 1] in _STRESSED)
    ]
    norm = " ".join(w for n, w in enumerate(spoken) if n == 0 or w != spoken[n - 1])
    norm = re.sub(r"\bdo not\b", "don't", norm)
    norm = without_hedges(without_praise(norm, _YES), _YES | _NO, _NO)  # "…, he's great at that"
    # Courtesy after it first ("perfect thanks", "…, cheers love"), then before.
    while norm not in _YES | _NO and (
        cut := next((x for x in _POLITE_SUFFIX if norm.endswith(x)), "")
    ):
        norm = norm.removesuffix(cut)
    while norm not in _YES | _NO and (
        lead := next((x for x in _POLITE_PREFIX if norm.startswith(x)), "")
    ):
        norm = norm.removeprefix(lead)
    for lead in (*_THEN_REPLY, *_THEN_NO_SAID, *_THEN_NO):
        said_after = _one_or_two(norm.removeprefix(lead)) if norm.startswith(lead) else None
        yes_only = lead in ("ok ", "okay ") and said_after != "confirm"  # "okay, no": mixed
        if said_after and not yes_only and (lead in _THEN_REPLY or said_after == "reject"):
            norm = norm.removeprefix(lead)
            break
    bare = norm
    while lead := next((x for x in _COURTEOUS_PREFIX if bare.startswith(x)), ""):
        bare = bare.removeprefix(lead)  # "on reflection, please cancel that": each in turn
    if bare != norm and (_one_or_two(bare) or (_refuses(bare) and bare.split()[0] != "no")):
        norm = bare  # "please cancel that", "please stop it"; not "please no ladder" (a ban)
    said = _one_or_two(_unechoed(norm))
    done_already = any(d in norm for d in _DONE_ALREADY)
    if (said == "confirm" or done_already) and text.rstrip(" !.").endswith("?"):
        return None  # "fine?", "approve?", "already done?": asked back, not answered
    if said is not None:
        return said or None
    # "Cancel note", "no thanks" misheard: a refusal word and at most one more
    # is a refusal. Only for rejecting: a wrongly rejected draft costs a
    # repetition, a wrongly confirmed one binds an agent.
    return "reject" if _refuses(norm) else None


def _unechoed(norm: str) -> str:
    """A reply the recogniser wrote twice said once: "no that's wrong no
    that's wrong", "okay make it so okay" (a spoken probe: asked again)."""
    said = norm.split()
    half = len(said) // 2
    if half > 1 and len(said) % 2 == 0 and said[:half] == said[half:]:
        return " ".join(said[:half])
    if len(said) > 2 and said[-1] == said[0] and said[0] in _STRESSED:
        return " ".join(said[:-1])
    return norm


def _refuses(norm: str) -> bool:
    """A refusal word and at most one more ("Cancel note", "stop it")."""
    first, *rest = norm.split() or [""]
    if rest and rest[0] in _NOT_A_REFUSAL:
        return False  # "no problem", "no worries": a yes as often as not; never a no
    return len(rest) <= 1 and (first in _REJECT_LEADS or metaphone(first) in _REJECT_LEAD_SOUNDS)


_STRESSED: Final = frozenset({"yes", "no", "yeah", "nope", "ok", "okay"})
_NOT_A_REFUSAL: Final = frozenset(
    {"problem", "problems", "prob", "probs", "worries", "worry", "bother", "biggie", "idea"}
    # A typed probe (2026-12-06): a pause or chatter, not a no ("no wait"
    # rejected the draft, though "wait" alone answers nothing).
    | {"wait", "stress", "doubt", "kidding", "lie", "joke", "cap", "excuses", "hold", "sweat"}
    | {"rush", "hurry"}  # "no rush": how soon, never a no (a spoken one rejected the draft)
    | {"deadline", "deadlines"}  # "no deadline": a change (`runtime.amend`), never a no
)
# A typed reply of one letter: "k".
_SHORT_WHOLE: Final = {
    "k": "ok", "kk": "ok", "y": "yes", "yh": "yes", "ye": "yes", "n": "no", "nvm": "never mind",
}  # fmt: skip


def _one_or_two(norm: str) -> Reply | Literal[""] | None:
    """A reply phrase, or two of one polarity ("yeah, do it", "no, cancel
    it"); "" for two that disagree ("okay, no"), which answer nothing."""
    if norm in _YES:
        return "confirm"
    if norm in _NO:
        return "reject"
    said = norm.split()
    for cut in range(1, len(said)):
        left, right = " ".join(said[:cut]), " ".join(said[cut:])
        if said[cut - 1] in ("don't", "not", "never"):
            return ""  # "don't cancel it", "no, don't stop": it negates what follows
        kinds = {"confirm" if p in _YES else "reject" if p in _NO else "" for p in (left, right)}
        if "" in kinds:
            continue
        return "confirm" if kinds == {"confirm"} else "reject" if kinds == {"reject"} else ""
    return None
