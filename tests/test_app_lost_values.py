"""A browser that lost a widget's value keeps the user's choice and the page: Streamlit takes a widget state that
carries no value (what a browser sends for a widget whose value it lost: a run cut short by the next click, with
runner.fastReruns) as the widget's default. The browser benchmark met it between two pages: the language control,
drawn without a default, came back as None and every page showed an error box; a layer picker went back to its first
option. Each keyed widget of every page, moved off its default where a user easily could, is sent without its value
once, in turn (AppTest); it must keep the user's choice, and the page must show no error box."""

from __future__ import annotations

import pytest
from streamlit.proto.WidgetStates_pb2 import WidgetState

from app_pages.shell import registry
from app_pages.state import state_keys
from i18n import strings
from tests.support.apptest import app

# Every kind of keyed widget the app draws.
KINDS = ("button_group", "selectbox", "select_slider", "slider", "toggle", "checkbox", "radio", "text_area",
         "text_input", "number_input", "multiselect")
EN = strings("en")
SIDEBAR = {state_keys.LANG, state_keys.CHECKPOINT, state_keys.BEAM, state_keys.PRESENT}


def without_value(element):
    """`element`, from now on sending a widget state with no value, as a browser that lost it does."""
    class Lost(type(element)):
        @property
        def _widget_state(self):
            return WidgetState(id=self.id)

    element.__class__ = Lost


def keyed(at, kind: str) -> list[str]:
    return [w.key for w in at.get(kind) if w.key]


def moved(at, kind: str, key: str):
    """The widget, after a run that moved it off its default where a user easily could (another option, value or
    text): a lost value that fell back to the default would then show. None where that run hid it."""
    w = next(w for w in at.get(kind) if w.key == key)
    if kind == "selectbox" and len(w.options) > 1:
        w.select_index((w.index + 1) % len(w.options) if w.index is not None else 0)
    elif kind in ("toggle", "checkbox"):
        w.set_value(not w.value)
    elif kind in ("slider", "number_input") and isinstance(w.value, (int, float)) and w.value + w.step <= w.max:
        w.set_value(w.value + w.step)
    elif kind in ("text_area", "text_input"):
        w.set_value((w.value or "") + " ok")
    else:
        return w
    at.run()
    return next((w for w in at.get(kind) if w.key == key), None)


def lose_each(at, keys: list[tuple[str, str]]) -> list[str]:
    """Send each (kind, key) widget without its value, one run each, after moving it off its default: what went
    wrong, where something did."""
    problems = []
    for kind, key in keys:
        found = [w for w in at.get(kind) if w.key == key] and [moved(at, kind, key)]
        if not found or found[0] is None or at.exception:
            continue  # a run hid it (e.g. a control shown only in one mode), or the move itself was refused
        before = at.session_state[key]
        without_value(found[0])
        at.run()
        if at.exception:
            problems.append(f"{key}: an error box ({at.exception[0].message[:80]})")
        elif at.session_state[key] != before:
            problems.append(f"{key}: {before!r} became {at.session_state[key]!r}")
    return problems


def test_the_sidebar_keeps_every_setting():
    at = app(page="app_pages/pages/translate.py", lang="zh")
    keys = [(kind, key) for kind in KINDS for key in keyed(at, kind) if key in SIDEBAR]
    assert {key for _, key in keys} == SIDEBAR
    assert lose_each(at, keys) == []
    assert at.session_state[state_keys.LANG] == "zh"


@pytest.mark.parametrize("page", [p.name for p in registry.PAGES])
def test_every_control_of_the_page_keeps_its_choice(page):
    at = app(page=f"app_pages/pages/{page}.py")
    keys = [(kind, key) for kind in KINDS for key in keyed(at, kind) if key not in SIDEBAR]
    assert lose_each(at, keys) == []


# Controls that a page shows only in another mode or on another tab: (page, the session values that open it).
MODES = {
    "compare, two models": ("compare", {"compare.mode": "models"}),
    "translate, Guess first": ("translate", {"explorer.guess": True}),
    **{f"explanation, tab {tab}": ("explanation", {"explain.tab": EN[f"explain.tab.{tab}"]})
       for tab in ("knock", "importance", "align")},  # the tabs with controls
}


@pytest.mark.parametrize("mode", list(MODES))
def test_controls_of_another_mode_keep_their_choice(mode):
    page, values = MODES[mode]
    at = app(page=f"app_pages/pages/{page}.py")
    for key, value in values.items():
        at.session_state[key] = value
    at.run()
    keys = [(kind, key) for kind in KINDS for key in keyed(at, kind) if key not in SIDEBAR and key not in values]
    assert lose_each(at, keys) == []
