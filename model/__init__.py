"""A from-scratch encoder–decoder Transformer that returns every attention map it computes.

Pure PyTorch: nothing here imports Streamlit or Plotly.
"""

from .checkpoint import CheckpointError, load_checkpoint, resolve_device, save_checkpoint
from .config import ModelConfig
from .messages import InputError, Notice
from .positional import rotation_for_offset, sinusoidal_table
from .translator import (
    ATTENTION_KINDS,
    DEFAULT_CHECKPOINT,
    HeadQKV,
    StepCandidates,
    TranslationResult,
    Translator,
)
from .transformer import Transformer

__all__ = [
    "ATTENTION_KINDS",
    "CheckpointError",
    "DEFAULT_CHECKPOINT",
    "HeadQKV",
    "InputError",
    "ModelConfig",
    "Notice",
    "StepCandidates",
    "TranslationResult",
    "Transformer",
    "Translator",
    "load_checkpoint",
    "resolve_device",
    "rotation_for_offset",
    "save_checkpoint",
    "sinusoidal_table",
]
