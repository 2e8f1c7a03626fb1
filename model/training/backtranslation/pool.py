"""The monolingual pool: the test sets' sentences in one language, normalised as the corpus is, each once, with
every sentence the project measures on (or already trains on) taken out, then the script and length filters.

A sentence is written as read_pairs writes the corpus (clean_text; Chinese in Simplified by OpenCC t2s) and compared
by a key that also folds what the translator folds on input (NFKC: full-width letters and punctuation; Chinese also
t2s), and for English the case: a traditional or full-width variant of a test sentence is that test sentence.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from pathlib import Path

from ...text.normalize import clean_text, normalize_source, to_simplified
from ...translation.scripts import _HAN, script_notices  # the app's own reading of a sentence's script
from ..data import read_pairs
from .testsets import POOL_LABELS, Tree, pool_files, en_zh_test_files

_LATIN = re.compile(r"[A-Za-z]")


def as_corpus(text: str, language: str) -> str:
    """`text` as read_pairs writes the corpus's side in `language`."""
    return clean_text(to_simplified(text)) if language == "zh" else clean_text(text)


def key(text: str, language: str) -> str:
    """What two sentences share when they count as the same sentence."""
    folded = normalize_source(text, language)
    return folded.casefold() if language == "en" else folded


def in_script(text: str, language: str) -> bool:
    """English: Latin letters and no Han character; Chinese: Han characters (Latin names as the corpus has, 'Tom游泳。',
    allowed). What the app would warn about as 'not English' or 'Chinese in an English sentence' is out."""
    if language == "zh":
        return bool(_HAN.search(text))
    return bool(_LATIN.search(text)) and not script_notices(text, text, "en")


def excluded_keys(tree: Tree, language: str, dev: str | Path, gold: str | Path, train: str | Path | None) -> dict:
    """{what: keys} of the sentences in `language` the pool must not hold: every English–Chinese test file's side in
    that language, dev.tsv (both halves), the gold alignment's pairs, and (when given) train.tsv's side."""
    side = 0 if language == "en" else 1
    tests = {key(line, language) for path in en_zh_test_files(tree)[language] for line in tree.lines(path)}
    found = {"testsets": tests - {""}, "dev": {key(pair[side], language) for pair in read_pairs(dev)},
             "gold": {key(cols[1 + side], language) for cols in _gold_rows(gold)}}
    if train is not None:
        found["train"] = {key(pair[side], language) for pair in read_pairs(train)}
    return found


def _gold_rows(path: str | Path) -> list[list[str]]:
    """evaluation/alignment/pairs.tsv's rows: dev_line, English, Chinese, attribution (comments left out)."""
    rows = [row.split("\t") for row in Path(path).read_text(encoding="utf-8").splitlines()]
    return [cols for cols in rows if len(cols) >= 3 and not cols[0].startswith("#")]


def unique(lines: Iterable[str], language: str) -> list[str]:
    """Each sentence once (by key), in the order first met, as the corpus writes it; empty lines left out."""
    seen, kept = set(), []
    for line in lines:
        text = as_corpus(line, language)
        k = key(text, language)
        if k and k not in seen:
            seen.add(k)
            kept.append(text)
    return kept


def build_pool(tree: Tree, language: str, excluded: dict[str, set[str]], fits: Callable[[str], bool],
               version: str) -> tuple[list[str], list[dict]]:
    """(the pool's sentences, the count after every step) for `language`; `fits` is the length filter."""
    lines = [line for path in pool_files(tree, language, version=version)
             for line in tree.lines(path, POOL_LABELS[language])]
    sentences = unique(lines, language)
    steps = [{"step": "lines read (labelled Mandarin / English)", "count": len(lines)},
             {"step": "unique after normalisation", "count": len(sentences)}]
    for what, keys in excluded.items():
        sentences = [s for s in sentences if key(s, language) not in keys]
        steps.append({"step": f"not in {what}", "count": len(sentences), "excluded_set_size": len(keys)})
    for what, keep in (("in script", lambda s: in_script(s, language)), ("within the length limit", fits)):
        sentences = [s for s in sentences if keep(s)]
        steps.append({"step": what, "count": len(sentences)})
    return sentences, steps
