"""A tiny random-weight model and tokenizers for tests that check mechanics, not translation quality."""

from __future__ import annotations

from functools import lru_cache

import torch

from model import ModelConfig, Transformer, Translator
from model.text.tokenizer import TextTokenizer, train_tokenizer

ENGLISH = [
    "I have a dream.",
    "Who are you?",
    "The dog saw the cat and the cat saw the dog.",
    "What is your name?",
    "I love you.",
    "Thinking Machines",
] * 5
CHINESE = ["我有一个梦想。", "你是谁？", "狗看见了猫，猫也看见了狗。", "你叫什么名字？", "我爱你。", "思考机器"] * 5


@lru_cache(maxsize=1)
def tokenizers() -> tuple[TextTokenizer, TextTokenizer]:
    return (
        TextTokenizer(train_tokenizer(ENGLISH, 400, mark_word_starts=True)),
        TextTokenizer(train_tokenizer(CHINESE, 400, mark_word_starts=False)),
    )


def tiny_model(seed: int = 0, **overrides) -> Transformer:
    src, tgt = tokenizers()
    torch.manual_seed(seed)
    settings = dict(d_model=32, n_heads=4, n_encoder_layers=2, n_decoder_layers=2, d_ff=64, max_len=48, dropout=0.0)
    settings.update(overrides)
    return Transformer(ModelConfig(src.vocab_size, tgt.vocab_size, **settings)).eval()


def tiny_translator(seed: int = 0) -> Translator:
    src, tgt = tokenizers()
    return Translator(tiny_model(seed), src, tgt, checkpoint="tiny")


def tiny_chinese_translator(seed: int = 0) -> Translator:
    """The same mechanics reading Chinese and writing English (a zh-en checkpoint's shape)."""
    english, chinese = tokenizers()
    torch.manual_seed(seed)
    config = ModelConfig(chinese.vocab_size, english.vocab_size, d_model=32, n_heads=4, n_encoder_layers=2,
                         n_decoder_layers=2, d_ff=64, max_len=48, dropout=0.0, source_language="zh",
                         target_language="en")
    return Translator(Transformer(config).eval(), chinese, english, checkpoint="tiny-zh-en")
