"""Beam size and length penalty chosen on dev, not assumed.

Decodes the selection half of the dev pairs (model/training/data.py split_dev) with every beam size and
GNMT length-penalty α of a grid, exactly as the app decodes (Translator.translations: same search, same
limits). The setting with the best BLEU there (chrF, then the smaller beam, break ties) replaces the default
only where it beats it significantly: paired bootstrap resampling (sacrebleu, 1,000 samples) with p under 0.05
shared among the settings the best was picked from (Bonferroni: the best of nine leads the default by chance far
more often than one setting does); a few hundred sentences cannot tell half a BLEU point from chance. Only
then is the test half decoded, with the chosen setting and with the others named (the default, the best), so
its figures are estimates no choice was made by. Greedy search (beam 1) keeps a single hypothesis: α cannot change what it writes, so
it is decoded once.

`python -m evaluation.decoding_sweep --dev DEV.tsv` writes the table into the checkpoint's
training_log.json under "decoding_sweep"; the model card shows it.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import replace

from sacrebleu.metrics import BLEU
from sacrebleu.significance import PairedTest

from model.translation.translator import DEFAULT_BEAM, Translator
from model.training.data import in_direction, split_dev
from model.training.metrics import BLEU_TOKENIZE, score

from .cli import dev_parser, open_dev, store

LOG_KEY = "decoding_sweep"
BEAMS = (1, 2, 4, 8)
ALPHAS = (0.0, 0.6, 1.2)  # none, ours (GNMT's own choice), twice ours
SIGNIFICANCE = 0.05
BOOTSTRAP_SAMPLES = 1000


def settings(beams=BEAMS, alphas=ALPHAS) -> list[tuple[int, float | None]]:
    """(beam, α) pairs of the grid; beam 1 once, with α None (it has nothing to re-rank)."""
    return [(beam, None) for beam in beams if beam == 1] + [(b, a) for b in beams if b > 1 for a in alphas]


def decode(translator: Translator, pairs, beam: int, alpha: float | None) -> tuple[dict, list[str]]:
    """BLEU and chrF of `pairs` decoded with `beam` and GNMT's α (the model's own where None), the seconds it
    took, and the translations."""
    generation = translator.generation_config if alpha is None else replace(
        translator.generation_config, length_penalty=None, gnmt_alpha=alpha)
    searcher = Translator(translator.model, translator.src_tok, translator.tgt_tok, generation=generation,
                          max_concurrent=1)
    pairs = in_direction(pairs, translator.config.source_language)  # (English, Chinese) → (source, reference)
    started = time.perf_counter()
    hypotheses = searcher.translations([source for source, _ in pairs], beam)
    seconds = time.perf_counter() - started
    scores = score(hypotheses, [reference for _, reference in pairs], translator.config.target_language)
    return {"beam": beam, "alpha": alpha, "bleu": scores["bleu"], "chrf": scores["chrf"],
            "seconds": round(seconds, 1), "signature": scores["bleu_signature"]}, hypotheses


def best(rows: list[dict]) -> dict:
    """The row with the best BLEU; chrF, then the smaller beam (the faster search) break ties."""
    return max(rows, key=lambda row: (row["bleu"], row["chrf"], -row["beam"]))


def p_value(baseline: list[str], other: list[str], references: list[str], language: str = "zh") -> float:
    """Paired bootstrap resampling (Koehn 2004, sacrebleu's): how often `other`'s BLEU lead over `baseline`
    could come from which sentences happened to be in the set (BLEU tokenised for the output's `language`)."""
    bleu = BLEU(tokenize=BLEU_TOKENIZE[language])
    test = PairedTest([("baseline", baseline), ("other", other)], {"BLEU": bleu}, [references],
                      test_type="bs", n_samples=BOOTSTRAP_SAMPLES)
    return float(test()[1]["BLEU"][1].p_value)


def threshold(compared: int) -> float:
    """The p-value under which the best of `compared` settings replaces the default (Bonferroni)."""
    return SIGNIFICANCE / max(1, compared)


def sweep(translator: Translator, pairs, grid: list[tuple[int, float | None]], say=print) -> dict:
    """The grid scored on the selection half; the best setting, adopted where it beats the default significantly;
    the test half decoded with the chosen setting, the default and the best."""
    selection, test = split_dev(pairs)
    rows, outputs = [], {}
    for beam, alpha in grid:
        row, outputs[beam, alpha] = decode(translator, selection, beam, alpha)
        rows.append(row)
        say(json.dumps(row))
    default = (DEFAULT_BEAM, translator.generation_config.gnmt_alpha)
    if default not in outputs:
        row, outputs[default] = decode(translator, selection, *default)
        rows.append(row | {"outside_grid": True})
    top = best([row for row in rows if not row.get("outside_grid")])
    lead = top["bleu"] - next(row["bleu"] for row in rows if (row["beam"], row["alpha"]) == default)
    top = (top["beam"], top["alpha"])
    # No BLEU lead, nothing to test (and sacrebleu counts a zero difference as significant, by design).
    target = translator.config.target_language
    references = [reference for _, reference in in_direction(selection, translator.config.source_language)]
    p = p_value(outputs[default], outputs[top], references, target) if lead > 0 else None
    compared = sum(setting != default for setting in grid)  # the settings the best was picked from
    chosen = top if p is not None and p < threshold(compared) else default
    named = {"chosen": chosen, "default": default, "best": top}
    tested = {}
    for setting in dict.fromkeys(named.values()):  # each distinct setting once
        tested[setting] = decode(translator, test, *setting)[0]
    return {
        "method": ("Each setting decodes the selection half of dev (Translator.translations, as the app decodes). "
                   "The best BLEU (chrF, then the smaller beam, break ties) replaces the default only where paired "
                   f"bootstrap resampling ({BOOTSTRAP_SAMPLES} samples) gives p < {SIGNIFICANCE} divided by the "
                   "settings compared (Bonferroni). The test half is decoded only afterwards, with the chosen, "
                   "default and best settings."),
        "selection_pairs": len(selection), "test_pairs": len(test), "rows": rows,
        **{name: {"beam": beam, "alpha": alpha} for name, (beam, alpha) in named.items()}, "p_value": p,
        "compared": compared, "threshold": threshold(compared),
        "test": {name: tested[setting] for name, setting in named.items()},
    }


def main(argv: list[str] | None = None) -> int:
    p = dev_parser("python -m evaluation.decoding_sweep", __doc__)
    p.add_argument("--beams", default=",".join(map(str, BEAMS)), help="beam sizes, comma-separated")
    p.add_argument("--alphas", default=",".join(map(str, ALPHAS)), help="GNMT α values, comma-separated")
    args = p.parse_args(argv)
    if (opened := open_dev(args)) is None:
        return 2
    translator, pairs = opened
    grid = settings([int(b) for b in args.beams.split(",")], [float(a) for a in args.alphas.split(",")])
    result = sweep(translator, pairs, grid, say=lambda line: print(line, flush=True))
    print(json.dumps({k: result[k] for k in ("best", "p_value", "chosen", "test")}, indent=1))
    store(args.checkpoint, LOG_KEY, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
