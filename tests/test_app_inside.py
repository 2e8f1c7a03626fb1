"""AppTest: the Inside the Transformer page renders every block in English and Chinese, and the numbers it shows
are those of lessons/inside.py for the session's sentence."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from lessons import inside as li
from model import DEFAULT_CHECKPOINT
from tests.support.apptest import page_text
from tests.support.tables import shown_tables
from viz.teaching_inside import architecture_blocks

APP = str(Path(__file__).resolve().parent.parent / "app.py")
SENTENCE = "I have a dream."

pytestmark = pytest.mark.skipif(
    not (DEFAULT_CHECKPOINT / "model.safetensors").is_file(), reason=f"needs the shipped checkpoint in {DEFAULT_CHECKPOINT}"
)


@pytest.fixture(scope="module")
def result(translator):
    return translator.translate(SENTENCE)


def open_inside(lang: str = "en", **state) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=180)
    at.session_state["lang"] = lang
    at.session_state["sentence"] = SENTENCE
    for key, value in state.items():
        at.session_state[key] = value
    at.run()
    at.switch_page("app_pages/pages/inside.py")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def shown(cells, values) -> bool:
    """Whether the page's 4-decimal cells show `values` (a separately loaded model may differ in the last bits)."""
    return len(cells) == len(values) and all(abs(float(c) - float(v)) <= 2e-4 for c, v in zip(cells, values))


def stated_differences(text: str) -> list[float]:
    return [float(x) for x in re.findall(r"largest difference (\d\.\de[+-]\d+)", text)]


def table_with_index(at: AppTest, index_name: str, row: str | None = None):
    """The first table whose index is named `index_name` (and has a row `row`)."""
    return next(f for f in shown_tables(at) if f.index.name == index_name and (row is None or row in f.index))


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_block_renders_in_both_languages(lang, translator):
    c = translator.config
    for block in architecture_blocks(c.n_encoder_layers, c.n_decoder_layers):
        at = open_inside(lang, **{"inside.block": block})
        assert at.selectbox(key="inside.block").value == block
        assert len(at.get("plotly_chart")) >= 2, block  # the diagram and the block's own figure
        assert not at.error, (block, [e.value for e in at.error])
        assert at.success, block  # every block shows a recomputation that agrees with the model
        has_chinese = re.search(r"[\u4e00-\u9fff]{4}", page_text(at)) is not None
        assert has_chinese == (lang == "zh"), block


def test_layer_count_comes_from_the_config(translator):
    at = open_inside()
    options = at.selectbox(key="inside.block").options
    c = translator.config
    assert len(options) == 2 + 2 * c.n_encoder_layers + 3 * c.n_decoder_layers + 1
    assert f"Encoder layer {c.n_encoder_layers} · feed-forward, add & norm" in options
    assert f"Decoder layer {c.n_decoder_layers} · cross-attention, add & norm" in options


def test_embedding_numbers_are_the_recomputed_ones(translator, result):
    at = open_inside(**{"inside.block": "src_embed", "inside.src_token": 3})
    emb = result.source_embeddings
    e = li.embedding(translator.weight("src_embed.weight"), emb.ids, emb.token, emb.positional, emb.scale,
                     result.encoder_sublayers["input"][0])
    label = f"3: {result.source_tokens[3]}"
    frame = table_with_index(at, label)
    token_id = int(e.ids[3])
    assert f"row {token_id} of E" in frame.index
    assert shown(list(frame.loc[f"row {token_id} of E"]), e.lookup.returned[3, :8])
    assert shown(list(frame.loc["× √d + PE (recomputed)"]), e.first_input.recomputed[3, :8])
    assert f"has id **{token_id}**" in page_text(at)


@pytest.mark.parametrize(("block", "attr"), [("enc.1.self_attn", "norm1"), ("dec.2.cross_attn", "norm2"),
                                             ("dec.0.ffn", "last_norm")])
def test_layer_norm_numbers_and_differences_are_the_recomputed_ones(translator, result, block, attr):
    stack, layer, _ = block.split(".")
    token_key = "inside.src_token" if stack == "enc" else "inside.tgt_token"
    at = open_inside(**{"inside.block": block, token_key: 1})
    build = li.encoder_layer if stack == "enc" else li.decoder_layer
    norm = getattr(build(result, int(layer), translator.weight, translator.config.activation), attr)
    tokens = result.source_tokens if stack == "enc" else result.target_tokens
    frame = table_with_index(at, f"1: {tokens[1]}", "x + Sublayer(x)")  # token 1's first numbers, step by step
    assert shown(list(frame.loc["γ ⊙ … + β (recomputed)"]), norm.step.recomputed[1, :8])
    assert shown(list(frame.loc["x + Sublayer(x)"]), norm.residual[1, :8])
    assert any(row.startswith("the model's ") and len(row) > len("the model's ") for row in frame.index), \
        list(frame.index)  # the returned row names which output it is
    stated = stated_differences(page_text(at))  # the sublayer's check, the LayerNorm's, LayerNorm alone vs batched
    assert len(stated) >= 2 and all(d < 1e-4 for d in stated)
    assert norm.step.max_difference < 1e-4
    stats = table_with_index(at, "token")
    assert shown([stats.iloc[1, 1]], [li.token_moments(norm.residual)[1][1]])  # token 1's variance before
    assert f"{norm.name}.weight" in " ".join(table_with_index(at, "").index)


def test_ffn_states_the_models_activation_and_widening(translator):
    c = translator.config
    at = open_inside(**{"inside.block": "enc.0.ffn"})
    text = page_text(at)
    assert f"d_ff = {c.d_ff} (**{li.widening(c.d_model, c.d_ff)}** wider)" in text
    assert {"relu": "ReLU", "swish": "swish"}[c.activation] in text


def test_output_probabilities_are_the_recomputed_ones(translator, result):
    c = translator.config
    at = open_inside(**{"inside.block": "output", "inside.tgt_token": 2})
    out = li.output(result.decoder_sublayers["output"][-1], translator.weight("tgt_embed.weight"), None,
                    (c.pad_id, c.bos_id, c.unk_id), [s.chosen.token_id for s in result.steps],
                    [s.chosen.prob for s in result.steps])
    text = page_text(at)
    chose = re.search(rf"chose \*\*{re.escape(result.steps[2].chosen.token)}\*\* with probability ([0-9.]+)", text)
    assert chose and shown([chose[1]], [out.chosen.recomputed[2]])
    frame = table_with_index(at, "candidate")
    ids = [cand.token_id for cand in result.steps[2].candidates]
    assert shown(list(frame["probability (recomputed)"])[: len(ids)], out.probs[2, ids])
    assert stated_differences(text)[0] < 1e-4 and out.chosen.max_difference < 1e-4
    shifted = table_with_index(at, "position")
    assert list(shifted["reads (decoder input)"]) == result.target_tokens
    assert list(shifted["predicts (output)"]) == result.output_tokens


def test_batch_norm_demo_shows_layer_norm_unchanged_and_batch_norm_changed():
    at = open_inside(**{"inside.block": "enc.0.self_attn"})
    line = next(m.value for m in at.markdown if "LayerNorm gives the same numbers" in m.value)
    ln, bn, real = (float(x) for x in re.findall(r"\d\.\de[+-]\d+", line))
    assert ln < 1e-6 and bn > 1e-2 and real > 1e-2


def test_a_link_opens_its_block_and_names_it():
    at = AppTest.from_file(APP, default_timeout=180)
    at.query_params.update({"block": "dec.1.self_attn", "s": SENTENCE})
    at.switch_page("app_pages/pages/inside.py")
    at.run()
    assert not at.exception
    assert at.header[0].value == "Decoder layer 2 · masked self-attention, add & norm"
    at.selectbox(key="inside.block").set_value("output").run()
    assert at.query_params["block"] in ("output", ["output"])  # the link says what is on screen


@pytest.mark.parametrize("lang, words", [("en", "Training does not do this"), ("zh", "训练时不这样做")])
def test_output_block_says_the_ban_is_a_decoding_rule_not_trainings(lang, words):
    assert words in page_text(open_inside(lang, **{"inside.block": "output"}))
