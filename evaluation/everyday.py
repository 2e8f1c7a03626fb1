"""Everyday sentences and unseen names: how a checkpoint does on what a class types.

    python -m evaluation.everyday checkpoints/en-zh runs/r2-dict-names [--json out.json]

`evaluation/classroom.tsv`: 50 sentences a teacher would type, with our own reference
translations; `evaluation/classroom_zh.tsv` the same 50 pairs for a Chinese → English model, Chinese first (three
Chinese sides reworded, as a 中文 teacher would also type them, where ours were a training sentence); `evaluation/names.tsv`: 20 sentences with a name that is in no training pair
(nor in the name pairs of model.dictionary), with its usual transliteration. Neither file is
ever trained on or used for a choice. A name *survives* when the translation keeps it in Latin
letters or gives its usual transliteration.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from model.loading.checkpoint import read_training_log, write_training_log
from model.translation.translator import DEFAULT_BEAM, Translator
from model.training.data import read_pairs, split_dev, unlike_training
from model.training.metrics import score

FOLDER = Path(__file__).resolve().parent  # evaluation/: the sets beside this module
CLASSROOM = FOLDER / "classroom.tsv"
CLASSROOM_ZH = FOLDER / "classroom_zh.tsv"  # chinese<TAB>english, for a model reading Chinese
NAMES = FOLDER / "names.tsv"


def read_rows(path: Path) -> list[list[str]]:
    return [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def name_survives(translation: str, name: str, transliteration: str) -> bool:
    return name in translation or transliteration in translation


def evaluate(translator: Translator, beam: int = DEFAULT_BEAM) -> dict:
    """Translations, BLEU/chrF of the classroom set in the model's direction and, for a model reading English, the
    share of names that survive (the names set is English sentences)."""
    source, target = translator.config.source_language, translator.config.target_language
    classroom = read_rows(CLASSROOM if source == "en" else CLASSROOM_ZH)
    names = read_rows(NAMES) if source == "en" else []
    said = translator.translations([row[0] for row in classroom], beam)
    named = translator.translations([row[0] for row in names], beam) if names else []
    survived = [name_survives(out, name, zh) for out, (_, name, zh) in zip(named, names)]
    return {
        "beam": beam,
        **score(said, [row[1] for row in classroom], target),
        "exact": sum(out == row[1] for out, row in zip(said, classroom)),
        "sentences": len(classroom),
        # "en": the sentence typed (the key every reader of the log knows), in the model's source language.
        "classroom": [{"en": row[0], "reference": row[1], "translation": out} for row, out in zip(classroom, said)],
        "names_survived": sum(survived),
        "names": [{"en": row[0], "name": row[1], "translation": out, "survived": ok}
                  for row, out, ok in zip(names, named, survived)],
    }


def names_effect(folder: str, dev: str, train: str, beam: int = DEFAULT_BEAM, device: str = "cpu") -> dict:
    """One checkpoint decoded twice, reading every sentence as typed and reading names it never learned as names it
    knows (model/translation/names.py): dev's two halves (all pairs and the unseen ones), the classroom set, the
    names kept, and how many dev sentences had a name swapped."""
    train_pairs, (selection, test) = read_pairs(train), split_dev(read_pairs(dev))
    halves = [(half, pairs, unlike_training(pairs, train_pairs)) for half, pairs in (("selection", selection),
                                                                                    ("test", test))]
    translator = Translator.from_checkpoint(folder, device=device)
    reader, result = translator.names, {}
    for label, names in (("as_typed", None), ("names_read_as", reader)):
        translator.names = names
        row: dict = {"swapped": 0}
        for half, pairs, unseen in halves:
            said = translator.translations([en for en, _ in pairs], beam)
            row[half] = score(said, [zh for _, zh in pairs])
            row[half + "_unseen"] = score([said[i] for i in unseen], [pairs[i][1] for i in unseen])
            row["swapped"] += sum(bool(translator.read_names(en)[1]) for en, _ in pairs)
        everyday = evaluate(translator, beam)
        row["classroom"] = {key: everyday[key] for key in ("bleu", "chrf", "exact", "sentences")}
        row["names_survived"], row["names"] = everyday["names_survived"], len(everyday["names"])
        result[label] = row
    return {"beam": beam, **result}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m evaluation.everyday", description=__doc__.split("\n\n")[0])
    p.add_argument("checkpoints", nargs="+", help="checkpoint folders, compared side by side")
    p.add_argument("--beam", type=int, default=DEFAULT_BEAM)
    p.add_argument("--json", help="write every result here")
    p.add_argument("--device", default="cpu", help="where to decode (cuda on a GPU machine)")
    p.add_argument("--into", help="a checkpoint whose training log receives the last checkpoint's result (`everyday`)")
    p.add_argument("--names-effect", nargs=2, metavar=("DEV", "TRAIN"),
                   help="also decode dev.tsv's halves with names read as typed and as known ones (`names_effect`)")
    args = p.parse_args(argv)
    results = {folder: evaluate(Translator.from_checkpoint(folder, device=args.device), args.beam)
               for folder in args.checkpoints}
    for i, row in enumerate(next(iter(results.values()))["classroom"]):
        print(row["en"], "|", row["reference"], "|", " | ".join(r["classroom"][i]["translation"] for r in results.values()))
    for folder, r in results.items():
        print(f"{folder}: classroom BLEU {r['bleu']} chrF {r['chrf']} exact {r['exact']}/{r['sentences']}, "
              f"names survived {r['names_survived']}/{len(r['names'])}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, ensure_ascii=False, indent=1), encoding="utf-8")
    effect = names_effect(args.checkpoints[-1], *args.names_effect, args.beam, args.device) \
        if args.names_effect else None
    if effect:
        print(json.dumps(effect, ensure_ascii=False))
    if args.into:
        log = read_training_log(args.into)
        log["everyday"] = results[args.checkpoints[-1]]
        if effect:
            log["names_effect"] = effect
        write_training_log(args.into, log)
    return 0


if __name__ == "__main__":
    sys.exit(main())
