"""Beam size and length penalty chosen on dev, not assumed.

Decodes the selection half of the dev pairs (model/training/data.py split_dev) with every beam size and
GNMT length-penalty α of a grid, exactly as the app decodes (Translator.translations: same search, same
limits), and picks the setting with the best BLEU there (chrF breaks ties, then the smaller beam: the faster
search). Only then is the test half decoded, with the chosen setting and with the shipped default, so its
figures are estimates no choice was made by. Greedy search (beam 1) keeps a single hypothesis: α cannot
change what it writes, so it is decoded once.

`python -m model.training.decoding_sweep --dev DEV.tsv` writes the table into the checkpoint's
training_log.json under "decoding_sweep"; the model card shows it.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import replace

from ..translation.translator import DEFAULT_BEAM, Translator
from .data import split_dev
from .dev_cli import dev_parser, open_dev, store
from .metrics import score

LOG_KEY = "decoding_sweep"
BEAMS = (1, 2, 4, 6, 8)
ALPHAS = (0.0, 0.3, 0.6, 1.0, 1.5)


def settings(beams=BEAMS, alphas=ALPHAS) -> list[tuple[int, float | None]]:
    """(beam, α) pairs of the grid; beam 1 once, with α None (it has nothing to re-rank)."""
    return [(beam, None) for beam in beams if beam == 1] + [(b, a) for b in beams if b > 1 for a in alphas]


def decode(translator: Translator, pairs, beam: int, alpha: float | None) -> dict:
    """BLEU and chrF of `pairs` decoded with `beam` and GNMT's α (the model's own where None), and the seconds."""
    generation = translator.generation_config if alpha is None else replace(
        translator.generation_config, length_penalty=None, gnmt_alpha=alpha)
    searcher = Translator(translator.model, translator.src_tok, translator.tgt_tok, generation=generation,
                          max_concurrent=1)
    started = time.perf_counter()
    hypotheses = searcher.translations([english for english, _ in pairs], beam)
    seconds = time.perf_counter() - started
    scores = score(hypotheses, [chinese for _, chinese in pairs])
    return {"beam": beam, "alpha": alpha, "bleu": scores["bleu"], "chrf": scores["chrf"],
            "seconds": round(seconds, 1), "signature": scores["bleu_signature"]}


def best(rows: list[dict]) -> dict:
    """The row with the best BLEU; chrF, then the smaller beam (the faster search) break ties."""
    return max(rows, key=lambda row: (row["bleu"], row["chrf"], -row["beam"]))


def sweep(translator: Translator, pairs, grid: list[tuple[int, float | None]], say=print) -> dict:
    """The grid scored on the selection half, the chosen setting, and the test half for it and for the default."""
    selection, test = split_dev(pairs)
    rows = []
    for beam, alpha in grid:
        rows.append(decode(translator, selection, beam, alpha))
        say(json.dumps(rows[-1]))
    chosen = best(rows)
    default = (DEFAULT_BEAM, translator.generation_config.gnmt_alpha)
    tested = {"chosen": decode(translator, test, chosen["beam"], chosen["alpha"])}
    if (chosen["beam"], chosen["alpha"] if chosen["beam"] > 1 else None) != default:
        tested["default"] = decode(translator, test, *default)
    return {
        "method": ("Each setting decodes the selection half of dev (Translator.translations, as the app decodes); "
                   "the best BLEU is chosen (chrF, then the smaller beam, break ties); the test half is decoded "
                   "only with the chosen setting and the default."),
        "selection_pairs": len(selection), "test_pairs": len(test),
        "default": {"beam": default[0], "alpha": default[1]},
        "rows": rows, "chosen": {"beam": chosen["beam"], "alpha": chosen["alpha"]}, "test": tested,
    }


def main(argv: list[str] | None = None) -> int:
    p = dev_parser("python -m model.training.decoding_sweep", __doc__)
    p.add_argument("--beams", default=",".join(map(str, BEAMS)), help="beam sizes, comma-separated")
    p.add_argument("--alphas", default=",".join(map(str, ALPHAS)), help="GNMT α values, comma-separated")
    args = p.parse_args(argv)
    if (opened := open_dev(args)) is None:
        return 2
    translator, pairs = opened
    grid = settings([int(b) for b in args.beams.split(",")], [float(a) for a in args.alphas.split(",")])
    result = sweep(translator, pairs, grid, say=lambda line: print(line, flush=True))
    print(json.dumps({k: result[k] for k in ("chosen", "test")}, indent=1))
    store(args.checkpoint, LOG_KEY, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
