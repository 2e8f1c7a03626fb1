"""The translate page's example sentences (its pills), the session's first sentence, and each pill's line of
what to look for."""

from __future__ import annotations

from dataclasses import dataclass

from app_pages.text import md_escape
from i18n import translate_key
from model import WordLink


@dataclass(frozen=True)
class Example:
    """A translate-page pill: a sentence the shipped model translates correctly, and what to look for in it.

    The line under a chosen pill is computed from its result (model/translation/alignment.py): the cross-attention
    head that links `target_word` in the translation to `source_word` in the sentence, and its weight.
    tests/test_examples.py runs the shipped checkpoint on every pill: a new model must still get each right.
    """

    sentence: str
    source_word: str  # an English word of the sentence
    target_word: str  # the Chinese word of the translation it should align with
    hint: str  # i18n key of the "what to look for" line ({zh}, {en}, {layer}, {head}, {weight}, {rows})


# Change freely (then run tests/test_examples.py): each must translate correctly with the shipped checkpoint.
# "Thinking Machines" stays the Q·K·V page's worked example; the model mistranslates it, so it is no pill.
EXAMPLES = (
    Example("I have a dream.", "dream", "梦想", "example.dream"),
    Example("Who are you?", "Who", "谁", "example.who"),
    Example("Tom bought three apples yesterday.", "yesterday", "昨天", "example.yesterday"),
    Example("Where is the hospital?", "Where", "哪里", "example.where"),
    Example("I like my dog.", "dog", "狗", "example.dog"),
)
DEFAULT_SENTENCE = "I have a dream."
# The compare page's two sentences: one word apart, so that what "it" attends to can change with it.
SENTENCE_PAIR = ("The animal didn't cross the street because it was too tired.",
                 "The animal didn't cross the street because it was too wide.")


def example_line(example: Example, link: WordLink, lang: str) -> str:
    """A pill's line of what to look for (Markdown), with the numbers of its result's strongest link."""
    return translate_key(
        lang, example.hint, zh=md_escape(example.target_word), en=md_escape(" + ".join(link.source_tokens)),
        layer=link.layer + 1, head=link.head + 1, weight=f"{link.weight:.2f}",
        rows=md_escape(translate_key(lang, "example.rows_sep").join(link.rows)),
    )
