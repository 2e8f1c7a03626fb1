"""Tokens and map rows named for the choices a student picks from: a class poll's options as a student reads the
sentence (the maps' own labels keep ▁ and positions, which options read as "0:▁My"), and the rows of Guess first and
of "Start a poll", named as the map labels them plus, on the decoder's maps, the token each row writes.

A decoder row reads one token and writes the next: row r of a cross- or decoder self-attention map has the decoder's
input target_tokens[r] as its query and predicts output_tokens[r] (model.TranslationResult). Its name says both, so
"which source token does row 1 look at most?" cannot be read as a question about the token the row is labelled with.
"""

from __future__ import annotations

from collections import Counter

from app_pages.shell.text import t
from model import WORD_START, TranslationResult

SPECIAL = {"</s>": "token.end", "<s>": "token.start"}  # the tokens a student has never seen in a sentence


def readable(token: str, after: str | None = None) -> str:
    """One token as written in its sentence: ▁ (a word's start) dropped; a piece that goes on the word before it
    ("am" of "dre"+"am", `after` being the token before) gets a hyphen ("-am"), so it is not read as a word of its own;
    <s> and </s> in words."""
    if token in SPECIAL:
        return t(SPECIAL[token])
    text = token.replace(WORD_START, "")
    continues = after is not None and not token.startswith(WORD_START) and _latin(text[:1]) and _latin(after[-1:])
    return ("-" + text if continues else text) or "␣"


def _latin(char: str) -> bool:
    """An ASCII letter or digit: a piece of an English word (a Chinese character is a token of its own)."""
    return char.isascii() and char.isalnum()


def readable_labels(tokens: list[str]) -> list[str]:
    """The tokens as readable, distinct labels: a text met more than once carries which one it is ("the (no. 2)")."""
    texts = [readable(token, tokens[i - 1] if i else None) for i, token in enumerate(tokens)]
    repeated = {text for text, n in Counter(texts).items() if n > 1}
    seen: Counter = Counter()
    labels = []
    for text in texts:
        seen[text] += 1
        labels.append(t("token.nth", token=text, n=seen[text]) if text in repeated else text)
    return labels


def row_names(result: TranslationResult, kind: str) -> list[str]:
    """Each row of `kind`'s maps by its position and query token as the map labels it ("2: ▁a"); a decoder row also by
    the token it writes ("1: 我 → writes 有")."""
    queries = result.axis_tokens(kind)[0]
    if kind == "encoder_self":
        return [f"{r}: {query}" for r, query in enumerate(queries)]
    return [t("row.writes", row=r, query=query, writes=writes)
            for r, (query, writes) in enumerate(zip(queries, result.output_tokens))]
