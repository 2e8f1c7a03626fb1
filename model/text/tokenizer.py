"""Readable subword tokenizers built on Hugging Face `tokenizers`.

English: BPE over words marked with "▁" at their start ("▁have", "▁dream", ".").
Chinese: one token per character. Both fall back to byte tokens ("<0xF0>")
for characters never seen in training, so decode(encode(text)) gives the
text back; the byte tokens are ordinary vocabulary, not special tokens,
because decode() drops specials.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from tokenizers import Regex, Tokenizer, models, normalizers, pre_tokenizers, trainers

SPECIAL_TOKENS = ("<pad>", "<unk>", "<s>", "</s>")  # ids 0..3, shared by both sides
BYTE_TOKENS = tuple(f"<0x{b:02X}>" for b in range(256))
WORD_START = "▁"
# Han characters, CJK punctuation and full-width forms each become their own token.
_CJK = Regex(r"[\p{Han}\u3000-\u303F\uFF00-\uFFEF]")


def _pre_tokenizer(mark_word_starts: bool) -> pre_tokenizers.PreTokenizer:
    return pre_tokenizers.Sequence(
        [
            pre_tokenizers.Metaspace(replacement=WORD_START, prepend_scheme="always" if mark_word_starts else "never"),
            pre_tokenizers.Split(_CJK, behavior="isolated"),
            pre_tokenizers.Punctuation(behavior="isolated"),
        ]
    )


def train_tokenizer(texts: Iterable[str], vocab_size: int, *, mark_word_starts: bool) -> Tokenizer:
    """Train BPE on `texts`; `mark_word_starts` for English, off for Chinese."""
    tok = Tokenizer(models.BPE(unk_token="<unk>"))
    # English gets NFKC (full-width letters → ASCII); Chinese keeps its full-width punctuation.
    tok.normalizer = normalizers.NFKC() if mark_word_starts else normalizers.NFC()
    tok.pre_tokenizer = _pre_tokenizer(mark_word_starts)
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size - len(BYTE_TOKENS),
        special_tokens=list(SPECIAL_TOKENS),
        # "<", "(" etc. stay readable; "▁" must exist even if training text had no spaces,
        # since the decoder turns "▁" into a space before byte fallback runs.
        initial_alphabet=[chr(c) for c in range(0x21, 0x7F)] + [WORD_START],
        show_progress=False,
    )
    tok.train_from_iterator(texts, trainer)
    spec = json.loads(tok.to_str())
    vocab = spec["model"]["vocab"]
    for byte in BYTE_TOKENS:
        if byte not in vocab:
            vocab[byte] = len(vocab)
    spec["model"]["byte_fallback"] = True
    steps = [
        {"type": "Replace", "pattern": {"String": WORD_START}, "content": " "},
        {"type": "ByteFallback"},
        {"type": "Fuse"},
    ]
    if mark_word_starts:  # the "▁" prepended to the first word is not part of the text
        steps.append({"type": "Strip", "content": " ", "start": 1, "stop": 0})
    spec["decoder"] = {"type": "Sequence", "decoders": steps}
    return Tokenizer.from_str(json.dumps(spec))


class TextTokenizer:
    """Thin, thread-safe wrapper: settings are fixed at construction, never changed per call."""

    def __init__(self, tokenizer: Tokenizer) -> None:
        self._tok = tokenizer
        # Typed text is only ever text: "<s>" or "<pad>" in a sentence must not become a control token
        # (a "<pad>" id would even hide the word from attention). Set once here, never per call.
        tokenizer.encode_special_tokens = True
        vocab = tokenizer.get_vocab()
        for i, name in enumerate(SPECIAL_TOKENS):
            if vocab.get(name) != i:
                raise ValueError(f"tokenizer must map {name} to id {i}; retrain it with model/text/tokenizer.py")

    @classmethod
    def from_str(cls, text: str) -> "TextTokenizer":
        return cls(Tokenizer.from_str(text))

    def to_str(self) -> str:
        return self._tok.to_str(pretty=True)

    @property
    def vocab_size(self) -> int:
        return self._tok.get_vocab_size()

    def encode(self, text: str) -> list[int]:
        return self._tok.encode(text, add_special_tokens=False).ids

    def decode(self, ids: Iterable[int]) -> str:
        return self._tok.decode([i for i in ids if i >= len(SPECIAL_TOKENS)], skip_special_tokens=False)

    def tokens(self, ids: Iterable[int]) -> list[str]:
        return [self._tok.id_to_token(i) or "<unk>" for i in ids]
