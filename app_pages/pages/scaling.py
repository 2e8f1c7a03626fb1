"""Why divide by √d_k: Var(q·k) grows with d_k, and unscaled scores saturate the softmax; and why the embeddings are
multiplied by √d_model (the shipped model's embedding rows against the PE's length)."""

from __future__ import annotations

import math

import numpy as np
import streamlit as st

from app_pages.state import models
from app_pages.shell import presentation
from app_pages.components.teaching_shared import num, sections
from app_pages.shell.text import t
from app_pages.components import charts
from lessons import scaling
from lessons.worked_example import PAPER_D_K, thinking_machines
from viz.options import Frame
from viz.teaching_anatomy import horizontal_bars
from viz.teaching_scaling import softmax_comparison_figure, variance_figure

def dk_section() -> None:
    """The variance of q·k against d_k, the saturated softmax, and the worked example's scores."""
    # The argument and the one control of the page side by side: the first chart follows right under them.
    formula, control = st.columns([3, 2], gap="medium", vertical_alignment="center")
    formula.latex(r"\begin{gathered}q\cdot k = \sum_{j=1}^{d_k} q_j k_j \\ \mathrm{Var}(q_j k_j) = 1 \;\Rightarrow\; "
                  r"\mathrm{Var}(q\cdot k) = d_k,\\ \mathrm{Var}\!\left(\frac{q\cdot k}{\sqrt{d_k}}\right) = 1\end{gathered}")
    with control:
        d_k = st.select_slider(t("scaling.dk"), scaling.D_K_CHOICES, value=64, persist_state="session", key="scaling.dk")

    st.subheader(t("scaling.var.header"))
    raw_var, scaled_var = scaling.dot_product_variance()
    charts.chart(
        variance_figure(scaling.D_K_CHOICES, raw_var, scaled_var, d_k,
                        frame=Frame(t("scaling.var.fig", samples=f"{scaling.SAMPLES:,}"), "d_k", t("scaling.var.axis")),
                        raw_label=t("scaling.var.raw"), scaled_label=t("scaling.var.scaled"),
                        theory_label=t("scaling.var.theory")),
        key="scaling.var",
    )
    i = scaling.D_K_CHOICES.index(d_k)
    st.markdown(t("scaling.var.text", d=d_k, raw=f"{raw_var[i]:.1f}", scaled=f"{scaled_var[i]:.2f}",
                  std=f"{math.sqrt(raw_var[i]):.1f}"))

    st.subheader(t("scaling.sat.header"))
    sat = scaling.saturation(d_k)
    keys = [f"k{j}" for j in range(scaling.N_KEYS)]
    charts.chart(
        softmax_comparison_figure(keys, sat.raw_weights, sat.scaled_weights, title=t("scaling.sat.fig", d=d_k, n=scaling.N_KEYS),
                                  key_title=t("scaling.sat.keys", n=scaling.N_KEYS), weight_title=t("scaling.sat.weight"),
                                  raw_label=t("scaling.sat.raw"), scaled_label=t("scaling.sat.scaled", root=f"{math.sqrt(d_k):.2f}")),
        key="scaling.sat",
    )
    mean_raw, mean_scaled = scaling.mean_max_weight(d_k)
    st.markdown(t("scaling.sat.text", d=d_k, top_raw=f"{sat.raw_weights.max():.3f}", top_scaled=f"{sat.scaled_weights.max():.3f}",
                  grad_raw=f"{sat.largest_gradient(sat.raw_weights):.2e}", grad_scaled=f"{sat.largest_gradient(sat.scaled_weights):.3f}",
                  mean_raw=f"{mean_raw:.3f}", mean_scaled=f"{mean_scaled:.3f}", uniform=f"{1 / scaling.N_KEYS:.3f}", trials=scaling.TRIALS))
    st.latex(rf"\begin{{gathered}}\frac{{\partial\,\mathrm{{softmax}}_i}}{{\partial z_i}} = w_i(1 - w_i) \\ "
             rf"w_i(1 - w_i) \to 0 \quad\text{{{t('scaling.tex.when')}}}\end{{gathered}}")

    st.subheader(t("scaling.toy.header"))
    paper = thinking_machines()
    toy = thinking_machines(d_k=paper.q.shape[1])  # the toy vectors' own width
    # The √d_k argument assumes entries of mean 0 and variance 1: their mean square would be 1.
    mean_square = float(np.mean(np.concatenate([paper.q.ravel(), paper.k.ravel()]) ** 2))
    st.markdown(t("scaling.toy.text", a=num(paper.scores[0]), b=num(paper.scores[1]),
                  w8=f"{paper.weights[0]:.4f}", w3=f"{toy.weights[0]:.5f}", root3=f"{toy.divisor:.3f}", root=num(paper.divisor), d_k=PAPER_D_K,
                  width=paper.q.shape[1], ms=f"{mean_square:.0f}"))


def embedding_section() -> None:
    """The shipped model's embedding rows, with and without × √d_model, against the length of a PE row."""
    translator = models.translator()
    config = translator.config
    source = scaling.embedding_scale(translator.weight("src_embed.weight"), config.pad_id)
    target = scaling.embedding_scale(translator.weight("tgt_embed.weight"), config.pad_id)
    root = math.sqrt(config.d_model)
    charts.chart(
        horizontal_bars([t("scaling.emb.bar", table=t(f"scaling.emb.{name}"), factor=factor)
                         for name in ("source", "target") for factor in ("1", f"√{config.d_model} = {num(root, 2)}")]
                        + [t("scaling.emb.pe")],
                        [source.raw, source.scaled, target.raw, target.scaled, source.positional],
                        title=t("scaling.emb.fig"), value_title=t("scaling.emb.length"), decimals=2),
        key="scaling.emb",
    )
    st.markdown(t("scaling.emb.text", pe=f"{source.positional:.2f}", rows=f"{config.src_vocab_size - 1:,}",
                  raw=f"{source.raw:.2f}", ratio_raw=f"{source.ratio(False):.2f}", d=config.d_model, root=num(root, 2),
                  scaled=f"{source.scaled:.2f}", ratio_scaled=f"{source.ratio(True):.2f}", tgt_raw=f"{target.raw:.2f}",
                  tgt_scaled=f"{target.scaled:.2f}"))
    st.info(t("scaling.emb.init", raw=f"{source.raw:.2f}", tgt_raw=f"{target.raw:.2f}"))


presentation.page_title(t("scaling.title"), t("scaling.intro"))
sections("scaling", {"dk": dk_section, "emb": embedding_section})
