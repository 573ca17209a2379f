"""Phoneme → viseme mapping and viseme cue timing.

The viseme set is the 15-class set used by common lip-sync rigs (Oculus/Meta
"OVR" visemes), so a client can drive an avatar without a translation table:

| viseme | mouth shape | espeak IPA phonemes (as piper emits them) |
|---|---|---|
| `sil` | closed, at rest | sentence start/end (`^`, `$`), pauses `. , ; : ! ? …` |
| `PP` | lips pressed | p b m |
| `FF` | lower lip to teeth | f v |
| `TH` | tongue between teeth | θ ð |
| `DD` | tongue behind teeth | t d ɾ ʈ ɖ |
| `kk` | back of tongue raised | k g ɡ ŋ x ɣ q ʔ |
| `CH` | lips pushed out | ʃ ʒ ç ʝ |
| `SS` | teeth together | s z |
| `nn` | tongue up, mouth slightly open | n l ɫ ɬ ɲ |
| `RR` | lips slightly rounded | ɹ r ɻ ɚ ɝ ʁ |
| `aa` | open jaw (the open vowel) | a ɑ ɐ æ ʌ |
| `E` | mid, spread | e ɛ ə ɜ |
| `ih` | spread, nearly closed | i ɪ j ᵻ ɨ y |
| `oh` | rounded, mid | o ɔ ɒ ɵ |
| `ou` | rounded, small | u ʊ w ʉ |

Piper emits one Unicode code point per "phoneme", so affricates and
diphthongs arrive as two symbols (`t`+`ʃ`, `a`+`ɪ`) and map to two visemes
in turn. Stress marks (`ˈ ˌ`) and `h` carry no mouth shape of their own and
lend their start time to the next phoneme (the mouth moves towards it).
Length marks, word spaces, combining diacritics and unknown symbols are
"transparent": they extend the current viseme. Consecutive identical
visemes are merged into one cue.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final, Literal

import msgspec

Viseme = Literal[
    "sil", "PP", "FF", "TH", "DD", "kk", "CH", "SS", "nn", "RR", "aa", "E", "ih", "oh", "ou"
]

VISEMES: Final[tuple[Viseme, ...]] = (
    "sil",
    "PP",
    "FF",
    "TH",
    "DD",
    "kk",
    "CH",
    "SS",
    "nn",
    "RR",
    "aa",
    "E",
    "ih",
    "oh",
    "ou",
)

OPEN_VOWEL: Final[Viseme] = "aa"


class TimedViseme(msgspec.Struct, frozen=True):
    """The mouth takes shape `viseme` at `at_ms` from the phrase start, until the next cue."""

    at_ms: int
    viseme: Viseme


_GROUPS: Final[dict[Viseme, str]] = {
    "sil": "^$.,;:!?…—–",
    "PP": "pbm",
    "FF": "fv",
    "TH": "θð",
    "DD": "tdɾʈɖ",
    "kk": "kgɡŋxɣqʔ",
    "CH": "ʃʒçʝ",
    "SS": "sz",
    "nn": "nlɫɬɲ",
    "RR": "ɹrɻɚɝʁ",
    "aa": "aɑɐæʌ",
    "E": "eɛəɜ",
    "ih": "iɪjᵻɨy",
    "oh": "oɔɒɵ",
    "ou": "uʊwʉ",
}

PHONEME_VISEME: Final[dict[str, Viseme]] = {
    phoneme: viseme for viseme, phonemes in _GROUPS.items() for phoneme in phonemes
}

# Symbols whose duration belongs to the phoneme that follows them.
_LEAD_IN: Final[frozenset[str]] = frozenset("ˈˌhɦ")


def viseme_for(phoneme: str) -> Viseme | None:
    """The viseme of one piper phoneme, or None when it has no mouth shape of its own."""
    return PHONEME_VISEME.get(phoneme)


def cues_from_durations(
    phonemes: Sequence[str], durations_samples: Sequence[int], rate_hz: int
) -> list[TimedViseme]:
    """Timed cues from per-phoneme sample counts (piper's alignments), merged.

    `phonemes[i]` lasts `durations_samples[i]` samples; the two sequences have
    equal length (a mismatch is a programming error, not bad input).
    """
    if len(phonemes) != len(durations_samples):
        raise ValueError("phonemes and durations differ in length")
    if rate_hz <= 0:
        raise ValueError("rate_hz must be positive")
    starts: list[tuple[int, Viseme]] = []
    elapsed_samples = 0
    lead_in_from: int | None = None
    for phoneme, duration in zip(phonemes, durations_samples, strict=True):
        start = elapsed_samples if lead_in_from is None else lead_in_from
        elapsed_samples += max(0, int(duration))
        if phoneme in _LEAD_IN:
            if lead_in_from is None:
                lead_in_from = start
            continue
        viseme = PHONEME_VISEME.get(phoneme)
        if viseme is None:
            # Transparent: the current mouth shape continues. A pending lead-in
            # stays pending for the next real phoneme.
            continue
        lead_in_from = None
        starts.append((start, viseme))
    return merge_cues(TimedViseme(at_ms=samples_to_ms(s, rate_hz), viseme=v) for s, v in starts)


def estimate_cues(phonemes: Sequence[str], total_samples: int, rate_hz: int) -> list[TimedViseme]:
    """Cues for a voice without alignments: phonemes spread evenly over the audio.

    Transparent symbols get no time; sentence markers and pauses get the same
    share as a phoneme. Good enough for a mouth to move in step; the result
    must be marked `timing: "estimated"`.
    """
    weights = [0 if PHONEME_VISEME.get(p) is None and p not in _LEAD_IN else 1 for p in phonemes]
    total_weight = sum(weights)
    if total_weight == 0:
        return []
    durations: list[int] = []
    assigned = 0
    cumulative_weight = 0
    # Integer boundaries from cumulative weight, so the durations add up exactly.
    for weight in weights:
        cumulative_weight += weight
        boundary = total_samples * cumulative_weight // total_weight
        durations.append(boundary - assigned)
        assigned = boundary
    return cues_from_durations(phonemes, durations, rate_hz)


def merge_cues(cues: Iterable[TimedViseme]) -> list[TimedViseme]:
    """Drop cues that repeat the previous viseme, and cues at the same instant (last wins)."""
    merged: list[TimedViseme] = []
    for cue in cues:
        if merged and merged[-1].at_ms == cue.at_ms:
            merged.pop()
        if merged and merged[-1].viseme == cue.viseme:
            continue
        merged.append(cue)
    return merged


def samples_to_ms(samples: int, rate_hz: int) -> int:
    """Sample count to milliseconds, rounded to the nearest."""
    return (samples * 1000 + rate_hz // 2) // rate_hz
