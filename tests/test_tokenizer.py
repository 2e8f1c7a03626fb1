"""Tokens people can read on a heatmap axis, and a lossless round trip."""

import re

import pytest

from model.loading.checkpoint import SOURCE_TOKENIZER, TARGET_TOKENIZER
from model.text.tokenizer import SPECIAL_TOKENS, TextTokenizer
from model.translation.translator import DEFAULT_CHECKPOINT
from tests.support.tiny import tokenizers

BYTE_LEVEL_JUNK = re.compile("[ĠĊæĪĳ]")  # what ByteLevel BPE would have produced


@pytest.fixture(scope="module", params=["tiny", "shipped"])
def pair(request):
    if request.param == "tiny":
        return tokenizers()
    if not (DEFAULT_CHECKPOINT / SOURCE_TOKENIZER).exists():
        pytest.skip("shipped checkpoint not present")
    return tuple(TextTokenizer.from_str((DEFAULT_CHECKPOINT / n).read_text()) for n in (SOURCE_TOKENIZER, TARGET_TOKENIZER))


def test_special_tokens_have_fixed_ids(pair):
    for tok in pair:
        assert tok.tokens(range(4)) == list(SPECIAL_TOKENS)


@pytest.mark.parametrize(
    "text",
    ["I have a dream.", "Who are you?", "Don't stop, Tom!", "Привет мир", "emoji 😀 and 🙈", "mixed 我爱你 text", "<b>x</b> & y"],
)
def test_english_round_trip_even_for_unseen_characters(pair, text):
    src, _ = pair
    assert src.decode(src.encode(text)) == text


@pytest.mark.parametrize("text", ["我有一个梦想。", "汤姆是Tom的朋友！", "你好 world", "鱻𠀀😀"])
def test_chinese_round_trip_even_for_unseen_characters(pair, text):
    _, tgt = pair
    assert tgt.decode(tgt.encode(text)) == text


def test_english_tokens_are_readable_with_marked_word_starts(pair):
    src, _ = pair
    if src.vocab_size < 1000:
        pytest.skip("the tiny test vocabulary is too small to hold whole words")
    tokens = src.tokens(src.encode("I have a dream."))
    assert tokens == ["▁I", "▁have", "▁a", "▁dream", "."]
    assert not any(BYTE_LEVEL_JUNK.search(t) for t in tokens)


def test_every_chinese_character_is_its_own_token(pair):
    _, tgt = pair
    text = "我有一个梦想。"
    assert tgt.tokens(tgt.encode(text)) == list(text)


def test_repeated_words_stay_separate_tokens(pair):
    src, _ = pair
    tokens = src.tokens(src.encode("the dog saw the cat"))
    assert tokens.count("▁the") == 2 and tokens.index("▁the") != len(tokens) - 1 - tokens[::-1].index("▁the")
