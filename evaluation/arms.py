"""Training arms against the shipped model: BLEU and chrF on two sets, each gain with its paired bootstrap interval.

    python -m evaluation.arms --direction en-zh --testsets /work/.mirror/Helsinki-NLP+OPUS-MT-testsets/repo \
        --arm runs-out/en-zh-bt [--arm …] [--baseline checkpoints/en-zh] [--json out.json]

The two sets:
- **test half, unseen**: dev.tsv's test half (which chose nothing), only its pairs unlike training (`unlike_training`
  against the real train.tsv: a test pair a model has memorised says nothing of what it learnt);
- **newer pairs**: the Tatoeba-Challenge test set eng-cmn_Hans v2021-08-07 (sentences added to Tatoeba after our
  corpus), normalised as the corpus is, minus every pair with a side that train.tsv holds. The back-translation
  pools left every sentence of these files out (model/training/backtranslation/pool.py), so no arm has seen them.

Every system decodes as the app does (beam DEFAULT_BEAM). A gain is BLEU(arm) − BLEU(baseline) on the same
sentences, with the 95 % interval of 1,000 paired resamples (Koehn 2004; evaluation.heads.paired_drop). The test sets
are read from the fetched repository (offline tooling: the app, the tests and CI never need it).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from sacrebleu.metrics import CHRF

from model.loading.training_log import TrainingLog
from model.translation.threads import configure_torch_threads
from model.translation.translator import DEFAULT_BEAM, Translator
from model.training.backtranslation.pool import as_corpus, key
from model.training.backtranslation.testsets import Tree
from model.training.data import in_direction, read_pairs, split_dev, unlike_training

from .everyday import CLASSROOM, CLASSROOM_ZH, read_rows
from .heads import bleu_of, bleu_statistics, paired_drop

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "tatoeba-cmn-eng"
NEWER = "datasets/helsinki_nlp/tatoeba/testsets/eng-cmn_Hans/tatoeba-test-v2021-08-07"
EVERYDAY = 10  # the first sentences of the classroom set, shown before and after


def newer_pairs(tree: Tree, train: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """(English, Chinese) pairs of the newer test set, as the corpus writes them, none with a side train.tsv holds."""
    english, chinese = tree.lines(f"{NEWER}.eng"), tree.lines(f"{NEWER}.cmn_Hans")
    if len(english) != len(chinese):
        raise SystemExit(f"{NEWER}: {len(english)} English lines but {len(chinese)} Chinese ones")
    seen_en, seen_zh = {key(e, "en") for e, _ in train}, {key(z, "zh") for _, z in train}
    pairs = [(as_corpus(e, "en"), as_corpus(z, "zh")) for e, z in zip(english, chinese)]
    return [(e, z) for e, z in pairs if e and z and key(e, "en") not in seen_en and key(z, "zh") not in seen_zh]


def unseen_test_half(dev: list[tuple[str, str]], train: list[tuple[str, str]]) -> list[tuple[str, str]]:
    test = split_dev(dev)[1]
    return [test[i] for i in unlike_training(test, train)]


def scored(translator: Translator, pairs: list[tuple[str, str]]) -> dict:
    """The system's translations of `pairs` (in its direction) as BLEU statistics, with BLEU and chrF."""
    turned = in_direction(pairs, translator.config.source_language)
    hypotheses = translator.translations([s for s, _ in turned], beam=DEFAULT_BEAM)
    references = [t for _, t in turned]
    statistics = bleu_statistics(hypotheses, references, translator.config.target_language)
    chrf = CHRF().corpus_score(hypotheses, [references]).score
    return {"statistics": statistics, "bleu": round(bleu_of(statistics), 2), "chrf": round(chrf, 2)}


def everyday(translator: Translator, direction: str) -> list[str]:
    rows = read_rows(CLASSROOM if direction == "en-zh" else CLASSROOM_ZH)[:EVERYDAY]
    return translator.translations([row[0] for row in rows], beam=DEFAULT_BEAM)


def compare(folders: list[Path], sets: dict[str, list[tuple[str, str]]], direction: str,
            say=lambda line: print(line, file=sys.stderr)) -> dict:
    """{system: {set: {bleu, chrf[, gain, low, high]}, minutes, steps, everyday}}; the first folder is the baseline."""
    result, base = {}, {}
    for index, folder in enumerate(folders):
        translator = Translator.from_checkpoint(folder, device="cpu")
        log = TrainingLog.read(folder) or TrainingLog()
        row = {"minutes": log.train_minutes, "steps": log.steps, "train_pairs": log.train_pairs,
               "everyday": everyday(translator, direction)}
        for name, pairs in sets.items():
            s = scored(translator, pairs)
            row[name] = {"bleu": s["bleu"], "chrf": s["chrf"]}
            if index == 0:
                base[name] = s["statistics"]
            else:  # paired_drop(a, b) is BLEU(a) − BLEU(b): the arm first, so a gain is positive
                gain = paired_drop(s["statistics"], base[name])
                row[name].update(gain=gain["bleu_drop"], low=gain["low"], high=gain["high"])
            say(f"{folder}: {name} {row[name]}")
        result[str(folder)] = row
    return result


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m evaluation.arms", description=__doc__.split("\n")[0])
    p.add_argument("--direction", choices=("en-zh", "zh-en"), required=True)
    p.add_argument("--testsets", required=True, help="OPUS-MT-testsets: a checkout or the bare git directory")
    p.add_argument("--arm", action="append", required=True, help="a trained arm's checkpoint folder (repeatable)")
    p.add_argument("--baseline", help="default: checkpoints/<direction>")
    p.add_argument("--train", default=str(DATA / "train.tsv"), help="the real pairs (what 'unseen' is unlike)")
    p.add_argument("--dev", default=str(DATA / "dev.tsv"))
    p.add_argument("--json", help="write the result here too")
    args = p.parse_args(argv)
    configure_torch_threads()
    train, dev = read_pairs(args.train), read_pairs(args.dev)
    sets = {"test_unseen": unseen_test_half(dev, train), "newer": newer_pairs(Tree(args.testsets), train)}
    print(f"test half unseen: {len(sets['test_unseen'])} pairs; newer: {len(sets['newer'])} pairs", file=sys.stderr)
    folders = [Path(args.baseline or ROOT / "checkpoints" / args.direction), *map(Path, args.arm)]
    result = {"sets": {name: len(pairs) for name, pairs in sets.items()}, "beam": DEFAULT_BEAM,
              "systems": compare(folders, sets, args.direction)}
    text = json.dumps(result, ensure_ascii=False, indent=1)
    if args.json:
        Path(args.json).write_text(text + "\n", encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
