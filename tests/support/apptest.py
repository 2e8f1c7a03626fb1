"""The app in-process (streamlit.testing's AppTest), as the tests open and read it: a page in a new session (by the
explorer's settings, by a link, by the registry's name; a teaching page on any of its tabs), and what it shows
(its text, its charts' specs, a heatmap's cells)."""

from __future__ import annotations

import json
import re

import numpy as np
from streamlit.testing.v1 import AppTest

from app_pages.shell import registry
from app_pages.state import state_keys
from model import DEFAULT_BEAM
from tests.support.paths import ROOT
from tests.support.tables import shown_tables

APP = str(ROOT / "app.py")
PAGES = ("qkv", "masks", "positional", "scaling", "multihead", "anatomy")  # the teaching pages
# The key of the tabs of each page drawn in sections (teaching_shared.sections: "{prefix}.tab"): only the open tab
# is drawn.
TAB_PREFIX = {"qkv": "qkv", "masks": "masks", "positional": "positional", "scaling": "scaling", "multihead": "multihead",
              "anatomy": "anatomy", "training": "training", "explanation": "explain"}


def app(sentence: str | None = None, page: str | None = None, beam: int = DEFAULT_BEAM, lang: str = "en") -> AppTest:
    """The app in a new session on `page` (a script's path; default: Translate & explore), showing `sentence`."""
    at = AppTest.from_file(APP, default_timeout=120)
    if sentence is not None:
        at.session_state[state_keys.SENTENCE] = sentence
    at.session_state[state_keys.BEAM] = beam
    at.session_state[state_keys.LANG] = lang
    at.switch_page(page or "app_pages/pages/translate.py")  # the app opens on Start here
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def opened(link: dict[str, str], page: str | None = None) -> AppTest:
    """The app as a new session opening `link` (its query string) on `page`."""
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params.update(link)
    at.switch_page(page or "app_pages/pages/translate.py")  # the app opens on Start here
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def link_of(at: AppTest) -> dict[str, str]:
    """The query string the app last wrote (each value as one string)."""
    return {k: v[0] if isinstance(v, list) else v for k, v in at.query_params.items()}


def open_page(page: str, lang: str = "en", tab: str | None = None, **state) -> AppTest:
    """`page` (its registry name) in a new session in `lang`, with `state` set first; `tab`: the name of the teaching
    page's tab to open (its label's key "{prefix}.tab.{tab}"), as a click on it would."""
    at = AppTest.from_file(APP, default_timeout=180)
    at.session_state["lang"] = lang
    for key, value in state.items():
        at.session_state[key] = value
    at.run()
    at.switch_page(registry.PAGE[page].script)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    if tab is not None:
        from i18n import strings

        start = strings(lang)[f"{TAB_PREFIX[page]}.tab.{tab}"].split("{")[0]  # the label up to its first value
        open_tab(at, page, next(tb.label for tb in at.tabs if tb.label.startswith(start)))
    return at


def open_tab(at: AppTest, page: str, label: str) -> None:
    at.session_state[f"{TAB_PREFIX[page]}.tab"] = label
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert [tb.label for tb in at.tabs if tb.label == label], f"no tab {label!r}"


def every_tab(page: str, lang: str = "en", **state):
    """A teaching page in a new session, yielded once per tab, each tab opened after the one before."""
    at = open_page(page, lang, **state)
    yield at
    for label in [tb.label for tb in at.tabs][1:]:
        open_tab(at, page, label)
        yield at


def whole_page_text(page: str, lang: str = "en", **state) -> str:
    """page_text of every tab of a teaching page."""
    return "\n".join(page_text(at) for at in every_tab(page, lang, **state))


def page_text(at: AppTest) -> str:
    """Everything the page shows as text: Markdown, LaTeX, messages, titles and table cells."""
    parts = [el.value for kind in ("markdown", "latex", "success", "info", "warning", "error", "caption", "title",
                                   "header", "subheader") for el in getattr(at, kind)]
    parts += [frame.to_string() for frame in shown_tables(at)]
    return "\n".join(str(p) for p in parts)


def specs(at: AppTest) -> list[dict]:
    """The Plotly figures the page shows, as JSON."""
    return [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]


def cells(spec: dict) -> np.ndarray:
    """A heatmap's values as the browser gets them: JSON lists (viz.sent.sent_figure), a hidden cell null."""
    return np.array(spec["data"][0]["z"], dtype=float)


def keyed(at: AppTest, key: str):
    """The container keyed `key` in the main area (its children are what it shows)."""
    def find(node):
        for child in getattr(node, "children", {}).values():
            if str(getattr(getattr(child, "proto", None), "id", "")).endswith(f"-{key}"):
                return child
            if (found := find(child)) is not None:
                return found
        return None

    found = find(at.main)
    assert found is not None, f"no container keyed {key!r}"
    return found


BADGE = re.compile(r"^:(\w+)-badge\[(?::material/\w+: )?(.*)\]$", re.S)


def chips_of(at: AppTest, key: str) -> list[tuple[str, str]]:
    """(colour, text) of each chip (st.badge) of the row keyed `key`, its Markdown escapes undone: what the browser
    shows, a red chip as "red"."""
    found = []
    for element in keyed(at, key).children.values():
        match = BADGE.match(str(getattr(element, "value", "")))
        if match:
            found.append((match.group(1), re.sub(r"\\(.)", r"\1", match.group(2))))
    return found
