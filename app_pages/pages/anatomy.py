"""Model anatomy and training: parameters per component against the notes' formula, FLOPs, LR schedule, curves, label
smoothing, and the encoder FFN's units that never fire."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from app_pages.state import direction, models, translations
from app_pages.shell import presentation
from app_pages.components.teaching_shared import example_sentences, join, num, sections, sentence_banner
from app_pages.shell.text import hardware_name, md_escape, t
from app_pages.components import charts, table_view
from lessons import anatomy
from model import ModelConfig, TrainingArgs, TrainingLog, Translator, learning_rate, peak_learning_rate
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


def parameters_section(translator: Translator) -> None:
    """Parameters per component: the chart first, then the notes' formula against what the loaded model holds."""
    config = translator.config
    breakdown = anatomy.parameter_breakdown(config)
    actual = anatomy.group_parameter_names(translator.parameter_counts)
    charts.chart(
        horizontal_bars([t(f"anatomy.part.{c.key}") for c in breakdown if c.total],
                        [c.total for c in breakdown if c.total], title=t("anatomy.params.fig"),
                        value_title=t("anatomy.params.axis")),
        key="anatomy.params",
    )
    frame = pd.DataFrame({
        t("anatomy.col.component"): [t(f"anatomy.part.{c.key}") for c in breakdown],
        t("anatomy.col.formula"): [FORMULAS[c.key] for c in breakdown],
        t("anatomy.col.each"): [f"{c.each:,}" for c in breakdown],
        t("anatomy.col.copies"): [c.copies for c in breakdown],
        t("anatomy.col.total"): [f"{c.total:,}" for c in breakdown],
        t("anatomy.col.model"): [f"{actual.get(c.key, 0):,}" for c in breakdown],
    })
    table_view.table(frame, hide_index=True, width="stretch")
    model_total = sum(actual.values())
    logged = TrainingLog.from_dict(translator.training_log).parameters
    st.success(t("anatomy.params.total", formula=f"{anatomy.total_parameters(config):,}", model=f"{model_total:,}",
                 logged=f"{logged:,}" if logged else "—"))


def formula_section(translator: Translator) -> None:
    """The notes' 12H² + 13H per encoder layer (16H² + 19H per decoder layer), checked on the model's first layers."""
    config = translator.config
    H = config.d_model
    st.subheader(t("anatomy.formula.header"))
    st.latex(rf"\underbrace{{4H^2 + 4H}}_{{\text{{{t('anatomy.tex.attention')}}}}} + "
             rf"\underbrace{{8H^2 + 5H}}_{{\text{{FFN}},\ d_{{ff}} = 4H}} + "
             rf"\underbrace{{4H}}_{{\text{{{t('anatomy.tex.norms')}}}}} = 12H^2 + 13H")
    encoder_actual = anatomy.layer_parameters(translator.parameter_counts, "encoder", 0)
    decoder_actual = anatomy.layer_parameters(translator.parameter_counts, "decoder", 0)
    ratio = config.d_ff / H
    st.markdown(t("anatomy.formula.text" if ratio == 4 else "anatomy.formula.text_other", h=H, ratio=num(ratio),
                  formula=f"{anatomy.note_formula(H):,}", layer=f"{anatomy.encoder_layer_params(H, config.d_ff):,}",
                  model=f"{encoder_actual:,}"))
    st.latex(rf"\begin{{aligned}}\text{{{t('anatomy.tex.decoder')}}} &= 12H^2 + 13H + "
             rf"\underbrace{{4H^2 + 4H}}_{{\text{{{t('anatomy.tex.cross')}}}}} + "
             rf"\underbrace{{2H}}_{{\text{{{t('anatomy.tex.norm3')}}}}} \\ &= 16H^2 + 19H\end{{aligned}}")
    st.markdown(t("anatomy.formula.decoder", formula=f"{anatomy.decoder_formula(H):,}",
                  layer=f"{anatomy.decoder_layer_params(H, config.d_ff):,}", model=f"{decoder_actual:,}"))
    st.info(t("anatomy.formula.note", source=direction.source_name(), target=direction.target_name()))


def flops_section(config: ModelConfig) -> None:
    """Forward-pass FLOPs of the session's sentence, per part of the model."""
    H = config.d_model
    result = translations.current_result()
    sentence_banner(result)
    S, T = len(result.source_tokens), len(result.target_tokens)
    flops = anatomy.forward_flops(config, S, T)
    total_flops = sum(f.flops for f in flops)
    st.markdown(t("anatomy.flops.text", s=S, t=T, total=f"{total_flops:,}", mflops=f"{total_flops / 1e6:.1f}",
                  note=f"{24 * S * H * H + 4 * S * S * H:,}",
                  mine=f"{sum(f.flops for f in flops if f.key.startswith('encoder')) // config.n_encoder_layers:,}"))
    charts.chart(horizontal_bars([t(f"anatomy.flop.{f.key}") for f in flops], [f.flops for f in flops],
                                  title=t("anatomy.flops.fig", s=S, t=T), value_title="FLOPs"), key="anatomy.flops")
    st.info(t("anatomy.flops.note"))


def learning_rate_section(translator: Translator) -> None:
    """The warm-up schedule of the run, against the rates its log kept."""
    H, log = translator.config.d_model, TrainingLog.from_dict(translator.training_log)
    st.latex(r"\mathrm{lrate} = \text{factor}\cdot d_{model}^{-0.5}\cdot\min\!\left(step^{-0.5},\ step\cdot warmup^{-1.5}\right)")
    if log.args is None or log.args.warmup is None:  # a checkpoint without a training log, or one whose log
        st.info(t("anatomy.curves.missing", folder=translator.checkpoint))  # does not keep the trainer's arguments
        return
    warmup, factor, train = log.args.warmup, log.args.lr_factor, log.train
    steps = np.linspace(1, max([e.step for e in train] + [3 * warmup]), 400)
    st.markdown(t("anatomy.lr.text", warmup=warmup, factor=num(factor), d=H,
                  peak=f"{peak_learning_rate(H, warmup, factor):.2e}"))
    charts.chart(
        lr_figure(steps, learning_rate(steps, H, warmup, factor), [e.step for e in train], [e.lr for e in train],
                  warmup, frame=Frame(t("anatomy.lr.fig"), t("anatomy.axis.step"), t("anatomy.axis.lr")),
                  names=(t("anatomy.lr.formula"), t("anatomy.lr.logged"), t("anatomy.lr.warmup", w=warmup))),
        key="anatomy.lr",
    )


def or_dash(value):
    """A logged value, or — where the log has none."""
    return "—" if value is None else value


def curves_section(translator: Translator) -> None:
    """The run's loss and dev scores, and which weights were shipped."""
    log = TrainingLog.from_dict(translator.training_log)
    train, dev, best, average = log.train, log.dev, log.best, log.average
    st.subheader(t("anatomy.curves.header"))
    if not train:
        st.info(t("anatomy.curves.missing", folder=translator.checkpoint))
        return
    if log.shipped_average:
        shipped = t("anatomy.curves.average", first=average.epochs[0], last=average.epochs[-1],
                    bleu=average.bleu, chrf=average.chrf)
    else:
        shipped = t("anatomy.curves.best")
    st.markdown(t("anatomy.curves.text", steps=log.steps_done, minutes=or_dash(log.train_minutes),
                  hardware=md_escape(hardware_name(log.hardware)), best_step=or_dash(best and best.step),
                  bleu=or_dash(best and best.bleu), chrf=or_dash(best and best.chrf), shipped=shipped))
    charts.chart(
        training_curves_figure([e.step for e in train], [e.loss for e in train], [e.step for e in dev],
                               [e.loss for e in dev], [e.bleu for e in dev], [e.chrf for e in dev],
                               frame=Frame(t("anatomy.curves.fig"), t("anatomy.axis.step"), t("anatomy.axis.loss"),
                                           t("anatomy.axis.score")),
                               labels=(t("anatomy.curves.train"), t("anatomy.curves.dev"), "BLEU", "chrF")),
        key="anatomy.curves",
    )


def label_smoothing_section(config: ModelConfig, settings: TrainingArgs | None) -> None:
    """The smoothed target for an ε the student picks, and its loss floor with the model's vocabulary; `settings`:
    the run's arguments (None: a log without them, so no ε to start from)."""
    st.latex(r"y^{smooth} = (1-\varepsilon)\,y^{one\text{-}hot} + \frac{\varepsilon}{C}")
    epsilon = st.slider(t("anatomy.ls.eps"), 0.0, 0.5, float(settings.label_smoothing if settings else 0.1), 0.05,
                        persist_state="session", key="anatomy.ls.eps")
    classes = [f"c{i}" for i in range(SMOOTHING_CLASSES)]
    hard = anatomy.smoothed_target(SMOOTHING_CLASSES, 0, 0.0)
    charts.chart(
        label_smoothing_figure(classes, hard, anatomy.smoothed_target(SMOOTHING_CLASSES, 0, epsilon),
                               title=t("anatomy.ls.fig", c=SMOOTHING_CLASSES, eps=num(epsilon, 2)),
                               class_title=t("anatomy.ls.classes"), prob_title=t("anatomy.ls.prob"),
                               hard_label=t("anatomy.ls.hard"), smooth_label=t("anatomy.ls.smooth")),
        key="anatomy.ls",
    )
    V = config.tgt_vocab_size
    real = anatomy.smoothed_target(V, 0, epsilon)
    st.markdown(t("anatomy.ls.text", eps=num(epsilon, 2), v=V, top=f"{real[0]:.5f}", rest=f"{real[1]:.2e}",
                  floor=f"{anatomy.smoothed_loss_floor(V, epsilon):.3f}",
                  used=num(settings.label_smoothing, 2) if settings else "—",
                  target=direction.target_name()))


def hidden_of(sentence: str) -> np.ndarray:
    """(encoder layers, S, d_ff): the FFN hidden units of `sentence` (cached per input)."""
    checkpoint, device, _, _, language = translations.settings_for(sentence)
    return translations.ffn_activations(checkpoint, device, sentence, language)


def dead_units_section(translator: Translator) -> None:
    """Per encoder layer, the FFN units that are 0 for every token: the session's sentence, the examples, the dev set."""
    config, dev = translator.config, TrainingLog.from_dict(translator.training_log).ffn_units
    if config.activation != "relu":
        st.info(t("anatomy.dead.swish", activation=config.activation))
        return
    result = translations.current_result()
    own = hidden_of(result.source_text)
    sentences = example_sentences()  # in the language the model reads: the encoder sees only that
    examples = [hidden_of(s) for s in sentences]
    counts = [anatomy.dead_units([own]), anatomy.dead_units(examples)]
    names = [t("anatomy.dead.sentence"), t("anatomy.dead.examples", n=len(sentences))]
    if dev and dev.get("d_ff") == config.d_ff:
        counts.append(config.d_ff - np.asarray(dev["used"]))
        names.append(t("anatomy.dead.devset", n=f"{dev['sentences']:,}"))
    chart, text = st.columns([2, 3], gap="medium")  # side by side: the chart and its numbers on the first screen
    with chart:
        charts.chart(
            dead_units_figure([str(i + 1) for i in range(config.n_encoder_layers)], counts, names=names,
                              title=t("anatomy.dead.fig", d_ff=f"{config.d_ff:,}"), layer_title=t("anatomy.dead.layer"),
                              count_title=t("anatomy.dead.count"), max_height=DEAD_CHART_PX),
            key="anatomy.dead",
        )
    text.markdown(t("anatomy.dead.text", d_ff=f"{config.d_ff:,}", tokens=own.shape[1], dead=join(counts[0]),
                    n=len(sentences), example_tokens=sum(h.shape[1] for h in examples), example_dead=join(counts[1])))
    if len(counts) == 3:
        used = np.asarray(dev["used"])
        text.markdown(t("anatomy.dead.dev", sentences=f"{dev['sentences']:,}", used=join(f"{u:,}" for u in used),
                        d_ff=f"{config.d_ff:,}", last=f"{used[-1]:,}", share=f"{100 * used[-1] / config.d_ff:.0f}"))
    else:
        text.info(t("anatomy.dead.no_dev"))
    st.info(t("anatomy.dead.note"))
    sentence_banner(result)


translator = models.translator()
config = translator.config
presentation.page_title(t("anatomy.title"), t(
    "anatomy.intro", d=config.d_model, heads=config.n_heads, d_ff=config.d_ff, enc=config.n_encoder_layers,
    dec=config.n_decoder_layers, vs=config.src_vocab_size, vt=config.tgt_vocab_size, source=direction.source_name(),
    target=direction.target_name()))


def parameters_tab() -> None:
    parameters_section(translator)
    formula_section(translator)


def learning_rate_tab() -> None:
    learning_rate_section(translator)
    curves_section(translator)


sections("anatomy", {
    "params": parameters_tab,
    "flops": lambda: flops_section(config),
    "lr": learning_rate_tab,
    "ls": lambda: label_smoothing_section(config, TrainingLog.from_dict(translator.training_log).args),
    "dead": lambda: dead_units_section(translator),
})
