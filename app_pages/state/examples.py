"""The translate page's example sentences (its pills), the session's first sentence, and each pill's line of
what to look for."""

from __future__ import annotations

import os
from dataclasses import dataclass

from app_pages.state.language import md_escape
from i18n import translate_key
from model import WORD_START, WordLink


@dataclass(frozen=True)
class Example:
    """A translate-page pill: a sentence the shipped model translates correctly, and what to look for in it.

    The line under a chosen pill is computed from its result (model/translation/alignment.py): the cross-attention
    head that links `target_word` in the translation to `source_word` in the sentence, and its weight.
    tests/test_examples.py runs the shipped checkpoint on every pill: a new model must still get each right.
    """

    sentence: str
    source_word: str  # a word of the sentence (English, or Chinese for EXAMPLES_ZH)
    target_word: str  # the word of the translation it should align with
    hint: str  # i18n key of the "what to look for" line ({target}, {source}, {layer}, {head}, {weight}, {rows})
    reference: str  # our own translation: the shipped model's must be exactly this (tests/test_examples.py)


# Change freely (then run tests/test_examples.py): each must translate exactly as its reference with the shipped
# checkpoint and the default beam. "Thinking Machines" stays the Q·K·V page's worked example; the model mistranslates
# it, so it is no pill (it is in WHERE_IT_GOES_WRONG).
EXAMPLES = (
    Example("I have a dream.", "dream", "梦想", "example.dream", "我有一个梦想。"),
    Example("Who are you?", "Who", "谁", "example.who", "你是谁？"),
    Example("Tom bought three apples yesterday.", "yesterday", "昨天", "example.yesterday", "汤姆昨天买了三个苹果。"),
    Example("Where is the hospital?", "Where", "哪里", "example.where", "医院在哪里？"),
    Example("I like my dog.", "dog", "狗", "example.dog", "我喜欢我的狗。"),
)
DEFAULT_SENTENCE = "I have a dream."
# A Chinese → English model's first sentence: the same one, as a Chinese teacher would type it.
DEFAULT_SENTENCES = {"en": DEFAULT_SENTENCE, "zh": "我有一个梦想。"}


def default_sentence(source_language: str) -> str:
    """The first sentence of a session whose model reads `source_language`."""
    return DEFAULT_SENTENCES.get(source_language, DEFAULT_SENTENCE)


# The same five read in Chinese, for the Chinese → English model: the sentence is our Chinese reference above (one
# changed), the reference our English sentence; each must translate exactly so with checkpoints/zh-en
# (tests/test_examples.py).
EXAMPLES_ZH = (
    Example("我有一个梦想。", "梦想", "dream", "example.dream", "I have a dream."),
    Example("你是谁？", "谁", "Who", "example.who_zh", "Who are you?"),
    # Not 汤姆昨天买了三个苹果。: the shipped zh-en model writes "three apple" there.
    Example("汤姆昨天买了三本书。", "昨天", "yesterday", "example.yesterday_zh", "Tom bought three books yesterday."),
    Example("医院在哪里？", "哪里", "Where", "example.where", "Where is the hospital?"),
    Example("我喜欢我的狗。", "狗", "dog", "example.dog_zh", "I like my dog."),
)
# The pills of a model by the language it reads.
EXAMPLES_BY_LANGUAGE: dict[str, tuple[Example, ...]] = {"en": EXAMPLES, "zh": EXAMPLES_ZH}


def for_language(source_language: str) -> tuple[Example, ...]:
    """The translate page's pills for a model that reads `source_language` (none where it has no examples yet)."""
    return EXAMPLES_BY_LANGUAGE.get(source_language, ())


@dataclass(frozen=True)
class Pair:
    """Compare's two sentences, one word apart, with our own translation of each."""

    sentences: tuple[str, str]
    references: tuple[str, str]

    def label(self) -> str:
        """What tells the two apart, the pair's name on its button: the words of English ("sick / busy"), the
        characters between a common start and end of Chinese, which has no spaces to split words on ("病了 / 很忙")."""
        if " " not in "".join(self.sentences):
            a, b = self.sentences
            start = len(os.path.commonprefix([a, b]))
            end = len(os.path.commonprefix([a[start:][::-1], b[start:][::-1]]))
            return " / ".join(s[start:len(s) - end] for s in (a, b))
        a, b = (sentence.rstrip(".?!").split() for sentence in self.sentences)
        return " / ".join(" ".join(w for w in words if w not in other) for words, other in ((a, b), (b, a)))


# Compare's pairs, each translated exactly as its references (tests/test_examples.py); the first is the page's own.
# What "he was" is, sick or busy, changes one word of the translation, and the difference map shows where.
SENTENCE_PAIRS = (
    Pair(("He didn't come because he was sick.", "He didn't come because he was busy."),
         ("他没来，因为他病了。", "他没来，因为他很忙。")),
    Pair(("Tom bought three apples yesterday.", "Tom bought three books yesterday."),
         ("汤姆昨天买了三个苹果。", "汤姆昨天买了三本书。")),
)
# The pairs for the Chinese → English model: Chinese sentences one word apart whose translations by checkpoints/zh-en
# (default beam) are exactly these English ones, one word apart too (tests/test_examples.py). Not our Chinese
# references above, nor 很忙 beside 病了: zh-en writes 他没来，因为他很忙。 as "He didn't come because he's busy."
# and 他没来上学，因为他很忙。 as "… because he was very busy." (very: 很), two words from "… he was sick."
SENTENCE_PAIRS_ZH = (
    Pair(("他没来，因为他病了。", "他没来，因为他累了。"),
         ("He didn't come because he was sick.", "He didn't come because he was tired.")),
    Pair(("汤姆昨天买了三本书。", "汤姆昨天买了五本书。"),
         ("Tom bought three books yesterday.", "Tom bought five books yesterday.")),
)
# Compare's pairs for a model by the language it reads.
PAIRS_BY_LANGUAGE: dict[str, tuple[Pair, ...]] = {"en": SENTENCE_PAIRS, "zh": SENTENCE_PAIRS_ZH}
# Where it goes wrong: sentences the shipped model mistranslates, offered as such (Start here, Compare) and never as
# a lesson's first example, a tuple per direction (WRONG_BY_LANGUAGE); tests/test_examples.py checks that the model
# still gets each wrong (chrF against our reference below WRONG_CHRF), so that a better model moves them to the
# examples above.
WHERE_IT_GOES_WRONG = (
    Pair(("The animal didn't cross the street because it was too tired.",
          "The animal didn't cross the street because it was too wide."),
         ("那只动物没有过马路，因为它太累了。", "那只动物没有过马路，因为马路太宽了。")),
)
# For the Chinese → English model, the same question in Chinese, in Winograd's schema: 它 is the trophy when it is
# too big and the suitcase when it is too small. checkpoints/zh-en writes "The prize wasn't too big for the cup." and
# "The prize wasn't too small for the cup." (chrF 20 and 23 against our references): the negation and the suitcase
# lost. It writes the bird-and-river pair nearly right ("The bird was too tired to fly across the river.", chrF 60)
# and the animal-and-street pair half right (chrF 61 and 34): not failures to show.
WHERE_IT_GOES_WRONG_ZH = (
    Pair(("奖杯放不进手提箱，因为它太大了。", "奖杯放不进手提箱，因为它太小了。"),
         ("The trophy doesn't fit into the suitcase because it is too big.",
          "The trophy doesn't fit into the suitcase because it is too small.")),
)
# The sentences a model gets wrong by the language it reads.
WRONG_BY_LANGUAGE: dict[str, tuple[Pair, ...]] = {"en": WHERE_IT_GOES_WRONG, "zh": WHERE_IT_GOES_WRONG_ZH}
WRONG_CHRF = 50.0

def example_line(example: Example, link: WordLink, lang: str) -> str:
    """A pill's line of what to look for (Markdown), with the numbers of its result's strongest link. The source word
    as its tokens: an English word's pieces joined by " + " (▁anim + al), a Chinese word's characters as the word."""
    english = any(token.startswith(WORD_START) for token in link.source_tokens)
    source = (" + " if english else "").join(link.source_tokens)
    return translate_key(
        lang, example.hint, target=md_escape(example.target_word), source=md_escape(source),
        layer=link.layer + 1, head=link.head + 1, weight=f"{link.weight:.2f}",
        rows=md_escape(translate_key(lang, "example.rows_sep").join(link.rows)),
    )
