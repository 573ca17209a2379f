"""The real tiny.en model on the project's fixtures (slow: loads the model once)."""

from __future__ import annotations

import asyncio
import datetime as dt
import functools
import shutil
import statistics
import time
from pathlib import Path

import numpy as np
import pytest

from tests.speech.audio import Fixture, load_fixtures
from tests.speech.fakes import KILL, NAMES, crashing_whisper
from vac import intent
from vac.runtime.heard import evidence_of
from vac.speech.slots import cut_encoded, name_slot
from vac.speech.stt import (
    SttConfig,
    SttModelMissing,
    Transcript,
    WhisperStt,
    default_model_dir,
    load_pcm,
)
from vac.speech.wer import word_error_rate
from vac.speech.workers import ProviderUnavailable, SttPool

pytestmark = pytest.mark.slow

FIXTURES = load_fixtures()
BY_NAME = {f.name: f for f in FIXTURES}
SPOKEN = [f for f in FIXTURES if f.speech]


@pytest.fixture(scope="session")
def whisper() -> WhisperStt:
    return WhisperStt(SttConfig(), vocabulary=NAMES)


_NOW = dt.datetime(2026, 12, 2, 10, 0, tzinfo=dt.UTC)


def _understood(result: Transcript) -> intent.Draft | intent.Clarify:
    """The daemon's reading of a final transcript (`intent.understand`, with its evidence)."""
    return intent.understand(
        result.text,
        confidence=result.confidence,
        evidence=evidence_of(result),
        now=_NOW,
        roster=intent.default_roster(),
        current_agent=None,
        objective_id="o-1",
    )


def _wer_bound(fixture: Fixture) -> float:
    if fixture.voice == "joe":
        return 0.35
    # espeak's robotic voice: tiny.en hears "cancel" as "council"; bound loosely.
    return 0.6 if len(fixture.text.split()) > 1 else 1.0


def _slot_prob(result: Transcript) -> float:
    slot = name_slot(result.text, NAMES)
    assert slot is not None
    return min(w.prob for w in result.words if w.start < slot.end and w.end > slot.start)


def _without_names(text: str) -> str:
    return " ".join(w for w in text.split() if w.strip(",.").capitalize() not in NAMES)


# Kept for what is done with a mishearing, not for the words: a slow espeak
# "don't" is written "Do it." (test_replies_real: it never confirms).
MISHEARD: frozenset[str] = frozenset({"dont.espeak-en+f5@140"})


@pytest.mark.parametrize(
    "fixture", [f for f in SPOKEN if f.name not in MISHEARD], ids=lambda f: f.name
)
def test_spoken_fixture_is_recognised(whisper: WhisperStt, fixture: Fixture) -> None:
    result = whisper.transcribe(load_pcm(fixture.pcm), final=True)
    assert result.text, result.drop_reason
    reference, heard = fixture.text, result.text
    if result.names and _slot_prob(result) < 0.5:
        # The name was rescored and is flagged as unsure (the draft says so):
        # judge the other words. tiny.en hears joe's "Zuri" as "Tariq".
        reference, heard = _without_names(reference), _without_names(heard)
    assert word_error_rate(reference, heard) <= _wer_bound(fixture), result.text
    assert 0.0 < result.confidence <= 1.0
    assert result.audio_ms == fixture.duration_ms
    if fixture.voice == "joe" and len(fixture.text.split()) > 3:
        assert result.confidence >= 0.6


@pytest.mark.parametrize("fixture", SPOKEN, ids=lambda f: f.name)
def test_every_word_carries_evidence_and_a_name_slot_holds_a_roster_name(
    whisper: WhisperStt, fixture: Fixture
) -> None:
    result = whisper.transcribe(load_pcm(fixture.pcm), final=True)
    assert result.words, "the window path aligns every transcript"
    for word in result.words:
        assert 0.0 <= word.prob <= 1.0
        assert result.text[word.start : word.end].strip(",.!?") != ""
    if result.names:  # rescored: posteriors over the roster, best first
        assert {n.name for n in result.names} == set(NAMES)
        assert abs(sum(n.posterior for n in result.names) - 1.0) < 1e-6
        assert result.name_heard  # and what the slot held, for the intent layer
    if result.heard_name is not None:  # and the best name replaced what was heard
        said = name_slot(result.text, NAMES)
        assert said is not None and result.text[said.start : said.end] == result.names[0].name


@pytest.mark.parametrize("name", ["silence_2s", "noise_2s"])
def test_silence_and_noise_give_nothing(whisper: WhisperStt, name: str) -> None:
    result = whisper.transcribe(load_pcm(BY_NAME[name].pcm), final=True)
    assert result.text == ""
    assert result.confidence == 0.0
    assert result.drop_reason in {"silence", "no_speech", "hallucination", "empty"}


def test_audio_longer_than_the_window_falls_back_to_transcribe(whisper: WhisperStt) -> None:
    parts = [BY_NAME[n] for n in ("kofi_build_bench.joe", "abeni_repair_gate.joe")]
    parts.append(BY_NAME["map_grove_path.joe"])
    pcm = load_pcm(b"".join(p.pcm for p in parts))
    assert len(pcm) / 16 > whisper.config.window_ms
    result = whisper.transcribe(pcm, final=True)
    assert word_error_rate(" ".join(p.text for p in parts), result.text) <= 0.35, result.text


def test_missing_model_dir_is_named(tmp_path: Path) -> None:
    with pytest.raises(SttModelMissing) as info:
        WhisperStt(SttConfig(model_dir=str(tmp_path / "nope")))
    assert info.value.path == tmp_path / "nope"


def test_broken_model_is_named(tmp_path: Path) -> None:
    broken = tmp_path / "broken"
    shutil.copytree(default_model_dir(), broken)
    (broken / "model.bin").write_bytes(b"not a model")
    with pytest.raises(SttModelMissing, match="does not load"):
        WhisperStt(SttConfig(model_dir=str(broken)))


async def test_real_pool_keeps_the_loop_responsive_and_survives_a_crash() -> None:
    pool = SttPool(crashing_whisper)
    started = time.perf_counter()
    await pool.start()
    assert time.perf_counter() - started < 60
    lags_ms: list[float] = []
    stop = asyncio.Event()

    async def ticker() -> None:
        while not stop.is_set():
            before = time.perf_counter()
            await asyncio.sleep(0.005)
            lags_ms.append((time.perf_counter() - before) * 1000 - 5)

    try:
        async with asyncio.TaskGroup() as tg:
            tg.create_task(ticker())
            for fixture in SPOKEN[:6]:
                result = await pool.transcribe(fixture.pcm, kind="final", key=fixture.name)
                assert word_error_rate(fixture.text, result.text) <= 0.6
            stop.set()
        assert len(lags_ms) > 50
        p99 = float(np.percentile(lags_ms, 99))
        print(
            f"loop lag while recognising: p50 {statistics.median(lags_ms):.2f} ms, "
            f"p99 {p99:.2f} ms, max {max(lags_ms):.2f} ms over {len(lags_ms)} ticks"
        )
        assert p99 < 100  # generous: a blocked loop would show whole inferences (>100 ms)

        with pytest.raises(ProviderUnavailable):
            await pool.transcribe(KILL + SPOKEN[0].pcm, kind="final", key="crash")
        again = await pool.transcribe(SPOKEN[0].pcm, kind="final", key="after")
        assert word_error_rate(SPOKEN[0].text, again.text) <= 0.35
    finally:
        await pool.close()


def _encoded(whisper: WhisperStt, pcm: np.ndarray) -> tuple[np.ndarray, int]:
    """The encoder's output for `pcm`, cut as the slots use it, and its frames."""
    from faster_whisper.audio import pad_or_trim
    from faster_whisper.transcribe import get_ctranslate2_storage

    audio = pcm.astype(np.float32) / 32768.0
    features = pad_or_trim(whisper._model.feature_extractor(audio), 1000)
    storage = get_ctranslate2_storage(np.ascontiguousarray(features[np.newaxis]))
    frames = len(audio) * 100 // 16_000
    encoded = whisper._model.model.encode(storage, to_cpu=True)
    return cut_encoded(encoded, frames), frames


@pytest.mark.parametrize(
    ("name", "misheard", "said"),
    [
        ("kofi_build_bench.joe", "Tell Kofi to bill a wooden bench near the pond by tomorrow.",
         "build"),
        ("zuri_protect_path.joe", "Zuri, pertect the grove path.", "protect"),
    ],
)  # fmt: skip
def test_the_verb_slots_one_step_first_pass_agrees_with_forced_decoding(
    whisper: WhisperStt, name: str, misheard: str, said: str
) -> None:
    from vac.intent import verb_words
    from vac.speech.replies import total
    from vac.speech.verbs import rescore, verb_slot

    cut, frames = _encoded(whisper, load_pcm(BY_NAME[name].pcm))
    verbs = verb_words()

    token_probs = functools.partial(whisper._forced, cut, frames)
    next_logprobs = functools.partial(whisper._first_tokens, cut)
    fast = rescore(misheard, (), NAMES, verbs, token_probs, next_logprobs)
    slow = rescore(misheard, (), NAMES, verbs, token_probs)
    assert fast is not None and slow is not None
    assert fast.text == slow.text and said in fast.text.split()
    # One step scores a one-token verb as the forced decode of the prefix and
    # the verb does, less the prefix's own score.
    slot = verb_slot(misheard, NAMES, verbs)
    assert slot is not None
    before = misheard[: slot.start]
    step = next_logprobs(before, [said])
    assert step is not None
    prefix, whole = (total(p) for p in token_probs([before, before + said]))
    assert abs((whole - prefix) - step[0]) < 1.0


def _espeak_pcm(text: str) -> np.ndarray:
    """`text` in espeak-ng's en-us voice, as the understanding benchmark renders it."""
    from benchmarks.understanding import render

    return np.frombuffer(render(text, "espeak-en-us"), dtype="<i2")


@pytest.mark.parametrize(
    ("said", "misheard", "replaced"),
    [
        ("Zuri, update me on the harvest", "Zuri, let me on the harvest.", "let me on"),
        ("Can you have Imani get to know the new teacher",
         "Can you have Imani gets to know the new teacher?", "gets to know"),
        ("Could you have Tariq put up a fence around the garden",
         "Could you have Tariq put a fence around the garden?", "put"),
        ("Abeni, inspect the storeroom by December 31",
         "Abeni, in fact, the storeroom by December 31.", "in fact"),
    ],
)  # fmt: skip
def test_a_verb_of_several_words_replaces_the_words_it_was_heard_as(
    whisper: WhisperStt, said: str, misheard: str, replaced: str
) -> None:
    # The fake-aligner twin is tests/speech/test_verbs.py; these are the real
    # scores of the misheard words ("let me on", the dev half's espeak) on real audio.
    from vac.intent import verb_words
    from vac.speech.verbs import rescore

    cut, frames = _encoded(whisper, _espeak_pcm(said))
    got = rescore(
        misheard,
        (),
        NAMES,
        verb_words(),
        functools.partial(whisper._forced, cut, frames),
        functools.partial(whisper._first_tokens, cut),
    )
    assert got is not None and got.heard == replaced
    assert got.text.rstrip(".?").replace("inspect,", "inspect") == said


@pytest.mark.parametrize(
    "said",
    [
        "Zuri, let me know what you think",
        "Kofi, tell me a story",
        "Tariq gets to work early",
        "Abeni, let me sleep a little longer",
        "Kofi, in the morning the hens were loud",
        "Get Imani at the smoke near the barn",
    ],
)
@pytest.mark.parametrize("one_step", [True, False], ids=["one-step", "forced"])
def test_words_that_are_no_verb_stay_as_they_were_said(
    whisper: WhisperStt, said: str, one_step: bool
) -> None:
    from vac.intent import verb_words
    from vac.speech.verbs import rescore

    cut, frames = _encoded(whisper, _espeak_pcm(said))
    token_probs = functools.partial(whisper._forced, cut, frames)
    first = functools.partial(whisper._first_tokens, cut) if one_step else None
    got = rescore(said + ".", (), NAMES, verb_words(), token_probs, first)
    assert got is None, got


@pytest.mark.parametrize(
    ("said", "voice", "heard"),
    [
        # espeak's Imani, heard as two words before "to" (the dev half)
        ("Tell Imani to survey the hills in two days, use your judgment", "espeak-en-us",
         "Tell Imani to"),
        ("Get Imani to guard the orchard every night", "espeak-en-gb-x-rp", "Get Imani to"),
        # words said there stay as said
        ("Tell the kids to wash up", "joe", "Tell the kids to"),
        ("Get the dog to stop barking", "espeak-en-us", "Get the dog to"),
        ("Let me try to fix it", "joe", "Let me try to"),
        ("Tell me how to get to the barn", "espeak-en-us", "Tell me how to"),
    ],
)  # fmt: skip
def test_a_name_split_in_two_before_to_is_rescored_and_words_said_there_are_kept(
    whisper: WhisperStt, said: str, voice: str, heard: str
) -> None:
    from benchmarks.understanding import render

    result = whisper.transcribe(np.frombuffer(render(said, voice), dtype="<i2"), final=True)
    assert result.text.startswith(heard), result.text
    if "Imani" in heard:  # tiny.en wrote two words there, and the slot took them back
        assert result.heard_name is not None and " " in result.heard_name, result.heard_name
        assert _slot_prob(result) < 0.5  # a name it did not write: flagged
    else:
        assert result.heard_name is None


def test_a_command_the_best_hypothesis_lost_is_drafted_from_the_next(
    whisper: WhisperStt,
) -> None:
    # The real twin of tests/intent/test_intent_alternatives.py: espeak's
    # "patch the roof" (the dev half) is written "passionate roof" by the
    # beam's best hypothesis, and "patch the roof" by the next one.
    from benchmarks.understanding import render

    from vac.speech.nbest import words_of

    said = "Could you have Tariq patch the roof by Friday"
    pcm = np.frombuffer(render(said, "espeak-en-gb-x-rp"), dtype="<i2")
    result = whisper.transcribe(pcm, final=True)
    assert "patch" not in result.text, result.text
    keys = [words_of(a.text) for a in result.alternatives]
    assert 0 < len(keys) == len(set(keys)) and words_of(result.text) not in keys
    got = _understood(result)
    assert isinstance(got, intent.Draft), got
    assert (got.objective.agent, got.objective.verb) == ("Tariq", "Repair")
    assert "verb" in got.uncertain


def test_a_deadline_the_best_hypothesis_lost_is_taken_from_the_next(
    whisper: WhisperStt,
) -> None:
    # The real twin of tests/intent/test_intent_alternatives.py's deadline
    # cases: espeak's "tonight" (the dev half) is written "to hide" by the
    # beam's best hypothesis and "tonight" by a later one.
    from benchmarks.understanding import render

    pcm = np.frombuffer(render("Tell Tariq to guard the village tonight", "espeak-en-us"), "<i2")
    result = whisper.transcribe(pcm, final=True)
    assert "tonight" not in result.text.lower(), result.text
    assert any("tonight" in a.text.lower() for a in result.alternatives), result.alternatives
    got = _understood(result)
    assert isinstance(got, intent.Draft), got
    assert (got.objective.agent, got.objective.verb) == ("Tariq", "Protect")
    assert got.objective.deadline is not None and got.objective.deadline[:10] == "2026-12-02"
    assert "deadline" in got.uncertain


def test_a_name_the_beam_writes_otherwise_close_behind_is_flagged(whisper: WhisperStt) -> None:
    # The real twin of tests/intent/test_intent_evidence.py's beam doubt: joe's
    # "Zuri" written "Tariq," (0.67, over the 0.5 floor) with "Turi," and
    # "Tari," 1.6-2.0 nats behind was drafted for Tariq, unflagged (a probe).
    fixture = next(f for f in FIXTURES if f.name == "zuri_fix_tap.joe")
    result = whisper.transcribe(load_pcm(fixture.pcm), final=True)
    assert result.text.startswith("Tariq"), result.text
    got = _understood(result)
    assert isinstance(got, intent.Draft), got
    assert got.objective.agent == "Tariq" and "agent" in got.uncertain


def test_a_roster_name_under_the_rescoring_floor_is_weighed_against_the_others(
    whisper: WhisperStt,
) -> None:
    # The same fixture: "Tariq," at 0.67 is under `rescore_below` (0.8 since
    # 2026-12-06, was 0.5), so the slot is rescored: Zuri, what was said, gets
    # most of it, and the heard name's evidence drops to its share (flagged
    # whatever the beam says; a spoken probe found joe's "Zuri" written
    # "Tariq," at 0.72 with every hypothesis agreeing, drafted unflagged).
    fixture = next(f for f in FIXTURES if f.name == "zuri_fix_tap.joe")
    result = whisper.transcribe(load_pcm(fixture.pcm), final=True)
    assert result.names and result.names[0].name == "Zuri", result.names
    assert _slot_prob(result) < 0.5


def test_no_roster_means_no_name_slot_rescoring() -> None:
    """A library user's recogniser with no vocabulary: rescoring the name
    slot against an empty roster raised (max of nothing) on "Ask Kofi to…"."""
    bare_stt = WhisperStt(SttConfig())
    fixture = next(f for f in SPOKEN if f.voice == "joe" and "kofi" in f.text.lower())
    result = bare_stt.transcribe(load_pcm(fixture.pcm), final=True)
    assert result.text and result.names == ()
