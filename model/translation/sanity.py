"""What can be said about a checkpoint's weights when no checksum vouches for them: a teacher's own folder may lack
sha256sums.txt, and damaged weights then translate as silent nonsense ("出出出…").

Loading already refuses NaN and infinite values and tensors of the wrong shape. Two checks remain, each a warning
(a folder one changed on purpose may still be what one wants):
- magnitude: a trained layer's weights stay within a few units (the shipped model: 2.6 at most; LayerNorm's gains
  near 1); a flipped exponent bit in a float16 gives thousands.
- one sentence: a trained model ends a three-word sentence with </s>, and is sure of its tokens (the shipped en-zh
  model: 92 % per token on "I love you."; zh-en reads "我爱你。"); damaged weights run to the output limit, or guess.
"""

from __future__ import annotations

import math

import torch

from .messages import Notice

WEIGHT_BOUND = 1_000  # |weight| above this in a trained layer: a damaged number, not a learned one
TEST_SENTENCES = {"en": "I love you.", "zh": "我爱你。"}  # per source language
SURE_FLOOR = 0.25  # per-token confidence (geometric mean) below a guess among four: the model is not translating
SHOWN_CHARS = 20  # of the test sentence's output, in the warning


def weight_doubts(model: torch.nn.Module, translate, folder: str, language: str = "en") -> tuple[Notice, ...]:
    """Warnings about `model`'s weights (empty when both checks pass); `translate(text)` is its greedy translation
    of a sentence in `language`, the model's source language.

    The sentence is only tried when the weights' magnitudes look right: a huge weight already says enough.
    """
    name, value = max(((name, float(p.detach().abs().max())) for name, p in model.named_parameters()),
                      key=lambda found: found[1])
    if value > WEIGHT_BOUND:
        return (Notice("weights_large", {"folder": folder, "name": name, "value": f"{value:,.0f}",
                                         "bound": f"{WEIGHT_BOUND:,}"}),)
    sentence = TEST_SENTENCES[language]
    result = translate(sentence)
    sure = math.exp(sum(math.log(max(step.chosen.prob, 1e-12)) for step in result.steps) / len(result.steps))
    cut = any(notice.key == "output_cut" for notice in result.notices)
    if not cut and sure >= SURE_FLOOR:
        return ()
    output = result.translation[:SHOWN_CHARS] + ("…" if len(result.translation) > SHOWN_CHARS else "")
    return (Notice("weights_nonsense", {"folder": folder, "sentence": sentence, "output": output,
                                        "sure": f"{sure:.0%}"}),)
