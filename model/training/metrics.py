"""Corpus BLEU and chrF for Chinese output (sacrebleu)."""

from __future__ import annotations

from sacrebleu.metrics import BLEU, CHRF


def selection_bleu(entry: dict) -> float:
    """What picks a checkpoint: BLEU on the dev pairs unlike training (model.data.unlike_training); on all of dev
    when none is unlike training."""
    return entry["bleu"] if entry.get("dedup_bleu") is None else entry["dedup_bleu"]


def score(hypotheses: list[str], references: list[str]) -> dict:
    """BLEU with sacrebleu's Chinese tokenizer (the default 13a scores Chinese near 0) and chrF."""
    bleu = BLEU(tokenize="zh")
    chrf = CHRF()
    b = bleu.corpus_score(hypotheses, [references])
    c = chrf.corpus_score(hypotheses, [references])
    return {
        "bleu": round(b.score, 2),
        "chrf": round(c.score, 2),
        "bleu_signature": str(bleu.get_signature()),
        "chrf_signature": str(chrf.get_signature()),
    }
