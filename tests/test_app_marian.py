"""AppTest: with a Marian model chosen, every page renders, and the side-by-side page shows both models."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.test_app_teaching import open_page as open_teaching_page
from tests.tiny_marian import save_tiny_marian
from viz.teaching_inside import architecture_blocks

pytest.importorskip("transformers")
pytest.importorskip("sentencepiece")

APP = str(Path(__file__).resolve().parent.parent / "app.py")
PAGES = [p.stem for p in (Path(APP).parent / "app_pages").glob("*.py")
         if p.stem not in ("__init__", "session", "widgets", "page_scripts", "teaching_shared", "stepper")]


@pytest.fixture(scope="module")
def marian_folder(tmp_path_factory):
    return str(save_tiny_marian(tmp_path_factory.mktemp("app-marian") / "tiny-marian", languages=True))


def open_page(page: str, marian_folder: str, **state) -> AppTest:
    at = open_teaching_page(page, **{"models.added": [marian_folder], "checkpoint": marian_folder, **state})
    assert not at.error, [e.value for e in at.error]
    return at


def test_every_page_lists_under_test():
    assert {"translate", "decoding", "compare", "qkv", "anatomy"} <= set(PAGES)


@pytest.mark.parametrize("page", PAGES)
def test_every_page_renders_with_a_marian_model(page, marian_folder):
    open_page(page, marian_folder)


def test_the_sidebar_offers_the_models_target_languages(marian_folder):
    at = open_page("translate", marian_folder)
    language = at.selectbox(key="target_language")
    assert language.value == ">>cmn_Hans<<" and ">>yue_Hant<<" in language.options


def test_side_by_side_shows_both_models_translations_and_maps(marian_folder):
    at = open_page("compare", marian_folder, **{"compare.left": "en-zh", "compare.right": marian_folder})
    shown = "\n".join(m.value for m in at.markdown)
    assert "**en\\-zh**" in shown and "**tiny\\-marian**" in shown  # both models, by name
    assert "### 我有一个梦想。" in shown  # ours; the random Marian's output is whatever it is
    assert len(at.get("plotly_chart")) == 2
    # ours has 3 layers and 8 heads, the tiny Marian 2 and 4: picking layer 3, head 8 clamps the Marian side
    at.session_state["compare.layer"], at.session_state["compare.head"] = 2, 7
    at.run()
    captions = "\n".join(c.value for c in at.caption)
    assert "2 layers and 4 heads: showing layer 2" in captions


def test_adding_something_that_is_not_a_marian_model_says_so(marian_folder, tmp_path):
    at = AppTest.from_file(APP, default_timeout=240)
    at.run()
    at.text_input(key="sidebar.add_model").input(str(tmp_path)).run()
    assert not at.exception
    assert any("is not a Marian model" in c.value for c in at.sidebar.caption)


def test_the_decoding_page_shows_a_marian_models_beams(marian_folder):
    at = open_page("decoding", marian_folder, beam=3)
    assert len(at.get("plotly_chart")) >= 2  # the step's charts and the beams


def test_inside_the_transformer_recomputes_every_block_of_a_marian_model(marian_folder):
    """Swish, PE in halves, one shared table, a logits bias: each block's NumPy recomputation still agrees."""
    for block in architecture_blocks(2, 2):
        at = open_page("inside", marian_folder, **{"inside.block": block})
        assert at.success and not at.warning, (block, [w.value for w in at.warning])


def test_anatomy_counts_a_marian_models_parameters_from_its_config(marian_folder):
    """One shared embedding table and the logits bias: the formulas' total is what the loaded model holds."""
    at = open_page("anatomy", marian_folder)
    (total,) = [s.value for s in at.success if s.value.startswith("Total from the formulas")]
    formula, model = re.findall(r"[\d,]+(?=\.)", total)[:2]
    assert formula == model
    assert "does not apply" in "\n".join(m.value for m in at.markdown)  # its d_ff is 2H, not 4H


def test_without_the_optional_packages_the_sidebar_says_how_to_get_them(monkeypatch):
    from app_pages import session

    monkeypatch.setattr(session, "marian_available", lambda: False)
    at = AppTest.from_file(APP, default_timeout=240)
    at.run()
    assert not at.exception
    assert any("pip install -r requirements-marian.txt" in c.value for c in at.sidebar.caption)
    assert not [w for w in at.text_input if w.key == "sidebar.add_model"]
