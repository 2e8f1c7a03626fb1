"""What "How it was trained" shows, computed from the model's config, its training log (model.TrainingLog) and the
session's translation without drawing anything (training.py draws it): the title and introduction, and each tab's
section as parts (app_pages.components.parts) — Adam against SGD on a toy loss, the warm-up schedule, dropout, label
smoothing, length-bucketed batches, BLEU taken apart on the student's translation, BLEU's limits on the classroom
sentences, the dev calibration. Plain data out; tests/test_training_view.py reads it without Streamlit."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from app_pages.components.parts import (Caption, Chart, Chips, Columns, Formula, Heading, Link, Notice, Parts, Plain,
                                        Table, Text)
from app_pages.components.teaching_shared import num, signed, table
from app_pages.shell.text import hardware_name, md_escape, sentences, t
from app_pages.state import direction, translations
from lessons import anatomy, training
from model import ModelConfig, TrainingLog, TranslationResult, clean_text, learning_rate, peak_learning_rate, to_simplified
from model.training import ADAM_BETAS, ADAM_EPS, GRAD_CLIP_NORM
from viz.options import Frame
from viz.teaching_anatomy import label_smoothing_figure, lr_figure
from viz.teaching_training import batch_padding_figure, optimizer_paths_figure, reliability_figure

SMOOTHING_CLASSES = 8  # a small vocabulary, so that every bar of the smoothed target is visible
DROPOUT_SHOWN = 8  # dimensions of the dropout demonstration
DROPOUT_DRAWS = 1000
TOY_GRID = 60  # contour points per axis
SECTIONS = ("adam", "lr", "dropout", "ls", "batch", "bleu", "bleuzh", "calib")


class NoTrainingArgs(LookupError):
    """The checkpoint's log holds no training arguments (a model this project's trainer did not write): the page
    says so instead of its sections."""

    def __init__(self, checkpoint: str):
        super().__init__(checkpoint)
        self.checkpoint = checkpoint

    def message(self) -> str:
        return t("training.missing", folder=md_escape(self.checkpoint))


@dataclass(frozen=True)
class Run:
    """What the page reads of the model: its config and its training log (with its training arguments)."""

    config: ModelConfig
    log: TrainingLog

    @property
    def source(self) -> str:
        return direction.language_name(self.config.source_language)

    @property
    def target(self) -> str:
        return direction.language_name(self.config.target_language)


@dataclass(frozen=True)
class TrainingHeading:
    title: str
    intro: str


def shown(value):
    """A number of the log as the page writes it, "—" where the log has none."""
    return "—" if value is None else value


def power(x: float) -> str:
    """1e-09 as 1e-9."""
    return f"{x:g}".replace("e-0", "e-")


def given(rate: float | None) -> str:
    """A dropout argument of the run as it was given; not given means "the same as --dropout" (ModelConfig)."""
    return t("training.dropout.same") if rate is None else num(rate, 2, fixed=True)


def banner(result: TranslationResult) -> tuple:
    """The sentence the live sections use, as plain text, and the note on names the model read as others."""
    note = translations.names_note(result)
    return Parts().add(Caption(t("teach.sentence.caption")), Plain(f"{result.source_text}  →  {result.translation}"),
                       Caption(md_escape(note)) if note else None).done()


def heading(run: Run, checkpoint: str) -> TrainingHeading:
    """The title; what the run learned from, for how long, on what (the command that ran it is in the model card and
    the README: no command lines on a teacher's screen). NoTrainingArgs where the log has no training arguments."""
    log = run.log
    if log.args is None:
        raise NoTrainingArgs(checkpoint)
    return TrainingHeading(t("training.title"), sentences((t(
        "training.intro", pairs=f"{log.train_pairs or 0:,}", dev=f"{log.dev_pairs or 0:,}",
        steps=f"{log.steps_done:,}", epochs=shown(log.epochs), minutes=shown(log.train_minutes),
        hardware=md_escape(hardware_name(log.hardware)), source=run.source, target=run.target,
        precision=log.mixed_precision, params=f"{log.parameters or 0:,}"), backtranslated(log))))


def backtranslated(log: TrainingLog) -> str:
    """What the training pairs hold besides the real ones, for a model trained on back-translated pairs; "" else."""
    if (bt := log.backtranslation) is None:
        return ""
    made, mix = bt.synthesis, bt.mix
    return t("training.intro.bt", synthetic=f"{mix.synthetic:,}", real_language=t(f"language.{made.real_language}"),
             synthetic_language=t(f"language.{made.synthetic_language}"),
             model=f"{made.real_language}-{made.synthetic_language}", tag=mix.tag or "", real=f"{mix.real:,}",
             copies=mix.real_copies)


# ---------------------------------------------------------------- Adam


def adam_settings(run: Run) -> tuple:
    """Adam's update and the trainer's settings of it, against PyTorch's defaults."""
    beta1, beta2 = ADAM_BETAS
    return (Formula(r"\begin{aligned} m_t &= \beta_1 m_{t-1} + (1-\beta_1)\,g_t \qquad v_t = \beta_2 v_{t-1} + "
                    r"(1-\beta_2)\,g_t^2 \\"
                    r"\hat m_t &= \frac{m_t}{1-\beta_1^t} \qquad \hat v_t = \frac{v_t}{1-\beta_2^t} \qquad "
                    r"\theta_t = \theta_{t-1} - \mathrm{lrate}_t\cdot\frac{\hat m_t}{\sqrt{\hat v_t}+\epsilon}"
                    r"\end{aligned}"),
            Text(t("training.adam.settings", b1=f"{beta1:g}", b2=f"{beta2:g}", eps=power(ADAM_EPS),
                   w1=num(training.window(beta1), 0), w2=num(training.window(beta2), 0),
                   default_b2=f"{training.PYTORCH_DEFAULT_BETA2:g}",
                   default_w2=num(training.window(training.PYTORCH_DEFAULT_BETA2), 0),
                   default_eps=power(training.PYTORCH_DEFAULT_EPS), clip=num(GRAD_CLIP_NORM),
                   tokens=f"{run.log.args.max_tokens:,}")))


def toy_race() -> tuple:
    """Adam and plain SGD on a long, narrow valley, with the trainer's β and ε: where each gets in as many steps."""
    beta1, beta2 = ADAM_BETAS
    sgd_lr = training.TOY_SGD_SHARE * training.largest_stable_sgd_lr()
    adam = training.adam_steps(training.TOY_START, training.TOY_ADAM_LR, training.TOY_STEPS, ADAM_BETAS, ADAM_EPS)
    paths = [training.sgd_path(training.TOY_START, sgd_lr, training.TOY_STEPS),
             training.adam_path(training.TOY_START, adam)]
    a, b = training.TOY_CURVATURES
    reach = np.abs(np.concatenate(paths)).max(axis=0) * 1.1  # (2,): the grid covers both paths
    w1_grid, w2_grid = (np.linspace(-r, r, TOY_GRID) for r in reach)
    names = [t("training.toy.sgd", lr=num(sgd_lr, 2)), t("training.toy.adam", lr=num(training.TOY_ADAM_LR, 2))]
    figure = optimizer_paths_figure(w1_grid, w2_grid, training.toy_loss(np.stack(np.meshgrid(w1_grid, w2_grid),
                                                                                 axis=-1)), paths, names,
                                    frame=Frame(t("training.toy.fig", steps=training.TOY_STEPS), "w₁", "w₂"),
                                    loss_label=t("training.toy.loss"), step_label=t("training.toy.step"))
    text = Text(t("training.toy.text", a=f"{a:g}", b=f"{b:g}", ratio=num(b / a, 0), w1=num(training.TOY_START[0]),
                  w2=num(training.TOY_START[1]), steps=training.TOY_STEPS,
                  limit=num(training.largest_stable_sgd_lr(), 2), sgd_lr=num(sgd_lr, 2),
                  adam_lr=num(training.TOY_ADAM_LR, 2)))
    sgd_end, adam_end = (float(training.toy_loss(p[-1])) for p in paths)
    first = adam[:3]
    columns = [f"{name}{sub}" for name in ("g", "m̂", "√v̂", t("training.toy.update")) for sub in ("₁", "₂")]
    return Parts().add(
        Heading(t("training.toy.header"), 3),
        Columns(((Chart(figure, "training.toy"),), (text,)), (3, 2), gap="medium"),
        Text(t("training.toy.result", steps=training.TOY_STEPS,
               start=f"{float(training.toy_loss(training.TOY_START)):.3f}", sgd=f"{sgd_end:.3f}",
               adam=f"{adam_end:.3f}", sgd_w1=f"{paths[0][-1][0]:.2f}", adam_w1=f"{paths[1][-1][0]:.2f}")),
        Table(table([np.concatenate([s.grad, s.m_hat, np.sqrt(s.v_hat), s.change]) for s in first],
                    [str(s.step) for s in first], columns, index_name=t("training.toy.step"))),
        Text(t("training.toy.first", g1=num(first[0].grad[0]), g2=num(first[0].grad[1]),
               u1=signed(first[0].change[0]), u2=signed(first[0].change[1]), lr=num(training.TOY_ADAM_LR, 2),
               ratio=num(abs(first[0].grad[1] / first[0].grad[0]), 1), c1=f"{1 - beta1:.2g}", c2=f"{1 - beta2:.2g}",
               nobias=f"{(1 - beta1) / np.sqrt(1 - beta2):.3f}"))).done()


def adam_section(run: Run) -> tuple:
    """The toy race first: the first screen shows what Adam does before its equations say how."""
    return toy_race() + adam_settings(run)


# ---------------------------------------------------------------- schedule, dropout, smoothing


def learning_rate_section(run: Run) -> tuple:
    """The warm-up schedule: its formula, the run's first, peak and last rates, against those its log kept."""
    log = run.log
    train, done = log.train, log.steps_done
    H, warmup, factor = run.config.d_model, log.args.warmup, log.args.lr_factor
    peak = peak_learning_rate(H, warmup, factor)
    logged_at_peak = min(train, key=lambda e: abs(e.step - warmup)) if train else None
    schedule_steps = np.union1d(np.linspace(1, max(done, 2 * warmup), 400), [warmup])  # the peak itself drawn
    figure = lr_figure(schedule_steps, learning_rate(schedule_steps, H, warmup, factor), [e.step for e in train],
                       [e.lr for e in train], warmup,
                       frame=Frame(t("training.lr.fig", d=H, warmup=f"{warmup:,}"), t("anatomy.axis.step"),
                                   t("anatomy.axis.lr")),
                       names=(t("anatomy.lr.formula"), t("anatomy.lr.logged"), t("anatomy.lr.warmup", w=warmup)))
    return (Formula(r"\mathrm{lrate} = \text{factor}\cdot d_{model}^{-0.5}\cdot\min\!\left(step^{-0.5},\ "
                    r"step\cdot warmup^{-1.5}\right)"),
            Text(t("training.lr.text", d=H, warmup=f"{warmup:,}", factor=num(factor),
                   first=f"{learning_rate(1, H, warmup, factor):.2e}", peak=f"{peak:.2e}", last_step=f"{done:,}",
                   last=f"{learning_rate(max(done, 1), H, warmup, factor):.2e}",
                   logged_step=f"{logged_at_peak.step:,}" if logged_at_peak else "—",
                   logged=f"{logged_at_peak.lr:.2e}" if logged_at_peak else "—")),
            Chart(figure, "training.lr"),
            Notice(t("training.lr.why")))


def dropout_section(run: Run, result: TranslationResult) -> tuple:
    """Where dropout acts and at what rate, and inverted dropout on the first token's input to layer 1."""
    config, args = run.config, run.log.args
    places = [("embeddings", config.dropout), ("sublayers", config.dropout), ("attention", config.attention_dropout_p),
              ("activation", config.activation_dropout_p)]
    dropout = config.dropout if args.dropout is None else args.dropout
    emb = result.source_embeddings
    first_input = (emb.token[0] * emb.scale + emb.positional[0])[:DROPOUT_SHOWN]  # layer 1's input, first token
    keep, dropped = training.inverted_dropout(first_input, config.dropout, np.random.default_rng(0))
    return (Text("\n".join(f"- **{num(p, 2, fixed=True)}** · " + t(f"training.dropout.{key}",
                                                                    activation=config.activation)
                           for key, p in places)),
            Text(t("training.dropout.text", dropout=num(dropout, 2, fixed=True),
                   attention=given(args.attention_dropout), activation=given(args.activation_dropout),
                   token=num(args.token_dropout, 2, fixed=True), keep=num(1 / (1 - config.dropout), 2),
                   n=DROPOUT_SHOWN)),
            *banner(result),
            Table(table([first_input, keep.astype(float), dropped,
                         training.mean_over_draws(first_input, config.dropout, DROPOUT_DRAWS), first_input],
                        [t("training.dropout.row.input"), t("training.dropout.row.kept"),
                         t("training.dropout.row.train"), t("training.dropout.row.mean", n=DROPOUT_DRAWS),
                         t("training.dropout.row.eval")],
                        [str(i) for i in range(DROPOUT_SHOWN)],
                        index_name=t("training.dropout.row.dims", token=result.source_tokens[0]), decimals=3)),
            Notice(t("training.dropout.inference")))


def label_smoothing_section(run: Run) -> tuple:
    """The run's smoothed target and the loss floor it sets, against the losses the run reached (the mean loss of
    its last complete epoch: like with like, a whole epoch's mean, not the luckiest batch)."""
    log = run.log
    train, dev = log.train, log.dev
    epoch = training.last_full_epoch_loss(log)
    epsilon = float(log.args.label_smoothing)
    V = run.config.tgt_vocab_size
    real = anatomy.smoothed_target(V, 0, epsilon)
    floor = anatomy.smoothed_loss_floor(V, epsilon)
    figure = label_smoothing_figure([f"c{i}" for i in range(SMOOTHING_CLASSES)],
                                    anatomy.smoothed_target(SMOOTHING_CLASSES, 0, 0.0),
                                    anatomy.smoothed_target(SMOOTHING_CLASSES, 0, epsilon),
                                    title=t("anatomy.ls.fig", c=SMOOTHING_CLASSES, eps=num(epsilon, 2)),
                                    class_title=t("anatomy.ls.classes"), prob_title=t("anatomy.ls.prob"),
                                    hard_label=t("anatomy.ls.hard"), smooth_label=t("anatomy.ls.smooth"))
    lowest_train = min((e.loss for e in train), default=None)
    parts = Parts().add(
        Formula(r"y^{smooth} = (1-\varepsilon)\,y^{one\text{-}hot} + \frac{\varepsilon}{C}"),
        Chart(figure, "training.ls"),
        Text(t("training.ls.text", eps=num(epsilon, 2), v=f"{V:,}", top=f"{real[0]:.5f}", rest=f"{real[1]:.2e}",
               floor=f"{floor:.3f}", lowest=f"{lowest_train:.3f}" if lowest_train is not None else "—",
               target=run.target)))
    if dev and epoch is not None:
        below = dev[-1].loss < epoch.mean
        parts.add(Text(sentences([t("training.ls.below" if below else "training.ls.apart", dev=f"{dev[-1].loss:.3f}",
                                    train=f"{epoch.mean:.3f}", batches=epoch.batches, epoch=epoch.epoch),
                                  t("training.ls.reasons", floor=f"{floor:.3f}")])))
    return parts.done()


def calibration_section(run: Run) -> tuple:
    """The dev reliability curve the log keeps (evaluation/reliability.py), its ECE, against the smoothed target."""
    config, log = run.config, run.log
    epsilon = float(log.args.label_smoothing)
    top = anatomy.smoothed_target(config.tgt_vocab_size, 0, epsilon)[0]
    intro = Text(t("training.calib.intro", eps=num(epsilon, 2), top=f"{top:.4f}",
                   floor=f"{anatomy.smoothed_loss_floor(config.tgt_vocab_size, epsilon):.3f}"))
    found = log.reliability
    if not found:
        return intro, Notice(t("training.calib.missing"))  # the command is in the README, not on a teacher's screen
    curve = training.reliability(found.bins)
    figure = reliability_figure(curve.confidence, curve.right, curve.positions,
                                frame=Frame(t("training.calib.fig", pairs=f"{found.pairs:,}",
                                              positions=f"{found.positions:,}"),
                                            t("training.calib.confidence"), t("training.calib.right")),
                                model_label=t("training.calib.model"), ideal_label=t("training.calib.ideal"),
                                positions_label=t("training.calib.positions"))
    last = -1  # the most confident bin
    result = t("training.calib.result", ece=f"{curve.ece:.3f}", over=curve.over, bins=len(curve.positions),
               low=f"{curve.low[last]:.0%}", share=f"{curve.positions[last] / curve.positions.sum():.0%}",
               conf=f"{curve.confidence[last]:.1%}", right=f"{curve.right[last]:.1%}")
    verdict = t("training.calib.verdict." + ("over" if 2 * curve.over > len(curve.positions) else "under"),
                top=f"{top:.1%}")
    return intro, Chart(figure, "training.calib"), Text(sentences([result, verdict])), Caption(t("training.calib.how"))


# ---------------------------------------------------------------- batches


@dataclass(frozen=True)
class Batching:
    """The padding of length-bucketed and of shuffled batches of `pairs` sentence pairs (lessons.training.padding),
    and whether they are the run's dev pairs (else the app's sentences with the model's own translations)."""

    pairs: int
    from_dev: bool
    bucketed: training.Padding
    shuffled: training.Padding


def batching_section(run: Run, found: Batching) -> tuple:
    """Padding of length-bucketed batches against shuffled ones, on the run's dev pairs (or the app's sentences)."""
    max_tokens = run.log.args.max_tokens
    bucketed, shuffled = found.bucketed, found.shuffled
    source = (Text(t("training.batch.source.dev", n=f"{found.pairs:,}")) if found.from_dev
              else Notice(t("training.batch.source.missing", n=found.pairs), "warning"))
    figure = batch_padding_figure([t("training.batch.bucketed"), t("training.batch.random")],
                                  [bucketed.real, shuffled.real], [bucketed.pads, shuffled.pads],
                                  title=t("training.batch.fig", n=f"{bucketed.sentences:,}",
                                          max_tokens=f"{max_tokens:,}"),
                                  count_title=t("training.batch.axis"), real_label=t("training.batch.real"),
                                  padding_label=t("training.batch.padding"))
    return (Text(t("training.batch.how", max_tokens=f"{max_tokens:,}", train=f"{run.log.train_pairs or 0:,}")),
            source,
            Chart(figure, "training.batch"),
            Text(t("training.batch.result", n=f"{bucketed.sentences:,}", b_batches=bucketed.batches,
                   r_batches=shuffled.batches, b_pad=f"{bucketed.fraction:.1%}", r_pad=f"{shuffled.fraction:.1%}",
                   b_slots=f"{bucketed.slots:,}", r_slots=f"{shuffled.slots:,}",
                   ratio=f"{shuffled.slots / max(bucketed.slots, 1):.2f}", b_src=f"{bucketed.source_fraction:.1%}",
                   b_tgt=f"{bucketed.target_fraction:.1%}", r_src=f"{shuffled.source_fraction:.1%}",
                   r_tgt=f"{shuffled.target_fraction:.1%}", source=run.source)))


# ---------------------------------------------------------------- BLEU


@dataclass(frozen=True)
class BleuView:
    """The BLEU tab: the parts above the reference box, the box's label, placeholder and tooltip, and the parts below
    it (the breakdown of the typed reference's score, the run's dev scores, the link to the curves)."""

    before: tuple
    label: str
    placeholder: str
    help: str
    after: tuple


def bleu_breakdown(parts: training.BleuBreakdown) -> tuple:
    """Tokens, n-gram precisions, brevity penalty and the score, recomputed and checked against sacrebleu's."""
    c, r = len(parts.hypothesis_tokens), len(parts.reference_tokens)
    used = parts.orders[: parts.used_orders]
    shown_parts = Parts().add(
        Text(t("training.bleu.hyp_tokens")),
        Chips(tuple(parts.hypothesis_tokens), "training.bleu.hyp_tokens"),
        Text(t("training.bleu.ref_tokens")),
        Chips(tuple(parts.reference_tokens), "training.bleu.ref_tokens", color="green"),
        Table({"n": [o.n for o in parts.orders],
               t("training.bleu.col.matches"): [f"{o.matches} / {o.total}" for o in parts.orders],
               t("training.bleu.col.precision"): [f"{o.precision:.2f}" + (" *" if o.smoothed else "")
                                                  for o in parts.orders],
               t("training.bleu.col.matched"): [t("teach.sep").join(o.matched) for o in parts.orders]},
              hide_index=True, width="stretch"),
        Caption(t("training.bleu.smoothed")) if any(o.smoothed for o in parts.orders) else None,
        Formula(rf"BP = {'1' if c >= r else rf'e^{{1 - {r}/{c}}}' if c else '0'} = {parts.brevity_penalty:.4f}"
                rf"\qquad (c = {c},\ r = {r})"),
        Formula(r"\text{BLEU} = BP\cdot\exp\!\Big(\frac{1}{" + str(parts.used_orders) + r"}\sum_n \log p_n\Big) = "
                + f"{parts.brevity_penalty:.4f}" + r"\cdot\sqrt[" + str(parts.used_orders) + "]{"
                + r"\cdot ".join(f"{o.precision:.2f}" for o in used) + "}"
                + f" = {parts.brevity_penalty:.4f}" + r"\cdot " + f"{parts.geometric_mean:.2f} = {parts.score:.2f}"))
    zero = training.zero_reason(parts)
    if zero is not None:
        chrf = f"{training.sentence_chrf(' '.join(parts.hypothesis_tokens), ' '.join(parts.reference_tokens)):.2f}"
        shown_parts.add(Notice(t(f"training.bleu.zero.{zero[0]}", n=zero[1], chrf=chrf), icon=":material/exposure_zero:"))
    agree = abs(parts.score - parts.sacrebleu_score) < 1e-9
    fourth = parts.orders[-1]
    return shown_parts.add(
        Notice(t("training.bleu.check" if agree else "training.bleu.mismatch", mine=f"{parts.score:.4f}",
                 theirs=f"{parts.sacrebleu_score:.4f}"), "success" if agree else "error"),
        Text(t("training.bleu.noisy", total=fourth.total, orders=training.ORDERS,
               affected=sum(range(1, training.ORDERS + 1)),
               worth=f"{100 / fourth.total:.1f}" if fourth.total else "—"))).done()


def typed_reference(run: Run, result: TranslationResult, reference: str) -> tuple:
    """What the tab says of the typed `reference`: how to type one, or how it was cleaned and its score's
    breakdown."""
    signature = run.log.best.bleu_signature if run.log.best else ""
    target = run.config.target_language
    if not signature:
        return (Notice(t("training.bleu.nosignature")),)
    if not reference.strip():
        return (Notice(t("training.bleu.empty")),)
    # as model.data.read_pairs cleans dev references: English cleaned, Chinese also made Simplified
    normalised = clean_text(to_simplified(reference) if target == "zh" else reference)
    cleaned = (Caption(t(f"training.bleu.normalised.{target}")), Plain(normalised)) \
        if normalised != reference.strip() else ()
    try:
        parts = training.bleu_breakdown(result.translation, normalised, signature)
    except ValueError as exc:  # a signature whose smoothing the recomputation does not know
        return (*cleaned, Notice(t("training.bleu.unsupported", error=md_escape(exc)), "warning"))
    return (*cleaned, *(bleu_breakdown(parts) if parts else ()))


def dev_scores(log: TrainingLog) -> tuple:
    """The run's dev BLEU: its best evaluation, its average of the last epochs, its final beam search."""
    best, average, final = log.best, log.average, log.final
    if not best:
        return (Heading(t("training.bleu.dev.header"), 3),)
    lines = [t("training.bleu.dev.best", step=f"{best.step:,}", epoch=shown(best.epoch), bleu=best.bleu,
               unseen=shown(best.dedup_bleu))]
    if average and average.epochs:
        lines.append(t("training.bleu.dev.average", first=average.epochs[0], last=average.epochs[-1],
                       bleu=average.bleu, unseen=shown(average.dedup_bleu),
                       chosen=t("training.bleu.dev.chosen") if log.shipped_average else ""))
    if final:
        lines.append(t("training.bleu.dev.final", beam=final.beam, bleu=final.bleu, unseen=shown(final.dedup_bleu)))
    return (Heading(t("training.bleu.dev.header"), 3),
            Text(t("training.bleu.dev.text", n=f"{log.dev_pairs or 0:,}", unseen=f"{log.dedup_dev_pairs or 0:,}")
                 + "\n\n" + "\n".join(f"- {line}" for line in lines)))


def bleu_section(run: Run, result: TranslationResult, reference: str) -> BleuView:
    """BLEU of the session's translation against `reference`, the one the student typed, taken apart step by
    step; then the run's dev scores."""
    signature = run.log.best.bleu_signature if run.log.best else ""
    target = run.config.target_language
    before = (Text(t("training.bleu.intro", signature=md_escape(signature) if signature else "—",
                     tokenizer=t(f"training.bleu.tok.{target}"))), *banner(result))
    curves = Link("anatomy", t("training.bleu.dev.curves", page=t("nav.anatomy")))
    return BleuView(before, t("training.bleu.reference", target=run.target), t("training.bleu.placeholder"),
                    t("training.bleu.reference_help", source=run.source, cleaned=t(f"training.bleu.cleaned.{target}")),
                    (*typed_reference(run, result, reference), *dev_scores(run.log), curves))


@dataclass(frozen=True)
class Classroom:
    """Our classroom sentences as (source, target) of the model, its translations of their sources with `beam`."""

    pairs: tuple[tuple[str, str], ...]
    outputs: tuple[str, ...]
    beam: int


@dataclass(frozen=True)
class SentenceChoice:
    """The BLEU-limits tab's sentence picker: its label, its options (classroom sentences the model words
    differently), each option's label, and the sentence shown."""

    label: str
    options: tuple[int, ...]
    labels: dict[int, str]
    index: int


@dataclass(frozen=True)
class BleuLimitsView:
    """The BLEU-limits tab: the parts above the sentence picker, the picker (None where there is nothing to
    pick), and the parts below it."""

    before: tuple
    choice: SentenceChoice | None
    after: tuple


def bleu_limits_section(run: Run, classroom: Classroom | None, chosen: int | None = None) -> BleuLimitsView:
    """Tokenised BLEU, one reference, chrF: a classroom sentence the model words differently from our reference
    (`chosen`: its index among the pairs; by default the one chrF credits most above BLEU). For a Chinese output the
    tokens are characters (set against 13a's), for an English one 13a's words. `classroom`: None where the
    sentences or the log's signature are missing."""
    signature = run.log.best.bleu_signature if run.log.best else ""
    variant = "" if run.config.target_language == "zh" else ".en"
    intro = Text(t("training.bleuzh.intro" + variant, signature=md_escape(signature) if signature else "—"))
    if not signature or classroom is None:
        return BleuLimitsView((intro, Notice(t("training.bleu.nosignature"))), None, ())
    pairs, outputs = classroom.pairs, classroom.outputs
    references = [target for _, target in pairs]
    limits = [training.bleu_limits(out, ref, signature) for out, ref in zip(outputs, references)]
    widest = training.widest_gap(outputs, references, limits)
    if widest is None:
        return BleuLimitsView((intro, Notice(t("training.bleuzh.all_exact", n=len(pairs)))), None, ())
    differing = tuple(i for i, (out, ref) in enumerate(zip(outputs, references)) if out != ref)
    i = chosen if chosen in differing else widest
    choice = SentenceChoice(t("training.bleuzh.pick", n=len(differing), total=len(pairs)), differing,
                            {k: pairs[k][0] for k in differing}, differing.index(widest))
    found = limits[i]
    rows = [t("training.bleuzh.reference"), t("training.bleuzh.model", beam=classroom.beam)]
    higher = sum(limits[k].chrf > limits[k].bleu_zh for k in differing)
    after = (Table({t("training.bleuzh.col.what"): rows,
                    t("training.bleuzh.col.text", target=run.target): [references[i], outputs[i]]}, hide_index=True),
             Text(t("training.bleuzh.scores" + variant, bleu=f"{found.bleu_zh:.1f}", chrf=f"{found.chrf:.1f}",
                    zh=md_escape(" ".join(found.tokens_zh)), words=md_escape(" · ".join(found.tokens_13a)),
                    n13a=len(found.tokens_13a), bleu13a=f"{found.bleu_13a:.1f}")),
             Text(t("training.bleuzh.summary", n=len(differing), total=len(pairs), higher=higher)))
    return BleuLimitsView((intro,), choice, after)

