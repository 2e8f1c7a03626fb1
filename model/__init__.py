"""A from-scratch encoder–decoder Transformer that returns every attention map it computes.

Start reading at transformer.py (the architecture, top-down), then layers.py and
attention.py; decoding.py chooses the output and translator.py turns a sentence
into a TranslationResult (result.py). Pure PyTorch: nothing here imports Streamlit or Plotly.
"""

from .checkpoint import CheckpointError, load_checkpoint, resolve_device, save_checkpoint
from .config import ModelConfig
from .messages import InputError, Notice
from .positional import rotation_for_offset, sinusoidal_table
from .result import ATTENTION_KINDS, HeadQKV, StepCandidates, TranslationResult
from .transformer import Transformer
from .translator import DEFAULT_BEAM, DEFAULT_CHECKPOINT, MAX_CHARS, Translator

__all__ = [
    "ATTENTION_KINDS",
    "CheckpointError",
    "DEFAULT_BEAM",
    "DEFAULT_CHECKPOINT",
    "HeadQKV",
    "InputError",
    "MAX_CHARS",
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
