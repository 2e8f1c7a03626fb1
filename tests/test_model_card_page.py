"""The model card page as Streamlit sends it: no table with an empty first row (issue 51: the card's summary table,
written without column names, showed its empty header as an empty row above "direction")."""

from __future__ import annotations

import re

import pytest

from tests.support.apptest import app

TABLE_START = re.compile(r"^\|.*\|\s*$")
EMPTY_HEADER = re.compile(r"^\|(\s*\|)+\s*$")


def table_headers(markdown: str) -> list[str]:
    """The first line of every Markdown table in `markdown` (its column names)."""
    lines, headers = markdown.split("\n"), []
    for index, line in enumerate(lines):
        if TABLE_START.match(line) and (index == 0 or not TABLE_START.match(lines[index - 1])):
            headers.append(line)
    return headers


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_table_of_the_card_opens_on_an_empty_row(lang):
    at = app(page="app_pages/pages/model_card.py", lang=lang)
    assert not at.exception
    sent = "\n".join(m.value for m in at.markdown)
    headers = table_headers(sent)
    assert headers and not [h for h in headers if EMPTY_HEADER.match(h)], headers
    # the summary's rows are still there, as a list
    assert re.search(r"^- \*\*[^*]+\*\*: ", sent, re.M)

