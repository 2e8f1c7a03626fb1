"""A from-scratch encoder–decoder Transformer that returns every attention map it computes.

Read the packages in the order they depend on each other (each imports only those before it):

    architecture/  the paper's model: config, positional encoding, attention, layers, transformer (start here)
    text/          tokenizers, normalisation, sentence pairs as ids
    loading/       our checkpoint or a converted Marian model, through one load(name); the training log's reader
    translation/   sentence in, TranslationResult out: translator, decoding, result, confidence, the CLI
    causal/        activation patching, the logit lens and contrastive attribution, beside attention
    training/      the trainer: data, schedule, metrics, snapshots, dictionary (measurements: evaluation/; the
                   model card it writes: cards/)
    lab/           the Lab page's live run: a tiny Transformer trained in seconds on copy, reverse or sort

This file is the public API: the names the app's pages and the scripts beside them use. A page imports from `model`
and nothing deeper, but for the namespaces it exports whole: `lab` (the Lab page's run: `from model.lab import
train_steps`) and `training` (the recipe the Training page shows: `from model.training import ADAM_BETAS`), names
from their own __all__ only; tests/test_layering.py checks both. Pure PyTorch: nothing here imports Streamlit or
Plotly.
"""

# namespaces, not flat names: patching, the Lab page's run and the trainer are no part of translating
from . import causal, lab, training
from .architecture.torch_library import library_refusal
from .architecture.config import GenerationConfig, ModelConfig
from .architecture.positional import sinusoidal_table
from .architecture.transformer import Transformer
from .loading.checkpoint import RESTORE_COMMAND, CheckpointError, load_checkpoint, save_checkpoint
from .loading.training_log import (Alignment, FfnUnits, Heads, Interval, Lengths, PatchingStudy, Snapshot,
                                    StudyHead, TrainingArgs, TrainingLog)
from .loading.marian import INSTALL_HINT, marian_available
from .text.normalize import clean_text, to_simplified
from .text.tokenizer import BYTE_TOKENS, WORD_START
from .training.data import read_pairs
from .training.schedule import learning_rate, peak_learning_rate
from .training.snapshots import SnapshotError, read_snapshots
from .translation.alignment import WordLink, word_link
from .translation.chinese_names import unread_names
from .translation.attribution import GAP_BOUND as ATTRIBUTION_GAP_BOUND
from .translation.attribution import IG_MAX_POINTS as ATTRIBUTION_MAX_POINTS
from .translation.attribution import METHODS as ATTRIBUTION_METHODS
from .translation.attribution import Attribution
from .translation.confidence import Confidence, assess
from .translation.messages import InputError, Notice
from .translation.result import ATTENTION_KINDS, TranslationResult
from .translation.threads import CallGate, configure_torch_threads
from .translation.translator import DEFAULT_BEAM, DEFAULT_CHECKPOINT, MAX_CHARS, Translator

__all__ = [
    "ATTENTION_KINDS",
    "ATTRIBUTION_GAP_BOUND",
    "ATTRIBUTION_METHODS",
    "ATTRIBUTION_MAX_POINTS",
    "Alignment",
    "Attribution",
    "BYTE_TOKENS",
    "CallGate",
    "CheckpointError",
    "Confidence",
    "DEFAULT_BEAM",
    "DEFAULT_CHECKPOINT",
    "FfnUnits",
    "GenerationConfig",
    "Heads",
    "INSTALL_HINT",
    "InputError",
    "Interval",
    "Lengths",
    "MAX_CHARS",
    "ModelConfig",
    "Notice",
    "PatchingStudy",
    "Snapshot",
    "SnapshotError",
    "StudyHead",
    "TrainingArgs",
    "TrainingLog",
    "TranslationResult",
    "Transformer",
    "Translator",
    "WORD_START",
    "WordLink",
    "lab",
    "assess",
    "causal",
    "clean_text",
    "configure_torch_threads",
    "learning_rate",
    "library_refusal",
    "load_checkpoint",
    "RESTORE_COMMAND",
    "marian_available",
    "peak_learning_rate",
    "read_pairs",
    "read_snapshots",
    "save_checkpoint",
    "sinusoidal_table",
    "to_simplified",
    "training",
    "unread_names",
    "word_link",
]
