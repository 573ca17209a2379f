"""The words that say how urgent an order is and how free its agent is.

Each tier is one string of cues separated by commas; `lexicon` turns them
into token tables (`PRIORITY_TIERS`, `AUTONOMY_CUES`) and docs/speaking.md
lists them all (its test compares). Kept apart from `lexicon` to keep each
module one concern of a readable size.
"""

from __future__ import annotations

from typing import Final

from vac.protocol.objective import Autonomy

# Checked in this order (90, then 25, then 78, then 55), each cue matched
# where it starts, longest first across every tier: "not urgent" is 25
# because "urgent" inside it is not a cue of its own, "top priority" is 90,
# and "medium priority" is 55 (not "priority", 78).
PRIORITY_TEXT: Final[tuple[tuple[int, str], ...]] = (
    (
        90,
        (
            "urgent, urgently, immediately, right now, right away, straight away, asap, "
            "at the earliest, "
            "as soon as possible, emergency, top priority, highest priority, it's critical, "
            "this is critical, that's critical, this instant, as a matter of urgency, "
            "top of the list, right this minute, this minute, drop everything, pronto, "
            "top prio, i needed it done yesterday, needed it yesterday, at once, rn, "
            "priority one, number one priority, first priority, highest prio, "
            # A typed probe (2026-12-06): "as soon as you can" was 78 ("soon").
            "as soon as you can, as soon as you're able, as soon as poss, "
            # A typed re-probe (2026-12-06): each was 55 (or 78).
            "as early as possible, this is crucial, this is vital, "
            "it's time-sensitive, it's time sensitive, priority 1, "
            "top of your list, "
            # A typed probe (2026-12-06, the third): these were 55.
            "chop chop, p1, it's life or death, life or death, "
            # A fourth typed probe (2026-12-06): it was 78 ("priority").
            "priority number one, "
            # A fifth typed probe (2026-12-06): 55.
            "drop what you're doing, stop what you're doing, drop whatever you're doing, "
            "stop whatever you're doing, "
            # A sixth typed probe (2026-12-06): 55.
            "this can't wait, it can't wait, that can't wait, it's time-critical, "
            "it's time critical, time-critical, top of the agenda, a matter of life and death, "
            "matter of life and death, quick quick, sharp sharp, like yesterday, "
            # A typed probe (T27, the twenty-fifth session): 55.
            "five-alarm fire, five alarm fire, trumps everything else, trumps everything, "
            "before anything else, before anything else today"
        ),
    ),
    (
        25,
        (
            "whenever, no rush, no hurry, when you can, when you have time, "
            "when you get a chance, when you get the chance, in your own time, it can wait, "
            "not urgent, low priority, eventually, someday, one of these days, "
            "not important, isn't important, not critical, isn't critical, not a priority, "
            "not that important, isn't that important, not that urgent, isn't that urgent, "
            "when you have a minute, when you get a sec, when you have a sec, "
            "when you get a second, when you have a second, "
            "when you have a moment, when you get a minute, when you get a moment, "
            "when you're free, when you are free, no pressure, low on the list, "
            "bottom of the list, when you get around to it, not a big deal, no big deal, "
            "no need to be quick, no need to hurry, no need to rush, no need to make it quick, "
            "take your time, take as long as you need, take as long as you like, "
            "at your leisure, at your convenience, no big rush, no great rush, "
            "if you have time, if you've got time, if you get time, if you have a chance, "
            "if you get a chance, if you get the chance, if you have a minute, "
            "if you have a moment, if you get a minute, if you get a moment, "
            "when you've got time, when you've got a minute, when you've got a moment, "
            "whenever you're free, whenever you can, whenever you get a chance, "
            "no huge rush, no real rush, no massive rush, no particular rush, no real hurry, "
            "no great hurry, no big hurry, not in a rush, not in a hurry, "
            "not a big rush, not a rush job, no rush job, when you've a minute, "
            "when you've a moment, when you've time, when you've a sec, when you've a second, "
            "not in any hurry, "
            # A typed probe (2026-12-06): "lowest priority" and "low prio" were
            # 78 ("priority", "prio"); the others were 55, some in the target.
            "lowest priority, bottom priority, lower priority, low prio, lowest prio, "
            "least important, least urgent, no stress, whenever's fine, any time is fine, "
            "anytime is fine, not high on the list, not a rush, whenevs, when you're able, "
            "no biggie, when convenient, whenever convenient, if convenient, "
            "not pressing, no urgency, nbd, when you get round to it, "
            "whenever you get round to it, bottom of your list, "
            # A typed probe (2026-12-06, the third): "last priority" was 78.
            "last priority, least priority, last on the list, last on your list, "
            "after everything else, when you have a spare moment, when you've a spare moment, "
            "if you're not too busy, if you aren't too busy, "
            # A fourth typed probe (2026-12-06): 55, or read as a place.
            "at your own pace, in your own sweet time, as and when, not high on my list, "
            "not the end of the world, "
            # A fifth typed probe (2026-12-06): 55, and in the thing.
            "when you're less busy, when you are less busy, when you're not busy, "
            "when you aren't busy, when things are quieter, when things quiet down, "
            # A sixth typed probe (2026-12-06): 55.
            "at some point, when it suits you, whenever it suits you, when you've got a sec, "
            "when you've got a second, it's the least of my worries, least of my worries, "
            # T27: 55.
            "put it on the back burner, it can go on the back burner"
        ),
    ),
    (
        78,
        (
            "soon, important, quickly, priority, high priority, fast, hurry, make it quick, "
            "quick as you can, as quick as you can, as quickly as you can, high prio, prio, "
            "in a sec, in a second, in a mo, in a jiffy, shortly, in a bit, in a little bit, "
            "in a little while, sooner rather than later, quick as poss, "
            "at your earliest convenience, "
            # A typed probe (2026-12-06, the third): "moderately urgent" was 90.
            "moderately urgent, fairly urgent, somewhat urgent, semi urgent, semi-urgent, "
            # A fourth typed probe (2026-12-06): hedged, each was 90 (or 55).
            "a bit urgent, kind of urgent, kinda urgent, sort of urgent, a little urgent, "
            "a little bit urgent, sharpish, double quick, "
            # A sixth typed probe (2026-12-06): 55.
            "real quick, "
            # A twelfth typed probe (2026-12-07): 55.
            "the sooner the better, sooner the better, the earlier the better, earlier the better"
        ),
    ),
    # The usual haste said as a priority (a typed probe, 2026-12-06:
    # "medium priority" was read as "priority", 78): the default, said.
    (
        55,
        (
            "medium priority, normal priority, regular priority, standard priority, "
            "average priority, usual priority, medium prio, normal prio, mid priority, "
            "moderate priority"
        ),
    ),
)

# Matched like the priorities: "no need to check with me" is free, though
# "check with me" inside it would tether. The tethering phrases that hold a
# boundary marker ("don't do anything without asking") are autonomy, not
# boundaries: the parser keeps them out of the forbidden lines.
AUTONOMY_TEXT: Final[tuple[tuple[Autonomy, str], ...]] = (
    (
        "direct-tether",
        (
            "exactly as i say, exactly as i said, exactly like i say, exactly as told, "
            "check with me first, check with me before, check with me, ask me first, "
            "ask me before, run it by me, don't do anything without asking, "
            "don't do anything without asking me, do nothing without asking, "
            "run it past me, get my approval, get my ok, get my okay, check in with me, "
            "talk to me before, talk to me first, wait for my ok, wait for my okay, "
            "ask before you start, ask before starting, check before you start, "
            "get my permission, ask my permission, ask for my permission, "
            "wait for my go ahead, wait until i say so, "
            # Said as what not to do without the steward (it was the boundary
            # "Avoid my say" and a brief hand).
            "not without my say so, not without my permission, not without my ok, "
            "not without my okay, not without asking me first, not without asking me, "
            "not without asking, not without checking with me, "
            "don't do anything without my say so, don't do anything without my permission, "
            "don't do anything without my ok, don't do anything without my okay, "
            "don't do anything without my approval, don't do anything without asking me first, "
            "don't do anything without checking with me, do nothing without my say so, "
            "do nothing without my permission, but first ask me, first ask me, "
            "consult me first, consult me before, "
            # A typed probe (2026-12-06): a call first, said by an elder, and
            # a non-native speaker's "ask to me".
            "ring me before you, call me before you, phone me before you, "
            "telephone me before you, text me before you, ring me before doing, "
            "telephone me before touching, ask to me, ask to me first, ask to me before you, "
            # A typed probe (2026-12-06): "before you start" was asked as a deadline.
            "tell me first, let me know first, tell me before you, let me know before you, "
            "tell me before starting, let me know before starting, ask first, "
            "check in first, ask before you do anything, ask before doing anything, "
            "but first you ask me, first you ask me, get my sign-off first, get my sign off first, "
            "text me first, confirm with me first, clear it with me first, clear it with me, "
            "ping me before you, ping me first, lmk before you, lmk first, ask before buying, "
            "ask before spending, get my approval before, don't do anything until i say so, "
            "do nothing until i say so, not until i say so, without asking me first, "
            # A typed re-probe (2026-12-06): boundaries ("won't start…"), or nothing.
            "don't start till i say, don't start until i say, don't start without my ok, "
            "don't start without my okay, don't do anything till you've asked me, "
            "show me first, get my go-ahead first, get my go ahead first, only on my say-so, "
            "only on my say so, call me first, give me a call first, message me first, "
            "send me a quote first, i want to approve it first, let me have a look first, "
            "check back with me before, "
            # A typed probe (2026-12-06, the third): a free hand said not to be
            # given was free ("not up to you") or a boundary ("don't just do it").
            "it's not up to you, not up to you, it's not your call, not your call, "
            "it's not your decision, not your decision, not as you see fit, "
            "don't just do it, don't use your judgement, don't use your judgment, "
            "run everything by me, do exactly what i tell you, do exactly as i tell you, "
            "do exactly what i say, do exactly as i say, "
            # A fifth typed probe (2026-12-06): brief.
            "let me approve the plan first, let me see the plan first, let me approve it first, "
            "let me see it first, show me the plan first, let me approve the plan, "
            "let me see the plan before you, get my go ahead, get my go-ahead, "
            "don't start until i've, don't start until i have, don't start till i've, "
            "don't start till i have, "
            # A sixth typed probe (2026-12-06): brief, or the boundary "Do not make…".
            "run the plan past me first, run the plan by me first, run your plan past me, "
            "follow my instructions to the letter, to the letter, let me approve the design, "
            "don't do anything i haven't approved, don't make any decisions without me, "
            "don't decide anything without me, "
            # An eleventh typed probe (2026-12-07): "before you start" was asked as a deadline.
            "show me the plan before you, show me before you start, show me the design first, "
            "show me the plan before starting, "
            # A typed probe (T27, the twenty-fifth session): brief.
            "let me sign off on the plan, let me sign off on it first, "
            "i want to sign off on it first"
        ),
    ),
    (
        "free",
        (
            "use your judgment, use your judgement, use your best judgment, "
            "use your best judgement, use your own judgment, use your own judgement, "
            "your call, as you see fit, however you see fit, it's up to you, up to you, "
            "do whatever you think is best, whatever you think is best, just do it, "
            "no need to check with me, no need to ask, don't need to check with me, "
            "don't need to ask me, do what you think is best, however you like, "
            "whatever you like, you decide, i trust you, "
            "i trust your judgment, i trust your judgement, do it your way, your way, "
            "however you want, whatever you want, any way you like, any way you want, "
            "i'll leave it to you, leave it to you, i leave it to you, your choice, "
            "whatever way you want, whatever way you like, full autonomy, free rein, "
            "use your discretion, at your discretion, you're in charge, "
            "however you think best, whatever you think best, as you think best, you know best, "
            # A tenth typed probe (2026-12-07): brief. Only at the end of its part.
            "whatever you think, do whatever you think, "
            # Typed and conversation probes (T27, T27c): brief.
            "let him decide how, let her decide how, he can decide how, she can decide how, "
            "give him a free hand, give her a free hand, wing it, play it by ear, surprise me, "
            # Said not needed (a review: "no need to let me sign off…" checked in).
            "no need to let me sign off on it, no need to let me sign off on the plan, "
            "you don't need to let me sign off on it, "
            "however you think is right, whatever you think is right, however you think is best, "
            "i'll leave the details to you, leave the details to you, "
            "the details are up to you, as you think fit, how you want, how you like, "
            "as you like, as you wish, it's your decision, your decision, "
            # Said of the agent ("however he thinks best"): the same free hand.
            "however he sees fit, however she sees fit, however they see fit, "
            "as he sees fit, as she sees fit, as they see fit, however he thinks best, "
            "however she thinks best, however they think best, whatever he thinks best, "
            "whatever she thinks best, whatever they think best, however he likes, "
            "however she likes, however they like, however he wants, however she wants, "
            "it's up to him, it's up to her, it's up to them, he knows best, she knows best, "
            # Each tethering phrase said as not needed: free (the longest cue wins).
            "no need to wait for my go ahead, no need to get my permission, "
            "no need to ask my permission, no need to wait for my ok, "
            "no need to wait for my okay, no need to wait until i say so, "
            "you don't need my permission, don't need my permission, "
            # A typed probe (2026-12-06): an elder's and a non-native speaker's.
            "leave it to his judgement, leave it to his judgment, leave it to her judgement, "
            "leave it to her judgment, leave it to their judgement, leave it to their judgment, "
            "leave it entirely to him, leave it entirely to her, leave it to him, leave it to her, "
            "entirely to his judgement, entirely to his judgment, entirely to her judgement, "
            "entirely to her judgment, not necessary to ask me, no need to ask me, "
            "do like you think, do as you think, like you think best, "
            # A typed probe (2026-12-06): it was the boundary "won't ask me just do it".
            "don't ask me just do it, no need to ask first, "
            "go ahead without asking, go ahead without asking me, "
            # A typed probe (2026-12-06): the first was a tether ("run it by me"),
            # the "don't…" ones boundaries ("Do not have to check with me").
            "no need to run it by me, no need to run it past me, you don't have to check with me, "
            "don't have to check with me, "
            "don't bother checking with me, you don't need my ok, you don't need my okay, "
            "you don't need my approval, no need to check in, no need to check back with me, "
            "no need to check back, you can decide yourself, decide for yourself, "
            "whatever works for you, do whatever you need to, i'm happy for you to decide, "
            "happy for you to decide, "
            "don't need to run it by me, no need to consult me, i'll leave it with you, "
            "do as you please, handle it however you like, "
            # A typed probe (2026-12-06, the third): boundaries ("won't ask me"), or nothing.
            "don't bother asking, don't bother asking me, you don't have to ask, "
            "you don't have to ask me, don't have to ask me, you needn't ask, needn't ask me, "
            "don't check with me, don't ask me first, do it your own way, your own way, "
            "i'll leave the how to you, leave the how to you, however works for you, "
            "i don't need to approve it, no need for my approval, don't need my approval, "
            # A re-read: was the boundary "won't need to ask", then nothing.
            "you don't need to ask, don't need to ask, you don't need to ask me, "
            # A fourth typed probe (2026-12-06): a tether ("run it past me"), or brief.
            "you don't have to run it past me, don't have to run it past me, "
            "you don't have to run it by me, don't have to run it by me, "
            "you don't need to run it past me, don't need to run it past me, "
            "you don't need to run it by me, i'll leave it in your hands, "
            "leave it in your hands, it's in your hands, sort it however, your shout, "
            "not fussed how, whatever works, you're the boss, "
            # A fifth typed probe (2026-12-06): brief.
            "i'm easy how, i'm easy about how, do what you need to do, do whatever you need to do, "
            # A sixth typed probe (2026-12-06): brief.
            "use your common sense, over to you, you're the expert, do what you have to, "
            "do whatever you have to, i'll trust you on this, i trust you on this, "
            # A twelfth typed probe (2026-12-07): brief.
            "you can decide, you get to decide, you can choose, you choose, "
            # A fourteenth typed probe (the twenty-first session): brief.
            "you have a free hand, you've got a free hand, you have free rein"
        ),
    ),
    (
        "standing-intent",
        (
            "always, from now on, every day, every night, every morning, every afternoon, "
            "every evening, every week, every weekend, each day, each morning, each night, "
            "each week, each evening, every month, every other day, every single day, "
            "every single night, every monday, every tuesday, every wednesday, "
            "every thursday, every friday, every saturday, every sunday, "
            "every weekday, every weeknight, on weekdays, each weekday, every few days, "
            "every couple of days, every two days, every three days, every second day, "
            "every other week, every other night, every other morning, every hour, "
            "each afternoon, once a day, twice a day, three times a day, once a week, "
            "twice a week, three times a week, once a month, every so often, "
            "every single morning, every single evening, every single week, on mondays, "
            "on tuesdays, on wednesdays, on thursdays, on fridays, on saturdays, on sundays, "
            "on weekends, at weekends, "
            # A typed probe (2026-12-06, the third): dropped, or "the barn day".
            "at all times, day and night, night and day, 24/7, round the clock, "
            "around the clock, until further notice, indefinitely, "
            # A fourth typed probe (2026-12-06): left in the thing, or half read.
            "every fortnight, every two weeks, every 2 weeks, once a fortnight, "
            # Not "now and then" ("fix the gate now and then check…") nor a bare
            # "morning and night" ("tomorrow morning and night"): a review.
            "from time to time, every now and then, every now and again, "
            "every morning and evening, every morning and night, "
            # Bare, only after the thing (`manner.BARE_TWICE`; the seventeenth
            # session's note: "check the hens morning and evening" was "Hens morning").
            "morning and evening, morning and night, mornings and evenings, "
            "night and morning, "
            # A fifth typed probe (2026-12-06): "Gate each", or a one-off due Sunday.
            "each and every day, each and every night, each and every morning, "
            "each and every evening, each and every week, every other monday, "
            "every other tuesday, every other wednesday, every other thursday, "
            "every other friday, every other saturday, every other sunday, every other weekend, "
            # A ninth typed probe (2026-12-06): a one-off, the repeat left in the thing.
            "each monday, each tuesday, each wednesday, each thursday, each friday, "
            "each saturday, each sunday, each month, each fortnight, each year, every year, "
            "every quarter, once a year, twice a year, twice a month, "
            "at the end of each month, at the end of every month, "
            "at the start of each month, at the start of every month, "
            # A thirteenth typed probe (2026-12-07): a one-off.
            "every spring, every summer, every autumn, every fall, every winter, each spring, "
            "each summer, each autumn, each winter, from now onwards, "
            "from here on in, from here on out, make it a habit to, make a habit of, "
            + ", ".join(
                f"{day} onwards"
                for day in (
                    *("today", "tomorrow", "tonight", "now", "next week", "next month"),
                    *("monday", "tuesday", "wednesday", "thursday", "friday", "saturday"),
                    "sunday",
                )
            )
            + ", "
            + ", ".join(
                f"every {n} {unit}"
                for n in ("two", "three", "four", "five", "six", "2", "3", "4", "5", "6")
                for unit in ("weeks", "months")
                if f"{n} {unit}" not in ("two weeks", "2 weeks")  # listed above
            )
        ),
    ),
)
