"""The tables an AppTest page shows, as its reader sees them.

Every table of the app is a st.table (app_pages.components.table_view.table), whose cells, headers and index labels are Markdown:
text in them is sent escaped (md_escape's backslashes, a word joiner in a would-be link). Read back here without
those, the cells are what the page displays.
"""

from __future__ import annotations

import re

import pandas as pd

from app_pages.shell.text import WORD_JOINER
from app_pages.components.table_view import relabelled


def as_read(text):
    """Markdown source as the reader sees it: without md_escape's backslashes and word joiners."""
    return re.sub(r"\\(.)", r"\1", text).replace(WORD_JOINER, "") if isinstance(text, str) else text


def shown_tables(at) -> list[pd.DataFrame]:
    """Every table of the AppTest page `at`, its text unescaped."""
    return [relabelled(element.value, as_read, as_read) for element in at.table]
