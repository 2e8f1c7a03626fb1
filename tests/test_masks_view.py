"""The masks page's view, computed without Streamlit (app_pages/pages/masks_view.py): the notes' causal mask, where
teacher forcing and decoding part, the live decoder's causal mask on one head with Pin to deck's slide, and the
padded batch's masks, in both interface languages. The checks that were AppTests of the page's texts and charts."""

from __future__ import annotations

import pytest

from app_pages.components.parts import Chart, Heading, Notice, Table, every, texts
from app_pages.pages import masks_view
from app_pages.shell.text import in_language
from lessons import masks
from model import DEFAULT_BEAM
from tests.support.paths import needs_checkpoint

SENTENCE = "I have a dream."


def charts(parts) -> list[str]:
    return [p.key for p in every(parts) if isinstance(p, Chart)]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_notes_causal_mask_goes_through_four_stages_and_says_why_minus_infinity(lang):
    with in_language(lang):
        parts = masks_view.doc_parts()
    assert charts(parts) == ["masks.doc.mask-scores", "masks.doc.masked-weights"]
    (warning,) = [p for p in parts if isinstance(p, Notice)]
    assert warning.level == "warning" and masks.DOC_SENTENCE[0] in warning.text
    rows = next(p.text for p in parts if type(p).__name__ == "Caption" and "1.0000" in p.text)
    assert rows.count("1.0000") == len(masks.DOC_SENTENCE)  # every row of weights sums to 1


def test_the_causal_mask_is_explained_for_training_too():
    with in_language("en"):
        text = texts(masks_view.doc_parts())
    assert "teacher forcing" in text and "training matches translation" not in text
    assert "**positions**" in text and "**tokens** in them still differ" in text


@pytest.mark.parametrize("kind", ["self", "combined", "cross"])
def test_the_padded_batch_shows_one_attention_at_a_time(kind):
    """3 charts in the padding tab: the padded batch, then the chosen attention's 4 stages, two to a chart."""
    with in_language("en"):
        batch = masks_view.batch()
        parts = (*masks_view.batch_parts(batch), *masks_view.padded_parts(batch, 1, kind))
    assert charts(parts) == ["masks.pad.batch", f"masks.pad.{kind}.mask-scores", f"masks.pad.{kind}.masked-weights"]
    (heading,) = [p for p in parts if isinstance(p, Heading)]
    assert heading.level == 3 and {"self": "Encoder self-attention with padding", "combined": "Padding + causal",
                                   "cross": "Cross-attention: target queries"}[kind] in heading.text
    (mask,) = [p.data for p in parts if isinstance(p, Table)]
    assert mask.shape == (len(batch.sources), max(batch.lengths))
    assert [row.count("1") for row in mask.values.tolist()] == list(batch.lengths)


@needs_checkpoint
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_live_decoder_head_agrees_with_the_model_and_pins_that_head(translator, lang):
    result = translator.translate(SENTENCE, beam=DEFAULT_BEAM)
    with in_language(lang):
        shown = masks_view.live_view(result, 2, 4, "en-zh")
    assert shown.check.level == "success"
    assert charts(shown.parts) == ["masks.live.mask-scores", "masks.live.masked-weights"]
    assert shown.pin.page == "masks" and shown.pin.query == {"s": SENTENCE, "model": "en-zh", "tab": "live",
                                                             "layer": "3", "head": "5"}
    assert shown.pin.title == {"en": "Causal mask · layer 3 · head 5 — I have a dream.",
                               "zh": "因果掩码 · 第 3 层 · 第 5 个头 — I have a dream."}[lang]


@needs_checkpoint
def test_exposure_shows_where_teacher_forcing_and_decoding_part(translator):
    pairs = [(s, r, translator.translate(s, beam=DEFAULT_BEAM), translator.teacher_forced(s, r))
             for s, r in masks.EXPOSURE_EXAMPLES]
    with in_language("en"):
        parts = masks_view.exposure_parts(iter(pairs))
    parted = [masks.first_divergence(f.output_tokens, t.output_tokens) for _, _, f, t in pairs]
    if not any(k is not None and k + 1 < min(len(f.steps), len(t.steps)) for k, (_, _, f, t) in zip(parted, pairs)):
        assert [type(p) for p in parts] == [Notice]
        return
    text, table = parts
    assert "the same positions, not the same tokens" in text.markdown
    assert isinstance(table, Table) and any(label.endswith("◀") for label in table.data.index)
    assert all(cell.endswith("%)") for cell in table.data.iloc[:, 1])  # each top token with its probability
