"""How far to trust a translation: two confidence thresholds, calibrated on the dev set.

All of dev.tsv, its test half included (the shipped thresholds were fitted on 1,221 pairs): the model card says
so beside every test-half figure (cards/), since the test half then chose the thresholds too.

Every output token comes with the model's probability for it (TranslationResult.steps[i].chosen.prob,
the distribution the search chose from). A probability is only a number until it is compared with
how often the model was actually right at that number. calibrate() translates dev pairs exactly as
the app does (Translator.translate, the same probabilities the translate page shows) and sets:

- a **token threshold**: tokens below it are marked "low confidence". A token counts as right when
  the reference translation contains its characters (Chinese is one token per character, so this
  asks "is this character in a correct translation at all"; it is lenient: a right character in the
  wrong place still counts). Rightness is fitted against probability with isotonic regression
  (right-rate may only grow with probability); the threshold is the probability where the fitted
  right-rate reaches one half, rounded to two decimals. Below it a token was more often wrong than
  right on dev.
- a **sentence threshold** on the sentence's confidence, the geometric mean of its tokens'
  probabilities (</s> included: being unsure where to stop counts too). On the first shipped checkpoint
  it told exact matches from the rest better than the least probable token did (ROC AUC 0.88 vs 0.86).
  A translation counts as right when it equals the reference exactly (strict: a valid paraphrase
  counts as wrong, so the sentence chrF of each side is reported as well). The threshold, from the
  two-decimal grid 0.01 … 0.99, maximises Youden's J = (exact matches kept above it) − (other
  translations kept above it): the cut that best separates exact matches from the rest.

Pure arithmetic over Translator.translate results: nothing here reads the network itself.
`python -m evaluation.calibrate` writes the result into the checkpoint's training_log.json under
"calibration"; the app reads it from there (Translator.training_log, typed as TrainingLog.calibration) through
model/translation/confidence.py's assess().
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
from sacrebleu.metrics import CHRF

from model.translation.confidence import sentence_confidence
from model.translation.translator import DEFAULT_BEAM, Translator

from model.training.data import in_direction

from .cli import dev_parser, open_dev, store

LOG_KEY = "calibration"  # the entry of training_log.json this writes (TrainingLog.calibration reads it)
GRID = np.round(np.arange(1, 100) / 100, 2)  # candidate thresholds, all strictly inside (0, 1)


def token_is_right(token: str, reference: str) -> bool:
    """Whether the reference contains every character of the token (the lenient per-token check).

    A byte token (<0xE6>, one byte of a character outside the vocabulary) is no character on its own and
    counts as wrong; the shipped model writes none on the dev set.
    """
    chars = token.replace("▁", "")
    return bool(chars) and not (chars.startswith("<") and chars.endswith(">")) and all(ch in reference for ch in chars)


def increasing_fit(values: np.ndarray) -> np.ndarray:
    """Isotonic regression (pool adjacent violators): the closest non-decreasing sequence to `values`."""
    sums: list[float] = []
    counts: list[int] = []
    for v in values.tolist():
        sums.append(v)
        counts.append(1)
        while len(sums) > 1 and sums[-2] * counts[-1] > sums[-1] * counts[-2]:
            s, c = sums.pop(), counts.pop()
            sums[-1] += s
            counts[-1] += c
    return np.repeat(np.array(sums) / np.array(counts), counts)


def token_threshold(probs: np.ndarray, right: np.ndarray) -> float:
    """Where the isotonic fit of right-rate against probability reaches 1/2, on the two-decimal grid."""
    order = np.argsort(probs, kind="stable")
    fitted = increasing_fit(right[order].astype(float))
    reached = np.flatnonzero(fitted >= 0.5)
    if len(reached) == 0:  # never mostly right: every grid value below 1 keeps tokens mostly wrong
        return float(GRID[-1])
    return float(np.clip(round(float(probs[order][reached[0]]), 2), GRID[0], GRID[-1]))


def sentence_threshold(confidence: np.ndarray, exact: np.ndarray) -> float:
    """The grid value maximising Youden's J for "confidence ≥ threshold" as a test of an exact match."""
    positives, negatives = max(int(exact.sum()), 1), max(int((~exact).sum()), 1)
    above = confidence[None, :] >= GRID[:, None]  # (grid, sentences)
    j = (above & exact).sum(1) / positives - (above & ~exact).sum(1) / negatives
    return float(GRID[int(np.argmax(j))])  # the lowest threshold among ties


def _rate(mask: np.ndarray) -> float | None:
    return round(float(mask.mean()), 4) if mask.size else None


def calibrate(translator: Translator, pairs: list[tuple[str, str]], beam: int = DEFAULT_BEAM) -> dict:
    """Translate (English, Chinese) dev pairs and calibrate the token and sentence thresholds (see the module doc).

    Returns a JSON-ready dict: both thresholds, the method in words, the number of pairs and tokens,
    and the measured accuracies below and above each threshold.
    """
    if not pairs:
        raise ValueError("calibrate() needs at least one (English, Chinese) pair")
    chrf = CHRF()
    token_probs, token_right, confidence, exact, sentence_chrf = [], [], [], [], []
    for english, reference in pairs:
        result = translator.translate(english, beam=beam)
        probs = [step.chosen.prob for step in result.steps]
        for step in result.steps:
            if step.chosen.token_id != translator.config.eos_id:  # </s> has no characters to check
                token_probs.append(step.chosen.prob)
                token_right.append(token_is_right(step.chosen.token, reference))
        confidence.append(sentence_confidence(probs))
        exact.append(result.translation == reference)
        sentence_chrf.append(chrf.sentence_score(result.translation, [reference]).score)
    probs, right = np.array(token_probs, dtype=float), np.array(token_right, dtype=bool)
    confidence, exact, sentence_chrf = np.array(confidence), np.array(exact, dtype=bool), np.array(sentence_chrf)

    tau = token_threshold(probs, right) if probs.size else float(GRID[-1])
    sigma = sentence_threshold(confidence, exact)
    low, unsure = probs < tau, confidence < sigma

    def token_side(mask):
        return {"tokens": int(mask.sum()), "right": _rate(right[mask])}

    def sentence_side(mask):
        return {
            "translations": int(mask.sum()),
            "exact": _rate(exact[mask]),
            "chrf": round(float(sentence_chrf[mask].mean()), 2) if mask.any() else None,
        }

    return {
        "method": (
            f"Dev pairs translated as the app does (Translator.translate, beam {beam}). Token: right when the reference "
            "contains its characters; threshold where an isotonic fit of right-rate against the token's probability "
            "reaches 1/2. Sentence: confidence = geometric mean of the token probabilities (with </s>); right = exact "
            "match with the reference; threshold maximises Youden's J. Thresholds on a 0.01 grid."
        ),
        "beam": beam,
        "pairs": len(pairs),
        "token": {
            "threshold": tau,
            "tokens": int(probs.size),
            "right": _rate(right),
            "below": token_side(low),
            "above": token_side(~low),
        },
        "sentence": {
            "threshold": sigma,
            "score": "geometric mean of the output tokens' probabilities",
            "exact": _rate(exact),
            "chrf": round(float(sentence_chrf.mean()), 2),
            "below": sentence_side(unsure),
            "above": sentence_side(~unsure),
        },
    }


def main(argv: list[str] | None = None) -> int:
    p = dev_parser("python -m evaluation.calibrate", __doc__)
    p.add_argument("--beam", type=int, default=DEFAULT_BEAM, help=f"beam size the thresholds are for (default {DEFAULT_BEAM})")
    args = p.parse_args(argv)
    if (opened := open_dev(args)) is None:
        return 2
    translator, pairs = opened
    pairs = in_direction(pairs, translator.config.source_language)  # (source, reference) in the model's direction
    result = {**calibrate(translator, pairs, beam=args.beam), "dev": Path(args.dev).name}
    print(json.dumps({k: v for k, v in result.items() if k != "method"}, indent=1, ensure_ascii=False))
    store(args.checkpoint, LOG_KEY, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
