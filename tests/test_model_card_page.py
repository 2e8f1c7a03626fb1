"""The model card page as Streamlit draws it (streamlit.testing), once per language: the view's title, card blocks
(Markdown and the wrapped retraining command) and calibration, in order. What they say is checked on the view,
without Streamlit (tests/test_model_card_view.py)."""

from __future__ import annotations

import pytest

from app_pages.pages import model_card_view
from app_pages.pages.model_card_view import Code
from app_pages.shell.text import in_language
from app_pages.state import direction
from model import TrainingLog
from tests.support.apptest import app


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_page_draws_its_view(translator, lang):
    at = app(page="app_pages/pages/model_card.py", lang=lang)
    assert not at.exception
    with in_language(lang):
        shown = model_card_view.view(model_card_view.Model(
            direction.label("en-zh"), True, translator.card_in(lang), lang in translator.cards,
            TrainingLog.from_dict(translator.training_log)))
    assert at.title[0].value == shown.before[0].text
    sent = [m.value.strip() for m in at.markdown]  # Streamlit sends Markdown without its outer blank lines
    wanted = [block.markdown.strip() for block in shown.card if not isinstance(block, Code)]
    assert sent == wanted + [part.markdown.strip() for part in shown.calibration[1:]]
    assert [c.value for c in at.main.code] == [block.text for block in shown.card if isinstance(block, Code)]
    assert at.header[-1].value == shown.calibration[0].text
