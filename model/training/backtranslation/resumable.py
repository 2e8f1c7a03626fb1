"""Writing the synthetic corpus a chunk at a time, so a stopped run goes on where it stopped and gives the same
bytes as one that never stopped.

Beside `X.tsv` lies `X.json`, the log: what was translated (the pool file's sha256, the checkpoint's), how (the
settings, the seed), and after every chunk the sentences done, the bytes written, the counts and the seconds. A chunk
is appended and synced before the log says it is done; a rerun cuts the file back to the logged bytes (a chunk
half-written when the run stopped) and refuses to go on with other settings or another input.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import time
from dataclasses import asdict
from pathlib import Path

import torch

from ...translation.translator import Translator
from .synthesis import Settings, translate_chunk

COUNTS = ("translated", "ran_to_the_limit", "name_lost", "empty_or_wrong_script", "kept")


def tsv_line(real: str, synthetic: str, real_language: str) -> str:
    """One pair as read_pairs reads the corpus: English<TAB>Chinese, whichever side is synthetic."""
    english, chinese = (real, synthetic) if real_language == "en" else (synthetic, real)
    return f"{english}\t{chinese}\n"


def start_log(log_path: Path, out: Path, fresh: dict) -> dict:
    """The log to go on from: `fresh` for a new run; the existing one (its file cut to the logged bytes) when it
    was made with the same input, checkpoint and settings. Raises ValueError otherwise."""
    if not log_path.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(b"")
        return fresh
    log = json.loads(log_path.read_text(encoding="utf-8"))
    for what in ("input", "checkpoint", "settings"):
        if log[what] != fresh[what]:
            raise ValueError(f"{log_path}: made with another {what} ({log[what]} ≠ {fresh[what]}); "
                             "write elsewhere (--out) or remove it to start again")
    size = out.stat().st_size if out.exists() else -1
    if size < log["bytes"]:
        raise ValueError(f"{out} holds {size} bytes, its log says {log['bytes']}: remove both to start again")
    with open(out, "r+b") as f:
        f.truncate(log["bytes"])
    return log


def sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def write_log(path: Path, log: dict) -> None:
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(log, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, path)  # never a half-written log


def run(translator: Translator, sentences: list[str], settings: Settings, out: Path, meta: dict,
        limit: int | None = None) -> dict:
    """Translate `sentences` (the pool of the translator's source language) into `out`, chunk by chunk, going on
    from where a previous run of the same settings stopped; `limit`: stop after the chunk that reaches it."""
    log_path = out.with_suffix(".json")
    real_language = translator.config.source_language
    fresh = {**meta, "settings": asdict(settings), "real_language": real_language,
             "synthetic_language": translator.config.target_language, "done": 0, "bytes": 0, "seconds": 0.0,
             "counts": dict.fromkeys(COUNTS, 0), "threads": torch.get_num_threads(),
             "machine": f"{platform.machine()} {platform.processor()}".strip(), "torch": torch.__version__}
    log = start_log(log_path, out, fresh)
    log.update({k: fresh[k] for k in ("threads", "machine", "torch")})  # this (resumed) run's
    end = len(sentences) if limit is None else min(len(sentences), limit)
    with open(out, "ab") as f:
        while log["done"] < end:
            started, chunk = time.perf_counter(), log["done"] // settings.chunk
            part = sentences[log["done"] : log["done"] + settings.chunk]
            written, counts = translate_chunk(translator, part, settings, chunk)
            data = "".join(tsv_line(r, w, real_language) for r, w in zip(part, written) if w is not None).encode()
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
            counts["kept"] = len(data.splitlines())
            log["counts"] = {k: log["counts"][k] + counts[k] for k in COUNTS}
            log.update(done=log["done"] + len(part), bytes=log["bytes"] + len(data),
                       seconds=round(log["seconds"] + time.perf_counter() - started, 3))
            log["sentences_per_second"] = round(log["done"] / max(log["seconds"], 1e-9), 2)
            write_log(log_path, log)
    return log
