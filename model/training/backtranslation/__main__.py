"""python -m model.training.backtranslation {extract,translate,mix,record}: see the package's docstring and
model/training/README.md ("Back-translation")."""

from __future__ import annotations

import argparse
import json
from dataclasses import fields
from pathlib import Path

from ...loading import load
from ...loading.training_log import read_training_log, write_training_log
from ...text.normalize import normalize_source
from ...translation.threads import configure_torch_threads
from ...translation.translator import Translator
from .mix import mix
from .pool import build_pool, excluded_keys
from .record import LOG_KEY, entry, with_arms
from .resumable import run, sha256, write_log
from .synthesis import METHODS, Settings
from .testsets import POOL_VERSION, Tree

ROOT = Path(__file__).resolve().parents[3]
DATA = ROOT.parent / "shared" / "data" / "tatoeba-cmn-eng"
WORK = Path("/work/bt")
TRANSLATES = {"en": ROOT / "checkpoints" / "en-zh", "zh": ROOT / "checkpoints" / "zh-en"}  # the pool's language → model


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m model.training.backtranslation", description=__doc__.split(":")[0])
    sub = p.add_subparsers(dest="command", required=True)
    e = sub.add_parser("extract", help="the monolingual pools, test sets, dev and gold taken out")
    e.add_argument("--testsets", required=True, help="OPUS-MT-testsets: a checkout or the bare git directory")
    e.add_argument("--version", default=POOL_VERSION, help="the test sets' version the pool is read from")
    e.add_argument("--dev", type=Path, default=DATA / "dev.tsv")
    e.add_argument("--gold", type=Path, default=ROOT / "evaluation" / "alignment" / "pairs.tsv")
    e.add_argument("--train", type=Path, default=DATA / "train.tsv", help="its sentences are left out, side by side")
    e.add_argument("--keep-train", action="store_true", help="keep sentences train.tsv already has on that side")
    e.add_argument("--out", type=Path, default=WORK / "pool")
    t = sub.add_parser("translate", help="translate a pool with the other direction's model (resumable)")
    t.add_argument("--language", choices=("en", "zh"), required=True, help="the pool's (real) language")
    t.add_argument("--pool", type=Path, default=WORK / "pool")
    t.add_argument("--checkpoint", type=Path, help="default: checkpoints/en-zh for English, zh-en for Chinese")
    t.add_argument("--out", type=Path, help="default: /work/bt/synthetic/<language>.<method>.seed<seed>.tsv")
    t.add_argument("--limit", type=int, help="stop after the chunk that reaches this many sentences")
    t.add_argument("--threads", type=int, default=None, help="torch threads (default: ATTENTION_THREADS, else cores)")
    for f in fields(Settings):
        kind = {"int": int, "float": float, "str": str}[f.type]
        t.add_argument(f"--{f.name.replace('_', '-')}", type=kind, default=f.default,
                       **({"choices": METHODS} if f.name == "method" else {}))
    m = sub.add_parser("mix", help="real + synthetic pairs in one training TSV, synthetic sources tagged or not")
    m.add_argument("--synthetic", type=Path, required=True)
    m.add_argument("--real", type=Path, default=DATA / "train.tsv")
    m.add_argument("--out", type=Path, required=True)
    m.add_argument("--tag", action="store_true")
    m.add_argument("--real-copies", type=int, default=1)
    m.add_argument("--synthetic-limit", type=int)
    m.add_argument("--seed", type=int, default=1)
    m.add_argument("--forward", action="store_true", help="self-training: the pool's real sentences as sources (noised), "
                   "their translations as targets, for the model that translated them")
    r = sub.add_parser("record", help="what a checkpoint trained on back-translated pairs was trained on, into its log")
    r.add_argument("--into", type=Path, required=True, help="the checkpoint whose training_log.json receives it")
    r.add_argument("--pool", type=Path, default=WORK / "pool", help="the folder extract wrote")
    r.add_argument("--synthetic", type=Path, help="the TSV translate wrote (left out with --mixed: --arms are added to "
                   "the checkpoint's recorded entry, e.g. a control run scored later)")
    r.add_argument("--mixed", type=Path, help="the TSV mix wrote, the checkpoint's --train")
    r.add_argument("--arms", type=Path, nargs="+", default=[], help="python -m evaluation.arms --json files")
    r.add_argument("--this", help="this checkpoint's run in the arms files (default: the --into folder's name)")
    r.add_argument("--earlier", type=Path, help="the checkpoint this one replaces: its recorded arms stay in the table "
                   "(--arms must be scored against their reference)")
    r.add_argument("--replaced", type=Path, help="an evaluation.arms --json file scoring this run alone against the "
                   "model it replaces (its --baseline): the shipping rule's comparison")
    return p.parse_args(argv)


def length_filter(folder: Path, language: str):
    """(whether a sentence fits the source limit of the model that will translate it, that limit in tokens)."""
    loaded = load(folder)
    tokenizer, limit = loaded.source_tokenizer, loaded.model.config.max_len - 1  # room for </s>, as prepare() leaves
    return (lambda text: len(tokenizer.encode(normalize_source(text, language))) <= limit), limit


def extract(args: argparse.Namespace) -> dict:
    """Write <out>/en.txt, <out>/zh.txt (one sentence a line) and <out>/extract.json (every step's count)."""
    tree = Tree(args.testsets)
    log = {"testsets": str(args.testsets), "commit": tree.commit, "version": args.version, "languages": {},
           "excluded_from": {str(p): sha256(p) for p in (args.dev, args.gold, args.train) if p is not None}}
    args.out.mkdir(parents=True, exist_ok=True)
    for language, folder in TRANSLATES.items():
        fits, limit = length_filter(folder, language)
        excluded = excluded_keys(tree, language, args.dev, args.gold, None if args.keep_train else args.train)
        sentences, steps = build_pool(tree, language, excluded, fits, args.version)
        (args.out / f"{language}.txt").write_text("".join(f"{s}\n" for s in sentences), encoding="utf-8")
        log["languages"][language] = {"steps": steps, "length_limit_tokens": limit, "tokenizer": str(folder),
                                      "sha256": sha256(args.out / f"{language}.txt")}
    log["sha256"] = tree.hashes
    write_log(args.out / "extract.json", log)
    return log


def translate(args: argparse.Namespace) -> dict:
    configure_torch_threads(args.threads)
    settings = Settings(**{f.name: getattr(args, f.name) for f in fields(Settings)})
    pool = args.pool / f"{args.language}.txt"
    folder = args.checkpoint or TRANSLATES[args.language]
    out = args.out or WORK / "synthetic" / f"{args.language}.{settings.method}.seed{settings.seed}.tsv"
    sentences = pool.read_text(encoding="utf-8").splitlines()
    meta = {"input": {"path": str(pool), "sha256": sha256(pool), "sentences": len(sentences)},
            "checkpoint": {"path": str(folder), "model_sha256": sha256(Path(folder) / "model.safetensors")}}
    return run(Translator.from_checkpoint(folder), sentences, settings, out, meta, args.limit)


def recorded(args: argparse.Namespace, log: dict) -> dict:
    """The log's entry: made from the data step's files, or with --arms alone, the recorded one with those arms."""
    if args.synthetic and args.mixed:
        earlier = (read_training_log(args.earlier) or {}).get(LOG_KEY) if args.earlier else None
        if args.earlier and earlier is None:
            raise SystemExit(f"error: {args.earlier} has no recorded {LOG_KEY!r} entry to keep the arms of")
        return entry(args.pool, args.synthetic, args.mixed, args.arms, args.this or args.into.name, earlier,
                     args.replaced)
    if args.synthetic or args.mixed or args.earlier or args.replaced or not args.arms or LOG_KEY not in log:
        raise SystemExit("error: record takes --synthetic and --mixed together (with --earlier and --replaced if "
                         f"wanted), or --arms alone to add arms to a checkpoint that has a recorded {LOG_KEY!r} entry")
    return with_arms(log[LOG_KEY], args.arms)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    if args.command == "extract":
        log = extract(args)
        report = {lang: [(s["step"], s["count"]) for s in entry["steps"]] for lang, entry in log["languages"].items()}
    elif args.command == "translate":
        log = translate(args)
        report = {k: log[k] for k in ("done", "counts", "seconds", "sentences_per_second")}
    elif args.command == "mix":
        report = mix(args.real, args.synthetic, args.out, args.tag, args.real_copies, args.synthetic_limit, args.seed,
                     args.forward)
    else:
        if (log := read_training_log(args.into)) is None:
            raise SystemExit(f"error: {args.into} has no training_log.json: record into a trained checkpoint")
        report = log[LOG_KEY] = recorded(args, log)
        write_training_log(args.into, log)
    print(json.dumps(report, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
