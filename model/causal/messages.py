"""What patching tells its caller when a pair cannot be patched: PatchingError, with a key and values.

The text here is English (the command line and the Python API print it); a page in another language looks up the
key instead, with the same {placeholders}, as model/translation/messages.py's keys are looked up.
"""

from __future__ import annotations

MESSAGES = {
    "identical": "The two sentences are the same once read as the model reads them: nothing differs, so there is "
                 "nothing to patch.",
    "same_token": "The target and the foil are the same token ({token}): a token's logit minus its own is always 0. "
                  "Choose a foil the corrupted sentence would write instead.",
    "no_difference": "The two translations are the same at every step ({translation}): give a target token of the "
                     "clean translation and a foil to compare it with.",
    "too_long": "Patching takes sentences of at most {limit} tokens each; this pair has {clean} and {corrupt}. "
                "Shorten them.",
    "not_trained_here": "Patching needs a model trained here (checkpoints/en-zh or checkpoints/zh-en); {checkpoint} is "
                        "a converted Marian model. Choose one of ours.",
    "unknown_token": "{token} is not one token of what this model writes: give one token of the translation, "
                     "as it is shown (e.g. {example}).",
    "target_missing": "The clean translation ({translation}) does not write {token} after the step where the "
                      "translations part: the target must be one of its tokens.",
    "no_effect": "The logit difference {target} − {foil} is the same in the clean and the corrupted run ({diff}): "
                 "there is nothing for a patch to restore. Choose another target or foil.",
    "no_cell": "There is no {cell} to patch in this model and pair.",
}


class PatchingError(ValueError):
    """A pair, target or foil that patching cannot use; str() is one English sentence."""

    def __init__(self, key: str, **values) -> None:
        super().__init__(MESSAGES[key].format(**values))
        self.key = key
        self.values = values
