"""Causal tests beside attention, on a model trained here: activation patching between a clean and a corrupted
sentence (patching.py), the logit lens over the decoder's layers (lens.py) and contrastive attribution,
integrated gradients of logit(target) − logit(foil) (contrast.py).

Every experiment passes its patch down the model's forward (architecture/patch.py): nothing is hooked or stored on
the model, so one loaded model serves every session patching at once. Errors are PatchingError (messages.py), a
ValueError whose message is one sentence; a page in another language looks its key up in MESSAGES' keys.
"""

from .contrast import Contrast, contrastive_attribution
from .lens import LogitLens, Reading, logit_lens
from .messages import MESSAGES, PatchingError
from .pair import MAX_TOKENS, Pair, Side, align, read_pair
from .patching import Cell, Patching, Redecoded, measure, patch_pair, redecode

__all__ = ["MAX_TOKENS", "MESSAGES", "Cell", "Contrast", "LogitLens", "Pair", "Patching", "PatchingError", "Reading",
           "Redecoded", "Side", "align", "contrastive_attribution", "logit_lens", "measure", "patch_pair", "read_pair",
           "redecode"]
