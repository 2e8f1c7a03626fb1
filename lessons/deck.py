"""A slide deck of pinned views, as data: each slide is a page's name, its link's query string and a title. Written
into an exported HTML file as JSON and read back from one, strictly: a file is typed, edited or crafted by anyone.

Also the difference of two attention maps (B − A) that the compare page draws.
No Streamlit, no model: the pages pass which pages and link names a slide may carry, and check each value with the
same readers their links use.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

import numpy as np

MAX_SLIDES = 40
MAX_TITLE = 80  # characters of a slide's title (the rename box's max_chars)
# Characters of one link value: the longest the app takes, a sentence of the model's MAX_CHARS (tests/test_deck.py
# checks they agree; lessons/ may not import the model). A deck keeps what the app accepts, so that a deck it
# exports imports again (values of 601 to 1,000 characters, and line breaks, included).
MAX_VALUE = 1_000
MAX_FILE_BYTES = 10_000_000  # an exported deck: plotly.js once (4.8 MB) and up to MAX_SLIDES figures (≈ 50 kB each)
# Where an exported deck keeps its slides: a JSON element the importer finds without running anything.
DECK_ELEMENT = re.compile(r'<script type="application/json" id="deck">(.*?)</script>', re.DOTALL)
FORMAT = "attention-deck/1"


@dataclass(frozen=True)
class Slide:
    page: str
    query: dict[str, str]
    title: str


class BadDeck(ValueError):
    """A deck file that cannot be read: i18n key deck.bad.<key> and its values (said to the user, never Python's own
    message)."""

    def __init__(self, key: str, **values) -> None:
        super().__init__(key)
        self.key, self.values = key, values


def moved(slides: list, index: int, by: int) -> list:
    """The slides with slide `index` moved `by` places (-1 up, +1 down); a move past either end leaves them as they are."""
    to = index + by
    if not (0 <= index < len(slides) and 0 <= to < len(slides)):
        return list(slides)
    out = list(slides)
    out[index], out[to] = out[to], out[index]
    return out


def to_json(slides: list[Slide]) -> str:
    """The deck as JSON that is safe inside an HTML <script> element (no "<", so no "</script>" can end it early)."""
    data = {"format": FORMAT, "slides": [{"page": s.page, "query": s.query, "title": s.title} for s in slides]}
    return json.dumps(data, ensure_ascii=False).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def json_in_html(document: bytes) -> str:
    """The deck's JSON from an exported HTML file; BadDeck("size") / ("no_deck") where there is none to read."""
    if len(document) > MAX_FILE_BYTES:
        raise BadDeck("size", mb=MAX_FILE_BYTES // 1_000_000)
    try:
        text = document.decode("utf-8")
    except UnicodeDecodeError:
        raise BadDeck("no_deck") from None
    found = DECK_ELEMENT.findall(text)
    if len(found) != 1:
        raise BadDeck("no_deck")
    return found[0]


def _text(value, limit: int, what: str) -> str:
    """`value` when it is a string of at most `limit` characters. Any characters: a link's sentence may hold a line
    break, and a title quotes the sentence; the JSON escapes them, and the pages read each value as its link does."""
    if not isinstance(value, str) or len(value) > limit:
        raise BadDeck("field", field=what)
    return value


def _slide(item, pages: dict[str, set[str]]) -> Slide:
    """One slide, checked: a known page, only link names that page reads, short plain-text values."""
    if not isinstance(item, dict) or set(item) != {"page", "query", "title"}:
        raise BadDeck("field", field="slide")
    page = item["page"]
    if page not in pages:
        raise BadDeck("page", page=str(page)[:40])
    query = item["query"]
    if not isinstance(query, dict):
        raise BadDeck("field", field="query")
    unknown = sorted(set(query) - pages[page])
    if unknown:
        raise BadDeck("name", name=str(unknown[0])[:40])
    values = {name: _text(value, MAX_VALUE, name) for name, value in query.items()}
    return Slide(page, values, _text(item["title"], MAX_TITLE, "title"))


def from_json(text: str, pages: dict[str, set[str]]) -> list[Slide]:
    """A deck's slides from to_json's text, checked against `pages` (page name → the link names it reads)."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise BadDeck("json") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("slides"), list):
        raise BadDeck("format")
    if not 0 < len(data["slides"]) <= MAX_SLIDES:
        raise BadDeck("count", n=MAX_SLIDES)
    return [_slide(item, pages) for item in data["slides"]]


def difference(a, b) -> np.ndarray:
    """B − A of two maps on the same axes (same shape): positive where B attends more."""
    a, b = np.asarray(a, dtype=np.float32), np.asarray(b, dtype=np.float32)
    if a.shape != b.shape:
        raise ValueError(f"maps of different shapes {a.shape} and {b.shape} have no difference map")
    return b - a

