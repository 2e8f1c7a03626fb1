"""Inside the Transformer: the student's sentence followed through every block of the encoder–decoder.

A diagram of the architecture (the checkpoint's layer counts) opens a block on click, or from the picker
below it; each block shows the sentence's tensors there, with every step recomputed in NumPy
(lessons/inside.py) next to the model's own numbers.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from app_pages.state import direction, models, result_cache, translations, widget_state
from app_pages.shell import link_values, links, navigation, page_scripts
from app_pages.components.teaching_shared import example_sentences, num, positions, sentence_banner, show_table, table
from app_pages.shell.presentation import presenting
from app_pages.shell.text import listing, md_escape, t
from app_pages.components import charts, table_view
from lessons import inside
from model import ModelConfig, TranslationResult
from viz.decoding import candidates_chart
from viz.options import Room
from viz.teaching_inside import (
    DIAGRAM_HEIGHT_PX,
    DIAGRAM_LABELS,
    DIAGRAM_WIDTH_PX,
    architecture_blocks,
    architecture_figure,
    clicked_block,
    tensor_panels,
)

BLOCK, DIAGRAM, DETAILS = "inside.block", "inside.diagram", "inside.details"
SCROLL = "inside.scroll"  # set by a click or the picker: the next run scrolls to the open block
SRC_TOKEN, TGT_TOKEN = "inside.src_token", "inside.tgt_token"
SHOWN_DIMS = 8  # numbers of a token's vector in a table: enough to compare, narrow enough for a projector
# The diagram's column and the text's: at 1280×800 the main area is 820 px wide with the sidebar open (two columns
# 16 px apart), 1196 px in presentation mode, where the diagram is enlarged up to 1.3 times.
PAGE_COLUMNS = [DIAGRAM_WIDTH_PX + 16, 820 - DIAGRAM_WIDTH_PX - 16]
PRESENT_COLUMNS = [11, 9]
AGREES = 1e-4  # max difference at which a recomputed step agrees with the model (float32 against float64)
# Per sublayer block: (the sublayer's input, its output, the LayerNorm's output) as named in the result's
# sublayer tensors, and the Layer attribute holding its add & norm.
SUBLAYERS = {
    ("enc", "self_attn"): ("input", "self_attn_out", "norm1", "norm1"),
    ("enc", "ffn"): ("norm1", "ffn_out", "output", "last_norm"),
    ("dec", "self_attn"): ("input", "self_attn_out", "norm1", "norm1"),
    ("dec", "cross_attn"): ("norm1", "cross_attn_out", "norm2", "norm2"),
    ("dec", "ffn"): ("norm2", "ffn_out", "output", "last_norm"),
}


def open_clicked_block() -> None:
    """A click on a block of the diagram opens it below, and the page scrolls to it."""
    block = clicked_block(st.session_state[DIAGRAM].selection.points)
    if block is not None:
        st.session_state[BLOCK] = block
        scroll_to_block()


def scroll_to_block() -> None:
    """The run that follows brings the open block's section into view (Streamlit does not scroll by itself)."""
    st.session_state[SCROLL] = True


def block_name(block: str) -> str:
    parts = block.split(".")
    if len(parts) == 1:
        return t(f"inside.block.{block}")
    stack, layer, name = parts
    return t(f"inside.block.{stack}", n=int(layer) + 1, part=t(f"inside.part.{stack}.{name}"))


def shape(*sizes: int) -> str:
    """"(8 × 256)", with no-break spaces: a wrapped label or line keeps a shape whole."""
    return "(" + "\u00a0×\u00a0".join(str(s) for s in sizes) + ")"


def difference(value: float) -> str:
    return f"{value:.1e}"


def verdict(message: str, worst: float) -> None:
    (st.success if worst < AGREES else st.error)(message)


def token_picker(key: str, tokens: list[str]) -> int:
    """One of the sentence's tokens, kept in range when the sentence (and its length) changes."""
    chosen = widget_state.kept(key, range(len(tokens)))
    labels = positions(tokens)
    with st.columns(3)[0]:
        return int(st.selectbox(t("inside.pick.token"), range(len(tokens)), format_func=labels.__getitem__,
                                persist_state="session", key=key, index=chosen))


def first_numbers(rows: list[tuple[str, np.ndarray]], token: str) -> None:
    """The first SHOWN_DIMS numbers of one token's vectors, one named vector per row."""
    values = np.stack([np.ravel(v)[:SHOWN_DIMS] for _, v in rows])
    show_table(values, [name for name, _ in rows], [str(j) for j in range(SHOWN_DIMS)], index_name=token)


def panels(rows: list[tuple[str, np.ndarray]], tokens: list[str], key: str, title: str) -> None:
    charts.chart(tensor_panels(rows, tokens, title=title, token_title=t("inside.axis.tokens"),
                                dim_title=t("inside.axis.dims"), value_label=t("inside.axis.value")), key=key)


def sides(stack: str) -> tuple[list[str], str, dict[str, np.ndarray]]:
    """The tokens, token-picker key and sublayer tensors of the encoder ("enc") or decoder ("dec")."""
    if stack == "enc":
        return result.source_tokens, SRC_TOKEN, result.encoder_sublayers
    return result.target_tokens, TGT_TOKEN, result.decoder_sublayers


# ---------------------------------------------------------------- embeddings


def embedding_section(side: str) -> None:
    source = side == "src_embed"
    tokens, key, _ = sides("enc" if source else "dec")
    emb = result.source_embeddings if source else result.target_embeddings
    first = (result.encoder_sublayers if source else result.decoder_sublayers)["input"][0]
    embedding = translator.weight(f"{'src' if source else 'tgt'}_embed.weight")  # (vocab, d)
    e = inside.embedding(embedding, emb.ids, emb.token, emb.positional, emb.scale, first)
    vocab, d = embedding.shape
    T = len(tokens)
    st.markdown(t("inside.embed.text", v=f"{vocab:,}", d=d, t=T, scale=num(emb.scale), root=f"√{d}"))
    st.latex(r"x_{pos} = E[\mathrm{id}_{pos}]\cdot\sqrt{d_{model}} + PE_{pos} = "
             r"(\mathrm{onehot}(\mathrm{id}_{pos})\,E)\cdot\sqrt{d_{model}} + PE_{pos}")
    if not source:
        st.info(t("inside.embed.shifted", first=md_escape(tokens[0])))
    index = token_picker(key, tokens)
    token_id = int(e.ids[index])
    label = positions(tokens)[index]
    st.markdown(t("inside.embed.lookup", token=md_escape(label), id=token_id, v=f"{vocab:,}", d=d,
                  onehot=shape(1, vocab), table=shape(vocab, d), row=shape(1, d),
                  ones=int(e.one_hot[index].sum()), diff=difference(float(np.abs(e.lookup.recomputed[index] -
                                                                                 e.lookup.returned[index]).max()))))
    first_numbers([
        (t("inside.vec.row", id=token_id), e.lookup.returned[index]),
        (t("inside.vec.onehot"), e.lookup.recomputed[index]),
        (t("inside.vec.scaled", root=f"√{d}"), e.scaled[index]),
        (t("inside.vec.pe", pos=index), e.positional[index]),
        (t("inside.vec.sum"), e.first_input.recomputed[index]),
        (t("inside.vec.model_input"), e.first_input.returned[index]),
    ], label)
    worst = max(e.lookup.max_difference, e.first_input.max_difference)
    verdict(t("inside.embed.check", t=T, d=d, diff=difference(worst)), worst)
    panels([(t("inside.panel.scaled", s=shape(T, d)), e.scaled), (t("inside.panel.pe", s=shape(T, d)), e.positional),
            (t("inside.panel.input", s=shape(T, d)), e.first_input.returned)], tokens, f"inside.{side}.panels",
           t("inside.embed.fig"))


# ---------------------------------------------------------------- sublayers


def attention_part(stack: str, name: str, layer: inside.Layer, index: int, tokens: list[str]) -> None:
    """The multi-head attention sublayer: formula, shapes, and its recomputed q, k, v, weights and output."""
    attn = layer.cross_attn if name == "cross_attn" else layer.self_attn
    heads, tq, d_head = attn.q.returned.shape
    tk = attn.k.returned.shape[1]
    d = heads * d_head
    st.markdown(t(f"inside.attn.{stack}.{name}", tq=tq, tk=tk))
    st.latex(r"\mathrm{Attention}(Q, K, V) = \mathrm{softmax}\!\left(\frac{QK^\top}{\sqrt{d_k}}"
             + (r" + M" if (stack, name) == ("dec", "self_attn") else "") + r"\right)V,\quad "
             r"\mathrm{MultiHead} = \mathrm{Concat}(\mathrm{head}_1, \dots, \mathrm{head}_h)\,W^O")
    st.markdown(t("inside.attn.shapes", h=heads, d=d, dk=d_head, q=shape(tq, d_head), k=shape(tk, d_head),
                  w=shape(tq, tk), concat=shape(tq, d), out=shape(tq, d), root=num(np.sqrt(d_head))))
    navigation.page_link("qkv", t("inside.attn.qkv_link", page=t("nav.qkv")))
    steps = [("q", attn.q, shape(heads, tq, d_head)), ("k", attn.k, shape(heads, tk, d_head)),
             ("v", attn.v, shape(heads, tk, d_head)), ("weights", attn.weights, shape(heads, tq, tk)),
             ("out", attn.out, shape(tq, d))]
    frame = table([[s.max_difference] for _, s, _ in steps], [t(f"inside.attn.step.{n}") for n, _, _ in steps],
                  [t("inside.col.diff")], index_name=t("inside.col.step"), decimals=7)
    frame.insert(0, t("inside.col.shape"), [s for _, _, s in steps])
    table_view.table(frame)
    label = positions(tokens)[index]
    first_numbers([(t("inside.vec.recomputed"), attn.out.recomputed[index]), (t("inside.vec.returned"), attn.out.returned[index])],
                  label)
    worst = max(s.max_difference for _, s, _ in steps)
    verdict(t("inside.attn.check", diff=difference(worst)), worst)


def ffn_part(layer: inside.Layer, index: int, tokens: list[str]) -> None:
    c = translator.config
    T = len(tokens)
    st.markdown(t("inside.ffn.text", d=c.d_model, dff=c.d_ff, ratio=inside.widening(c.d_model, c.d_ff),
                  act=t(f"inside.act.{c.activation}"), x=shape(T, c.d_model), h=shape(T, c.d_ff)))
    st.latex(r"\mathrm{FFN}(x) = " + {"relu": r"\max(0,\ xW_1 + b_1)", "swish": r"\mathrm{swish}(xW_1 + b_1)"}[
        c.activation] + r"\,W_2 + b_2" + (r",\quad \mathrm{swish}(z) = z\cdot\sigma(z)" if c.activation == "swish" else ""))
    hidden = layer.ffn.hidden[index]
    st.markdown(t(f"inside.ffn.hidden.{c.activation}", token=md_escape(positions(tokens)[index]),
                  zero=int((hidden == 0).sum()), negative=int((hidden < 0).sum()), dff=c.d_ff))
    first_numbers([(t("inside.vec.recomputed"), layer.ffn.step.recomputed[index]),
                   (t("inside.vec.returned"), layer.ffn.step.returned[index])], positions(tokens)[index])
    verdict(t("inside.ffn.check", diff=difference(layer.ffn.step.max_difference)), layer.ffn.step.max_difference)


def add_norm_part(norm: inside.AddNorm, names: tuple[str, str, str], index: int, tokens: list[str], stack: str,
                  layer_index: int) -> None:
    """LayerNorm(x + Sublayer(x)): formula, γ and β, each token's statistics, the recomputation, why not BatchNorm."""
    x_name, sub_name, out_name = (t(f"inside.tensor.{n}") for n in names)
    st.markdown(t("inside.norm.text", x=x_name, sub=sub_name, out=out_name))
    st.latex(r"\mathrm{LayerNorm}(v) = \gamma \odot \frac{v - \mu}{\sqrt{\sigma^2 + \varepsilon}} + \beta,\quad "
             r"\mu = \frac{1}{d}\sum_{j} v_j,\ \ \sigma^2 = \frac{1}{d}\sum_j (v_j - \mu)^2,\ \ \varepsilon = "
             + num(inside.LN_EPS, 5))
    st.markdown(t("inside.norm.post"))
    show_table(np.stack([norm.gamma[:SHOWN_DIMS], norm.beta[:SHOWN_DIMS]]),
               [f"γ ({norm.name}.weight)", f"β ({norm.name}.bias)"], [str(j) for j in range(SHOWN_DIMS)])
    st.markdown(t("inside.norm.stats"))
    moments = [*inside.token_moments(norm.residual), *inside.token_moments(norm.standardised), *inside.token_moments(norm.step.returned)]
    show_table(np.stack(moments).T, positions(tokens),
               [t(f"inside.col.{c}") for c in ("mean_in", "var_in", "mean_std", "var_std", "mean_out", "var_out")],
               index_name=t("inside.col.token"))
    label = positions(tokens)[index]
    st.markdown(t("inside.norm.numbers", token=md_escape(label)))
    first_numbers([
        (x_name, norm.x[index]),
        (sub_name, norm.sublayer_out[index]),
        (t("inside.vec.residual"), norm.residual[index]),
        (t("inside.vec.standardised"), norm.standardised[index]),
        (t("inside.vec.layernorm"), norm.step.recomputed[index]),
        (t("inside.vec.returned_as", name=out_name), norm.step.returned[index]),
    ], label)
    verdict(t("inside.norm.check", diff=difference(norm.step.max_difference)), norm.step.max_difference)
    with st.expander(t("inside.bn.title")):
        batch_norm_demo(stack, layer_index, names)


def batch_norm_demo(stack: str, layer_index: int, names: tuple[str, str, str]) -> None:
    """The same LayerNorm input normalised alone and in a zero-padded batch with another sentence."""
    own = inside.residual_sum(sides(stack)[2], layer_index, names[0], names[1])
    # The example sentence whose length differs most from the student's: the most padding.
    others = [s for s in example_sentences() if s != result.source_text]  # in the language the model reads
    other_result = max((translations.translation_of(s) for s in others),
                       key=lambda r: abs(len(r.source_tokens) - len(result.source_tokens)))
    other_subs = other_result.encoder_sublayers if stack == "enc" else other_result.decoder_sublayers
    cmp = inside.compare_norms(own, inside.residual_sum(other_subs, layer_index, names[0], names[1]))
    st.markdown(t("inside.bn.text", other=md_escape(other_result.source_text), n=cmp.length,
                  m=len(other_subs["input"][layer_index]), pad=cmp.padding))
    tokens = sides(stack)[0]
    first_numbers([
        (t("inside.bn.ln_alone"), cmp.layer_alone[0]),
        (t("inside.bn.ln_batch"), cmp.layer_in_batch[0]),
        (t("inside.bn.bn_alone"), cmp.batch_alone[0]),
        (t("inside.bn.bn_batch"), cmp.batch_in_batch[0]),
        (t("inside.bn.bn_real"), cmp.batch_real_tokens[0]),
    ], positions(tokens)[0])
    st.markdown(t("inside.bn.result", ln=difference(cmp.layer_difference), bn=difference(cmp.batch_difference),
                  real=difference(cmp.batch_real_difference)))


def sublayer_section(stack: str, layer_index: int, name: str) -> None:
    tokens, key, subs = sides(stack)
    c = translator.config
    layer = (inside.encoder_layer if stack == "enc" else inside.decoder_layer)(result, layer_index, translator.weight,
                                                                               c.activation)
    x_name, sub_name, out_name, norm_attr = SUBLAYERS[(stack, name)]
    index = token_picker(key, tokens)
    T, d = len(tokens), c.d_model
    panels([(f"{t(f'inside.tensor.{n}')} {shape(T, d)}", subs[n][layer_index]) for n in (x_name, sub_name, out_name)],
           tokens, f"inside.{stack}.{layer_index}.{name}.panels", block_name(f"{stack}.{layer_index}.{name}"))
    if (stack, layer_index, name) == ("enc", c.n_encoder_layers - 1, "ffn"):  # what "Encoder output" opens
        st.info(t("inside.memory.note", shape=shape(T, d), dec=c.n_decoder_layers))
    st.subheader(t("inside.diagram.masked_self_attn" if (stack, name) == ("dec", "self_attn") else f"inside.diagram.{name}"))
    if name == "ffn":
        ffn_part(layer, index, tokens)
    else:
        attention_part(stack, name, layer, index, tokens)
    st.subheader(t("inside.norm.header"))
    add_norm_part(getattr(layer, norm_attr), (x_name, sub_name, out_name), index, tokens, stack, layer_index)


# ---------------------------------------------------------------- output


def output_section() -> None:
    c = translator.config
    embedding = translator.weight("tgt_embed.weight")  # (vocab, d)
    bias = translator.weight("output_bias") if c.output_bias else None
    out = inside.output(result.decoder_sublayers["output"][-1], embedding, bias, translator.generation_config.banned(c),
                        [s.chosen.token_id for s in result.steps], [s.chosen.prob for s in result.steps])
    T, (vocab, d) = len(result.target_tokens), embedding.shape
    st.markdown(t("inside.out.text", t=T, d=d, v=f"{vocab:,}", h=shape(T, d), e=shape(d, vocab),
                  logits=shape(T, vocab)))
    st.latex(r"\mathrm{logits} = h\,E_{tgt}^\top" + (r" + b" if bias is not None else "") +
             r",\qquad \mathrm{softmax}(z)_i = \frac{e^{z_i}}{\sum_{j=1}^{V} e^{z_j}}")
    st.markdown(t("inside.out.bias" if bias is not None else "inside.out.no_bias"))
    banned = translator.generation_config.banned(c)
    st.markdown(t("inside.out.banned", n=len(banned), ids=listing(banned)))
    index = token_picker(TGT_TOKEN, result.target_tokens)
    step = result.steps[index]
    # the top candidates, and the chosen token after them where a beam search took one outside them
    outside = all(cand.token_id != step.chosen.token_id for cand in step.candidates)
    shown = [*step.candidates, *([step.chosen] if outside else [])]
    names, ids = [cand.token for cand in shown], [cand.token_id for cand in shown]
    probs = out.probs[index, ids]
    st.markdown(t("inside.out.position", input=md_escape(positions(result.target_tokens)[index]),
                  chosen=md_escape(step.chosen.token), prob=f"{out.chosen.recomputed[index]:.4f}",
                  model=f"{step.chosen.prob:.4f}"))
    frame = table(np.stack([out.logits[index, ids], probs, [cand.prob for cand in shown]]).T,
                  positions(names), [t("inside.col.logit"), t("inside.col.prob"), t("inside.col.model_prob")],
                  index_name=t("inside.col.candidate"))
    table_view.table(frame)
    charts.chart(candidates_chart(names, probs, ids.index(step.chosen.token_id), token_title=t("inside.axis.candidate"),
                                   value_label=t("inside.axis.prob"), room=Room(480)), key="inside.output.candidates")
    k = len(step.candidates)
    same_top = [int(i) for i in out.top(index, k)[0]] == ids[:k]
    verdict(t("inside.out.check", t=T, diff=difference(out.chosen.max_difference),
              top=t("inside.out.same_top" if same_top else "inside.out.other_top", k=k)),
            out.chosen.max_difference if same_top else np.inf)
    st.subheader(t("inside.tf.header"))
    st.markdown(t("inside.tf.text"))
    table_view.table(pd.DataFrame({t("inside.tf.input"): result.target_tokens,
                                t("inside.tf.target"): result.output_tokens},
                               index=pd.Index(range(T), name=t("inside.tf.position"))))
    st.markdown(t("inside.tf.inference", first=md_escape(result.output_tokens[0]),
                  second=md_escape(result.target_tokens[1] if T > 1 else result.output_tokens[0])))


def diagram_figure(n_encoder: int, n_decoder: int, labels: tuple[tuple[str, str], ...], selected: str, title: str,
                   click_hint: str) -> go.Figure:
    """architecture_figure, built once per model shape, language and open block for every session (the server's
    result cache): building it took a third of this page's run (py-spy). Shared, so read only: chart() sends a copy,
    or enlarges one."""
    args = (n_encoder, n_decoder, labels, selected, title, click_hint)
    return result_cache.shared().get(("inside.diagram", *args), lambda: architecture_figure(
        n_encoder, n_decoder, dict(labels), selected=selected, title=title, click_hint=click_hint,
        width=DIAGRAM_WIDTH_PX, height=DIAGRAM_HEIGHT_PX))


def diagram(config: ModelConfig) -> None:
    """The architecture with the open block framed; a click on a block opens it (and scrolls to it)."""
    labels = tuple((k, t(f"inside.diagram.{k}")) for k in DIAGRAM_LABELS)
    charts.chart(
        diagram_figure(config.n_encoder_layers, config.n_decoder_layers, labels, st.session_state[BLOCK],
                       t("inside.diagram.title"), t("inside.diagram.click")),
        key=DIAGRAM, on_select=open_clicked_block, selection_mode="points",
    )


def block_picker(config: ModelConfig) -> str:
    """The blocks by name: another way to open one."""
    blocks = architecture_blocks(config.n_encoder_layers, config.n_decoder_layers)
    return st.selectbox(t("inside.pick.block"), blocks, format_func=block_name, persist_state="session", key=BLOCK,
                        on_change=scroll_to_block, index=blocks.index(widget_state.kept(BLOCK, blocks)))


def block_section(block: str) -> None:
    st.header(block_name(block))
    if block in ("src_embed", "tgt_embed"):
        embedding_section(block)
    elif block == "output":
        output_section()
    else:
        stack_name, layer_number, part = block.split(".")
        sublayer_section(stack_name, int(layer_number), part)


translator = models.translator()
config = translator.config
result: TranslationResult = translations.current_result()
blocks = architecture_blocks(config.n_encoder_layers, config.n_decoder_layers)
links.link_page({"block": link_values.Param(BLOCK, link_values.one_of(blocks))})
widget_state.kept(BLOCK, blocks)  # the diagram shows the open block before its picker is drawn

# The diagram beside the introduction and the sentence, under the title (in presentation mode, where the enlarged
# diagram needs the whole screen's height, the title heads the text instead); the open block's section (its picker
# first) below both, where a click on the diagram scrolls to.
if not presenting():
    st.title(t("inside.title"))
diagram_column, text_column = st.columns(PRESENT_COLUMNS if presenting() else PAGE_COLUMNS)
with diagram_column:
    diagram(config)
with text_column:
    if presenting():
        st.title(t("inside.title"))
    st.markdown(t("inside.intro", enc=config.n_encoder_layers, dec=config.n_decoder_layers, d=config.d_model,
                  heads=config.n_heads, dff=config.d_ff, source=direction.source_name(),
                  target=direction.target_name()))
    sentence_banner(result)
with st.container(key=DETAILS):
    block_section(block_picker(config))
if st.session_state.pop(SCROLL, False):
    page_scripts.scroll_to_details()
