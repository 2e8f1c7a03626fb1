"""The gold word alignments: dev line numbers, a short hash of each pair, and hand-written links.

gold.tsv keeps `line<TAB>hash<TAB>links`; pairs.tsv ships the 150 pairs it annotates (Tatoeba, CC-BY 2.0 FR, with
each pair's attribution: the evaluation set the app shows, the one slice of the corpus the repository holds, so the
app needs nothing outside it). load_gold() joins the links with pairs.tsv, or with a dev.tsv given to it, refusing a
line whose pair no longer hashes the same. The units the links count (GUIDELINE.md):

- English: the text as the app normalises it (NFKC, whitespace collapsed), split by WORD_PATTERN: a run of letters
  and digits, with apostrophes inside it kept ("don't", "Tom's" are one word), or any other non-space character on
  its own ("?", ",", "." of "Mr.").
- Chinese: the reference in Simplified script (OpenCC t2s, as training reads it), one unit per non-space character.

Links are Pharaoh pairs `i-j` (sure) and `ipj` (possible): English word i, Chinese character j, both 0-based.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from model.text.normalize import clean_text, normalize_source, to_simplified

GOLD = Path(__file__).with_name("gold.tsv")
PAIRS = Path(__file__).with_name("pairs.tsv")  # dev_line<TAB>english<TAB>chinese<TAB>attribution, gold's lines only
EXAMPLES = Path(__file__).with_name("examples.tsv")  # written for the app, not from the corpus: shown, never scored
WORD_PATTERN = re.compile(r"\w+(?:'\w+)*|[^\w\s]")
LINK = re.compile(r"^(\d+)([-p])(\d+)$")


class GoldError(ValueError):
    """gold.tsv does not fit dev.tsv (a changed pair, a link out of range) or is malformed."""


@dataclass(frozen=True)
class GoldPair:
    line: int  # 1-based line of dev.tsv
    english: str  # normalised
    chinese: str  # Simplified, cleaned
    words: tuple[str, ...]
    chars: tuple[str, ...]
    sure: frozenset[tuple[int, int]]  # (word, character)
    possible: frozenset[tuple[int, int]]  # possible only; sure links count as possible in AER


def english_words(text: str) -> list[str]:
    return WORD_PATTERN.findall(normalize_source(text))


def chinese_chars(text: str) -> list[str]:
    return [ch for ch in clean_text(to_simplified(text)) if not ch.isspace()]


def normalised_pair(english: str, chinese: str) -> tuple[str, str]:
    return normalize_source(english), clean_text(to_simplified(chinese))


def pair_hash(english: str, chinese: str) -> str:
    """First 12 hex digits of SHA-256 over the normalised pair: enough to notice a changed line."""
    en, zh = normalised_pair(english, chinese)
    return hashlib.sha256(f"{en}\t{zh}".encode("utf-8")).hexdigest()[:12]


def parse_links(text: str) -> tuple[set[tuple[int, int]], set[tuple[int, int]]]:
    sure, possible = set(), set()
    for item in text.split():
        m = LINK.match(item)
        if not m:
            raise GoldError(f"link {item!r} is not i-j or ipj")
        (sure if m.group(2) == "-" else possible).add((int(m.group(1)), int(m.group(3))))
    return sure, possible - sure


def read_dev_lines(dev_path: str | Path) -> dict[int, tuple[str, str]]:
    """1-based line number → (English, Chinese) of every line of dev.tsv."""
    lines = {}
    with open(dev_path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            cols = line.rstrip("\n").split("\t")
            if len(cols) >= 2:
                lines[n] = (cols[0], cols[1])
    return lines


def read_shipped_pairs(path: str | Path | None = None) -> dict[int, tuple[str, str]]:
    """dev line number → (English, Chinese) of the pairs shipped beside the gold links (default: PAIRS)."""
    lines = {}
    for row in Path(PAIRS if path is None else path).read_text(encoding="utf-8").splitlines():
        cols = row.split("\t")
        if row.strip() and not row.startswith("#") and len(cols) >= 3:
            lines[int(cols[0])] = (cols[1], cols[2])
    return lines


def gold_pair(line: int, english: str, chinese: str, links: str, where: str) -> GoldPair:
    """One aligned pair, its links checked against its words and characters (GoldError names `where`)."""
    sure, possible = parse_links(links)
    words, chars = english_words(english), chinese_chars(chinese)
    bad = [(i, j) for i, j in sure | possible if not (0 <= i < len(words) and 0 <= j < len(chars))]
    if bad:
        raise GoldError(f"{where}: links {sorted(bad)} outside {len(words)}×{len(chars)}")
    en, zh = normalised_pair(english, chinese)
    return GoldPair(line, en, zh, tuple(words), tuple(chars), frozenset(sure), frozenset(possible))


def rows_of(path: str | Path) -> list[list[str]]:
    """The tab-separated rows of a gold file, comments and blank lines left out, each cut to three fields."""
    return [(row.split("\t") + [""])[:3] for row in Path(path).read_text(encoding="utf-8").splitlines()
            if row.strip() and not row.startswith("#")]


def load_gold(dev_path: str | Path | None = None, gold_path: str | Path = GOLD) -> list[GoldPair]:
    """gold.tsv joined with dev.tsv (`dev_path`) or, without one, with the shipped pairs.tsv. Raises GoldError on a
    changed pair or a link outside its sentence."""
    dev = read_dev_lines(dev_path) if dev_path is not None else read_shipped_pairs()
    dev_path = dev_path if dev_path is not None else PAIRS
    pairs = []
    for line_text, digest, links in rows_of(gold_path):
        line = int(line_text)
        if line not in dev:
            raise GoldError(f"{gold_path}: dev line {line} does not exist in {dev_path}")
        english, chinese = dev[line]
        if pair_hash(english, chinese) != digest:
            raise GoldError(f"{gold_path}: dev line {line} changed (hash {pair_hash(english, chinese)}, gold {digest})")
        pairs.append(gold_pair(line, english, chinese, links, f"{gold_path}: dev line {line}"))
    return pairs


def load_examples(path: str | Path = EXAMPLES) -> list[GoldPair]:
    """examples.tsv: pairs written for the app (`english<TAB>chinese<TAB>links`), aligned by the same guideline;
    each pair's `line` is its place in the file, from 1. Drawn where the dev set is not installed, never scored."""
    return [gold_pair(n, english, chinese, links, f"{path}: example {n}")
            for n, (english, chinese, links) in enumerate(rows_of(path), 1)]
