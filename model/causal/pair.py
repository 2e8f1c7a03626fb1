"""A clean and a corrupted sentence as the model reads them, which source positions correspond, and the metric's
step, target and foil.

Both are translated greedily, so at the first step where the translations part, with the same prefix before it,
the clean run's top token is the target and the corrupted run's the foil: clean_diff > 0 > corrupted_diff there.
Sentences are read as typed: a name the model never learned is not swapped for one it knows (translation/names.py),
so what is patched is what the model computes for the tokens the class wrote.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

import torch

from ..text.normalize import clean_text
from ..translation.translator import Translator
from . import runs
from .messages import PatchingError

MAX_TOKENS = 48  # source tokens per sentence, </s> included: grids a class can read, a few batched passes each


@dataclass(frozen=True)
class Side:
    """One sentence of the pair."""

    text: str  # as the model reads it (normalised)
    ids: tuple[int, ...]  # source ids, </s> included
    tokens: tuple[str, ...]
    output: tuple[int, ...]  # the greedy translation's ids, </s> included
    output_tokens: tuple[str, ...]
    translation: str


@dataclass(frozen=True)
class Pair:
    clean: Side
    corrupt: Side
    # (corrupted position, clean position) of the source tokens patching moves values between: every position when
    # the sentences have as many tokens, else those difflib matches (equal runs, and replaced runs of equal length)
    aligned: tuple[tuple[int, int], ...]
    step: int  # the output position the metric reads: 0 is the first output token
    target: int  # the clean translation's token there
    foil: int  # what the corrupted run writes there instead (teacher-forced on the clean prefix), or the one chosen
    target_token: str
    foil_token: str
    prefix: tuple[int, ...]  # the decoder's inputs up to the step: <s> and the clean translation before it

    @property
    def unaligned(self) -> tuple[int, ...]:
        """Corrupted source positions with no counterpart in the clean sentence: never patched."""
        paired = {k for k, _ in self.aligned}
        return tuple(i for i in range(len(self.corrupt.ids)) if i not in paired)


def align(corrupt: list[str], clean: list[str]) -> tuple[tuple[int, int], ...]:
    """(corrupted position, clean position) pairs: position by position when the lengths agree, else difflib's."""
    if len(corrupt) == len(clean):
        return tuple((i, i) for i in range(len(clean)))
    pairs: list[tuple[int, int]] = []
    for tag, a0, a1, b0, b1 in difflib.SequenceMatcher(a=corrupt, b=clean, autojunk=False).get_opcodes():
        if tag == "equal" or (tag == "replace" and a1 - a0 == b1 - b0):
            pairs += zip(range(a0, a1), range(b0, b1))
    return tuple(pairs)


def read_pair(tr: Translator, clean: str, corrupt: str, target: str | None = None,
              foil: str | None = None) -> Pair:
    """Both sentences read, translated and aligned; the step, target and foil chosen. Raises PatchingError (and
    the translator's InputError for an empty sentence): both are ValueErrors whose message is one sentence."""
    if not tr.capabilities.trained_here:
        raise PatchingError("not_trained_here", checkpoint=tr.checkpoint)
    (clean_text_, clean_ids, _), (corrupt_text, corrupt_ids, _) = tr.prepare(clean), tr.prepare(corrupt)
    if max(len(clean_ids), len(corrupt_ids)) > MAX_TOKENS:
        raise PatchingError("too_long", limit=MAX_TOKENS, clean=len(clean_ids), corrupt=len(corrupt_ids))
    if clean_ids == corrupt_ids:
        raise PatchingError("identical")
    a, b = _side(tr, clean_text_, clean_ids), _side(tr, corrupt_text, corrupt_ids)
    step, target_id = _step_and_target(tr, a, b, target)
    prefix = [tr.config.bos_id, *a.output[:step]]
    foil_id = _token_id(tr, foil, a) if foil is not None else _top(tr, b.ids, prefix)
    if foil_id == target_id:
        raise PatchingError("same_token", token=tr.tgt_tok.tokens([target_id])[0])
    names = tr.tgt_tok.tokens([target_id, foil_id])
    return Pair(a, b, align(list(b.tokens), list(a.tokens)), step, target_id, foil_id, names[0], names[1],
                tuple(prefix))


def _side(tr: Translator, text: str, ids: list[int]) -> Side:
    with tr.gate, torch.inference_mode():
        output = runs.greedy(tr.model, tr.generation_config, ids)
    return Side(text, tuple(ids), tuple(tr.src_tok.tokens(ids)), tuple(output), tuple(tr.tgt_tok.tokens(output)),
                clean_text(tr.tgt_tok.decode(output)))


def _step_and_target(tr: Translator, clean: Side, corrupt: Side, target: str | None) -> tuple[int, int]:
    """The first step where the translations part and the clean token there; or the given target's first step."""
    if target is not None:
        target_id = _token_id(tr, target, clean)
        if target_id not in clean.output:
            raise PatchingError("target_missing", translation=clean.translation, token=target)
        return clean.output.index(target_id), target_id
    for step, (a, b) in enumerate(zip(clean.output, corrupt.output)):
        if a != b:
            return step, a
    raise PatchingError("no_difference", translation=clean.translation)


def _top(tr: Translator, src_ids: tuple[int, ...], prefix: list[int]) -> int:
    """The token a run writes after `prefix`, teacher-forced (banned tokens ruled out, as the search rules them)."""
    with tr.gate, torch.inference_mode():
        logits = runs.forward(tr.model, list(src_ids), prefix)[0, -1]
    return int(tr.generation_config.never_next(logits, tr.config).argmax())


def _token_id(tr: Translator, token: str, clean: Side) -> int:
    """A target token as shown ("累", "▁tired", "</s>") or as typed ("tired"): its id. Raises PatchingError."""
    c = tr.config
    vocab = {name: i for i, name in enumerate(tr.tgt_tok.tokens(range(tr.tgt_tok.vocab_size)))}
    banned = {c.pad_id, c.bos_id, c.unk_id}
    typed = tr.tgt_tok.encode(clean_text(token)) if isinstance(token, str) else []
    found = vocab.get(token) if isinstance(token, str) else None
    if found is None and len(typed) == 1:
        found = typed[0]
    if found is None or found in banned:
        raise PatchingError("unknown_token", token=repr(token), example=", ".join(clean.output_tokens[:3]))
    return found
