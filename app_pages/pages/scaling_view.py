"""What the scaling page shows, computed without drawing anything (scaling.py draws it, with its d_k slider): why
q·k is divided by √d_k (its variance grows with d_k, unscaled scores saturate the softmax, the worked example's
scores), and why the embeddings are multiplied by √d_model (the model's embedding rows against the length of a PE
row). Plain data out (components/parts); tests/test_scaling_view.py reads it without Streamlit."""

from __future__ import annotations

import math

import numpy as np

from app_pages.components.parts import Chart, Formula, Heading, Notice, Text
from app_pages.components.teaching_shared import num
from app_pages.shell.text import t
from lessons import scaling
from lessons.worked_example import PAPER_D_K, thinking_machines
from model import ModelConfig
from viz.options import Frame
from viz.teaching_anatomy import horizontal_bars
from viz.teaching_scaling import softmax_comparison_figure, variance_figure

DEFAULT_D_K = 64  # the d_k slider's first value: the paper's
# The argument, beside the page's one control.
VARIANCE_FORMULA = Formula(
    r"\begin{gathered}q\cdot k = \sum_{j=1}^{d_k} q_j k_j \\ \mathrm{Var}(q_j k_j) = 1 \;\Rightarrow\; "
    r"\mathrm{Var}(q\cdot k) = d_k,\\ \mathrm{Var}\!\left(\frac{q\cdot k}{\sqrt{d_k}}\right) = 1\end{gathered}")


def variance_parts(d_k: int) -> tuple:
    """The variance of q·k against d_k, scaled and not, sampled; the picked `d_k`'s numbers."""
    raw_var, scaled_var = scaling.dot_product_variance()
    figure = variance_figure(scaling.D_K_CHOICES, raw_var, scaled_var, d_k,
                             frame=Frame(t("scaling.var.fig", samples=f"{scaling.SAMPLES:,}"), "d_k",
                                         t("scaling.var.axis")),
                             raw_label=t("scaling.var.raw"), scaled_label=t("scaling.var.scaled"),
                             theory_label=t("scaling.var.theory"))
    i = scaling.D_K_CHOICES.index(d_k)
    return (Heading(t("scaling.var.header"), 3), Chart(figure, "scaling.var"),
            Text(t("scaling.var.text", d=d_k, raw=f"{raw_var[i]:.1f}", scaled=f"{scaled_var[i]:.2f}",
                   std=f"{math.sqrt(raw_var[i]):.1f}")))


def saturation_parts(d_k: int) -> tuple:
    """The softmax of one query's unscaled scores against its scaled ones at `d_k`, and what that does to the
    gradient."""
    sat = scaling.saturation(d_k)
    keys = [f"k{j}" for j in range(scaling.N_KEYS)]
    figure = softmax_comparison_figure(keys, sat.raw_weights, sat.scaled_weights,
                                       title=t("scaling.sat.fig", d=d_k, n=scaling.N_KEYS),
                                       key_title=t("scaling.sat.keys", n=scaling.N_KEYS),
                                       weight_title=t("scaling.sat.weight"), raw_label=t("scaling.sat.raw"),
                                       scaled_label=t("scaling.sat.scaled", root=f"{math.sqrt(d_k):.2f}"))
    mean_raw, mean_scaled = scaling.mean_max_weight(d_k)
    text = t("scaling.sat.text", d=d_k, top_raw=f"{sat.raw_weights.max():.3f}",
             top_scaled=f"{sat.scaled_weights.max():.3f}", grad_raw=f"{sat.largest_gradient(sat.raw_weights):.2e}",
             grad_scaled=f"{sat.largest_gradient(sat.scaled_weights):.3f}", mean_raw=f"{mean_raw:.3f}",
             mean_scaled=f"{mean_scaled:.3f}", uniform=f"{1 / scaling.N_KEYS:.3f}", trials=scaling.TRIALS)
    gradient = Formula(rf"\begin{{gathered}}\frac{{\partial\,\mathrm{{softmax}}_i}}{{\partial z_i}} = w_i(1 - w_i)"
                       rf" \\ w_i(1 - w_i) \to 0 \quad\text{{{t('scaling.tex.when')}}}\end{{gathered}}")
    return (Heading(t("scaling.sat.header"), 3), Chart(figure, "scaling.sat"), Text(text), gradient)


def toy_parts() -> tuple:
    """The worked example's scores: it borrows the paper's d_k = 8, and its entries are far from variance 1."""
    paper = thinking_machines()
    toy = thinking_machines(d_k=paper.q.shape[1])  # the toy vectors' own width
    # The √d_k argument assumes entries of mean 0 and variance 1: their mean square would be 1.
    mean_square = float(np.mean(np.concatenate([paper.q.ravel(), paper.k.ravel()]) ** 2))
    return (Heading(t("scaling.toy.header"), 3),
            Text(t("scaling.toy.text", a=num(paper.scores[0]), b=num(paper.scores[1]), w8=f"{paper.weights[0]:.4f}",
                   w3=f"{toy.weights[0]:.5f}", root3=f"{toy.divisor:.3f}", root=num(paper.divisor), d_k=PAPER_D_K,
                   width=paper.q.shape[1], ms=f"{mean_square:.0f}")))


def dk_parts(d_k: int) -> tuple:
    """Everything under the d_k slider: the variance, the saturated softmax, the worked example."""
    return (*variance_parts(d_k), *saturation_parts(d_k), *toy_parts())


def embedding_parts(config: ModelConfig, source_table: np.ndarray, target_table: np.ndarray) -> tuple:
    """The model's embedding rows (`source_table`, `target_table`: its two embedding matrices), with and without
    × √d_model, against the length of a PE row; and how long they were at initialisation."""
    source = scaling.embedding_scale(source_table, config.pad_id)
    target = scaling.embedding_scale(target_table, config.pad_id)
    root = math.sqrt(config.d_model)
    labels = [t("scaling.emb.bar", table=t(f"scaling.emb.{name}"), factor=factor)
              for name in ("source", "target") for factor in ("1", f"√{config.d_model} = {num(root, 2)}")]
    figure = horizontal_bars(labels + [t("scaling.emb.pe")],
                             [source.raw, source.scaled, target.raw, target.scaled, source.positional],
                             title=t("scaling.emb.fig"), value_title=t("scaling.emb.length"), decimals=2)
    text = t("scaling.emb.text", pe=f"{source.positional:.2f}", rows=f"{config.src_vocab_size - 1:,}",
             raw=f"{source.raw:.2f}", ratio_raw=f"{source.ratio(False):.2f}", d=config.d_model, root=num(root, 2),
             scaled=f"{source.scaled:.2f}", ratio_scaled=f"{source.ratio(True):.2f}", tgt_raw=f"{target.raw:.2f}",
             tgt_scaled=f"{target.scaled:.2f}")
    return (Chart(figure, "scaling.emb"), Text(text),
            Notice(t("scaling.emb.init", raw=f"{source.raw:.2f}", tgt_raw=f"{target.raw:.2f}")))
