"""The head view's query box opens on its first option, "All query tokens", in both languages: its "all" option was
None, and a box whose value is None shows Streamlit's placeholder, "Choose an option", in English even in 中文."""

from __future__ import annotations

import pytest

from i18n import strings
from tests.support.apptest import link_of, opened


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_query_box_shows_its_first_option_and_a_choice_reaches_the_link(lang):
    at = opened({"lang": lang, "s": "I like my dog.", "kind": "cross", "view": "lines"})
    box = at.selectbox(key="explorer.query")
    # The box's value: its first option, not None (an empty box showing its placeholder). AppTest's own .value and
    # .index format the options outside the app's session, in English, so the value is read from session state.
    assert at.session_state["explorer.query"] is not None and box.options[0] == strings(lang)["explorer.focus_all"]
    assert box.options.index(strings(lang)["explorer.focus_all"]) == 0
    assert "query" not in link_of(at)  # all queries: the link names none
    box.select_index(3).run()  # the query at position 2
    assert link_of(at)["query"] == "2" and at.session_state["explorer.query"] == 2
    at.selectbox(key="explorer.query").select_index(0).run()  # back to all
    assert "query" not in link_of(at)
