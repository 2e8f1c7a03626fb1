"""What translate() tells its caller in words: input errors and notices, each with a key and values.

The text here is English (the CLI and the Python API print it); an interface in
another language looks up the key instead (i18n/<lang>/ holds "model.<key>"
for every key below, with the same {placeholders}).
"""

from __future__ import annotations

from dataclasses import dataclass, field

MESSAGES = {
    "not_string": "text must be a string, got {type}",
    "empty": "Please type a sentence: the text is empty or has only invisible characters.",
    "beam": "beam size must be between 1 and {max}, got {beam}",
    "top_k": "top_k must be at least 1, got {top_k}",
    "chars_cut": "Input was longer than {limit} characters; only the first {limit} were used.",
    "tokens_cut": "Input was longer than the model's {limit} source tokens; it was truncated to: {text}…",
    "language": "This model needs a target language among {languages}; got {language}.",
    "language_unsupported": "This model translates into one language only; it takes no target language (got {language}).",
    # Short: it sits under the translation, above the maps, which show the names it read ("Tom").
    "names_read_as": "Names the model never learned, read as: {swaps}",
    # The sentence's script against the language the model reads (scripts.py).
    "not_chinese": (
        "This model reads Chinese, and the sentence has no Chinese characters: what it wrote is not a translation. "
        "To translate English, choose the English → Chinese model."
    ),
    "not_english": (
        "This model reads English, and the sentence is Chinese: what it wrote is not a translation. "
        "To translate Chinese, choose the Chinese → English model."
    ),
    "mixed_latin": "Part of the sentence is in Latin letters, which this model rarely saw in its Chinese sources.",
    "mixed_chinese": "Part of the sentence is in Chinese characters, which this model never saw in its English sources.",
    "simplified": "Traditional characters were converted to simplified (OpenCC), as the model learned them: {text}",
    "output_cut": "The translation reached the {n}-token output limit and was cut there.",
    "head": "This model has no {kind} head at layer {layer}, head {head}: it has {layers} layers of {heads} heads.",
    "attribution_method": "attribution method must be one of {methods}, got {method}",
    # A checkpoint without sha256sums.txt whose weights look damaged (model/translation/sanity.py).
    "weights_large": (
        "{folder} was loaded unchecked (no sha256sums.txt, or ATTENTION_SKIP_CHECKSUMS=1), and {name} holds {value}, "
        "where trained weights "
        "stay within ±{bound}: the file is probably damaged, and translations may be nonsense. Restore the folder "
        "from a good copy or retrain it."
    ),
    "weights_nonsense": (
        "{folder} was loaded unchecked (no sha256sums.txt, or ATTENTION_SKIP_CHECKSUMS=1), and the test sentence "
        "\"{sentence}\" came out as \"{output}\" ({sure} average confidence per token): the weights may be damaged. Restore the folder from a good copy or "
        "retrain it."
    ),
    "forced_prefix": (
        "A forced start must be ordinary tokens of the target vocabulary (ids below {vocab}, not <s>, </s> or <pad>), "
        "at most {limit} of them."
    ),
}


@dataclass(frozen=True)
class Notice:
    """Something the reader of a translation should know, e.g. that the input was cut; str() is the English text."""

    key: str  # one of MESSAGES
    values: dict = field(default_factory=dict)

    def __str__(self) -> str:
        return MESSAGES[self.key].format(**self.values)


class InputError(ValueError):
    """Input that cannot be translated (empty, blank, only invisible characters, not a string) or bad settings."""

    def __init__(self, key: str, **values) -> None:
        super().__init__(MESSAGES[key].format(**values))
        self.key = key
        self.values = values
