"""What the commands that measure a checkpoint on dev pairs share (calibrate, reliability, decoding_sweep, heads):
their arguments, torch's threads, loading the model and the pairs, and storing the result under one key of the
checkpoint's training_log.json."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from model.loading.checkpoint import CheckpointError, read_training_log, write_training_log
from model.translation.threads import configure_torch_threads
from model.translation.translator import DEFAULT_CHECKPOINT, Translator
from model.training.data import read_pairs


def dev_parser(prog: str, doc: str) -> argparse.ArgumentParser:
    """--checkpoint, --dev, --limit and --device; the caller adds its own."""
    p = argparse.ArgumentParser(prog=prog, description=doc.split("\n")[0])
    p.add_argument("--checkpoint", default=str(DEFAULT_CHECKPOINT))
    p.add_argument("--dev", required=True, help="dev pairs, english<TAB>chinese per line")
    p.add_argument("--limit", type=int, default=0, help="use only the first N pairs (0 = all)")
    p.add_argument("--device", default="cpu")
    return p


def open_dev(args: argparse.Namespace) -> tuple[Translator, list[tuple[str, str]]] | None:
    """The checkpoint's Translator and the dev pairs (the first --limit of them); None, said on stderr, when the
    checkpoint does not load or the dev file cannot be read."""
    configure_torch_threads()
    try:
        translator = Translator.from_checkpoint(args.checkpoint, device=args.device)
        pairs = read_pairs(args.dev)
    except CheckpointError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return None
    except OSError as exc:
        print(f"error: cannot read {args.dev}: {exc}", file=sys.stderr)
        return None
    return translator, pairs[: args.limit] if args.limit else pairs


def store(folder: str | Path, key: str, result: dict) -> Path:
    """`result` under `key` in the checkpoint's training_log.json (created if absent); says where on stdout."""
    log = read_training_log(folder) or {}
    log[key] = result
    path = write_training_log(folder, log)
    print(f"written to {path} under {key!r}")
    return path
