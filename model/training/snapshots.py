"""Attention snapshots: how a few fixed probe sentences were attended to at moments during training.

At each evaluation the trainer translates the probes and keeps every attention map
(float16) and the translation, so a page can replay how attention formed. The
maps live in one safetensors file next to the weights, keyed
"<snapshot index>/<probe index>/<kind>"; the training log holds the index: step,
epoch, and per probe its tokens and translation.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import torch
from safetensors.numpy import load_file, save_file

from ..architecture.transformer import Transformer
from ..loading.training_log import Snapshot, TrainingLog
from ..text.tokenizer import TextTokenizer
from ..translation.result import ATTENTION_KINDS
from ..translation.translator import Translator

SNAPSHOTS = "attention_snapshots.safetensors"
# Per source language; the Chinese are the English ones as a Chinese teacher would write them.
PROBES = {
    "en": (
        "I have a dream.",
        "The dog saw the cat and the cat saw the dog.",
        "Who are you?",
        "She didn't go to school because she was sick.",
        "How many languages do you speak?",
    ),
    "zh": (
        "我有一个梦想。",
        "狗看见了猫，猫也看见了狗。",
        "你是谁？",
        "她没去上学，因为她病了。",
        "你会说几种语言？",
    ),
}


def take_snapshot(
    model: Transformer, src_tok: TextTokenizer, tgt_tok: TextTokenizer, probes: list[str], step: int, epoch: int
) -> tuple[dict, dict[str, np.ndarray]]:
    """(log entry, maps) for the model as it is now; its train/eval mode is left as it was."""
    was_training = model.training
    translator = Translator(model.eval(), src_tok, tgt_tok, max_concurrent=1)
    entry: dict = {"step": step, "epoch": epoch, "probes": []}
    maps: dict[str, np.ndarray] = {}
    for p, sentence in enumerate(probes):
        result = translator.translate(sentence, beam=1, top_k=1)
        entry["probes"].append(
            {"source_tokens": result.source_tokens, "target_tokens": result.target_tokens,
             "translation": result.translation}
        )
        for kind in ATTENTION_KINDS:
            maps[f"{p}/{kind}"] = result.attention(kind).astype(np.float16)  # (layers, heads, Tq, Tk)
    model.train(was_training)
    return entry, maps


def save_snapshots(folder: str | Path, maps: dict[str, np.ndarray]) -> None:
    save_file({k: np.ascontiguousarray(v) for k, v in maps.items()}, Path(folder) / SNAPSHOTS)


def read_snapshots(folder: str | Path, log: TrainingLog) -> list[Snapshot]:
    """The log's snapshots, each probe with its maps as float32 arrays (SnapshotProbe.attention)."""
    path = Path(folder) / SNAPSHOTS
    if not log.snapshots or not path.is_file():
        return []
    try:
        maps = load_file(path)
        return [replace(snap, probes=tuple(
                    replace(probe, maps={kind: maps[f"{i}/{p}/{kind}"].astype(np.float32) for kind in ATTENTION_KINDS})
                    for p, probe in enumerate(snap.probes)))
                for i, snap in enumerate(log.snapshots)]
    except Exception as exc:  # noqa: BLE001 (safetensors' own error types, KeyError, a bad log entry: all one story)
        # Only the Replay page needs this optional file: it says so there, and every other page still works.
        raise SnapshotError(f"{path} is corrupt or does not match the training log ({type(exc).__name__}).") from None


class SnapshotError(ValueError):
    """The checkpoint's attention snapshots cannot be read; the model itself may be fine."""


def index_maps(maps: dict[str, np.ndarray], index: int) -> dict[str, np.ndarray]:
    """One snapshot's maps under their key in the file: "<index>/<probe>/<kind>"."""
    return {f"{index}/{k}": v for k, v in maps.items()}


def as_tensors(maps: dict[str, np.ndarray]) -> dict[str, torch.Tensor]:
    """For the resumable training state (torch.load with weights_only=True takes tensors, not arrays)."""
    return {k: torch.from_numpy(v) for k, v in maps.items()}
