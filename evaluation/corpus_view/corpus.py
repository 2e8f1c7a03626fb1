"""The sentences the corpus view projects: the 150 gold pairs, the examples written for the app, and a user's own.

The gold pairs are the Tatoeba pairs shipped in evaluation/alignment/pairs.tsv (CC-BY 2.0 FR), each with its
attribution as that file gives it; the examples are evaluation/alignment/examples.tsv, written for the app. A model
reading Chinese gets the same pairs turned round. A user's sentences have no reference: decoder and cross attention
are teacher-forced on the model's own greedy translation of them.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from evaluation.alignment.gold import EXAMPLES, PAIRS, rows_of
from model.text.normalize import normalize_source
from model.translation.scripts import script_notices

LANGUAGES = ("en", "zh")
MAX_USER_SENTENCES = 30  # a user's lines beyond this are left out (each costs a traced pass)
MAX_USER_CHARS = 200  # a longer line is refused, not cut: its projection would show a sentence nobody typed
ORIGINS = ("gold", "example", "user")
_MARKUP = re.compile(r"<[^>]*>|&#?\w+;")
# Pictographs, dingbats, flags and the variation selector / joiner that build emoji sequences
_EMOJI = re.compile("[\U0001F000-\U0001FAFF\u2600-\u27BF\uFE0F\u200D\U000E0020-\U000E007F]")
# Problems a user's lines can have, one notice per kind: the page words each in both languages.
PROBLEMS = ("empty", "too_long", "too_many", "markup", "emoji", "other_script")


class CorpusError(ValueError):
    """A corpus that cannot be built: a language no shipped pair reads, or no sentence at all."""


@dataclass(frozen=True)
class Sentence:
    source: str  # in the language the model reads
    reference: str | None  # what decoder and cross attention are teacher-forced on; None: the model's own output
    origin: str  # one of ORIGINS
    credit: str = ""  # the pair's attribution (the gold pairs' Tatoeba sentence numbers and contributors)


@dataclass(frozen=True)
class Corpus:
    source_language: str  # "en" or "zh": what the model reads
    sentences: tuple[Sentence, ...]

    def digest(self) -> str:
        """16 hex digits of SHA-256 over the sentences in order: a projection is cached for this corpus only."""
        text = json.dumps([self.source_language, [(s.source, s.reference, s.origin) for s in self.sentences]],
                          ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]

    def counts(self) -> dict[str, int]:
        """How many sentences come from each origin (gold, example, user)."""
        return {origin: sum(s.origin == origin for s in self.sentences) for origin in ORIGINS}

    def with_user(self, sentences: tuple[str, ...]) -> "Corpus":
        """This corpus with a user's accepted sentences (user_sentences) after it."""
        added = tuple(Sentence(text, None, "user") for text in sentences)
        return Corpus(self.source_language, self.sentences + added)


def _gold_rows(path: Path = PAIRS) -> list[tuple[str, str, str]]:
    """(English, Chinese, attribution) of every pair pairs.tsv ships, in file order."""
    rows = []
    for row in path.read_text(encoding="utf-8").splitlines():
        cols = row.split("\t")
        if row.strip() and not row.startswith("#") and len(cols) >= 3:
            rows.append((cols[1], cols[2], cols[3] if len(cols) > 3 else ""))
    return rows


def shipped_corpus(source_language: str, gold: Path = PAIRS, examples: Path = EXAMPLES) -> Corpus:
    """The gold pairs then the app's examples, each read from `source_language` ("en" or "zh") into the other."""
    if source_language not in LANGUAGES:
        raise CorpusError(f"no shipped corpus reads {source_language!r}; the corpus has {', '.join(LANGUAGES)}")
    pairs = [(en, zh, "gold", credit) for en, zh, credit in _gold_rows(gold)]
    pairs += [(en, zh, "example", "") for en, zh, _ in rows_of(examples)]
    turned = source_language == "zh"
    return Corpus(source_language, tuple(
        Sentence(zh if turned else en, en if turned else zh, origin, credit) for en, zh, origin, credit in pairs))


@dataclass(frozen=True)
class UserLines:
    sentences: tuple[str, ...]  # accepted, in the order typed
    problems: dict[str, tuple[int, ...]]  # kind (PROBLEMS) → the 1-based lines refused for it; only kinds that occur


def _problem(line: str, language: str) -> str | None:
    """Why one non-empty line is refused (a PROBLEMS kind), None when the model may read it."""
    if len(line) > MAX_USER_CHARS:
        return "too_long"
    if _MARKUP.search(line):
        return "markup"
    if _EMOJI.search(line) or any(unicodedata.category(c) == "So" for c in line):
        return "emoji"
    if any(n.key in ("not_english", "not_chinese") for n in script_notices(line, normalize_source(line, language),
                                                                            language)):
        return "other_script"
    return None


def user_sentences(text: str, source_language: str) -> UserLines:
    """A user's pasted sentences, one a line: blank lines inside the text, lines over MAX_USER_CHARS, markup,
    emoji, a line in the other language and lines past MAX_USER_SENTENCES are refused, each said by its kind."""
    lines = text.splitlines()
    while lines and not lines[-1].strip():
        lines.pop()  # a trailing newline is no empty sentence
    accepted, problems = [], {}
    for n, line in enumerate(lines, 1):
        line = line.strip()
        kind = "empty" if not line else _problem(line, source_language)
        if kind is None and len(accepted) >= MAX_USER_SENTENCES:
            kind = "too_many"
        if kind is None:
            accepted.append(line)
        else:
            problems.setdefault(kind, []).append(n)
    return UserLines(tuple(accepted), {kind: tuple(problems[kind]) for kind in PROBLEMS if kind in problems})
