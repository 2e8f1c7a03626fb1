"""Where the tests find what they read: the repository, the shipped checkpoints and the Tatoeba data beside it,
with the marks that skip a test where the checkpoint or the data is not on this machine."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHECKPOINT = ROOT / "checkpoints" / "en-zh"
ZH_CHECKPOINT = ROOT / "checkpoints" / "zh-en"  # the other direction: Chinese → English
TATOEBA = ROOT.parent / "shared" / "data" / "tatoeba-cmn-eng"
DEV, TRAIN = TATOEBA / "dev.tsv", TATOEBA / "train.tsv"

needs_checkpoint = pytest.mark.skipif(
    not (CHECKPOINT / "model.safetensors").is_file(), reason=f"needs the shipped checkpoint in {CHECKPOINT}"
)
needs_dev = pytest.mark.skipif(not DEV.exists(), reason="the Tatoeba dev set is not on this machine")
