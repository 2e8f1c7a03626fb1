"""What Inside the Transformer shows, computed from the model, its translation of the session's sentence and the
open block without drawing anything (inside.py draws it): the title and introduction, the architecture diagram, the
block names for the picker, and the open block's section as parts (app_pages.components.parts) around its token
picker: the sentence's tensors there, every step recomputed in NumPy (lessons/inside.py) next to the model's own
numbers. Plain data out; tests/test_inside_view.py reads it without Streamlit."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from app_pages.components.parts import Caption, Chart, Expander, Formula, Heading, Link, Notice, Parts, Plain, Table, Text
from app_pages.components.teaching_shared import num, positions, table
from app_pages.shell.text import listing, md_escape, t
from app_pages.state import direction, result_cache, translations
from lessons import inside
from model import TranslationResult, Translator
from viz.decoding import candidates_chart
from viz.options import Room
from viz.teaching_inside import (DIAGRAM_HEIGHT_PX, DIAGRAM_LABELS, DIAGRAM_WIDTH_PX, architecture_blocks,
                                 architecture_figure, tensor_panels)

SRC_TOKEN, TGT_TOKEN = "inside.src_token", "inside.tgt_token"
SHOWN_DIMS = 8  # numbers of a token's vector in a table: enough to compare, narrow enough for a projector
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


@dataclass(frozen=True)
class Live:
    """What a section computes from: the model, its translation of the sentence, and (the batch-norm demonstration
    only) the example sentences in the language it reads with a way to translate each."""

    translator: Translator
    result: TranslationResult
    examples: tuple[str, ...]
    translation_of: Callable[[str], TranslationResult]


@dataclass(frozen=True)
class Settings:
    """The open block and the token each side's picker holds (kept in range of the sentence by the page)."""

    block: str
    src_token: int = 0
    tgt_token: int = 0


@dataclass(frozen=True)
class TokenPicker:
    """The section's token picker: its session key, its options' labels ("i: token") and the chosen position."""

    key: str
    labels: tuple[str, ...]
    index: int = 0


@dataclass(frozen=True)
class BlockView:
    """The open block's section: its heading, the parts above its token picker, the picker, the parts below it."""

    heading: str
    before: tuple
    picker: TokenPicker
    after: tuple


@dataclass(frozen=True)
class InsideView:
    """The page: its title, the introduction, the sentence's lines under it, the diagram with the open block framed,
    every block (the picker's options) with its name and the pickers' labels, and the open block's section."""

    title: str
    intro: str
    banner: tuple
    diagram: go.Figure
    blocks: tuple[str, ...]
    block_names: dict[str, str]
    picker_label: str
    token_label: str
    block: BlockView


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


def verdict(message: str, worst: float) -> Notice:
    return Notice(message, "success" if worst < AGREES else "error")


def first_numbers(rows: Sequence[tuple[str, np.ndarray]], token: str) -> Table:
    """The first SHOWN_DIMS numbers of one token's vectors, one named vector per row."""
    values = np.stack([np.ravel(v)[:SHOWN_DIMS] for _, v in rows])
    return Table(table(values, [name for name, _ in rows], [str(j) for j in range(SHOWN_DIMS)], index_name=token))


def panels(rows: list[tuple[str, np.ndarray]], tokens: list[str], key: str, title: str) -> Chart:
    return Chart(tensor_panels(rows, tokens, title=title, token_title=t("inside.axis.tokens"),
                               dim_title=t("inside.axis.dims"), value_label=t("inside.axis.value")), key)


def sides(result: TranslationResult, stack: str) -> tuple[list[str], str, dict[str, np.ndarray]]:
    """The tokens, token-picker key and sublayer tensors of the encoder ("enc") or decoder ("dec")."""
    if stack == "enc":
        return result.source_tokens, SRC_TOKEN, result.encoder_sublayers
    return result.target_tokens, TGT_TOKEN, result.decoder_sublayers


def picker(key: str, tokens: list[str], settings: Settings) -> TokenPicker:
    chosen = settings.src_token if key == SRC_TOKEN else settings.tgt_token
    return TokenPicker(key, tuple(positions(tokens)), chosen if chosen in range(len(tokens)) else 0)


# ---------------------------------------------------------------- embeddings


def embedding_section(live: Live, side: str, settings: Settings) -> BlockView:
    translator, result = live.translator, live.result
    source = side == "src_embed"
    tokens, key, _ = sides(result, "enc" if source else "dec")
    emb = result.source_embeddings if source else result.target_embeddings
    first = (result.encoder_sublayers if source else result.decoder_sublayers)["input"][0]
    embedding = translator.weight(f"{'src' if source else 'tgt'}_embed.weight")  # (vocab, d)
    e = inside.embedding(embedding, emb.ids, emb.token, emb.positional, emb.scale, first)
    vocab, d = embedding.shape
    T = len(tokens)
    before = Parts().add(
        Text(t("inside.embed.text", v=f"{vocab:,}", d=d, t=T, scale=num(emb.scale), root=f"√{d}")),
        Formula(r"x_{pos} = E[\mathrm{id}_{pos}]\cdot\sqrt{d_{model}} + PE_{pos} = "
                r"(\mathrm{onehot}(\mathrm{id}_{pos})\,E)\cdot\sqrt{d_{model}} + PE_{pos}"),
        None if source else Notice(t("inside.embed.shifted", first=md_escape(tokens[0]))))
    chosen = picker(key, tokens, settings)
    index = chosen.index
    token_id = int(e.ids[index])
    label = chosen.labels[index]
    worst = max(e.lookup.max_difference, e.first_input.max_difference)
    after = Parts().add(
        Text(t("inside.embed.lookup", token=md_escape(label), id=token_id, v=f"{vocab:,}", d=d,
               onehot=shape(1, vocab), table=shape(vocab, d), row=shape(1, d), ones=int(e.one_hot[index].sum()),
               diff=difference(float(np.abs(e.lookup.recomputed[index] - e.lookup.returned[index]).max())))),
        first_numbers([
            (t("inside.vec.row", id=token_id), e.lookup.returned[index]),
            (t("inside.vec.onehot"), e.lookup.recomputed[index]),
            (t("inside.vec.scaled", root=f"√{d}"), e.scaled[index]),
            (t("inside.vec.pe", pos=index), e.positional[index]),
            (t("inside.vec.sum"), e.first_input.recomputed[index]),
            (t("inside.vec.model_input"), e.first_input.returned[index]),
        ], label),
        verdict(t("inside.embed.check", t=T, d=d, diff=difference(worst)), worst),
        panels([(t("inside.panel.scaled", s=shape(T, d)), e.scaled), (t("inside.panel.pe", s=shape(T, d)),
                                                                       e.positional),
                (t("inside.panel.input", s=shape(T, d)), e.first_input.returned)], tokens, f"inside.{side}.panels",
               t("inside.embed.fig")))
    return BlockView(block_name(side), before.done(), chosen, after.done())


# ---------------------------------------------------------------- sublayers


def attention_part(stack: str, name: str, layer: inside.Layer, index: int, tokens: list[str]) -> tuple:
    """The multi-head attention sublayer: formula, shapes, and its recomputed q, k, v, weights and output."""
    attn = layer.cross_attn if name == "cross_attn" else layer.self_attn
    heads, tq, d_head = attn.q.returned.shape
    tk = attn.k.returned.shape[1]
    d = heads * d_head
    steps = [("q", attn.q, shape(heads, tq, d_head)), ("k", attn.k, shape(heads, tk, d_head)),
             ("v", attn.v, shape(heads, tk, d_head)), ("weights", attn.weights, shape(heads, tq, tk)),
             ("out", attn.out, shape(tq, d))]
    frame = table([[s.max_difference] for _, s, _ in steps], [t(f"inside.attn.step.{n}") for n, _, _ in steps],
                  [t("inside.col.diff")], index_name=t("inside.col.step"), decimals=7)
    frame.insert(0, t("inside.col.shape"), [s for _, _, s in steps])
    label = positions(tokens)[index]
    worst = max(s.max_difference for _, s, _ in steps)
    return Parts().add(
        Text(t(f"inside.attn.{stack}.{name}", tq=tq, tk=tk)),
        Formula(r"\mathrm{Attention}(Q, K, V) = \mathrm{softmax}\!\left(\frac{QK^\top}{\sqrt{d_k}}"
                + (r" + M" if (stack, name) == ("dec", "self_attn") else "") + r"\right)V,\quad "
                r"\mathrm{MultiHead} = \mathrm{Concat}(\mathrm{head}_1, \dots, \mathrm{head}_h)\,W^O"),
        Text(t("inside.attn.shapes", h=heads, d=d, dk=d_head, q=shape(tq, d_head), k=shape(tk, d_head),
               w=shape(tq, tk), concat=shape(tq, d), out=shape(tq, d), root=num(np.sqrt(d_head)))),
        Link("qkv", t("inside.attn.qkv_link", page=t("nav.qkv"))),
        Table(frame),
        first_numbers([(t("inside.vec.recomputed"), attn.out.recomputed[index]),
                       (t("inside.vec.returned"), attn.out.returned[index])], label),
        verdict(t("inside.attn.check", diff=difference(worst)), worst)).done()


def ffn_part(translator: Translator, layer: inside.Layer, index: int, tokens: list[str]) -> tuple:
    c = translator.config
    T = len(tokens)
    hidden = layer.ffn.hidden[index]
    swish = r",\quad \mathrm{swish}(z) = z\cdot\sigma(z)" if c.activation == "swish" else ""
    return Parts().add(
        Text(t("inside.ffn.text", d=c.d_model, dff=c.d_ff, ratio=inside.widening(c.d_model, c.d_ff),
               act=t(f"inside.act.{c.activation}"), x=shape(T, c.d_model), h=shape(T, c.d_ff))),
        Formula(r"\mathrm{FFN}(x) = " + {"relu": r"\max(0,\ xW_1 + b_1)", "swish": r"\mathrm{swish}(xW_1 + b_1)"}[
            c.activation] + r"\,W_2 + b_2" + swish),
        Text(t(f"inside.ffn.hidden.{c.activation}", token=md_escape(positions(tokens)[index]),
               zero=int((hidden == 0).sum()), negative=int((hidden < 0).sum()), dff=c.d_ff)),
        first_numbers([(t("inside.vec.recomputed"), layer.ffn.step.recomputed[index]),
                       (t("inside.vec.returned"), layer.ffn.step.returned[index])], positions(tokens)[index]),
        verdict(t("inside.ffn.check", diff=difference(layer.ffn.step.max_difference)),
                layer.ffn.step.max_difference)).done()


def add_norm_part(live: Live, norm: inside.AddNorm, names: tuple[str, str, str], index: int, stack: str,
                  layer_index: int) -> tuple:
    """LayerNorm(x + Sublayer(x)): formula, γ and β, each token's statistics, the recomputation, why not BatchNorm."""
    tokens = sides(live.result, stack)[0]
    x_name, sub_name, out_name = (t(f"inside.tensor.{n}") for n in names)
    moments = [*inside.token_moments(norm.residual), *inside.token_moments(norm.standardised),
               *inside.token_moments(norm.step.returned)]
    label = positions(tokens)[index]
    return Parts().add(
        Text(t("inside.norm.text", x=x_name, sub=sub_name, out=out_name)),
        Formula(r"\mathrm{LayerNorm}(v) = \gamma \odot \frac{v - \mu}{\sqrt{\sigma^2 + \varepsilon}} + \beta,\quad "
                r"\mu = \frac{1}{d}\sum_{j} v_j,\ \ \sigma^2 = \frac{1}{d}\sum_j (v_j - \mu)^2,\ \ \varepsilon = "
                + num(inside.LN_EPS, 5)),
        Text(t("inside.norm.post")),
        Table(table(np.stack([norm.gamma[:SHOWN_DIMS], norm.beta[:SHOWN_DIMS]]),
                    [f"γ ({norm.name}.weight)", f"β ({norm.name}.bias)"], [str(j) for j in range(SHOWN_DIMS)])),
        Text(t("inside.norm.stats")),
        Table(table(np.stack(moments).T, positions(tokens),
                    [t(f"inside.col.{c}") for c in ("mean_in", "var_in", "mean_std", "var_std", "mean_out",
                                                     "var_out")], index_name=t("inside.col.token"))),
        Text(t("inside.norm.numbers", token=md_escape(label))),
        first_numbers([
            (x_name, norm.x[index]),
            (sub_name, norm.sublayer_out[index]),
            (t("inside.vec.residual"), norm.residual[index]),
            (t("inside.vec.standardised"), norm.standardised[index]),
            (t("inside.vec.layernorm"), norm.step.recomputed[index]),
            (t("inside.vec.returned_as", name=out_name), norm.step.returned[index]),
        ], label),
        verdict(t("inside.norm.check", diff=difference(norm.step.max_difference)), norm.step.max_difference),
        Expander(t("inside.bn.title"), batch_norm_demo(live, stack, layer_index, names))).done()


def batch_norm_demo(live: Live, stack: str, layer_index: int, names: tuple[str, str, str]) -> tuple:
    """The same LayerNorm input normalised alone and in a zero-padded batch with another sentence."""
    result = live.result
    tokens, _, subs = sides(result, stack)
    own = inside.residual_sum(subs, layer_index, names[0], names[1])
    # The example sentence whose length differs most from the student's: the most padding.
    others = [s for s in live.examples if s != result.source_text]  # in the language the model reads
    other_result = max((live.translation_of(s) for s in others),
                       key=lambda r: abs(len(r.source_tokens) - len(result.source_tokens)))
    other_subs = other_result.encoder_sublayers if stack == "enc" else other_result.decoder_sublayers
    cmp = inside.compare_norms(own, inside.residual_sum(other_subs, layer_index, names[0], names[1]))
    return Parts().add(
        Text(t("inside.bn.text", other=md_escape(other_result.source_text), n=cmp.length,
               m=len(other_subs["input"][layer_index]), pad=cmp.padding)),
        first_numbers([
            (t("inside.bn.ln_alone"), cmp.layer_alone[0]),
            (t("inside.bn.ln_batch"), cmp.layer_in_batch[0]),
            (t("inside.bn.bn_alone"), cmp.batch_alone[0]),
            (t("inside.bn.bn_batch"), cmp.batch_in_batch[0]),
            (t("inside.bn.bn_real"), cmp.batch_real_tokens[0]),
        ], positions(tokens)[0]),
        Text(t("inside.bn.result", ln=difference(cmp.layer_difference), bn=difference(cmp.batch_difference),
               real=difference(cmp.batch_real_difference)))).done()


def sublayer_section(live: Live, block: str, settings: Settings) -> BlockView:
    stack, layer_number, name = block.split(".")
    layer_index = int(layer_number)
    translator, result = live.translator, live.result
    tokens, key, subs = sides(result, stack)
    c = translator.config
    layer = (inside.encoder_layer if stack == "enc" else inside.decoder_layer)(result, layer_index, translator.weight,
                                                                               c.activation)
    x_name, sub_name, out_name, norm_attr = SUBLAYERS[(stack, name)]
    chosen = picker(key, tokens, settings)
    index = chosen.index
    T, d = len(tokens), c.d_model
    after = Parts().add(
        panels([(f"{t(f'inside.tensor.{n}')} {shape(T, d)}", subs[n][layer_index]) for n in (x_name, sub_name,
                                                                                              out_name)],
               tokens, f"inside.{stack}.{layer_index}.{name}.panels", block_name(block)))
    if (stack, layer_index, name) == ("enc", c.n_encoder_layers - 1, "ffn"):  # what "Encoder output" opens
        after.add(Notice(t("inside.memory.note", shape=shape(T, d), dec=c.n_decoder_layers)))
    after.add(Heading(t("inside.diagram.masked_self_attn" if (stack, name) == ("dec", "self_attn")
                        else f"inside.diagram.{name}"), 3))
    after.add(*(ffn_part(translator, layer, index, tokens) if name == "ffn"
                else attention_part(stack, name, layer, index, tokens)))
    after.add(Heading(t("inside.norm.header"), 3))
    after.add(*add_norm_part(live, getattr(layer, norm_attr), (x_name, sub_name, out_name), index, stack,
                             layer_index))
    return BlockView(block_name(block), (), chosen, after.done())


# ---------------------------------------------------------------- output


def output_section(live: Live, settings: Settings) -> BlockView:
    translator, result = live.translator, live.result
    c = translator.config
    embedding = translator.weight("tgt_embed.weight")  # (vocab, d)
    bias = translator.weight("output_bias") if c.output_bias else None
    banned = translator.generation_config.banned(c)
    out = inside.output(result.decoder_sublayers["output"][-1], embedding, bias, banned,
                        [s.chosen.token_id for s in result.steps], [s.chosen.prob for s in result.steps])
    T, (vocab, d) = len(result.target_tokens), embedding.shape
    before = Parts().add(
        Text(t("inside.out.text", t=T, d=d, v=f"{vocab:,}", h=shape(T, d), e=shape(d, vocab), logits=shape(T, vocab))),
        Formula(r"\mathrm{logits} = h\,E_{tgt}^\top" + (r" + b" if bias is not None else "") +
                r",\qquad \mathrm{softmax}(z)_i = \frac{e^{z_i}}{\sum_{j=1}^{V} e^{z_j}}"),
        Text(t("inside.out.bias" if bias is not None else "inside.out.no_bias")),
        Text(t("inside.out.banned", n=len(banned), ids=listing(banned))))
    chosen = picker(TGT_TOKEN, result.target_tokens, settings)
    index = chosen.index
    step = result.steps[index]
    # the top candidates, and the chosen token after them where a beam search took one outside them
    outside = all(cand.token_id != step.chosen.token_id for cand in step.candidates)
    shown = [*step.candidates, *([step.chosen] if outside else [])]
    names, ids = [cand.token for cand in shown], [cand.token_id for cand in shown]
    probs = out.probs[index, ids]
    k = len(step.candidates)
    same_top = [int(i) for i in out.top(index, k)[0]] == ids[:k]
    after = Parts().add(
        Text(t("inside.out.position", input=md_escape(chosen.labels[index]), chosen=md_escape(step.chosen.token),
               prob=f"{out.chosen.recomputed[index]:.4f}", model=f"{step.chosen.prob:.4f}")),
        Table(table(np.stack([out.logits[index, ids], probs, [cand.prob for cand in shown]]).T, positions(names),
                    [t("inside.col.logit"), t("inside.col.prob"), t("inside.col.model_prob")],
                    index_name=t("inside.col.candidate"))),
        Chart(candidates_chart(names, probs, ids.index(step.chosen.token_id), token_title=t("inside.axis.candidate"),
                               value_label=t("inside.axis.prob"), room=Room(480)), "inside.output.candidates"),
        verdict(t("inside.out.check", t=T, diff=difference(out.chosen.max_difference),
                  top=t("inside.out.same_top" if same_top else "inside.out.other_top", k=k)),
                out.chosen.max_difference if same_top else np.inf),
        Heading(t("inside.tf.header"), 3),
        Text(t("inside.tf.text")),
        Table(pd.DataFrame({t("inside.tf.input"): result.target_tokens, t("inside.tf.target"): result.output_tokens},
                           index=pd.Index(range(T), name=t("inside.tf.position")))),
        Text(t("inside.tf.inference", first=md_escape(result.output_tokens[0]),
               second=md_escape(result.target_tokens[1] if T > 1 else result.output_tokens[0]))))
    return BlockView(block_name("output"), before.done(), chosen, after.done())


# ---------------------------------------------------------------- the page


def diagram_figure(n_encoder: int, n_decoder: int, selected: str) -> go.Figure:
    """architecture_figure, built once per model shape, language and open block for every session (the server's
    result cache): building it takes a third of this page's run (py-spy). Shared, so read only: chart() sends a
    copy, or enlarges one."""
    labels = tuple((k, t(f"inside.diagram.{k}")) for k in DIAGRAM_LABELS)
    title, click_hint = t("inside.diagram.title"), t("inside.diagram.click")
    args = (n_encoder, n_decoder, labels, selected, title, click_hint)
    return result_cache.shared().get(("inside.diagram", *args), lambda: architecture_figure(
        n_encoder, n_decoder, dict(labels), selected=selected, title=title, click_hint=click_hint,
        width=DIAGRAM_WIDTH_PX, height=DIAGRAM_HEIGHT_PX))


def block_section(live: Live, settings: Settings) -> BlockView:
    block = settings.block
    if block in ("src_embed", "tgt_embed"):
        return embedding_section(live, block, settings)
    if block == "output":
        return output_section(live, settings)
    return sublayer_section(live, block, settings)


def banner(result: TranslationResult) -> tuple:
    """The sentence the live sections use, as plain text (user text never goes through Markdown), and the note on
    names the model read as others."""
    note = translations.names_note(result)
    return Parts().add(Caption(t("teach.sentence.caption")), Plain(f"{result.source_text}  →  {result.translation}"),
                       Caption(md_escape(note)) if note else None).done()


def view(live: Live, settings: Settings) -> InsideView:
    """The page for `live`'s sentence with `settings.block` open; KeyError where the block is not one of the
    model's (the page keeps its picker's value among them)."""
    config = live.translator.config
    blocks = tuple(architecture_blocks(config.n_encoder_layers, config.n_decoder_layers))
    if settings.block not in blocks:
        raise KeyError(settings.block)
    intro = t("inside.intro", enc=config.n_encoder_layers, dec=config.n_decoder_layers, d=config.d_model,
              heads=config.n_heads, dff=config.d_ff, source=direction.language_name(config.source_language),
              target=direction.language_name(config.target_language))
    return InsideView(t("inside.title"), intro, banner(live.result),
                      diagram_figure(config.n_encoder_layers, config.n_decoder_layers, settings.block), blocks,
                      {b: block_name(b) for b in blocks}, t("inside.pick.block"), t("inside.pick.token"),
                      block_section(live, settings))
