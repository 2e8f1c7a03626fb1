"""The explorer's and the decoding page's views on sentences of every length, computed without Streamlit
(app_pages/pages/translate_view.py, decoding_view.py): a short sentence, one that repeats a word, one of 40 tokens.
Every view of every kind labels each token (a repeated one in a column of its own), the grid draws every layer's
heads, the lines a legend; every step of the search labels only what is written, marks one chosen candidate and
draws at most one tree. What needs the running page (the pickers, the step slider, the every-head toggle): one
walk each in tests/test_app_explorer.py."""

from __future__ import annotations

import pytest

from app_pages.pages import decoding_view, translate_view
from app_pages.pages.decoding_view import Settings
from app_pages.pages.translate_view import ExplorerSettings
from app_pages.shell.text import in_language
from lessons.attention_maps import ALL
from viz.labels import token_labels
from viz.style import MAX_WIDTH_PX

SHORT = "I have a dream."
REPEATED = "The dog saw the cat and the cat saw the dog."
LONG = (
    "When the students finally arrived at the old station after a long and tiring journey through the mountains, "
    "they discovered that the last train had already left and nobody knew when the next one would come."
)
SENTENCES = pytest.mark.parametrize("sentence", [SHORT, REPEATED, LONG], ids=["short", "repeated", "40-tokens"])
PLAIN = {"max_width": MAX_WIDTH_PX}  # screen.map_limits() outside presentation mode
KINDS = ("encoder_self", "decoder_self", "cross")
CHOSEN = "#e4572e"  # the candidates chart's colour of the chosen token


def explorer(result, kind: str = "encoder_self", view: str = "head"):
    """The explorer's view of `result` on layer 1, the heads averaged, as a new session opens it (en-zh)."""
    choices = ExplorerSettings(kind, view, 0, ALL, False, None, 0.1, "en-zh", ("en", "zh"), PLAIN, PLAIN, PLAIN,
                               True)
    with in_language("en"):
        return translate_view.explorer_view(result, choices)


@SENTENCES
def test_every_view_of_every_kind_labels_each_token(translator, sentence):
    """Moved from test_app_explorer::test_translate_page_every_view (an AppTest a sentence, nine reruns each; its walk
    through the pickers stays there, on the short sentence)."""
    result = translator.translate(sentence)
    tokens = token_labels(translator.src_tok.tokens(translator.prepare(sentence)[1]))
    if sentence == LONG:
        assert len(tokens) >= 40
    if sentence == REPEATED:
        assert tokens.count("▁the") == 3  # every "the" keeps its own column
    layout = explorer(result).one_head.figure.layout  # default: encoder self-attention, layer 1, average of heads
    assert list(layout.xaxis.ticktext) == tokens == list(layout.yaxis.ticktext)
    layers, heads = result.cross.shape[:2]
    for kind in KINDS:
        grid = explorer(result, kind, "grid")
        assert sum(trace.type == "heatmap" for trace in grid.grid.data) == layers * heads == 3 * 8
        assert grid.one_head is not None  # the opened map under the grid
        assert any(trace.showlegend for trace in explorer(result, kind, "lines").lines.figure.data)


@SENTENCES
def test_every_step_labels_only_what_is_written_and_marks_one_chosen_candidate(translator, sentence):
    """Moved from test_app_explorer::test_decoding_page_steps (an AppTest a sentence,
    four reruns each; the slider and the every-head toggle stay there, on the short sentence)."""
    result = translator.translate(sentence, beam=2)
    last = len(result.steps)
    for step in sorted({1, 2, last}):
        with in_language("en"):
            shown = decoding_view.step_view(result, Settings(step - 1, 0, ALL, False, False, False, ("en", "zh")))
        keys = list(shown.mask.layout.xaxis.ticktext)
        assert len(keys) == last  # every target position is a column of the mask row
        assert set(keys[step:]) <= {"·"}  # positions not yet written are not labelled with the final answer
        assert list(shown.candidates.figure.data[0].marker.color).count(CHOSEN) == 1  # exactly one chosen
        assert shown.beam is not None and shown.beam.figure is not None  # one tree, beam 2
    with in_language("en"):
        every = decoding_view.step_view(result, Settings(0, ALL, ALL, True, False, False, ("en", "zh")))
    assert len(every.cross.layout.yaxis.ticktext) == 3 * 8
