"""The lab's made-up tasks: copy, reverse or sort a short string of symbols, written as the translation model's ids.

The right answer says where attention should look: to copy, output position i reads source position i (a diagonal
in the cross-attention); to reverse, position n−1−i (the anti-diagonal); to sort, wherever its symbol stood.
"""

from __future__ import annotations

import random

from ..architecture.config import ModelConfig
from ..text.pairs import Example

TASKS = ("copy", "reverse", "sort")
SYMBOLS = "ABCDEFGH"
FIRST_SYMBOL = 4  # ids 0–3 are <pad>, <unk>, <s>, </s>, as in the translation model's vocabularies
SPECIALS = ("<pad>", "<unk>", "<s>", "</s>")
EXAMPLE = "BDFHACEG"  # the fixed example whose attention the page redraws: every symbol once, none in place when sorted


def answer(task: str, symbols: str) -> str:
    """What the model should write for `symbols` under `task`."""
    if task == "copy":
        return symbols
    if task == "reverse":
        return symbols[::-1]
    return "".join(sorted(symbols))


def ids_of(symbols: str) -> tuple[int, ...]:
    return tuple(FIRST_SYMBOL + SYMBOLS.index(s) for s in symbols)


def tokens_of(ids) -> list[str]:
    return [SPECIALS[i] if i < FIRST_SYMBOL else SYMBOLS[i - FIRST_SYMBOL] for i in ids]


def example_of(task: str, symbols: str, config: ModelConfig) -> Example:
    """Source: the symbols and </s>; target: <s>, the answer, </s> (the translation model's layout)."""
    return Example((*ids_of(symbols), config.eos_id), (config.bos_id, *ids_of(answer(task, symbols)), config.eos_id))


def random_symbols(rng: random.Random, length: int) -> str:
    return "".join(rng.choice(SYMBOLS) for _ in range(length))


def source_positions(task: str, symbols: str) -> list[int]:
    """For each answer position, the source position its symbol comes from (ties: the earlier one first)."""
    n = len(symbols)
    if task == "copy":
        return list(range(n))
    if task == "reverse":
        return [n - 1 - i for i in range(n)]
    return sorted(range(n), key=lambda i: symbols[i])
