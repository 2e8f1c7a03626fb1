"""How the shipped model was trained, from its own training log: Adam, the warm-up schedule, dropout, label
smoothing, length-bucketed batches, and BLEU taken apart on the student's translation."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import streamlit as st

from app_pages.state import direction, models, result_cache, state_keys, translations
from app_pages.shell import navigation, presentation
from app_pages.components.teaching_shared import (example_sentences, in_direction, num, sections, sentence_banner, show_table,
                                       signed)
from app_pages.shell.text import hardware_name, md_escape, sentences, t
from app_pages.components import charts, chips, table_view
from lessons import anatomy, training
from model import (
    DEFAULT_BEAM, ModelConfig, TrainingArgs, TrainingLog, Translator, clean_text, learning_rate, peak_learning_rate,
    read_pairs, to_simplified,
)
from model.training import ADAM_BETAS, ADAM_EPS, GRAD_CLIP_NORM, batch_lengths
from viz.options import Frame
from viz.teaching_anatomy import label_smoothing_figure, lr_figure
from viz.teaching_training import batch_padding_figure, optimizer_paths_figure, reliability_figure

ROOT = Path(__file__).resolve().parents[2]  # where the trainer ran: the log's paths are relative to it
CLASSROOM = ROOT / "evaluation" / "classroom.tsv"  # (English, Chinese): our own sentences and references
SMOOTHING_CLASSES = 8  # a small vocabulary, so that every bar of the smoothed target is visible
DROPOUT_SHOWN = 8  # dimensions of the dropout demonstration
DROPOUT_DRAWS = 1000
TOY_GRID = 60  # contour points per axis


def batch_padding(pairs: tuple[tuple[str, str], ...], max_tokens: int) -> tuple:
    """Padding of length-bucketed and of shuffled batches of the pairs, encoded as the trainer encodes them
    (Translator.encode_pairs, the sidebar's model's own tokenizers). Cached in the server's result cache: batching
    the 1,221 dev pairs twice takes 1.2 s, which every rerun of this page would pay (typing a BLEU reference
    included)."""
    checkpoint, device = st.session_state[state_keys.CHECKPOINT], models.device()

    def run() -> tuple:
        examples = translations.encode_pairs(checkpoint, device, pairs)
        return (training.padding(batch_lengths(examples, max_tokens)),
                training.padding(batch_lengths(examples, max_tokens, by_length=False)))
    return result_cache.shared().get(("training.batch_padding", checkpoint, device, pairs, max_tokens), run)


def dev_pairs(path: str) -> tuple[tuple[str, str], ...]:
    """The (English, Chinese) pairs of a TSV file as (source, target) of the session's model, read once for every
    session (the server's result cache)."""
    pairs = result_cache.shared().get(("training.pairs", path), lambda: tuple(read_pairs(path)))
    return tuple(in_direction(pairs))


def translated_pairs(sentences: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """Without the dev file: the sentences the app has, each with the sidebar's model's own translation as its
    target."""
    outputs = translations.translate_all(st.session_state[state_keys.CHECKPOINT], models.device(), sentences)
    return tuple(zip(sentences, outputs))


def power(x: float) -> str:
    """1e-09 as 1e-9."""
    return f"{x:g}".replace("e-0", "e-")


def given(rate: float | None) -> str:
    """A dropout argument of the run as it was given; not given means "the same as --dropout" (ModelConfig)."""
    return t("training.dropout.same") if rate is None else num(rate, 2, fixed=True)


def shown(value):
    """A number of the log as the page writes it, "—" where the log has none."""
    return "—" if value is None else value


def show_bleu(parts: training.BleuBreakdown) -> None:
    """Tokens, n-gram precisions, brevity penalty and the score, recomputed and checked against sacrebleu's."""
    st.markdown(t("training.bleu.hyp_tokens"))
    chips.token_chips(list(parts.hypothesis_tokens), key="training.bleu.hyp_tokens")
    st.markdown(t("training.bleu.ref_tokens"))
    chips.token_chips(list(parts.reference_tokens), color="green", key="training.bleu.ref_tokens")
    table_view.table(
        {"n": [o.n for o in parts.orders],
         t("training.bleu.col.matches"): [f"{o.matches} / {o.total}" for o in parts.orders],
         t("training.bleu.col.precision"): [f"{o.precision:.2f}" + (" *" if o.smoothed else "") for o in parts.orders],
         t("training.bleu.col.matched"): [t("teach.sep").join(o.matched) for o in parts.orders]},
        hide_index=True, width="stretch",
    )
    if any(o.smoothed for o in parts.orders):
        st.caption(t("training.bleu.smoothed"))
    c, r = len(parts.hypothesis_tokens), len(parts.reference_tokens)
    used = parts.orders[: parts.used_orders]
    st.latex(rf"BP = {'1' if c >= r else rf'e^{{1 - {r}/{c}}}' if c else '0'} = {parts.brevity_penalty:.4f}"
             rf"\qquad (c = {c},\ r = {r})")
    st.latex(r"\text{BLEU} = BP\cdot\exp\!\Big(\frac{1}{" + str(parts.used_orders) + r"}\sum_n \log p_n\Big) = "
             + f"{parts.brevity_penalty:.4f}" + r"\cdot\sqrt[" + str(parts.used_orders) + "]{"
             + r"\cdot ".join(f"{o.precision:.2f}" for o in used) + "}"
             + f" = {parts.brevity_penalty:.4f}" + r"\cdot " + f"{parts.geometric_mean:.2f} = {parts.score:.2f}")
    zero = training.zero_reason(parts)
    if zero is not None:
        chrf = f"{training.sentence_chrf(' '.join(parts.hypothesis_tokens), ' '.join(parts.reference_tokens)):.2f}"
        st.info(t(f"training.bleu.zero.{zero[0]}", n=zero[1], chrf=chrf), icon=":material/exposure_zero:")
    agree = abs(parts.score - parts.sacrebleu_score) < 1e-9
    (st.success if agree else st.error)(t("training.bleu.check" if agree else "training.bleu.mismatch",
                                           mine=f"{parts.score:.4f}", theirs=f"{parts.sacrebleu_score:.4f}"))
    fourth = parts.orders[-1]
    st.markdown(t("training.bleu.noisy", total=fourth.total, orders=training.ORDERS, affected=sum(range(1, training.ORDERS + 1)),
                  worth=f"{100 / fourth.total:.1f}" if fourth.total else "—"))


def intro(log: TrainingLog) -> None:
    """The title; what the run learned from, for how long, on what (the command that ran it is in the model card and
    the README: no command lines on a teacher's screen)."""
    presentation.page_title(t("training.title"), t(
        "training.intro", pairs=f"{log.train_pairs or 0:,}", dev=f"{log.dev_pairs or 0:,}",
        steps=f"{log.steps_done:,}", epochs=shown(log.epochs), minutes=shown(log.train_minutes),
        hardware=md_escape(hardware_name(log.hardware)), source=direction.source_name(),
        target=direction.target_name(), precision=log.mixed_precision, params=f"{log.parameters or 0:,}"))


def adam_section(args: TrainingArgs) -> None:
    """Adam's update and the trainer's settings of it, against PyTorch's defaults."""
    st.latex(r"\begin{aligned} m_t &= \beta_1 m_{t-1} + (1-\beta_1)\,g_t \qquad v_t = \beta_2 v_{t-1} + (1-\beta_2)\,g_t^2 \\"
             r"\hat m_t &= \frac{m_t}{1-\beta_1^t} \qquad \hat v_t = \frac{v_t}{1-\beta_2^t} \qquad "
             r"\theta_t = \theta_{t-1} - \mathrm{lrate}_t\cdot\frac{\hat m_t}{\sqrt{\hat v_t}+\epsilon}\end{aligned}")
    beta1, beta2 = ADAM_BETAS
    st.markdown(t("training.adam.settings", b1=f"{beta1:g}", b2=f"{beta2:g}", eps=power(ADAM_EPS),
                  w1=num(training.window(beta1), 0), w2=num(training.window(beta2), 0),
                  default_b2=f"{training.PYTORCH_DEFAULT_BETA2:g}", default_w2=num(training.window(training.PYTORCH_DEFAULT_BETA2), 0),
                  default_eps=power(training.PYTORCH_DEFAULT_EPS), clip=num(GRAD_CLIP_NORM), tokens=f"{args.max_tokens:,}"))


def toy_section() -> None:
    """Adam and plain SGD on a long, narrow valley, with the trainer's β and ε: where each gets in as many steps."""
    beta1, beta2 = ADAM_BETAS
    st.subheader(t("training.toy.header"))
    sgd_lr = training.TOY_SGD_SHARE * training.largest_stable_sgd_lr()
    # Adam with the trainer's settings
    adam = training.adam_steps(training.TOY_START, training.TOY_ADAM_LR, training.TOY_STEPS, ADAM_BETAS, ADAM_EPS)
    paths = [training.sgd_path(training.TOY_START, sgd_lr, training.TOY_STEPS), training.adam_path(training.TOY_START, adam)]
    a, b = training.TOY_CURVATURES
    chart, text = st.columns([3, 2], gap="medium")
    text.markdown(t("training.toy.text", a=f"{a:g}", b=f"{b:g}", ratio=num(b / a, 0), w1=num(training.TOY_START[0]),
                  w2=num(training.TOY_START[1]), steps=training.TOY_STEPS, limit=num(training.largest_stable_sgd_lr(), 2),
                  sgd_lr=num(sgd_lr, 2), adam_lr=num(training.TOY_ADAM_LR, 2)))
    reach = np.abs(np.concatenate(paths)).max(axis=0) * 1.1  # (2,): the grid covers both paths
    w1_grid, w2_grid = (np.linspace(-r, r, TOY_GRID) for r in reach)
    names = [t("training.toy.sgd", lr=num(sgd_lr, 2)), t("training.toy.adam", lr=num(training.TOY_ADAM_LR, 2))]
    with chart:
        charts.chart(
            optimizer_paths_figure(w1_grid, w2_grid,
                                   training.toy_loss(np.stack(np.meshgrid(w1_grid, w2_grid), axis=-1)), paths, names,
                                   frame=Frame(t("training.toy.fig", steps=training.TOY_STEPS), "w₁", "w₂"),
                                   loss_label=t("training.toy.loss"), step_label=t("training.toy.step")),
            key="training.toy",
        )
    sgd_end, adam_end = (float(training.toy_loss(p[-1])) for p in paths)
    st.markdown(t("training.toy.result", steps=training.TOY_STEPS, start=f"{float(training.toy_loss(training.TOY_START)):.3f}",
                  sgd=f"{sgd_end:.3f}", adam=f"{adam_end:.3f}", sgd_w1=f"{paths[0][-1][0]:.2f}",
                  adam_w1=f"{paths[1][-1][0]:.2f}"))
    first = adam[:3]
    columns = [f"{name}{sub}" for name in ("g", "m̂", "√v̂", t("training.toy.update")) for sub in ("₁", "₂")]
    show_table([np.concatenate([s.grad, s.m_hat, np.sqrt(s.v_hat), s.change]) for s in first],
               [str(s.step) for s in first], columns, index_name=t("training.toy.step"))
    st.markdown(t("training.toy.first", g1=num(first[0].grad[0]), g2=num(first[0].grad[1]),
                  u1=signed(first[0].change[0]), u2=signed(first[0].change[1]), lr=num(training.TOY_ADAM_LR, 2),
                  ratio=num(abs(first[0].grad[1] / first[0].grad[0]), 1), c1=f"{1 - beta1:.2g}", c2=f"{1 - beta2:.2g}",
                  nobias=f"{(1 - beta1) / np.sqrt(1 - beta2):.3f}"))


def learning_rate_section(config: ModelConfig, log: TrainingLog) -> None:
    """The warm-up schedule: its formula, the run's first, peak and last rates, against those its log kept."""
    train, done = log.train, log.steps_done
    st.latex(r"\mathrm{lrate} = \text{factor}\cdot d_{model}^{-0.5}\cdot\min\!\left(step^{-0.5},\ step\cdot warmup^{-1.5}\right)")
    H, warmup, factor = config.d_model, log.args.warmup, log.args.lr_factor
    peak = peak_learning_rate(H, warmup, factor)
    logged_at_peak = min(train, key=lambda e: abs(e.step - warmup)) if train else None
    st.markdown(t("training.lr.text", d=H, warmup=f"{warmup:,}", factor=num(factor), first=f"{learning_rate(1, H, warmup, factor):.2e}",
                  peak=f"{peak:.2e}", last_step=f"{done:,}", last=f"{learning_rate(max(done, 1), H, warmup, factor):.2e}",
                  logged_step=f"{logged_at_peak.step:,}" if logged_at_peak else "—",
                  logged=f"{logged_at_peak.lr:.2e}" if logged_at_peak else "—"))
    schedule_steps = np.union1d(np.linspace(1, max(done, 2 * warmup), 400), [warmup])  # the peak itself drawn
    charts.chart(
        lr_figure(schedule_steps, learning_rate(schedule_steps, H, warmup, factor), [e.step for e in train],
                  [e.lr for e in train], warmup,
                  frame=Frame(t("training.lr.fig", d=H, warmup=f"{warmup:,}"), t("anatomy.axis.step"),
                              t("anatomy.axis.lr")),
                  names=(t("anatomy.lr.formula"), t("anatomy.lr.logged"), t("anatomy.lr.warmup", w=warmup))),
        key="training.lr",
    )
    st.info(t("training.lr.why"))


def dropout_section(config: ModelConfig, args: TrainingArgs) -> None:
    """Where dropout acts and at what rate, and inverted dropout on the first token's input to layer 1."""
    places = [("embeddings", config.dropout), ("sublayers", config.dropout), ("attention", config.attention_dropout_p),
              ("activation", config.activation_dropout_p)]
    st.markdown("\n".join(f"- **{num(p, 2, fixed=True)}** · " + t(f"training.dropout.{key}", activation=config.activation)
                           for key, p in places))
    dropout = config.dropout if args.dropout is None else args.dropout
    st.markdown(t("training.dropout.text", dropout=num(dropout, 2, fixed=True),
                  attention=given(args.attention_dropout), activation=given(args.activation_dropout),
                  token=num(args.token_dropout, 2, fixed=True), keep=num(1 / (1 - config.dropout), 2),
                  n=DROPOUT_SHOWN))
    result = translations.current_result()
    sentence_banner(result)
    emb = result.source_embeddings
    first_input = (emb.token[0] * emb.scale + emb.positional[0])[:DROPOUT_SHOWN]  # (DROPOUT_SHOWN,) layer 1's input, first token
    keep, dropped = training.inverted_dropout(first_input, config.dropout, np.random.default_rng(0))
    show_table(
        [first_input, keep.astype(float), dropped, training.mean_over_draws(first_input, config.dropout, DROPOUT_DRAWS), first_input],
        [t("training.dropout.row.input"), t("training.dropout.row.kept"), t("training.dropout.row.train"),
         t("training.dropout.row.mean", n=DROPOUT_DRAWS), t("training.dropout.row.eval")],
        [str(i) for i in range(DROPOUT_SHOWN)], index_name=t("training.dropout.row.dims", token=result.source_tokens[0]),
        decimals=3,
    )
    st.info(t("training.dropout.inference"))


def label_smoothing_section(config: ModelConfig, log: TrainingLog, epoch: training.EpochLoss | None) -> None:
    """The run's smoothed target and the loss floor it sets, against the losses the run reached (`epoch`: the mean
    loss of its last complete epoch)."""
    train, dev = log.train, log.dev
    epsilon = float(log.args.label_smoothing)
    V = config.tgt_vocab_size
    real = anatomy.smoothed_target(V, 0, epsilon)
    floor = anatomy.smoothed_loss_floor(V, epsilon)
    st.latex(r"y^{smooth} = (1-\varepsilon)\,y^{one\text{-}hot} + \frac{\varepsilon}{C}")
    charts.chart(
        label_smoothing_figure([f"c{i}" for i in range(SMOOTHING_CLASSES)], anatomy.smoothed_target(SMOOTHING_CLASSES, 0, 0.0),
                               anatomy.smoothed_target(SMOOTHING_CLASSES, 0, epsilon),
                               title=t("anatomy.ls.fig", c=SMOOTHING_CLASSES, eps=num(epsilon, 2)),
                               class_title=t("anatomy.ls.classes"), prob_title=t("anatomy.ls.prob"),
                               hard_label=t("anatomy.ls.hard"), smooth_label=t("anatomy.ls.smooth")),
        key="training.ls",
    )
    lowest_train = min((e.loss for e in train), default=None)
    st.markdown(t("training.ls.text", eps=num(epsilon, 2), v=f"{V:,}", top=f"{real[0]:.5f}", rest=f"{real[1]:.2e}",
                  floor=f"{floor:.3f}", lowest=f"{lowest_train:.3f}" if lowest_train is not None else "—",
                  target=direction.target_name()))
    if dev and epoch is not None:  # like with like: a whole epoch's mean, not the luckiest batch
        below = dev[-1].loss < epoch.mean
        st.markdown(sentences([t("training.ls.below" if below else "training.ls.apart", dev=f"{dev[-1].loss:.3f}",
                                 train=f"{epoch.mean:.3f}", batches=epoch.batches, epoch=epoch.epoch),
                               t("training.ls.reasons", floor=f"{floor:.3f}")]))


def calibration_section(config: ModelConfig, log: TrainingLog) -> None:
    """The dev reliability curve the log keeps (evaluation/reliability.py), its ECE, against the smoothed target."""
    epsilon = float(log.args.label_smoothing)
    top = anatomy.smoothed_target(config.tgt_vocab_size, 0, epsilon)[0]
    st.markdown(t("training.calib.intro", eps=num(epsilon, 2), top=f"{top:.4f}",
                  floor=f"{anatomy.smoothed_loss_floor(config.tgt_vocab_size, epsilon):.3f}"))
    found = log.reliability
    if not found:
        st.info(t("training.calib.missing"))  # the command is in the README: no command lines on a teacher's screen
        return
    curve = training.reliability(found.bins)
    charts.chart(
        reliability_figure(curve.confidence, curve.right, curve.positions,
                           frame=Frame(t("training.calib.fig", pairs=f"{found.pairs:,}",
                                         positions=f"{found.positions:,}"),
                                       t("training.calib.confidence"), t("training.calib.right")),
                           model_label=t("training.calib.model"), ideal_label=t("training.calib.ideal"),
                           positions_label=t("training.calib.positions")),
        key="training.calib",
    )
    last = -1  # the most confident bin
    result = t("training.calib.result", ece=f"{curve.ece:.3f}", over=curve.over, bins=len(curve.positions),
               low=f"{curve.low[last]:.0%}", share=f"{curve.positions[last] / curve.positions.sum():.0%}",
               conf=f"{curve.confidence[last]:.1%}", right=f"{curve.right[last]:.1%}")
    verdict = t("training.calib.verdict." + ("over" if 2 * curve.over > len(curve.positions) else "under"), top=f"{top:.1%}")
    st.markdown(sentences([result, verdict]))
    st.caption(t("training.calib.how"))


def batching_section(translator: Translator, log: TrainingLog) -> None:
    """Padding of length-bucketed batches against shuffled ones, on the run's dev pairs (or the app's sentences)."""
    max_tokens = log.args.max_tokens
    st.markdown(t("training.batch.how", max_tokens=f"{max_tokens:,}", train=f"{log.train_pairs or 0:,}"))
    dev_path = training.dev_file(log.args.given, ROOT)
    if dev_path:
        pairs = dev_pairs(str(dev_path))
        st.markdown(t("training.batch.source.dev", n=f"{len(pairs):,}"))
    else:
        # the examples and the run's probes, both in the language the model reads (the log keeps its own probes)
        sentences = tuple(dict.fromkeys(example_sentences() + list(log.probes)))
        pairs = translated_pairs(sentences)
        st.warning(t("training.batch.source.missing", n=len(pairs)))
    bucketed, shuffled = batch_padding(pairs, max_tokens)
    charts.chart(
        batch_padding_figure([t("training.batch.bucketed"), t("training.batch.random")], [bucketed.real, shuffled.real],
                             [bucketed.pads, shuffled.pads],
                             title=t("training.batch.fig", n=f"{bucketed.sentences:,}", max_tokens=f"{max_tokens:,}"),
                             count_title=t("training.batch.axis"), real_label=t("training.batch.real"),
                             padding_label=t("training.batch.padding")),
        key="training.batch",
    )
    st.markdown(t("training.batch.result", n=f"{bucketed.sentences:,}", b_batches=bucketed.batches, r_batches=shuffled.batches,
                  b_pad=f"{bucketed.fraction:.1%}", r_pad=f"{shuffled.fraction:.1%}", b_slots=f"{bucketed.slots:,}",
                  r_slots=f"{shuffled.slots:,}", ratio=f"{shuffled.slots / max(bucketed.slots, 1):.2f}",
                  b_src=f"{bucketed.source_fraction:.1%}", b_tgt=f"{bucketed.target_fraction:.1%}",
                  r_src=f"{shuffled.source_fraction:.1%}", r_tgt=f"{shuffled.target_fraction:.1%}",
                  source=direction.source_name()))


def bleu_section(log: TrainingLog) -> None:
    """BLEU of the session's translation against a reference the student types, taken apart step by step."""
    result = translations.current_result()
    signature = log.best.bleu_signature if log.best else ""
    target = direction.current()[1]
    st.markdown(t("training.bleu.intro", signature=md_escape(signature) if signature else "—",
                  tokenizer=t(f"training.bleu.tok.{target}")))
    sentence_banner(result)
    reference = st.text_input(t("training.bleu.reference", target=direction.target_name()), key="training.bleu.reference",
                              placeholder=t("training.bleu.placeholder"),
                              help=t("training.bleu.reference_help", source=direction.source_name(),
                                     cleaned=t(f"training.bleu.cleaned.{target}")))
    parts = None
    if not signature:
        st.info(t("training.bleu.nosignature"))
    elif not reference.strip():
        st.info(t("training.bleu.empty"))
    else:
        # as model.data.read_pairs cleans dev references: English cleaned, Chinese also made Simplified
        normalised = clean_text(to_simplified(reference) if target == "zh" else reference)
        if normalised != reference.strip():
            st.caption(t(f"training.bleu.normalised.{target}"))
            st.text(normalised)
        try:
            parts = training.bleu_breakdown(result.translation, normalised, signature)
        except ValueError as exc:  # a signature whose smoothing the recomputation does not know
            st.warning(t("training.bleu.unsupported", error=md_escape(exc)))
    if parts:
        show_bleu(parts)


def bleu_limits_section(log: TrainingLog) -> None:
    """Tokenised BLEU, one reference, chrF: a classroom sentence the model words differently from our reference. For
    a Chinese output the tokens are characters (set against 13a's), for an English one 13a's words."""
    signature = log.best.bleu_signature if log.best else ""
    chinese = direction.current()[1] == "zh"
    variant = "" if chinese else ".en"
    st.markdown(t("training.bleuzh.intro" + variant, signature=md_escape(signature) if signature else "—"))
    if not signature or not CLASSROOM.is_file():
        st.info(t("training.bleu.nosignature"))
        return
    pairs = dev_pairs(str(CLASSROOM))  # (source, target) of the sidebar's model
    beam = int(st.session_state.get(state_keys.BEAM, DEFAULT_BEAM))
    # The sidebar's model's translations of the classroom sentences (one batch: a few seconds once, then cached).
    outputs = translations.translate_all(st.session_state[state_keys.CHECKPOINT], models.device(),
                                         tuple(source for source, _ in pairs), beam)
    references = [target for _, target in pairs]
    limits = [training.bleu_limits(out, ref, signature) for out, ref in zip(outputs, references)]
    widest = training.widest_gap(outputs, references, limits)
    if widest is None:
        st.info(t("training.bleuzh.all_exact", n=len(pairs)))
        return
    differing = [i for i, (out, ref) in enumerate(zip(outputs, references)) if out != ref]
    i = st.selectbox(t("training.bleuzh.pick", n=len(differing), total=len(pairs)), differing,
                     index=differing.index(widest), format_func=lambda k: pairs[k][0], key="training.bleuzh.sentence")
    shown = limits[i]
    rows = [t("training.bleuzh.reference"), t("training.bleuzh.model", beam=beam)]
    table_view.table({t("training.bleuzh.col.what"): rows,
                   t("training.bleuzh.col.text", target=direction.target_name()): [references[i], outputs[i]]},
                  hide_index=True)
    st.markdown(t("training.bleuzh.scores" + variant, bleu=f"{shown.bleu_zh:.1f}", chrf=f"{shown.chrf:.1f}",
                  zh=md_escape(" ".join(shown.tokens_zh)), words=md_escape(" · ".join(shown.tokens_13a)),
                  n13a=len(shown.tokens_13a), bleu13a=f"{shown.bleu_13a:.1f}"))
    higher = sum(limits[k].chrf > limits[k].bleu_zh for k in differing)
    st.markdown(t("training.bleuzh.summary", n=len(differing), total=len(pairs), higher=higher))


def dev_scores(log: TrainingLog) -> None:
    """The run's dev BLEU: its best evaluation, its average of the last epochs, its final beam search."""
    best, average, final = log.best, log.average, log.final
    st.subheader(t("training.bleu.dev.header"))
    if best:
        lines = [t("training.bleu.dev.best", step=f"{best.step:,}", epoch=shown(best.epoch), bleu=best.bleu,
                   unseen=shown(best.dedup_bleu))]
        if average and average.epochs:
            lines.append(t("training.bleu.dev.average", first=average.epochs[0], last=average.epochs[-1],
                           bleu=average.bleu, unseen=shown(average.dedup_bleu),
                           chosen=t("training.bleu.dev.chosen") if log.shipped_average else ""))
        if final:
            lines.append(t("training.bleu.dev.final", beam=final.beam, bleu=final.bleu, unseen=shown(final.dedup_bleu)))
        st.markdown(t("training.bleu.dev.text", n=f"{log.dev_pairs or 0:,}", unseen=f"{log.dedup_dev_pairs or 0:,}")
                    + "\n\n" + "\n".join(f"- {line}" for line in lines))


translator = models.translator()
log = TrainingLog.from_dict(translator.training_log)
if log.args is None:
    st.title(t("training.title"))
    st.info(t("training.missing", folder=md_escape(translator.checkpoint)))
    st.stop()
intro(log)


def adam_tab() -> None:
    toy_section()  # the toy race first: the first screen shows what Adam does before its equations say how
    adam_section(log.args)


def bleu_tab() -> None:
    bleu_section(log)
    dev_scores(log)
    navigation.page_link("anatomy", t("training.bleu.dev.curves", page=t("nav.anatomy")))


sections("training", {
    "adam": adam_tab,
    "lr": lambda: learning_rate_section(translator.config, log),
    "dropout": lambda: dropout_section(translator.config, log.args),
    "ls": lambda: label_smoothing_section(translator.config, log,  # the lesson reads the log as written
                                          training.last_full_epoch_loss(translator.training_log)),
    "batch": lambda: batching_section(translator, log),
    "bleu": bleu_tab,
    "bleuzh": lambda: bleu_limits_section(log),
    "calib": lambda: calibration_section(translator.config, log),
})
