"""The recipe study: score trained checkpoints side by side and write the table into the shipped model's card.

    python -m evaluation.study --dev ../shared/data/tatoeba-cmn-eng/dev.tsv \
        --train ../shared/data/tatoeba-cmn-eng/train.tsv \
        --group runs/old-en-zh checkpoints/en-zh --group runs/s-base runs/s-tokdrop --into checkpoints/en-zh

Each --group holds runs trained with the same time budget; its first run is the
reference the others are compared with. Every checkpoint is decoded the same way
(greedy, the app's search) on all of dev.tsv and on the dev pairs unlike any
training pair, so rows are comparable whatever their training logs recorded.

With --test-split the dev pairs are halved (model.data.split_dev): rows are scored
on the selection half and, separately, on the test half that no run ever chose by;
the --into checkpoint's test scores at the app's beam go into its log (`test`), which
the translate page and the model card quote. --append keeps the rows already in the log.
Each --finding goes under the table of README.md, its --finding-zh under that of README.zh.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from pathlib import Path

from cards import write_cards
from model.loading.checkpoint import load_checkpoint
from model.loading.training_log import TRAINING_LOG, TrainingLog, read_training_log, write_training_log
from model.training.data import read_pairs, split_dev, unlike_training
from model.translation.translator import DEFAULT_BEAM
from model.training.train import dev_scores, parse_args

# Arguments that say where files are or how a run was resumed, not what was trained.
NOT_RECIPE = {"train", "dev", "out", "work_dir", "epochs", "dev_limit", "eval_every", "final_beam", "probes", "device",
              "threads", "save_dtype", "test_split"}  # test_split: which dev pairs chose, said by the table's columns


def recipe_changes(args: Mapping, reference: Mapping) -> str:
    """The training arguments in which a run differs from its group's reference, as `name=value` pairs.

    An option a run's log lacks did not exist when it was trained: it had the option's default behaviour.
    """
    defaults = vars(parse_args(["--train", "-", "--out", "-"]))
    changed = [f"{k}={args.get(k, defaults.get(k))}" for k in sorted(set(args) | set(reference))
               if k not in NOT_RECIPE and args.get(k, defaults.get(k)) != reference.get(k, defaults.get(k))]
    return ", ".join(changed) or "reference"


SCORES = ("bleu", "chrf", "dedup_bleu", "dedup_chrf")


def given_args(log: TrainingLog | None) -> Mapping:
    """Every training argument the run's log records ({} without a log or arguments)."""
    return log.args.given if log is not None and log.args is not None else {}


def study_row(folder: Path, reference_args: Mapping, dev_pairs, dedup: list[int], test=None,
              device: str = "cpu") -> dict:
    """One checkpoint's row; `test`: (pairs, unseen indices) of the held-out half, scored apart.

    A folder with a training log but no weights is a run trained and scored on another machine (a lent GPU
    whose checkpoints could not all come back): its row is the one its own study recorded there.
    """
    if not (folder / "model.safetensors").is_file():
        return recorded_row(folder, reference_args)
    log = TrainingLog.read(folder) or TrainingLog()
    model, src_tok, tgt_tok = load_checkpoint(folder, device)
    scores = dev_scores(model, src_tok, tgt_tok, dev_pairs, dedup)
    if test:
        tested = dev_scores(model, src_tok, tgt_tok, *test)
        scores.update({f"test_{k}": tested[k] for k in SCORES}, scored_on="selection half")
    return {
        "run": folder.name,
        "changes": recipe_changes(given_args(log), reference_args),
        "minutes": log.train_minutes,
        "steps": log.steps,
        "hardware": "?" if log.hardware is None else log.hardware,
        "shipped": "best evaluation" if log.shipped is None else log.shipped,
        **{k: scores[k] for k in SCORES},
        **{k: v for k, v in scores.items() if k.startswith("test_") or k == "scored_on"},
    }


def recorded_row(folder: Path, reference_args: Mapping) -> dict:
    """The row a run's own study wrote into its log (`study --group RUN --into RUN`), copied as written, its changes
    against this group's reference; a folder with neither weights nor such a row cannot be scored."""
    written = read_training_log(folder) or {}
    log = TrainingLog.from_dict(written)
    own = [index for index, row in enumerate(log.study) if row.run == folder.name]
    if not own:
        raise SystemExit(f"{folder} has no model.safetensors and its training log records no study row of its own")
    row = {k: v for k, v in written["study"][own[-1]].items() if k != "group"}  # the row as written, every key
    return {**row, "changes": recipe_changes(given_args(log), reference_args)}


def test_scores(folder: Path, pairs, unseen: list[int], device: str = "cpu") -> dict:
    """The held-out test half decoded as the app decodes (beam DEFAULT_BEAM), with sacrebleu signatures."""
    model, src_tok, tgt_tok = load_checkpoint(folder, device)
    scores = dev_scores(model, src_tok, tgt_tok, pairs, unseen, beam=DEFAULT_BEAM)
    # Trained before the split existed, a checkpoint was chosen on all of dev, this half included: say so.
    log = TrainingLog.read(folder)
    untouched = bool(log is not None and log.args is not None and log.args.test_split)
    return {"beam": DEFAULT_BEAM, "pairs": len(pairs), "unseen_pairs": len(unseen), "untouched": untouched,
            **{k: scores[k] for k in (*SCORES, "bleu_signature", "chrf_signature")}}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m evaluation.study", description=__doc__.split("\n\n")[0])
    p.add_argument("--train", required=True, help="the training TSV (to find the dev pairs unlike it)")
    p.add_argument("--dev", required=True)
    p.add_argument("--group", nargs="+", action="append", required=True, help="checkpoint folders, reference first")
    p.add_argument("--into", required=True, help="checkpoint whose training log and card receive the table")
    p.add_argument("--finding", action="append", default=[],
                   help="a sentence of what the study showed, printed under the table (repeatable)")
    p.add_argument("--finding-zh", action="append", default=[],
                   help="the same finding in Chinese for README.zh.md, one per --finding in the same order")
    p.add_argument("--test-split", action="store_true", help="score the selection and test halves apart")
    p.add_argument("--append", action="store_true", help="keep the log's earlier rows and findings")
    p.add_argument("--device", default="cpu", help="where to decode (cuda on a GPU machine)")
    args = p.parse_args(argv)
    into = Path(args.into)
    log = read_training_log(into)  # the log as written: the study adds to it and writes it back
    if log is None:
        p.error(f"{into} has no {TRAINING_LOG}")
    earlier = TrainingLog.from_dict(log)
    train_pairs = read_pairs(args.train)
    dev_pairs, test = read_pairs(args.dev), None
    if args.test_split:
        dev_pairs, test_pairs = split_dev(dev_pairs)
        test = (test_pairs, unlike_training(test_pairs, train_pairs))
    dedup = unlike_training(dev_pairs, train_pairs)
    study = list(log.get("study", [])) if args.append else []  # rows as written, kept
    first_group = max((row.group for row in earlier.study), default=0) if args.append else 0
    for g, folders in enumerate(args.group):
        reference_args = given_args(TrainingLog.read(folders[0]))
        for folder in map(Path, folders):
            scored = study_row(folder, reference_args, dev_pairs, dedup, test, args.device)
            row = {"group": first_group + g + 1, **scored}
            print(json.dumps(row, ensure_ascii=False), flush=True)
            study.append(row)
    log["study"] = study
    log["study_findings"] = (list(earlier.study_findings) if args.append else []) + args.finding
    log["study_findings_zh"] = (list(earlier.study_findings_zh) if args.append else []) + args.finding_zh
    if test:
        log["test"] = tested = test_scores(into, *test, device=args.device)
        print(json.dumps({"test": tested}, ensure_ascii=False), flush=True)
    model, _, _ = load_checkpoint(into, "cpu")
    write_training_log(into, log)
    write_cards(into, model.config, log, into.name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
