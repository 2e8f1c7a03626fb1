"""The positional-encoding page's view, computed without Streamlit (app_pages/pages/positional_view.py): the PE
matrix and its periods checked against the model's table, the curves, the rotation check, PE against the
embeddings, the notes' slipped exponent, and the live sentence past the trained lengths, in both interface languages.
The checks that were AppTests of the page's texts and numbers (tests/test_app_teaching.py,
tests/test_app_teaching_zh.py); the page's widgets and its run stay AppTests there."""

from __future__ import annotations

import functools
import math
import re

import numpy as np
import pytest

from app_pages.components.parts import Chart, Columns, Heading, Notice, Plain, Table, every, texts
from app_pages.components.teaching_shared import matrix_tex
from app_pages.pages import positional_view
from app_pages.pages.positional_view import Live, Rotation
from app_pages.state.examples import DEFAULT_SENTENCE, EXAMPLES, EXAMPLES_ZH
from app_pages.shell.text import in_language
from i18n import strings
from lessons import positional as lp
from model import DEFAULT_BEAM, ModelConfig, TrainingLog, sinusoidal_table
from tests.support.paths import needs_checkpoint

CONFIG = ModelConfig(100, 100)  # d_model 256, max_len 128: the shipped models' sizes
ZH_SENTENCE = "我有一个梦想。"


def charts(parts) -> list[str]:
    return [p.key for p in every(parts) if isinstance(p, Chart)]


def shown(number: str, text: str) -> bool:
    """`number` in the text as a number of its own (not the middle of a longer one)."""
    return re.search(rf"(?<![\d.]){re.escape(number)}(?![\d])", text) is not None


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_slowest_period_depends_on_d_model(lang):
    """The last (sin, cos) pair turns once every 2π·10000^((d−2)/d) positions, not 2π·10000 whatever d is: in the
    introduction (the model's d_model) and under the matrix (the slider's)."""
    with in_language(lang):
        intro = positional_view.intro(CONFIG.d_model)
        matrix = texts(positional_view.matrix_parts(128, 16, CONFIG))
    assert f"{2 * math.pi * 10000 ** (254 / 256):,.0f}" in intro and f"{2 * math.pi * 10000:,.0f}" not in intro
    assert f"{2 * math.pi * 10000 ** (14 / 16):,.0f}" in matrix and f"{2 * math.pi * 10000:,.0f}" not in matrix


@pytest.mark.parametrize("layout", ["interleaved", "halves"])
def test_the_matrix_is_the_models_own_table(layout):
    """The matrix tab's chart, its agreement with the model's table and, for Marian's layout, with the sines-first
    table (each difference computed); the curves' header last (the picker goes under it)."""
    with in_language("en"):
        parts = positional_view.matrix_parts(50, 64, ModelConfig(100, 100, positional_layout=layout))
    assert charts(parts) == ["positional.heatmap"] and parts[0].figure.data[0].z.shape == (50, 64)
    table = lp.pe_table(50, 64)
    model = sinusoidal_table(50, 64).double().numpy()
    said = texts(parts)
    assert f"to {np.abs(table - model).max():.1e}." in said and "d_model = 256, up to 128 positions" in said
    halves = np.abs(sinusoidal_table(50, 64, "halves").double().numpy()
                    - np.concatenate([table[:, 0::2], table[:, 1::2]], axis=1)).max()
    assert (f"Reordered, this table equals its table to {halves:.1e}" in said) == (layout == "halves")
    assert isinstance(parts[-1], Heading) and parts[-1].level == 3


def test_the_curves_are_the_picked_dimensions_and_none_without_a_pick():
    assert positional_view.default_dims(256) == [0, 1, 64, 128] and positional_view.default_dims(2) == [0, 1]
    with in_language("en"):
        (chart,) = positional_view.curves_parts(100, 256, [0, 3, 64])
        assert positional_view.curves_parts(100, 256, []) == ()
    names = [trace.name for trace in chart.figure.data]
    period = 2 * math.pi / lp.frequencies(256)[1]
    assert len(names) == 3 and "sin" in names[0] and "cos" in names[1] and f"{period:.1f}" in names[1]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_similarity_of_positions_has_the_norm_d_model_over_2(lang):
    with in_language(lang):
        parts = positional_view.similarity_parts(40, 64)
    assert charts(parts) == ["positional.sim"] and shown("32", texts(parts))
    assert parts[-1].figure.data[0].z.shape == (40, 40)


@pytest.mark.parametrize("k, pos, pair", [(3, 0, 0), (5, 10, 7), (1, 0, 31)])
def test_the_rotation_property_holds_on_the_whole_table(k, pos, pair):
    with in_language("en"):
        worked, check, chart = positional_view.rotation_parts(Rotation(60, 64, k, pos, pair))
    assert check.level == "success" and f"for all {60 - k} positions" in check.text
    table = lp.pe_table(60, 64)
    assert f"PE_{{({pos + k},\\,{2 * pair}:{2 * pair + 1})}} = {matrix_tex(table[pos + k, 2 * pair:2 * pair + 2, None])}" \
        in worked.text  # PE(pos + k) written out
    assert chart.key == "positional.rot.fig"


def test_a_table_that_does_not_rotate_is_flagged(monkeypatch):
    """The check is computed: an error above the tolerance turns it red."""
    monkeypatch.setattr(lp, "rotation_error", lambda table, k: 1e-3)
    with in_language("en"):
        _, check, _ = positional_view.rotation_parts(Rotation(20, 8, 2, 0, 0))
    assert check.level == "error" and "1.0e-03" in check.text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_notes_slip_parts_in_the_fifth_decimal_and_breaks_the_rotation(lang):
    with in_language(lang):
        parts = positional_view.note_parts()
    (table,) = [p.data for p in parts if isinstance(p, Table)]
    assert table.shape == (4, positional_view.NOTE_D)
    assert table.iloc[0].tolist() == [f"{x:.8f}" for x in lp.pe_table(2, 6)[1]]  # the paper's row for pos 1
    said = texts(parts)
    paper = lp.rotation_error(lp.pe_table(64, 6), 1)
    literal = lp.rotation_error(lp.note_variant_table(64, 6, literal=True), 1)
    assert f"{paper:.1e}" in said and f"{literal:.2f}" in said
    assert [p.level for p in parts if isinstance(p, Notice)] == ["warning"]


@needs_checkpoint
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_pe_against_the_embeddings_reads_the_models_rows(translator, lang):
    result = translator.translate(DEFAULT_SENTENCE, beam=DEFAULT_BEAM)
    with in_language(lang):
        text, chart = positional_view.size_parts(result, translator.config.d_model)
    scaled = lp.row_norms(result.source_embeddings.token) * result.source_embeddings.scale
    assert f"{scaled.mean():.2f}" in text.markdown and f"{lp.pe_norm(256):.2f}" in text.markdown
    bars = [np.asarray(trace.x if trace.orientation == "h" else trace.y, dtype=float) for trace in chart.figure.data]
    assert any(np.allclose(bar, scaled, rtol=1e-5) for bar in bars) and chart.key == "positional.size"


@pytest.fixture(scope="module")
def translate(translator):
    """The shipped model's translation at the app's beam, each sentence once."""
    return functools.lru_cache(maxsize=None)(lambda sentence: translator.translate(sentence, beam=DEFAULT_BEAM))


def live_of(translate) -> Live:
    return Live(DEFAULT_SENTENCE, tuple(e.sentence for e in EXAMPLES), translate, "en")


@needs_checkpoint
def test_the_long_sentence_passes_the_trained_length(translator, translate):
    lengths = TrainingLog.from_dict(translator.training_log).lengths
    longest = lengths.source_tokens
    with in_language("en"):
        parts = positional_view.extrapolation_parts(lengths, translator.config, translator.max_source_tokens,
                                                    live_of(translate))
    text = texts(parts)
    assert shown(str(longest), text) and shown(str(lengths.target_tokens), text)
    sentences = [DEFAULT_SENTENCE] + [e.sentence for e in EXAMPLES * 3]
    pieces = [translate(s) for s in sentences]
    n = lp.pieces_past([len(p.source_tokens) - 1 for p in pieces], 2 * longest, translator.max_source_tokens)
    long = translate(" ".join(sentences[:n]))
    assert len(long.source_tokens) > longest  # the test sentence does pass every training sentence
    parts_out, whole = sum(len(p.output_tokens) - 1 for p in pieces[:n]), len(long.output_tokens) - 1
    attention, tokens = lp.attention_share_past(long.cross, longest)
    assert f"{parts_out} tokens in all; together, the model writes {whole} ({100 * whole / parts_out:.0f} %" in text
    assert f"{100 * tokens:.0f} % of the sentence and receive {100 * attention:.0f} %" in text
    assert f"{len(long.source_tokens)} source tokens, {len(long.source_tokens) - longest} of them" in text
    (plain,) = [p.text for p in every(parts) if isinstance(p, Plain)]
    assert plain == f"{long.source_text}  →  {long.translation}"
    assert charts(parts) == ["positional.ext.fig"] and isinstance(parts[1], Columns)


def test_without_the_logs_lengths_the_page_says_so_and_translates_nothing():
    def refuse(sentence):
        raise AssertionError("nothing to translate without the log's lengths")

    with in_language("en"):
        parts = positional_view.extrapolation_parts(None, CONFIG, 127, Live("x", (), refuse, "en"))
    assert isinstance(parts[0], Notice) and "128" in parts[0].text and not charts(parts)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_chinese_models_long_sentence_is_chinese_run_together(zh_translator, lang):
    """Moved from test_app_teaching_zh (the English interface; 中文 stays an AppTest there)."""
    lengths = TrainingLog.from_dict(zh_translator.training_log).lengths
    if lengths is None:
        pytest.skip("the training log records no lengths")
    translate = functools.lru_cache(maxsize=None)(lambda s: zh_translator.translate(s, beam=DEFAULT_BEAM))
    live = Live(ZH_SENTENCE, tuple(e.sentence for e in EXAMPLES_ZH), translate, "zh")
    with in_language(lang):
        parts = positional_view.extrapolation_parts(lengths, zh_translator.config, zh_translator.max_source_tokens,
                                                    live)
    (long,) = [p.text for p in every(parts) if isinstance(p, Plain)]
    source = long.split("  →  ")[0]
    assert source.startswith(ZH_SENTENCE) and len(source) > 60
    assert not re.search(r"[A-Za-z]", source) and " " not in source, source


# ---------------------------------------------------------------- every tab's words, as the classroom checks ask
NOTE_CITATION = re.compile(r"(?i)\bnotes? 0\d\d|笔记 ?0\d\d")  # "study note 000", "学习笔记 002": no student has them
CJK = r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]"
ASCII_COMMA_IN_CHINESE = re.compile(rf"{CJK}\s*,|,\s*{CJK}")


def every_tab(translator, translate) -> str:
    """What every tab of the page says for the shipped model, as first opened."""
    config = translator.config
    length, d = min(config.max_len, positional_view.MAX_LENGTH), config.d_model
    parts = (*positional_view.matrix_parts(length, d, config),
             *positional_view.curves_parts(length, d, positional_view.default_dims(d)),
             *positional_view.similarity_parts(length, d), *positional_view.rotation_intro(),
             *positional_view.rotation_parts(Rotation(length, d, 3, 0, 0)),
             *positional_view.size_parts(translate(DEFAULT_SENTENCE), d), *positional_view.note_parts(),
             *positional_view.extrapolation_parts(TrainingLog.from_dict(translator.training_log).lengths, config,
                                                  translator.max_source_tokens, live_of(translate)))
    said = texts(parts)
    for plain in (p.text for p in every(parts) if isinstance(p, Plain)):  # the model's Chinese, not the page's
        said = said.replace(plain, "")
    return "\n".join((positional_view.intro(d), said))


@needs_checkpoint
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_tab_cites_no_notes_and_joins_chinese_lists_with_chinese_marks(translator, translate, lang):
    """Moved from test_app_teaching's rendered-page check; the "Try it" tab's question is the exercise's strings."""
    with in_language(lang):
        text = every_tab(translator, translate)
    exercise = "\n".join(v for k, v in strings(lang).items() if k.startswith("ex.pe."))
    for said in (text, exercise):
        assert not NOTE_CITATION.search(said)
        if lang == "zh":
            assert not ASCII_COMMA_IN_CHINESE.search(said), ASCII_COMMA_IN_CHINESE.search(said).group(0)
    assert bool(re.search(r"[\u4e00-\u9fff]{4,}", text)) == (lang == "zh")  # the page's own words in `lang`
