"""Names the model never learned: read as a name it knows, then written back as themselves.

Tatoeba's 26,777 pairs hold thousands of sentences with Tom (汤姆) and Mary (玛丽) but few other names, so an unseen
name such as "Alice" is split into pieces (▁Al ice) and comes out as unrelated characters or not at all (training on
name-swapped sentences did not fix it: model card, groups 3–5). Translation systems meet this with placeholders; so
does this model: a name it has no single token for is read as a *carrier* it translates reliably ("Tom"), and the
carrier's Chinese in the output is replaced by the name's usual transliteration (CC-CEDICT's, for the 504 given
names in cedict_names.tsv) or by the name itself in Latin letters, as Chinese text often writes foreign names.

The attention maps stay those of the sentence the model read; the result lists each swap (TranslationResult.names)
and says so in a notice. Where the model does not write the carrier back exactly, the sentence is translated as
typed, except in an experiment on the model (heads knocked out, a forced start), which keeps the reading of the plain
run it is compared with.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

# Names the shipped model writes the same way every time (Tatoeba's most frequent), tried in this order.
CARRIERS = (("Tom", "汤姆"), ("Mary", "玛丽"), ("John", "约翰"))
TABLE = Path(__file__).with_name("cedict_names.tsv")
WORDS = Path(__file__).with_name("cedict_english_words.txt")  # the English words of CC-CEDICT's glosses
WORD = re.compile(r"\b[A-Z][a-z]{1,13}\b")  # a capitalised word of a name's length; not "I", "OK" or "USA"
SENTENCE_END = ".!?\"'“”…"


@dataclass(frozen=True)
class NameCopy:
    name: str  # as typed: "Alice"
    carrier: str  # what the model read in its place: "Tom"
    carrier_written: str  # how the model writes the carrier: "汤姆"
    written: str  # what the translation shows instead: "爱丽丝" (CC-CEDICT) or "Alice"


def _lines(path: Path) -> list[str]:
    """The file's lines, less its credit (lines starting with #)."""
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line and line[0] != "#"]


def read_table(path: Path = TABLE) -> dict[str, str]:
    """Latin name → usual transliteration."""
    return dict(line.split("\t") for line in _lines(path))


@cache
def _shipped_tables() -> tuple[dict[str, str], frozenset[str]]:
    """The shipped name table and word list, read once per process (every Translator, the trainer's included,
    builds a NameReader)."""
    return read_table(), frozenset(_lines(WORDS))


class NameReader:
    """Finds the names a model has no single token for and swaps them for carriers; `one_token(word)` says whether
    the model's source vocabulary holds the word whole."""

    def __init__(self, one_token: Callable[[str], bool], table: dict[str, str] | None = None,
                 words: frozenset[str] | None = None) -> None:
        self.one_token = one_token
        shipped_table, shipped_words = _shipped_tables()
        self.table = shipped_table if table is None else table
        self.words = shipped_words if words is None else words
        self.carriers = tuple((en, zh) for en, zh in CARRIERS if one_token(en))

    def unknown(self, text: str) -> list[str]:
        """Names in `text` the model never learned, in order, each once.

        A capitalised word the vocabulary splits into pieces is taken for a name unless it is an English word:
        a proper one anywhere ("Kyoto", "Saturdays": the model may know them in pieces), a common one where any
        word is capitalised, at a sentence's start ("Translation is…") or after another capitalised word ("Happy
        New Year"). A given name of the table counts everywhere ("Martin" is a bird too).
        """
        found: list[str] = []
        for match in WORD.finditer(text):
            word, before = match.group(0), text[: match.start()].rstrip()
            if word in found or self.one_token(word):
                continue
            at_start = not before or before[-1] in SENTENCE_END
            title_case = before.split()[-1][:1].isupper() if before else False
            proper = self._english(word)
            common = self._english(word.lower()) and (at_start or title_case)
            if word in self.table or not (proper or common):
                found.append(word)
        return found

    def _english(self, word: str) -> bool:
        """Whether the word list holds `word`, or its singular ("Saturdays", "manholes")."""
        return word in self.words or (word.endswith("s") and word[:-1] in self.words)

    def read_as(self, text: str) -> tuple[str, tuple[NameCopy, ...]]:
        """(the text the model reads, the swaps): each unknown name becomes a carrier the text does not hold yet."""
        free = [(en, zh) for en, zh in self.carriers if not re.search(rf"\b{en}\b", text)]
        copies = []
        for name, (carrier, written) in zip(self.unknown(text), free):
            text = re.sub(rf"\b{name}\b", carrier, text)
            copies.append(NameCopy(name, carrier, written, self.table.get(name, name)))
        return text, tuple(copies)


def write_back(translation: str, copies: tuple[NameCopy, ...], read: str) -> str | None:
    """The translation with each carrier's Chinese replaced by the name; None when the model did not write each
    carrier exactly as often as it read it (the caller then translates the sentence as typed)."""
    for c in copies:
        if translation.count(c.carrier_written) != len(re.findall(rf"\b{c.carrier}\b", read)):
            return None
        translation = translation.replace(c.carrier_written, c.written)
    return translation
