"""The "Is attention an explanation?" page in a new session, as its tests open it (on any tab, model and sentence)."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from app_pages.state import state_keys
from i18n import strings
from model import DEFAULT_BEAM
from tests.support.apptest import APP

SENTENCE = "I have a dream."


def page(lang: str = "en", tab: str | None = None, model: str | None = None, sentence: str = SENTENCE) -> AppTest:
    """The page in a new session in `lang`, showing its tab `tab` (its label's key "explain.tab.{tab}"; None: the
    first, the maps), as a click on that tab would: only the open tab is drawn; `model`: the sidebar's, if not
    the default."""
    at = AppTest.from_file(APP, default_timeout=300)
    if model is not None:
        at.session_state[state_keys.CHECKPOINT] = model
    at.session_state[state_keys.SENTENCE] = sentence
    at.session_state[state_keys.BEAM] = DEFAULT_BEAM
    at.session_state[state_keys.LANG] = lang
    if tab is not None:
        at.session_state["explain.tab"] = strings(lang)[f"explain.tab.{tab}"]
    at.switch_page("app_pages/pages/explanation.py")
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at
