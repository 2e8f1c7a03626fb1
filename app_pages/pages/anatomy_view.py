"""What the model-anatomy page shows, computed without drawing anything (anatomy.py draws it, with its ε slider):
parameters per component against the notes' formulas, forward-pass FLOPs, the run's learning-rate schedule and
curves, label smoothing, and the encoder FFN's units that never fire. Plain data out (components/parts);
tests/test_anatomy_view.py reads it without Streamlit."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from app_pages.components.parts import Chart, Columns, Formula, Heading, Notice, Parts, Table, Text
from app_pages.components.teaching_shared import join, num
from app_pages.shell.text import hardware_name, md_escape, t
from lessons import anatomy
from model import FfnUnits, ModelConfig, TrainingArgs, TrainingLog, TranslationResult, learning_rate, peak_learning_rate
from viz.options import Frame
from viz.teaching_anatomy import (dead_units_figure, horizontal_bars, label_smoothing_figure, lr_figure,
                                  training_curves_figure)

FORMULAS = {
    "src_embed": "V_src·H",
    "tgt_embed": "V_tgt·H",
    "tgt_embed_shared": "0",
    "output_projection": "0",
    "output_bias": "V_tgt",
    "positional": "0",
    "encoder.self_attn": "4H² + 4H",
    "encoder.ffn": "2H·d_ff + d_ff + H",
    "encoder.norms": "2 × 2H",
    "decoder.self_attn": "4H² + 4H",
    "decoder.cross_attn": "4H² + 4H",
    "decoder.ffn": "2H·d_ff + d_ff + H",
    "decoder.norms": "3 × 2H",
}
DEAD_CHART_PX = 420  # the dead-units chart: all of it on a 1280×800 screen, under the title and tabs
SMOOTHING_CLASSES = 10  # a small vocabulary, so that every bar of the smoothed target is visible
DEFAULT_EPSILON = 0.1  # the ε slider's first value where the run's log does not say what it used
LR_POINTS = 400  # steps at which the schedule's curve is computed
SMOOTHING_FORMULA = Formula(r"y^{smooth} = (1-\varepsilon)\,y^{one\text{-}hot} + \frac{\varepsilon}{C}")
LR_FORMULA = Formula(r"\mathrm{lrate} = \text{factor}\cdot d_{model}^{-0.5}\cdot"
                     r"\min\!\left(step^{-0.5},\ step\cdot warmup^{-1.5}\right)")


def intro(config: ModelConfig, source: str, target: str) -> str:
    """The page's introduction: the model's sizes, reading `source` and writing `target` (the languages' names)."""
    return t("anatomy.intro", d=config.d_model, heads=config.n_heads, d_ff=config.d_ff, enc=config.n_encoder_layers,
             dec=config.n_decoder_layers, vs=config.src_vocab_size, vt=config.tgt_vocab_size, source=source,
             target=target)


def parameters_parts(config: ModelConfig, counts: Mapping[str, int], logged: int | None) -> tuple:
    """Parameters per component: the chart first, then the notes' formula against what the loaded model holds
    (`counts`: its parameter tensors' sizes by name) and what its training log counted (`logged`)."""
    breakdown = anatomy.parameter_breakdown(config)
    actual = anatomy.group_parameter_names(dict(counts))
    figure = horizontal_bars([t(f"anatomy.part.{c.key}") for c in breakdown if c.total],
                             [c.total for c in breakdown if c.total], title=t("anatomy.params.fig"),
                             value_title=t("anatomy.params.axis"))
    frame = pd.DataFrame({
        t("anatomy.col.component"): [t(f"anatomy.part.{c.key}") for c in breakdown],
        t("anatomy.col.formula"): [FORMULAS[c.key] for c in breakdown],
        t("anatomy.col.each"): [f"{c.each:,}" for c in breakdown],
        t("anatomy.col.copies"): [c.copies for c in breakdown],
        t("anatomy.col.total"): [f"{c.total:,}" for c in breakdown],
        t("anatomy.col.model"): [f"{actual.get(c.key, 0):,}" for c in breakdown],
    })
    total = t("anatomy.params.total", formula=f"{anatomy.total_parameters(config):,}",
              model=f"{sum(actual.values()):,}", logged=f"{logged:,}" if logged else "—")
    return (Chart(figure, "anatomy.params"), Table(frame, hide_index=True, width="stretch"), Notice(total, "success"))


def formula_parts(config: ModelConfig, counts: Mapping[str, int], source: str, target: str) -> tuple:
    """The notes' 12H² + 13H per encoder layer (16H² + 19H per decoder layer), checked on the model's first layers
    (`counts`: its parameter tensors' sizes by name); `source`, `target`: the languages' names."""
    H = config.d_model
    encoder_actual = anatomy.layer_parameters(dict(counts), "encoder", 0)
    decoder_actual = anatomy.layer_parameters(dict(counts), "decoder", 0)
    ratio = config.d_ff / H
    return (
        Heading(t("anatomy.formula.header"), 3),
        Formula(rf"\underbrace{{4H^2 + 4H}}_{{\text{{{t('anatomy.tex.attention')}}}}} + "
                rf"\underbrace{{8H^2 + 5H}}_{{\text{{FFN}},\ d_{{ff}} = 4H}} + "
                rf"\underbrace{{4H}}_{{\text{{{t('anatomy.tex.norms')}}}}} = 12H^2 + 13H"),
        Text(t("anatomy.formula.text" if ratio == 4 else "anatomy.formula.text_other", h=H, ratio=num(ratio),
               formula=f"{anatomy.note_formula(H):,}", layer=f"{anatomy.encoder_layer_params(H, config.d_ff):,}",
               model=f"{encoder_actual:,}")),
        Formula(rf"\begin{{aligned}}\text{{{t('anatomy.tex.decoder')}}} &= 12H^2 + 13H + "
                rf"\underbrace{{4H^2 + 4H}}_{{\text{{{t('anatomy.tex.cross')}}}}} + "
                rf"\underbrace{{2H}}_{{\text{{{t('anatomy.tex.norm3')}}}}} \\ &= 16H^2 + 19H\end{{aligned}}"),
        Text(t("anatomy.formula.decoder", formula=f"{anatomy.decoder_formula(H):,}",
               layer=f"{anatomy.decoder_layer_params(H, config.d_ff):,}", model=f"{decoder_actual:,}")),
        Notice(t("anatomy.formula.note", source=source, target=target)),
    )


def flops_parts(config: ModelConfig, result: TranslationResult) -> tuple:
    """Forward-pass FLOPs of `result`'s sentence, per part of the model."""
    H = config.d_model
    S, T = len(result.source_tokens), len(result.target_tokens)
    flops = anatomy.forward_flops(config, S, T)
    total_flops = sum(f.flops for f in flops)
    encoder_layer = sum(f.flops for f in flops if f.key.startswith("encoder")) // config.n_encoder_layers
    figure = horizontal_bars([t(f"anatomy.flop.{f.key}") for f in flops], [f.flops for f in flops],
                             title=t("anatomy.flops.fig", s=S, t=T), value_title="FLOPs")
    return (Text(t("anatomy.flops.text", s=S, t=T, total=f"{total_flops:,}", mflops=f"{total_flops / 1e6:.1f}",
                   note=f"{24 * S * H * H + 4 * S * S * H:,}", mine=f"{encoder_layer:,}")),
            Chart(figure, "anatomy.flops"), Notice(t("anatomy.flops.note")))


def learning_rate_parts(config: ModelConfig, log: TrainingLog, checkpoint: str) -> tuple:
    """The warm-up schedule of the run, against the rates its log kept; what is missing where the log (of the model
    in folder `checkpoint`) does not keep the trainer's arguments, or there is none."""
    if log.args is None or log.args.warmup is None:
        return (LR_FORMULA, Notice(t("anatomy.curves.missing", folder=checkpoint)))
    H, warmup, factor, train = config.d_model, log.args.warmup, log.args.lr_factor, log.train
    steps = np.linspace(1, max([e.step for e in train] + [3 * warmup]), LR_POINTS)
    figure = lr_figure(steps, learning_rate(steps, H, warmup, factor), [e.step for e in train], [e.lr for e in train],
                       warmup, frame=Frame(t("anatomy.lr.fig"), t("anatomy.axis.step"), t("anatomy.axis.lr")),
                       names=(t("anatomy.lr.formula"), t("anatomy.lr.logged"), t("anatomy.lr.warmup", w=warmup)))
    return (LR_FORMULA, Text(t("anatomy.lr.text", warmup=warmup, factor=num(factor), d=H,
                               peak=f"{peak_learning_rate(H, warmup, factor):.2e}")),
            Chart(figure, "anatomy.lr"))


def or_dash(value):
    """A logged value, or — where the log has none."""
    return "—" if value is None else value


def curves_parts(log: TrainingLog, checkpoint: str) -> tuple:
    """The run's loss and dev scores, and which weights were shipped; what is missing where the log (of the model in
    folder `checkpoint`) has no losses."""
    train, dev, best, average = log.train, log.dev, log.best, log.average
    header = Heading(t("anatomy.curves.header"), 3)
    if not train:
        return (header, Notice(t("anatomy.curves.missing", folder=checkpoint)))
    if log.shipped_average:
        shipped = t("anatomy.curves.average", first=average.epochs[0], last=average.epochs[-1], bleu=average.bleu,
                    chrf=average.chrf)
    else:
        shipped = t("anatomy.curves.best")
    text = t("anatomy.curves.text", steps=log.steps_done, minutes=or_dash(log.train_minutes),
             hardware=md_escape(hardware_name(log.hardware)), best_step=or_dash(best and best.step),
             bleu=or_dash(best and best.bleu), chrf=or_dash(best and best.chrf), shipped=shipped)
    figure = training_curves_figure([e.step for e in train], [e.loss for e in train], [e.step for e in dev],
                                    [e.loss for e in dev], [e.bleu for e in dev], [e.chrf for e in dev],
                                    frame=Frame(t("anatomy.curves.fig"), t("anatomy.axis.step"),
                                                t("anatomy.axis.loss"), t("anatomy.axis.score")),
                                    labels=(t("anatomy.curves.train"), t("anatomy.curves.dev"), "BLEU", "chrF"))
    return (header, Text(text), Chart(figure, "anatomy.curves"))


def starting_epsilon(settings: TrainingArgs | None) -> float:
    """The ε slider's first value: the run's own (`settings`: its arguments; None: a log without them)."""
    return float(settings.label_smoothing if settings else DEFAULT_EPSILON)


def smoothing_parts(config: ModelConfig, settings: TrainingArgs | None, epsilon: float, target: str) -> tuple:
    """The smoothed target for the student's `epsilon`, and its loss floor with the model's vocabulary; `settings`:
    the run's arguments (None: a log without them); `target`: the target language's name."""
    classes = [f"c{i}" for i in range(SMOOTHING_CLASSES)]
    hard = anatomy.smoothed_target(SMOOTHING_CLASSES, 0, 0.0)
    figure = label_smoothing_figure(classes, hard, anatomy.smoothed_target(SMOOTHING_CLASSES, 0, epsilon),
                                    title=t("anatomy.ls.fig", c=SMOOTHING_CLASSES, eps=num(epsilon, 2)),
                                    class_title=t("anatomy.ls.classes"), prob_title=t("anatomy.ls.prob"),
                                    hard_label=t("anatomy.ls.hard"), smooth_label=t("anatomy.ls.smooth"))
    V = config.tgt_vocab_size
    real = anatomy.smoothed_target(V, 0, epsilon)
    return (Chart(figure, "anatomy.ls"),
            Text(t("anatomy.ls.text", eps=num(epsilon, 2), v=V, top=f"{real[0]:.5f}", rest=f"{real[1]:.2e}",
                   floor=f"{anatomy.smoothed_loss_floor(V, epsilon):.3f}",
                   used=num(settings.label_smoothing, 2) if settings else "—", target=target)))


def dead_counts(config: ModelConfig, own: np.ndarray, examples: Sequence[np.ndarray], dev: FfnUnits | None
                ) -> tuple[list, list[str]]:
    """Per encoder layer, the FFN units 0 for every token of the session's sentence (`own`: its hidden units), of
    the examples, and, where the log counted them for this d_ff, of the dev set; with each count's name."""
    counts = [anatomy.dead_units([own]), anatomy.dead_units(list(examples))]
    names = [t("anatomy.dead.sentence"), t("anatomy.dead.examples", n=len(examples))]
    if dev is not None and dev.d_ff == config.d_ff:
        counts.append(config.d_ff - np.asarray(dev.used))
        names.append(t("anatomy.dead.devset", n=f"{dev.sentences:,}"))
    return counts, names


def dead_units_parts(config: ModelConfig, sentences: Sequence[str], hidden_of: Callable[[str], np.ndarray],
                     dev: FfnUnits | None) -> tuple:
    """Per encoder layer, the FFN units that are 0 for every token: of `sentences` (the session's first, then the
    examples), whose hidden units `hidden_of` gives, and of the dev set (`dev`: the log's count; None where it has
    none). A model whose FFN is not ReLU has no such units: said so."""
    if config.activation != "relu":
        return (Notice(t("anatomy.dead.swish", activation=config.activation)),)
    own, *examples = [hidden_of(s) for s in sentences]
    counts, names = dead_counts(config, own, examples, dev)
    figure = dead_units_figure([str(i + 1) for i in range(config.n_encoder_layers)], counts, names=names,
                               title=t("anatomy.dead.fig", d_ff=f"{config.d_ff:,}"),
                               layer_title=t("anatomy.dead.layer"), count_title=t("anatomy.dead.count"),
                               max_height=DEAD_CHART_PX)
    text = Parts().add(Text(t("anatomy.dead.text", d_ff=f"{config.d_ff:,}", tokens=own.shape[1], dead=join(counts[0]),
                              n=len(examples), example_tokens=sum(h.shape[1] for h in examples),
                              example_dead=join(counts[1]))))
    if len(counts) == 3:
        used = np.asarray(dev.used)
        text.add(Text(t("anatomy.dead.dev", sentences=f"{dev.sentences:,}", used=join(f"{u:,}" for u in used),
                        d_ff=f"{config.d_ff:,}", last=f"{used[-1]:,}", share=f"{100 * used[-1] / config.d_ff:.0f}")))
    else:
        text.add(Notice(t("anatomy.dead.no_dev")))
    # Side by side: the chart and its numbers on the first screen.
    return (Columns(((Chart(figure, "anatomy.dead"),), text.done()), spec=(2, 3), gap="medium"),
            Notice(t("anatomy.dead.note")))
