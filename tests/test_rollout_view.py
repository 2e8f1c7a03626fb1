"""The explorer's rollout and head views as computed without Streamlit (app_pages/pages/translate_view.py,
app_pages/components/rollout_view.py): the rollout's help calls it an estimate and names what it leaves out, its title
and the view's name in 中文 are 注意力累积; the head view's numbers are every weight of the head its lines draw. The
rollout drawn, its numbers and links: tests/test_app_rollout.py."""

from __future__ import annotations

import numpy as np
import pytest

from app_pages.components import rollout_view
from app_pages.pages import translate_view
from app_pages.pages.translate_view import ExplorerSettings
from app_pages.shell.text import in_language, t
from lessons.attention_maps import ALL
from model import DEFAULT_BEAM
from viz.style import MAX_WIDTH_PX

SENTENCE = "The weather is very nice today, so we will go to the park."
PLAIN = {"max_width": MAX_WIDTH_PX}


@pytest.fixture(scope="module")
def weather(translator):
    return translator.translate(SENTENCE, beam=DEFAULT_BEAM)


def explorer(result, lang: str, kind: str, view: str, layer: int, head: int = ALL, min_weight: float = 0.1):
    choices = ExplorerSettings(kind, view, layer, head, False, None, min_weight, "en-zh", ("en", "zh"), PLAIN, PLAIN,
                               PLAIN, True)
    with in_language(lang):
        return translate_view.explorer_view(result, choices)


@pytest.mark.parametrize("lang, estimate, left_out", [
    ("en", "a cell estimates how much of that row's information came from that input token",
     ("value vector", "feed-forward", "LayerNorm")),
    ("zh", "一个格子估计这一行的信息有多少", ("值向量", "前馈层", "LayerNorm")),
])
def test_the_rollout_help_calls_it_an_estimate_and_names_what_it_leaves_out(weather, lang, estimate, left_out):
    """Rollout follows the attention weights only (issue 60): its help says "estimates", not "says", and names what
    the product leaves out; in 中文 it is 注意力累积 (first "注意力累积（rollout）"), never 展开 ("expand"). Moved from
    test_app_rollout (an AppTest a language)."""
    caption = explorer(weather, lang, "encoder_self", "rollout", 1).caption
    assert estimate in caption and all(part in caption for part in left_out)
    assert "a cell says how much" not in caption
    if lang == "zh":
        with in_language("zh"):
            title = rollout_view.rollout_figure(weather, "encoder_self", 1, ("en", "zh")).layout.title.text
            view_name = t(f"view.{rollout_view.VIEW}")
        assert title.startswith("注意力累积 · 编码器自注意力")
        assert "展开" not in caption + title and "注意力累积（rollout" in caption
        assert view_name == "注意力累积" and translate_view.VIEWS[-1] == rollout_view.VIEW  # the picker's last option


def test_the_head_views_numbers_are_every_weight_of_its_head(weather):
    """Every weight of the head its lines draw, the threshold only hiding lines. Moved from
    test_app_rollout::test_the_rollout_and_head_view_give_their_numbers_out[lines] (an AppTest; the rollout's stay)."""
    tsv = explorer(weather, "en", "cross", "lines", 1, 2, min_weight=0.3).lines.numbers.tsv
    head, labels, *rows = tsv.splitlines()
    assert head == f"# kind=cross, layer=2, head=3, sentence={SENTENCE}"
    numbers = np.array([[float(x) for x in row.split("\t")[1:]] for row in rows])
    expected = weather.cross[1, 2]
    assert numbers.shape == expected.shape and np.allclose(numbers, expected, atol=1e-6)
