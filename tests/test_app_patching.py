"""Which head carries it? as a running page (streamlit.testing): it opens on a built-in pair in both directions and
both languages with its head grids, each view draws its chart, a link restores the pair, target, foil and view, a
chosen cell re-decodes, and a bad pair shows its sentence (no exception). What the grids hold is checked on the
page's views in tests/test_patching_view.py."""

from __future__ import annotations

import pytest

from app_pages.pages.patching_view import PAIRS, VIEWS
from app_pages.state import state_keys
from i18n import strings
from tests.support.apptest import link_of, open_page

CHART = "patching.chart"


def charts(at) -> list[str]:
    return [chart.key for chart in at.get("plotly_chart")]


@pytest.mark.parametrize("model, lang", [("en-zh", "en"), ("zh-en", "zh"), ("en-zh", "zh"), ("zh-en", "en")])
def test_the_page_opens_on_a_built_in_pair_in_both_directions_and_languages(model, lang):
    at = open_page("patching", lang=lang, **{state_keys.CHECKPOINT: model})
    said = strings(lang)
    source = "en" if model == "en-zh" else "zh"
    assert [at.text_input(key=k).value for k in ("patching.clean", "patching.corrupt")] == list(PAIRS[source][0])
    assert at.title[0].value == said["patching.title"]
    assert CHART in charts(at)
    assert not at.error
    lines = " ".join(m.value for m in at.markdown)
    assert said["patching.clean_line"].split("{")[0] in lines and said["patching.corrupt_line"].split("{")[0] in lines
    for view in VIEWS[1:]:
        at.segmented_control(key="patching.view").set_value(view).run()
        assert not at.exception, [e.message for e in at.exception]
        assert CHART in charts(at)
    assert link_of(at)["view"] == VIEWS[-1] and link_of(at)["clean"] == PAIRS[source][0][0]


@pytest.mark.parametrize("clean, corrupt, key, lang", [
    ("He bought a book.", "He bought a book.", "identical", "en"),
    ("He bought a book.", "He bought one book.", "no_difference", "zh"),
    ("He bought a book. " * 12, "She bought a book. " * 12, "too_long", "en"),
])
def test_a_bad_pair_shows_its_sentence_and_no_exception(clean, corrupt, key, lang):
    at = open_page("patching", lang=lang, **{state_keys.CHECKPOINT: "en-zh", "patching.clean": clean,
                                             "patching.corrupt": corrupt})
    assert not at.exception
    (error,) = at.error
    assert error.value.startswith(strings(lang)[f"patching.error.{key}"].split("{")[0])
    assert CHART not in charts(at)


def test_a_target_equal_to_the_foil_is_refused_in_a_sentence():
    at = open_page("patching", **{state_keys.CHECKPOINT: "en-zh", "patching.target": "他", "patching.foil": "他"})
    (error,) = at.error
    assert error.value.startswith(strings("en")["patching.error.same_token"].split("{")[0])


def test_a_chosen_cell_re_decodes_and_guess_first_hides_the_grids():
    at = open_page("patching", **{state_keys.CHECKPOINT: "en-zh"})
    at.selectbox(key="patching.cell").set_value(("head", "cross", 2, 0)).run()
    assert not at.exception
    said = strings("en")
    patched = said["patching.redecode.patched"].format(cell=said["patching.cell.head"].format(
        kind=said["patching.kind.cross"], layer=3, head=1), translation="")
    assert any(patched in m.value for m in at.markdown)
    at.toggle(key="patching.guess").set_value(True).run()
    assert CHART not in charts(at)
    at.button(key="patching.guess.reveal").click().run()
    assert CHART in charts(at)
    assert any(" of 72" in info.value for info in at.info)


def test_a_marian_model_is_told_the_page_needs_one_trained_here(monkeypatch):
    """A converted Marian model cannot be patched: the page says so as a note, in the session's language."""
    from app_pages.pages import patching_view
    from model.causal import PatchingError

    def refuse(*args, **kwargs):
        raise PatchingError("not_trained_here", checkpoint="opus-mt-en-zh")

    monkeypatch.setattr(patching_view, "measure_all", refuse)  # the page's script imports this module
    at = open_page("patching", lang="zh", **{state_keys.CHECKPOINT: "en-zh", "patching.clean": "It is a cat.",
                                             "patching.corrupt": "It is a dog."})
    assert not at.exception and not at.error
    note = strings("zh")["patching.error.not_trained_here"].split("{")[0]
    assert any(info.value.startswith(note) for info in at.info)
