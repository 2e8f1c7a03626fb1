"""A checkpoint is a folder: weights (safetensors), config, both tokenizers, model card, training log.

safetensors holds tensors only, so loading a checkpoint can never run code.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from pathlib import Path

import torch
from safetensors import SafetensorError, safe_open
from safetensors.torch import load_file, save_file

from ..architecture.config import ModelConfig
from ..architecture.transformer import Transformer
from ..text.tokenizer import TextTokenizer
from .cpu_layout import lay_out_for_cpu_decoding
# The log's reader, writer and rules live in training_log.py; the trainer and the evaluation commands import them
# from here too, beside the rest of the folder's files.
from .training_log import TRAINING_LOG, read_training_log, selection_bleu, write_training_log

WEIGHTS = "model.safetensors"
CONFIG = "config.json"
SOURCE_TOKENIZER = "tokenizer_source.json"
TARGET_TOKENIZER = "tokenizer_target.json"
CARD = "README.md"
# The model card in each language the trainer writes it in (cards/); English is the README.
CARDS = {"en": CARD, "zh": "README.zh.md"}
REQUIRED = (WEIGHTS, CONFIG, SOURCE_TOKENIZER, TARGET_TOKENIZER)
# SHA-256 of the REQUIRED files in `sha256sum` format (so `sha256sum -c sha256sums.txt` checks them too). Loading
# verifies them: flipped bits in the weights would otherwise translate as silent nonsense.
CHECKSUMS = "sha256sums.txt"
SKIP_CHECKSUMS = "ATTENTION_SKIP_CHECKSUMS"  # =1: load a model one has changed on purpose
RESTORE_COMMAND = "git checkout -- checkpoints/"  # the app shows it as code: Streamlit draws a lone " -- " as "—"
RETRAIN_HINT = f"Restore the folder from git ({RESTORE_COMMAND}) or retrain it (see README, 'Retraining')."
# The fewest bytes a parameter takes in a weights file save_checkpoint writes (float16): a file smaller than its
# config's parameter count times this cannot hold them, whatever its header says.
MIN_BYTES_PER_PARAMETER = 2


class CheckpointError(RuntimeError):
    """A checkpoint folder that cannot be used, with what is wrong and what to do."""


def save_checkpoint(
    folder: str | Path,
    model: Transformer,
    source_tokenizer: TextTokenizer,
    target_tokenizer: TextTokenizer,
    card: str = "",
    training_log: dict | None = None,
    dtype: torch.dtype = torch.float32,
) -> Path:
    """Write the checkpoint folder; `dtype=torch.float16` halves its size (weights load back as float32)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    tensors = {k: v.detach().to("cpu", dtype).contiguous() for k, v in model.state_dict().items()}
    save_file(tensors, folder / WEIGHTS, metadata={"format": "pt"})
    (folder / CONFIG).write_text(model.config.to_json() + "\n", encoding="utf-8")
    (folder / SOURCE_TOKENIZER).write_text(source_tokenizer.to_str(), encoding="utf-8")
    (folder / TARGET_TOKENIZER).write_text(target_tokenizer.to_str(), encoding="utf-8")
    write_checksums(folder)
    if card:
        (folder / CARD).write_text(card, encoding="utf-8")
    if training_log is not None:
        write_training_log(folder, training_log)
    return folder


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def write_checksums(folder: str | Path) -> Path:
    """Record the SHA-256 of the weights, config and tokenizers (after a deliberate change, run this again)."""
    path = Path(folder) / CHECKSUMS
    path.write_text("".join(f"{_sha256(Path(folder) / name)}  {name}\n" for name in REQUIRED), encoding="utf-8")
    return path


def checks_checksums(folder: str | Path) -> bool:
    """Whether loading `folder` verifies its files' SHA-256: it has a record, and the skip setting is not on."""
    return (Path(folder) / CHECKSUMS).is_file() and os.environ.get(SKIP_CHECKSUMS) != "1"


def verify_checksums(folder: Path) -> None:
    """Raise CheckpointError when a file no longer matches its recorded SHA-256; no record, or the skip setting:
    nothing to verify."""
    path = folder / CHECKSUMS
    if not checks_checksums(folder):
        return
    for line in path.read_text(encoding="utf-8").splitlines():
        digest, _, name = line.partition("  ")
        if name in REQUIRED and _sha256(folder / name) != digest:
            raise CheckpointError(
                f"{folder / name} does not match its checksum in {CHECKSUMS}: the file changed since it was saved "
                f"(damaged on disk or in a copy, or edited). {RETRAIN_HINT} If you changed it on purpose, run "
                f"`python -c \"from model.checkpoint import write_checksums; write_checksums('{folder}')\"`, "
                f"or set {SKIP_CHECKSUMS}=1."
            )


def resolve_device(device: str | torch.device | None = None) -> torch.device:
    """CUDA when available unless told otherwise."""
    if device is None or str(device) == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    device = torch.device(device)
    if device.type == "cuda" and not torch.cuda.is_available():
        raise CheckpointError("device 'cuda' was asked for but no CUDA GPU is available; use --device cpu")
    return device


def _read_json(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CheckpointError(f"{path} is not valid JSON ({exc}). {RETRAIN_HINT}") from None
    if not isinstance(data, dict):
        raise CheckpointError(f"{path} must hold a JSON object. {RETRAIN_HINT}")
    return data


def _check_weights_fit(path: Path, config: ModelConfig) -> None:
    """Raise CheckpointError unless the weights file holds the tensors `config` describes, shape for shape.

    Read from the file's size and its header only, against the model's shapes built on the meta device (no
    memory): a config inside its ranges can still describe tens of billions of parameters (d_model 4,096, d_ff
    65,536, 48 + 48 layers), which building the model would try to allocate before any check.
    """
    with torch.device("meta"):
        expected = {k: tuple(v.shape) for k, v in Transformer(config).state_dict().items()}
    parameters = sum(math.prod(shape) for shape in expected.values())
    size = path.stat().st_size
    if size < parameters * MIN_BYTES_PER_PARAMETER:
        raise CheckpointError(
            f"{path.parent / CONFIG} describes {parameters:,} parameters, but {path} has {size:,} bytes, too few to "
            f"hold them (at least {MIN_BYTES_PER_PARAMETER} bytes each): the file is corrupt or truncated, or the "
            f"config does not belong to it. {RETRAIN_HINT}")
    try:
        with safe_open(path, "pt") as f:
            found = {k: tuple(f.get_slice(k).get_shape()) for k in f.keys()}
    except (SafetensorError, OSError, ValueError) as exc:
        raise CheckpointError(f"{path} is corrupt or truncated ({exc}). {RETRAIN_HINT}") from None
    problems = [f"missing {k}" for k in expected if k not in found]
    problems += [f"unexpected {k}" for k in found if k not in expected]
    problems += [f"{k} has shape {found[k]}, config needs {shape}"
                 for k, shape in expected.items() if k in found and found[k] != shape]
    if problems:
        shown = "; ".join(problems[:5]) + (f"; and {len(problems) - 5} more" if len(problems) > 5 else "")
        raise CheckpointError(f"{path} does not match {CONFIG}: {shown}. {RETRAIN_HINT}")


def load_checkpoint(
    folder: str | Path, device: str | torch.device | None = None, cpu_layout: bool = True
) -> tuple[Transformer, TextTokenizer, TextTokenizer]:
    """Load and validate a checkpoint folder; the model comes back in eval mode on `device`.

    On the CPU its matrices are laid out column-major for decoding (model/loading/cpu_layout.py) unless `cpu_layout=False`.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise CheckpointError(f"checkpoint folder {folder} does not exist. {RETRAIN_HINT}")
    missing = [name for name in REQUIRED if not (folder / name).is_file()]
    if missing:
        raise CheckpointError(f"checkpoint {folder} is missing {', '.join(missing)}. {RETRAIN_HINT}")
    try:
        config = ModelConfig.from_dict(_read_json(folder / CONFIG))
    except (TypeError, ValueError) as exc:
        raise CheckpointError(f"{folder / CONFIG} is not a valid model config: {exc}. {RETRAIN_HINT}") from None
    tokenizers = []
    for name, expected in ((SOURCE_TOKENIZER, config.src_vocab_size), (TARGET_TOKENIZER, config.tgt_vocab_size)):
        try:
            tok = TextTokenizer.from_str((folder / name).read_text(encoding="utf-8"))
        except Exception as exc:  # the Rust parser raises plain Exception subclasses
            raise CheckpointError(f"{folder / name} is not a valid tokenizer: {exc}. {RETRAIN_HINT}") from None
        if tok.vocab_size != expected:
            raise CheckpointError(
                f"{folder / name} has {tok.vocab_size} tokens but {CONFIG} says {expected}: "
                f"the files come from different trainings. {RETRAIN_HINT}"
            )
        tokenizers.append(tok)
    _check_weights_fit(folder / WEIGHTS, config)  # before anything the config's size is built
    try:
        tensors = load_file(folder / WEIGHTS)
    except (SafetensorError, OSError, ValueError) as exc:
        raise CheckpointError(
            f"{folder / WEIGHTS} is corrupt or truncated ({exc}). {RETRAIN_HINT}"
        ) from None
    model = Transformer(config)
    bad = [k for k, v in tensors.items() if not torch.isfinite(v).all()]
    if bad:
        raise CheckpointError(f"{folder / WEIGHTS} holds NaN/inf values in {bad[0]}. {RETRAIN_HINT}")
    verify_checksums(folder)  # last: a file that does not even parse gets its own, more precise message
    model.load_state_dict({k: v.float() for k, v in tensors.items()})
    device = resolve_device(device)
    model = model.eval().to(device)
    if device.type == "cpu" and cpu_layout:
        lay_out_for_cpu_decoding(model)
    return model, tokenizers[0], tokenizers[1]
