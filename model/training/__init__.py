"""Training: train.py (python -m model.training.train), data.py, schedule.py, metrics.py, snapshots.py
(attention during training) and dictionary.py (CC-CEDICT pairs). The trainer writes the checkpoint folder and its
training log; `python -m cards CHECKPOINT` writes the model card from them, and what a trained checkpoint is measured
by lives in evaluation/.

The names below are what the Training page shows of the recipe: model/__init__.py exports the package as the
namespace `model.training`, and a page imports from it only these (tests/test_layering.py checks it).
"""

from .data import batch_lengths
from .schedule import ADAM_BETAS, ADAM_EPS, GRAD_CLIP_NORM

__all__ = ["ADAM_BETAS", "ADAM_EPS", "GRAD_CLIP_NORM", "batch_lengths"]
