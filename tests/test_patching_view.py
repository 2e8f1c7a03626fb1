"""The "Which head carries it?" page's views without Streamlit (app_pages/pages/patching_view.py): each grid's figure
and CSV hold the patching's own numbers, the colour bar is centred at 0, the guess hides the head grids until it is
revealed, a re-decoded cell is named beside the clean and corrupted translations, every bad pair reads as a
sentence in both languages, and the built-in pairs are ones the shipped models translate apart at one step."""

from __future__ import annotations

import csv
import html
import io
import math

import numpy as np
import pytest

from app_pages.components import patching_charts
from app_pages.components.patching_charts import KINDS, SIDES
from app_pages.pages import patching_view
from app_pages.pages.patching_view import PAIRS, Settings, view
from app_pages.shell.text import in_language
from i18n import strings
from model.causal import MESSAGES, PatchingError, read_pair

HE, SHE = PAIRS["en"][0]
TIRED, HUNGRY = PAIRS["zh"][0]


@pytest.fixture(scope="module")
def en_zh(translator):
    return patching_charts.measure_all(translator, HE, SHE, None, None)


@pytest.fixture(scope="module")
def zh_en(zh_translator):
    return patching_charts.measure_all(zh_translator, TIRED, HUNGRY, None, None)


def settings(name: str, **changes) -> Settings:
    return Settings(**{"view": name, "cell": None, "guess": None, "guessing": False, "revealed": False} | changes)


def heatmaps(fig) -> list:
    return [trace for trace in fig.data if trace.type == "heatmap"]


def csv_rows(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text)))


@pytest.mark.parametrize("measured", ["en_zh", "zh_en"])
def test_the_head_grids_hold_every_heads_effect_with_a_colour_bar_centred_at_0(measured, request):
    found = request.getfixturevalue(measured)
    shown = view(found, settings("heads"))
    traces = heatmaps(shown.chart.figure)
    assert len(traces) == 3  # one grid per kind of attention
    for trace, kind in zip(traces, KINDS):
        grid = found.patching.heads[kind]
        assert np.allclose(np.asarray(trace.z, dtype=float), grid)
        assert np.allclose([[float(x) for x in row] for row in trace.text], grid, atol=0.006)  # written to 2 decimals
    axis = shown.chart.figure.layout.coloraxis
    assert axis.cmid == 0 and axis.cmin == -axis.cmax and axis.cmax >= 1
    rows = csv_rows(shown.chart.csv)
    assert len(rows) == sum(g.size for g in found.patching.heads.values()) == 72
    best = max(rows, key=lambda r: float(r["effect"]))
    assert float(best["effect"]) == pytest.approx(max(g.max() for g in found.patching.heads.values()), abs=1e-4)


def test_the_residual_grids_name_their_positions_tokens_and_leave_unpatched_cells_blank(zh_en, translator):
    shown = view(zh_en, settings("residual"))
    traces = heatmaps(shown.chart.figure)
    assert len(traces) == 2
    layout = shown.chart.figure.layout
    encoder_ticks = [html.unescape(tick) for tick in layout.xaxis.ticktext]  # drawn escaped: </s> is text
    assert encoder_ticks == [f"{i} {tok}" for i, tok in enumerate(zh_en.patching.tokens["encoder"])]
    assert "饿" in encoder_ticks[2]
    assert list(layout.yaxis.ticktext)[0] == "embeddings"
    # a pair of different lengths: the corrupted token with no counterpart is blank in the figure and the CSV
    odd = patching_charts.measure_all(translator, "The cat sat.", "The big cat sat.", None, None)
    shown = view(odd, settings("residual"))
    assert odd.patching.pair.unaligned and shown.unpatched
    column = odd.patching.pair.unaligned[0]
    assert all(row[column] == "" for row in heatmaps(shown.chart.figure)[0].text)
    assert any(r["effect"] == "" for r in csv_rows(shown.chart.csv))


def test_the_logit_lens_grid_ends_with_what_the_model_wrote(en_zh):
    shown = view(en_zh, settings("lens"))
    (trace,) = heatmaps(shown.chart.figure)
    lens = en_zh.lens
    assert len(trace.text) == len(lens.output_tokens)
    assert [html.unescape(row[-1].split(" ")[0]) for row in trace.text] == list(lens.output_tokens)
    assert all(0 <= p <= 1 for row in trace.z for p in row)
    assert len(csv_rows(shown.chart.csv)) == len(lens.grid) * len(lens.grid[0])


def test_contrastive_attribution_stands_beside_the_ordinary_one(zh_en):
    shown = view(zh_en, settings("attribution"))
    assert shown.second is not None
    for chart, values in ((shown.chart, zh_en.contrast.contrastive), (shown.second, zh_en.contrast.ordinary)):
        (bars,) = chart.figure.data
        assert sum(abs(v) for v in bars.y) == pytest.approx(1.0)
        assert np.allclose(np.array(bars.y) * np.abs(values).sum(), values)
    rows = csv_rows(shown.chart.csv)
    assert [r["token"] for r in rows] == list(zh_en.contrast.source_tokens)
    assert [float(r["attribution"]) for r in rows] == pytest.approx(list(zh_en.contrast.contrastive), abs=1e-6)
    assert "▁tired" in shown.chart.figure.layout.title.text and "▁hungry" in shown.chart.figure.layout.title.text


def test_a_guess_hides_the_head_grids_until_revealed_and_then_gets_its_rank(en_zh):
    guess = ("head", "cross", 2, 1)
    assert view(en_zh, settings("heads", guessing=True, guess=guess)).chart is None
    shown = view(en_zh, settings("heads", guessing=True, guess=guess, revealed=True))
    assert shown.chart is not None
    ranked = patching_view.ranked_heads(en_zh.patching)
    rank = [cell for _, cell in ranked].index(guess) + 1
    assert f"{rank} of 72" in shown.verdict and "Cross-attention, layer 3, head 2" in shown.verdict
    assert view(en_zh, settings("residual", guessing=True, guess=guess)).chart is not None  # only heads are hidden


def test_a_chosen_cell_re_decodes_beside_the_clean_and_corrupted_translations(en_zh, translator):
    cell = max(((v, ("head", k, l, h)) for k in KINDS for (l, h), v in np.ndenumerate(en_zh.patching.heads[k])))[1]
    again = patching_view.redecoded(translator, en_zh.patching, cell)
    shown = view(en_zh, settings("heads", cell=cell), again)
    assert len(shown.redecoded) == 3
    assert shown.redecoded[0].endswith("他买了一本书。") and shown.redecoded[1].endswith("她买了一本书。")
    assert again.translation in shown.redecoded[2] and patching_view.cell_name(cell) in shown.redecoded[2]


def test_every_bad_pair_reads_as_a_sentence_in_both_languages():
    values = {"token": "<b>x</b>", "translation": "a*b", "limit": 48, "clean": 50, "corrupt": 3, "checkpoint": "m",
              "example": "他", "target": "他", "foil": "她", "diff": "0.000", "cell": "head cross 9 9"}
    for key in MESSAGES:
        exc = PatchingError(key, **{k: v for k, v in values.items() if "{" + k + "}" in MESSAGES[key]})
        for lang in ("en", "zh"):
            with in_language(lang):
                text = patching_charts.error_text(exc)
            assert "{" not in text and "<b>" not in text and "Traceback" not in text
            assert text.startswith(strings(lang)[f"patching.error.{key}"].split("{")[0])


@pytest.mark.parametrize("source", ["en", "zh"])
def test_the_built_in_pairs_part_at_one_step(source, translator, zh_translator):
    tr = translator if source == "en" else zh_translator
    for clean, corrupt in PAIRS[source]:
        pair = read_pair(tr, clean, corrupt)
        assert pair.clean.output[:pair.step] == pair.corrupt.output[:pair.step]
        assert pair.clean.output[pair.step] != pair.corrupt.output[pair.step]
        assert len(pair.clean.ids) == len(pair.corrupt.ids)  # one token apart: every position patched
        assert sum(a != b for a, b in zip(pair.clean.ids, pair.corrupt.ids)) == 1


def test_views_speak_chinese(zh_en):
    with in_language("zh"):
        shown = view(zh_en, settings("heads"))
    assert shown.chart.figure.layout.annotations[0].text == "编码器自注意力"
    assert all(not math.isnan(float(r["effect"])) for r in csv_rows(shown.chart.csv))
    assert "干净" in shown.pair_lines[0] and "被改动" in shown.pair_lines[1]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_caption_says_what_the_word_start_mark_means_where_its_view_shows_one(en_zh, zh_en, lang):
    """▁ (an English word's start) is explained under a view whose labels show it, as on the other pages: every view
    of zh→en (the metric's ▁tired / ▁hungry), en→zh's views of the English source (residual stream, attribution), not
    en→zh's head grids or logit lens (only Chinese tokens: 他 / 她)."""
    note = strings(lang)["tokens.word_start"]
    with in_language(lang):
        for name in patching_charts.VIEWS:
            assert note in view(zh_en, settings(name)).caption, name
            assert (note in view(en_zh, settings(name)).caption) == (name in ("residual", "attribution")), name
