"""Corpus BLEU and chrF (sacrebleu), tokenised for the output's language."""

from __future__ import annotations

from sacrebleu.metrics import BLEU, CHRF


# sacrebleu's tokenizer per target language: its default 13a scores Chinese near 0, "zh" cuts Chinese into characters.
BLEU_TOKENIZE = {"zh": "zh", "en": "13a"}


def score(hypotheses: list[str], references: list[str], language: str = "zh") -> dict:
    """BLEU with sacrebleu's tokenizer for `language` (the output's) and chrF."""
    bleu = BLEU(tokenize=BLEU_TOKENIZE[language])
    chrf = CHRF()
    b = bleu.corpus_score(hypotheses, [references])
    c = chrf.corpus_score(hypotheses, [references])
    return {
        "bleu": round(b.score, 2),
        "chrf": round(c.score, 2),
        "bleu_signature": str(bleu.get_signature()),
        "chrf_signature": str(chrf.get_signature()),
    }
