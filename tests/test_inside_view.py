"""Inside the Transformer's view, computed without Streamlit (app_pages/pages/inside_view.py): every block in English
and 中文, and the numbers each shows are those of lessons/inside.py for the sentence. What needs the page itself (a
link opening its block) is tests/test_app_inside.py; the diagram's clicks, scrolling and first screen are
tests/test_inside_browser.py."""

from __future__ import annotations

import re

import pytest

from app_pages.components.parts import Chart, Expander, Heading, Notice, Table, every, texts
from app_pages.pages import inside_view
from app_pages.pages.inside_view import Live, Settings
from app_pages.shell.text import in_language, md_escape
from i18n import strings
from lessons import inside as li
from model import DEFAULT_CHECKPOINT
from viz.teaching_inside import architecture_blocks

SENTENCE = "I have a dream."
EXAMPLES = ("Who are you?", "The weather is nice today, so we are going to the park by the river.")

pytestmark = pytest.mark.skipif(
    not (DEFAULT_CHECKPOINT / "model.safetensors").is_file(), reason=f"needs the shipped checkpoint in {DEFAULT_CHECKPOINT}"
)


@pytest.fixture(scope="module")
def result(translator):
    return translator.translate(SENTENCE)


@pytest.fixture(scope="module")
def live(translator, result) -> Live:
    return Live(translator, result, EXAMPLES, translator.translate)


def shown_view(live: Live, block: str, lang: str = "en", **tokens) -> inside_view.InsideView:
    with in_language(lang):
        return inside_view.view(live, Settings(block, **tokens))


def parts_of(shown: inside_view.InsideView) -> list:
    return list(every(shown.block.before + shown.block.after))


def shown(cells, values) -> bool:
    """Whether 4-decimal cells show `values`."""
    return len(cells) == len(values) and all(abs(float(c) - float(v)) <= 2e-4 for c, v in zip(cells, values))


def stated_differences(text: str) -> list[float]:
    return [float(x) for x in re.findall(r"largest difference (\d\.\de[+-]\d+)", text)]


def table_with_index(shown_page, index_name: str, row: str | None = None):
    """The first table whose index is named `index_name` (and has a row `row`)."""
    return next(p.data for p in parts_of(shown_page) if isinstance(p, Table) and hasattr(p.data, "index")
                and p.data.index.name == index_name and (row is None or row in p.data.index))


def page_text(shown_page) -> str:
    return "\n".join([shown_page.title, shown_page.intro, shown_page.block.heading,
                      texts(shown_page.block.before + shown_page.block.after)])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_block_shows_its_figure_and_an_agreeing_recomputation_in_both_languages(lang, live, translator):
    c = translator.config
    for block in architecture_blocks(c.n_encoder_layers, c.n_decoder_layers):
        page = shown_view(live, block, lang)
        found = parts_of(page)
        assert any(isinstance(p, Chart) for p in found), block  # the block's own figure, besides the diagram
        notices = [p for p in found if isinstance(p, Notice)]
        assert not [n.text for n in notices if n.level == "error"], block
        assert any(n.level == "success" for n in notices), block  # a recomputation that agrees with the model
        has_chinese = re.search(r"[\u4e00-\u9fff]{4}", page_text(page)) is not None
        assert has_chinese == (lang == "zh"), block
        assert page.block.heading == page.block_names[block]


def test_layer_count_comes_from_the_config(live, translator):
    page = shown_view(live, "src_embed")
    c = translator.config
    assert len(page.blocks) == 2 + 2 * c.n_encoder_layers + 3 * c.n_decoder_layers + 1
    names = page.block_names.values()
    assert f"Encoder layer {c.n_encoder_layers} · feed-forward, add & norm" in names
    assert f"Decoder layer {c.n_decoder_layers} · cross-attention, add & norm" in names
    assert str(c.n_encoder_layers) in page.intro and str(c.d_model) in page.intro


def test_a_block_the_model_does_not_have_is_an_error(live):
    with pytest.raises(KeyError):
        shown_view(live, "enc.99.ffn")


def test_embedding_numbers_are_the_recomputed_ones(translator, result, live):
    page = shown_view(live, "src_embed", src_token=3)
    assert page.block.picker.index == 3 and page.block.picker.key == inside_view.SRC_TOKEN
    emb = result.source_embeddings
    e = li.embedding(translator.weight("src_embed.weight"), emb.ids, emb.token, emb.positional, emb.scale,
                     result.encoder_sublayers["input"][0])
    label = f"3: {result.source_tokens[3]}"
    frame = table_with_index(page, label)
    token_id = int(e.ids[3])
    assert f"row {token_id} of E" in frame.index
    assert shown(list(frame.loc[f"row {token_id} of E"]), e.lookup.returned[3, :8])
    assert shown(list(frame.loc["× √d + PE (recomputed)"]), e.first_input.recomputed[3, :8])
    assert f"has id **{token_id}**" in page_text(page)


def test_a_token_past_the_sentences_end_is_its_first(live):
    assert shown_view(live, "tgt_embed", tgt_token=99).block.picker.index == 0


@pytest.mark.parametrize(("block", "attr"), [("enc.1.self_attn", "norm1"), ("dec.2.cross_attn", "norm2"),
                                             ("dec.0.ffn", "last_norm")])
def test_layer_norm_numbers_and_differences_are_the_recomputed_ones(translator, result, live, block, attr):
    stack, layer, _ = block.split(".")
    tokens = {"src_token": 1} if stack == "enc" else {"tgt_token": 1}
    page = shown_view(live, block, **tokens)
    build = li.encoder_layer if stack == "enc" else li.decoder_layer
    norm = getattr(build(result, int(layer), translator.weight, translator.config.activation), attr)
    tokens = result.source_tokens if stack == "enc" else result.target_tokens
    frame = table_with_index(page, f"1: {tokens[1]}", "x + Sublayer(x)")  # token 1's first numbers, step by step
    assert shown(list(frame.loc["γ ⊙ … + β (recomputed)"]), norm.step.recomputed[1, :8])
    assert shown(list(frame.loc["x + Sublayer(x)"]), norm.residual[1, :8])
    assert any(row.startswith("the model's ") and len(row) > len("the model's ") for row in frame.index), \
        list(frame.index)  # the returned row names which output it is
    stated = stated_differences(page_text(page))  # the sublayer's check, the LayerNorm's, LayerNorm alone vs batched
    assert len(stated) >= 2 and all(d < 1e-4 for d in stated)
    assert norm.step.max_difference < 1e-4
    stats = table_with_index(page, "token")
    assert shown([stats.iloc[1, 1]], [li.token_moments(norm.residual)[1][1]])  # token 1's variance before
    assert f"{norm.name}.weight" in " ".join(table_with_index(page, "").index)
    headings = [p.text for p in parts_of(page) if isinstance(p, Heading)]
    assert headings[-1] == strings("en")["inside.norm.header"]


def test_ffn_states_the_models_activation_and_widening(translator, live):
    c = translator.config
    text = page_text(shown_view(live, "enc.0.ffn"))
    assert f"d_ff = {c.d_ff} (**{li.widening(c.d_model, c.d_ff)}** wider)" in text
    assert {"relu": "ReLU", "swish": "swish"}[c.activation] in text


def test_the_last_encoder_ffn_says_it_is_the_encoder_output(translator, live):
    """What the diagram's "Encoder output" opens: the last encoder layer's FFN, which says where its output goes."""
    last = f"enc.{translator.config.n_encoder_layers - 1}.ffn"
    note = strings("en")["inside.memory.note"].split("{")[0]
    assert [p for p in parts_of(shown_view(live, last)) if isinstance(p, Notice) and p.text.startswith(note)]
    assert not [p for p in parts_of(shown_view(live, "enc.0.ffn")) if isinstance(p, Notice) and note in p.text]


def test_output_probabilities_are_the_recomputed_ones(translator, result, live):
    c = translator.config
    page = shown_view(live, "output", tgt_token=2)
    out = li.output(result.decoder_sublayers["output"][-1], translator.weight("tgt_embed.weight"), None,
                    (c.pad_id, c.bos_id, c.unk_id), [s.chosen.token_id for s in result.steps],
                    [s.chosen.prob for s in result.steps])
    text = page_text(page)
    chose = re.search(rf"chose \*\*{re.escape(result.steps[2].chosen.token)}\*\* with probability ([0-9.]+)", text)
    assert chose and shown([chose[1]], [out.chosen.recomputed[2]])
    frame = table_with_index(page, "candidate")
    ids = [cand.token_id for cand in result.steps[2].candidates]
    assert shown(list(frame["probability (recomputed)"])[: len(ids)], out.probs[2, ids])
    assert stated_differences(text)[0] < 1e-4 and out.chosen.max_difference < 1e-4
    shifted = table_with_index(page, "position")
    assert list(shifted["reads (decoder input)"]) == result.target_tokens
    assert list(shifted["predicts (output)"]) == result.output_tokens


def test_batch_norm_demo_shows_layer_norm_unchanged_and_batch_norm_changed(live):
    page = shown_view(live, "enc.0.self_attn")
    (demo,) = [p for p in parts_of(page) if isinstance(p, Expander)]
    line = next(line for line in texts(demo.parts).split("\n") if "LayerNorm gives the same numbers" in line)
    ln, bn, real = (float(x) for x in re.findall(r"\d\.\de[+-]\d+", line))
    assert ln < 1e-6 and bn > 1e-2 and real > 1e-2
    assert md_escape(EXAMPLES[1]) in texts(demo.parts)  # the example whose length differs most: the most padding


@pytest.mark.parametrize("lang, words", [("en", "Training does not do this"), ("zh", "训练时不这样做")])
def test_output_block_says_the_ban_is_a_decoding_rule_not_trainings(live, lang, words):
    assert words in page_text(shown_view(live, "output", lang))


def test_the_banner_is_the_sentence_and_its_translation_as_plain_text(live, result):
    page = shown_view(live, "src_embed")
    assert f"{SENTENCE}  →  {result.translation}" in texts(page.banner)
