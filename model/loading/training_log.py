"""A checkpoint's training_log.json read into typed fields, and the log's rules for weighing its scores.

Training writes the log (model/training/train.py) and evaluation/ adds its measurements to it, each as a dict
written whole (write_training_log). Everything that reads it reads a TrainingLog: the pages, the model card
(cards/) and the study. The two rules live here and nowhere else:

- `Scores.selection_bleu`: what picks weights, BLEU on the dev pairs unlike any training pair (all of dev when none
  is unlike training). The trainer chooses epochs and averaging by it, through `selection_bleu(entry)`.
- `TrainingLog.honest_score`: the most honest BLEU the log holds, the one a page quotes beside the model.

A log from an older run lacks the entries later tools add: every field below is optional, None (or empty) when
absent.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, ClassVar, Mapping

TRAINING_LOG = "training_log.json"


def write_training_log(folder: str | Path, training_log: dict) -> Path:
    """The one writer of training_log.json (trainer, calibration and study rewrite it in place)."""
    path = Path(folder) / TRAINING_LOG
    path.write_text(json.dumps(training_log, indent=1) + "\n", encoding="utf-8")
    return path


def read_training_log(folder: str | Path) -> dict | None:
    """The checkpoint's training log as written (a dict, for a tool that adds to it and writes it back), or None
    when it has none or it does not parse."""
    try:
        data = json.loads((Path(folder) / TRAINING_LOG).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None
    return data if isinstance(data, dict) else None


def _build(cls, data: Mapping | None, **nested):
    """`cls` from the keys of `data` that are its fields (others ignored, absent ones at their defaults); `nested`:
    field → function that builds that field from its raw value."""
    if not isinstance(data, Mapping):
        data = {}
    names = {f.name for f in fields(cls)}
    values = {k: v for k, v in data.items() if k in names}
    for name, build in nested.items():
        values[name] = build(data.get(name))
    return cls(**values)


class _Entry:
    """An entry of the log read from its dict: its fields by name, those in NESTED built by their function."""

    NESTED: ClassVar[dict] = {}

    @classmethod
    def from_dict(cls, data: Mapping | None):
        return _build(cls, data, **cls.NESTED)


@dataclass(frozen=True)
class Scores(_Entry):
    """BLEU and chrF of one decoding of a set of pairs: on all of them, and on those unlike any training pair
    (dedup_, model.training.data.unlike_training), with sacrebleu's signatures of how they were computed."""

    bleu: float | None = None
    chrf: float | None = None
    dedup_bleu: float | None = None
    dedup_chrf: float | None = None
    bleu_signature: str = ""
    chrf_signature: str = ""


    @property
    def selection_bleu(self) -> float | None:
        """What picks a checkpoint: BLEU on the pairs unlike training; on all of them when none is."""
        return self.bleu if self.dedup_bleu is None else self.dedup_bleu


def selection_bleu(entry: Mapping) -> float:
    """Scores.selection_bleu of a log entry as the trainer holds it (a dict)."""
    return Scores.from_dict(entry).selection_bleu


@dataclass(frozen=True)
class Batch(_Entry):
    """A training batch's loss, logged every 50 steps."""

    step: int = 0
    epoch: int = 0  # from 1
    loss: float = 0.0
    lr: float = 0.0
    minutes: float = 0.0



@dataclass(frozen=True)
class Evaluation(Scores):
    """One greedy evaluation on dev during training (the best one keeps its signatures)."""

    step: int = 0
    epoch: int | None = None
    loss: float | None = None
    minutes: float | None = None



@dataclass(frozen=True)
class Average(Scores):
    """The mean of the last epochs' weights (--average-last), scored greedily on dev."""

    epochs: tuple[int, ...] = ()

    NESTED: ClassVar[dict] = {"epochs": lambda v: tuple(v or ())}


@dataclass(frozen=True)
class Final(Scores):
    """The shipped weights on dev with beam search (--final-beam)."""

    beam: int | None = None



@dataclass(frozen=True)
class TestScores(Scores):
    """The held-out test half (evaluation.study --test-split) at the app's beam."""

    beam: int | None = None
    pairs: int = 0
    unseen_pairs: int = 0  # of them, unlike any training pair (the dedup_ scores)
    untouched: bool = False  # trained with --test-split: no choice of weights saw these pairs



@dataclass(frozen=True)
class StudyRow(Scores):
    """One run of the recipe study (evaluation/study.py): its dev scores, and the test half's when measured."""

    group: int = 0
    run: str = ""
    changes: str = ""
    minutes: float | None = None
    steps: int | None = None
    hardware: str = "?"
    shipped: str = "best evaluation"
    test_bleu: float | None = None
    test_chrf: float | None = None
    test_dedup_bleu: float | None = None



@dataclass(frozen=True)
class ClassroomRow(_Entry):
    """One classroom sentence as evaluation.everyday stores it: the source as typed (under "en" whatever the
    direction), our reference and the model's translation."""

    en: str = ""
    reference: str = ""
    translation: str = ""


@dataclass(frozen=True)
class Everyday(Scores):
    """The everyday classroom sentences of the model's direction (evaluation.everyday --into)."""

    beam: int | None = None
    exact: int = 0
    sentences: int = 0
    classroom: tuple[ClassroomRow, ...] = ()

    NESTED: ClassVar[dict] = {"classroom": lambda v: tuple(ClassroomRow.from_dict(r) for r in v or ())}



@dataclass(frozen=True)
class NamesRun(_Entry):
    """One decoding in the names measurement: as typed, or with names swapped for known ones."""

    test: Scores
    test_unseen: Scores
    selection: Scores
    selection_unseen: Scores
    classroom: Scores
    names_survived: int = 0
    names: int = 0
    swapped: int = 0

    NESTED: ClassVar[dict] = {name: Scores.from_dict for name in ("test", "test_unseen", "selection",
                                                                   "selection_unseen", "classroom")}


@dataclass(frozen=True)
class NamesEffect(_Entry):
    """Names the model never learned, read as known ones (evaluation.everyday --names-effect)."""

    as_typed: NamesRun
    names_read_as: NamesRun
    beam: int | None = None

    NESTED: ClassVar[dict] = {"as_typed": NamesRun.from_dict, "names_read_as": NamesRun.from_dict}


@dataclass(frozen=True)
class Decoding(_Entry):
    """A beam size and length penalty (alpha None: greedy), with its scores where they were measured."""

    beam: int = 1
    alpha: float | None = None
    bleu: float | None = field(default=None, compare=False)
    chrf: float | None = field(default=None, compare=False)
    outside_grid: bool = field(default=False, compare=False)



@dataclass(frozen=True)
class DecodingSweep(_Entry):
    """The beam sizes and length penalties weighed on dev's selection half (evaluation/decoding_sweep.py): equal
    Decodings are the same setting, whatever was measured with them."""

    rows: tuple[Decoding, ...] = ()
    chosen: Decoding = Decoding()
    default: Decoding = Decoding()
    best: Decoding = Decoding()
    p_value: float | None = None  # None: the best had no BLEU lead over the default, so nothing was tested
    compared: int | None = None  # the settings the best was picked from; None: a sweep that tested at 0.05 alone
    threshold: float | None = None  # the p-value under which the best replaced the default (0.05 / compared)
    test: Mapping[str, Decoding] = field(default_factory=dict)  # "chosen", "default", "best" → on the test half
    selection_pairs: int = 0
    test_pairs: int = 0

    NESTED: ClassVar[dict] = {
        "rows": lambda v: tuple(Decoding.from_dict(r) for r in v or ()), "chosen": Decoding.from_dict,
        "default": Decoding.from_dict, "best": Decoding.from_dict,
        "test": lambda v: {name: Decoding.from_dict(r) for name, r in (v or {}).items()}}


@dataclass(frozen=True)
class Reliability(_Entry):
    """Teacher-forced confidence against how often it was right, in bins (evaluation/reliability.py)."""

    pairs: int = 0
    positions: int = 0
    bins: tuple[Mapping, ...] = ()  # {low, high, positions, confidence, right} each (lessons.training.reliability)

    NESTED: ClassVar[dict] = {"bins": lambda v: tuple(v or ())}


@dataclass(frozen=True)
class Side(_Entry):
    """The dev translations or tokens on one side of a confidence threshold, and how often they were right."""

    tokens: int = 0
    translations: int = 0
    right: float | None = None  # tokens: share whose characters the reference holds
    exact: float | None = None  # translations: share equal to the reference
    chrf: float | None = None


@dataclass(frozen=True)
class Threshold(_Entry):
    """A calibrated confidence threshold (a token's probability, or a translation's geometric mean of them)."""

    threshold: float | None = None
    below: Side = Side()
    above: Side = Side()

    NESTED: ClassVar[dict] = {"below": Side.from_dict, "above": Side.from_dict}


@dataclass(frozen=True)
class Calibration(_Entry):
    """The confidence thresholds fitted on dev (evaluation/calibrate.py); `usable` says whether serving can mark by
    them (model.translation.confidence)."""

    beam: int | None = None
    pairs: int = 0
    token: Threshold = Threshold()
    sentence: Threshold = Threshold()

    NESTED: ClassVar[dict] = {"token": Threshold.from_dict, "sentence": Threshold.from_dict}

    @property
    def usable(self) -> bool:
        """Whether serving can mark by it: both thresholds are numbers strictly between 0 and 1."""
        try:
            return all(0 < float(part.threshold) < 1 for part in (self.token, self.sentence))
        except (TypeError, ValueError):
            return False


def usable_calibration(training_log: Mapping | None) -> Calibration | None:
    """The log's calibration where serving can mark by it (Calibration.usable), else None; read alone, without the rest
    of the log (serving asks on every translation)."""
    entry = training_log.get("calibration") if isinstance(training_log, Mapping) else None
    found = Calibration.from_dict(entry) if isinstance(entry, Mapping) and entry else None
    return found if found is not None and found.usable else None


def _grid(value) -> tuple[tuple[float, ...], ...]:
    return tuple(tuple(row) for row in value or ())


@dataclass(frozen=True)
class MethodAgreement(_Entry):
    """One attribution method against the cross heads' attention on unseen dev sentences (evaluation/agreement.py):
    per layer and head the mean Spearman ρ and top-1 match, per layer the head-averaged map's (ρ, top-1), and
    attention rollout's (ρ, top-1)."""

    rho: tuple[tuple[float, ...], ...] = ()
    top1: tuple[tuple[float, ...], ...] = ()
    layer_mean: tuple[tuple[float, ...], ...] = ()
    rollout: tuple[float, ...] = ()

    NESTED: ClassVar[dict] = {"rho": _grid, "top1": _grid, "layer_mean": _grid, "rollout": lambda v: tuple(v or ())}


@dataclass(frozen=True)
class Agreement(_Entry):
    """How far each cross head's attention agrees with attribution, by method (evaluation/agreement.py)."""

    sentences: int = 0
    beam: int | None = None
    source_language: str | None = None
    integrated_gradients: MethodAgreement = MethodAgreement()
    input_x_gradient: MethodAgreement = MethodAgreement()

    NESTED: ClassVar[dict] = {"integrated_gradients": MethodAgreement.from_dict,
                              "input_x_gradient": MethodAgreement.from_dict}


@dataclass(frozen=True)
class HeadGrid(_Entry):
    """One kind of attention's heads in a patching study: per layer, per head, the mean normalised effect over the
    kept pairs and its 95 % bootstrap interval."""

    mean: tuple[tuple[float, ...], ...] = ()
    low: tuple[tuple[float, ...], ...] = ()
    high: tuple[tuple[float, ...], ...] = ()

    NESTED: ClassVar[dict] = {name: (lambda v: tuple(tuple(row) for row in v or ())) for name in ("mean", "low",
                                                                                                "high")}


@dataclass(frozen=True)
class Interval(_Entry):
    """A mean effect over pairs and its 95 % bootstrap interval (or a difference of two scores over the same pairs:
    Alignment.differences)."""

    mean: float = 0.0
    low: float = 0.0
    high: float = 0.0


@dataclass(frozen=True)
class StudyHead(Interval):
    """A head that matters consistently: its interval excludes 0 and its mean reaches the study's threshold."""

    kind: str = ""  # the kind of attention: encoder_self, decoder_self, cross
    layer: int = 0  # from 0
    head: int = 0  # from 0


@dataclass(frozen=True)
class PatchingPair(_Entry):
    """One pair the study tried: kept with its heads' effects where the model writes the expected target and foil
    at the step where the two translations part, else dropped with the reason."""

    clean: str = ""
    corrupt: str = ""
    kept: bool = False
    reason: str = ""  # why it was dropped
    clean_translation: str = ""
    corrupt_translation: str = ""
    step: int | None = None
    target: str = ""
    foil: str = ""
    clean_diff: float | None = None
    corrupted_diff: float | None = None
    heads: Mapping[str, tuple] = field(default_factory=dict)  # kind of attention → layer × head effects

    NESTED: ClassVar[dict] = {"heads": lambda v: {kind: tuple(tuple(row) for row in grid)
                                                  for kind, grid in (v or {}).items()}}


@dataclass(frozen=True)
class PatchingStudy(_Entry):
    """One kind of pair of the built-in patching study (evaluation/patching_study.py): the pairs tried and kept,
    per kind of attention the heads' mean effects with their intervals, and the heads that matter consistently."""

    kind: str = ""  # the kind of pair, the key it is stored under: "pronoun", "adjective"
    name: str = ""  # what the pairs swap, in words: "pronoun He → She"
    couples: tuple[tuple[str, str], ...] = ()  # the (target, foil) tokens the kept pairs were read at
    tried: int = 0
    kept: int = 0
    pairs: tuple[PatchingPair, ...] = ()
    heads: Mapping[str, HeadGrid] = field(default_factory=dict)  # kind of attention → its grid
    threshold: float = 0.0  # the least mean effect of a head that matters
    consistent: tuple[StudyHead, ...] = ()  # largest mean first
    resamples: int = 0
    seed: int | None = None

    NESTED: ClassVar[dict] = {
        "couples": lambda v: tuple((target, foil) for target, foil in v or ()),
        "pairs": lambda v: tuple(PatchingPair.from_dict(p) for p in v or ()),
        "heads": lambda v: {kind: HeadGrid.from_dict(grid) for kind, grid in (v or {}).items()},
        "consistent": lambda v: tuple(StudyHead.from_dict(h) for h in v or ())}


def patching_studies(value: Mapping | None) -> dict[str, PatchingStudy]:
    """The log's patching_study: kind of pair → its study. A log holding one study alone (its heads at the top, its
    pair kind's name under "kind", one target and foil) reads as that study under its name's first word."""
    if not isinstance(value, Mapping):
        return {}
    if "heads" in value:
        name = str(value.get("kind", ""))
        kind = name.split(" ")[0]
        one = {**value, "kind": kind, "name": name, "couples": [(value.get("target", ""), value.get("foil", ""))]}
        return {kind: PatchingStudy.from_dict(one)}
    return {kind: PatchingStudy.from_dict({**study, "kind": kind}) for kind, study in value.items()
            if isinstance(study, Mapping)}


@dataclass(frozen=True)
class Lengths(_Entry):
    """The longest training pair, in tokens as the trainer tokenises them (with </s>), of `pairs` training pairs
    (evaluation/coverage.py): where the trained positions end."""

    pairs: int = 0
    source_tokens: int = 0
    target_tokens: int = 0


@dataclass(frozen=True)
class FfnUnits(_Entry):
    """Per encoder layer, how many of the d_ff FFN units fire (are above 0) for at least one token of `sentences` dev
    sentences (evaluation/coverage.py)."""

    sentences: int = 0
    d_ff: int = 0
    used: tuple[int, ...] = ()

    NESTED: ClassVar[dict] = {"used": lambda v: tuple(v or ())}


@dataclass(frozen=True)
class Drop(_Entry):
    """BLEU lost against the whole model on the same pairs, with the 95 % paired bootstrap interval of that loss
    (evaluation.heads.paired_drop); above 0: worse without. None at a pruning curve's start (nothing removed)."""

    bleu_drop: float | None = None
    low: float | None = None
    high: float | None = None


@dataclass(frozen=True)
class HeadDrop(Drop):
    """One head knocked out alone (evaluation/heads.py): what it costs in BLEU and in the reference's mean NLL per
    token (nats; None where not measured: the test half's largest drops)."""

    kind: str = ""  # the kind of attention: encoder_self, decoder_self, cross
    layer: int = 0  # from 0
    head: int = 0  # from 0
    nll_rise: float | None = None


@dataclass(frozen=True)
class PruningPoint(Drop):
    """A point of a pruning curve: BLEU on the test half with `removed` heads out, the last of them `head`."""

    removed: int = 0
    bleu: float = 0.0
    head: tuple | None = None  # (kind, layer, head), 0-based; None at 0 removed

    NESTED: ClassVar[dict] = {"head": lambda v: tuple(v) if v else None}


@dataclass(frozen=True)
class Heads(_Entry):
    """Each head knocked out alone on dev's selection half, and per kind the pruning curve in that order on the test
    half (evaluation/heads.py)."""

    pairs: int = 0  # selection-half pairs
    beam: int = 1
    bleu: float = 0.0  # the whole model's, greedy, on them
    nll: float | None = None
    resamples: int = 0
    single: tuple[HeadDrop, ...] = ()
    test_pairs: int = 0
    test_bleu: float = 0.0  # the whole model's on the test half
    pruning: Mapping[str, tuple[PruningPoint, ...]] = field(default_factory=dict)  # kind of attention → its curve
    largest_on_test: tuple[HeadDrop, ...] | None = None  # the heads tied for the largest drop, on the test half;
    # None: not measured yet (python -m evaluation.heads --largest-only)

    NESTED: ClassVar[dict] = {
        "single": lambda v: tuple(HeadDrop.from_dict(s) for s in v or ()),
        "pruning": lambda v: {kind: tuple(PruningPoint.from_dict(p) for p in curve)
                              for kind, curve in (v or {}).items()},
        "largest_on_test": lambda v: None if v is None else tuple(HeadDrop.from_dict(s) for s in v)}


@dataclass(frozen=True)
class Pick(_Entry):
    """The head one half of the gold chose for the other (two-fold cross-validation), and how it was read."""

    scored_on: str = ""  # "even pairs", "odd pairs"
    reading: str = "plain"  # "plain" (row t) or "shifted" (row t + 1)
    layer: int = 0  # from 0
    head: int = 0  # from 0


@dataclass(frozen=True)
class Aligner(_Entry):
    """One aligner's pooled AER on the gold pairs with its 95 % bootstrap interval (None where a log has none):
    the cross head chosen on the other half (`picked`), an attribution method or IBM Model 1 (`iterations`)."""

    aer: float = 0.0
    low: float | None = None
    high: float | None = None
    method: str = ""  # integrated_gradients, input_x_gradient, ibm_model_1; "" for the chosen head
    iterations: int | None = None  # IBM Model 1's EM iterations
    picked: tuple[Pick, ...] = ()

    NESTED: ClassVar[dict] = {"picked": lambda v: tuple(Pick.from_dict(p) for p in v or ())}


@dataclass(frozen=True)
class Completeness(_Entry):
    """Integrated gradients' completeness on the gold pairs (lessons.explanation.completeness): a path adds points
    until its gap is within `bound` or it has `most`, so a gap above the bound is a path that hit the cap."""

    pairs: int = 0  # the gold pairs whose paths were checked
    bound: float = 0.0  # the relative gap (worst step) a path stops within
    most: int = 0  # the points a path may take
    above: int = 0  # paths that ended above the bound
    worst: float = 0.0  # the largest gap
    at_cap: int = 0  # paths that took all `most` points


@dataclass(frozen=True)
class Alignment(_Entry):
    """Cross-attention's AER against the gold alignments (evaluation/alignment/score.py), or the attention rows of it
    measured on the page (evaluation.alignment.directions.attention_scores: no attribution, baseline, differences
    nor completeness). Grids and lists per layer (and head), 0-based."""

    pairs: int = 0  # the gold pairs scored: those whose tokens fit the gold's units
    gold_pairs: int = 0
    skipped: int = 0
    teacher_forced: bool = True
    source_language: str = "en"  # an older log, measured before the Chinese-source model, holds English sources
    heads_plain: tuple[tuple[float, ...], ...] = ()
    layers_plain: tuple[float, ...] = ()
    heads_shifted: tuple[tuple[float, ...], ...] = ()
    layers_shifted: tuple[float, ...] = ()
    resamples: int = 0
    chosen: Aligner | None = None
    integrated_gradients: Aligner | None = None
    attribution: Aligner | None = None  # |input × gradient|
    baseline: Aligner | None = None  # IBM Model 1
    differences: Mapping[str, Interval] = field(default_factory=dict)  # "a - b" → AER(a) − AER(b) as `mean`, its
    # interval over the same resampled gold pairs (below 0: a aligns better)
    completeness: Completeness | None = None

    NESTED: ClassVar[dict] = {
        "heads_plain": _grid, "heads_shifted": _grid, "layers_plain": lambda v: tuple(v or ()),
        "layers_shifted": lambda v: tuple(v or ()),
        **{name: (lambda v: Aligner.from_dict(v) if v else None)
           for name in ("chosen", "integrated_gradients", "attribution", "baseline")},
        "differences": lambda v: {name: Interval.from_dict({**d, "mean": d.get("difference")})
                                  for name, d in (v or {}).items()},
        "completeness": lambda v: Completeness.from_dict(v) if v else None}


def _roles(value) -> dict[str, tuple[tuple[float, ...], ...]]:
    return {role: _grid(grid) for role, grid in (value or {}).items()}


@dataclass(frozen=True)
class HeadRoles(_Entry):
    """Per kind of attention, each role's share per layer and head on the gold pairs (evaluation/alignment/score.py;
    lessons.explanation.role_statistics): role (previous, next, sink, rare) → layer × head grid."""

    pairs: int = 0
    source: str = ""  # what was run: "gold pairs, teacher-forced"
    encoder_self: Mapping[str, tuple[tuple[float, ...], ...]] = field(default_factory=dict)
    decoder_self: Mapping[str, tuple[tuple[float, ...], ...]] = field(default_factory=dict)
    cross: Mapping[str, tuple[tuple[float, ...], ...]] = field(default_factory=dict)

    NESTED: ClassVar[dict] = {"encoder_self": _roles, "decoder_self": _roles, "cross": _roles}

    def of(self, kind: str) -> Mapping[str, tuple[tuple[float, ...], ...]]:
        """The role shares of one kind of attention (encoder_self, decoder_self, cross)."""
        return {"encoder_self": self.encoder_self, "decoder_self": self.decoder_self, "cross": self.cross}[kind]


@dataclass(frozen=True)
class TrainingArgs:
    """The trainer's options as the run parsed them (model.training.train.parse_args): those the pages and the card
    read, and `given`, every one of them (the study compares them all with another run's). An option the run's
    trainer did not have yet reads as the behaviour it had then (no smoothing, no token dropout, no test split);
    one every run records reads as None when a log lacks it."""

    given: Mapping[str, Any]
    out: str = ""
    dev: str | None = None
    epochs: int | None = None
    warmup: int | None = None
    lr_factor: float = 1.0
    max_tokens: int | None = None
    label_smoothing: float = 0.0
    dropout: float | None = None  # None: the model config's
    attention_dropout: float | None = None  # None: the same as dropout
    activation_dropout: float | None = None  # None: the same as dropout
    token_dropout: float = 0.0
    save_dtype: str | None = None
    test_split: bool = False
    dictionary_words: int = 0
    names: int = 0

    @classmethod
    def from_dict(cls, data: Mapping | None) -> TrainingArgs:
        given = dict(data) if isinstance(data, Mapping) else {}
        return _build(cls, {**given, "given": given})


@dataclass(frozen=True)
class PoolStep(_Entry):
    """One step of building the monolingual pool (model/training/backtranslation/pool.py): the sentences left."""

    step: str = ""
    count: int = 0


@dataclass(frozen=True)
class Synthesis(_Entry):
    """How the synthetic side was written: the decoding (method, beam, seed, sampling's top_k and temperature, the
    noise of beam-noise) by the model of the other direction (its weights' SHA-256), and what was kept."""

    method: str = ""  # sample, beam, beam-noise
    beam: int | None = None
    seed: int | None = None
    top_k: int | None = None
    temperature: float | None = None
    delete: float | None = None  # beam-noise only, as the noise's three settings
    blank: float | None = None
    swap: int | None = None
    model_sha256: str = ""
    real_language: str = ""  # the pool's language: "en" or "zh"
    synthetic_language: str = ""
    translated: int = 0
    ran_to_the_limit: int = 0
    name_lost: int = 0
    empty_or_wrong_script: int = 0
    kept: int = 0


@dataclass(frozen=True)
class Mix(_Entry):
    """The training file: the real pairs `real_copies` times, then the `synthetic` pairs, their synthetic side
    marked with `tag` (None: untagged)."""

    real: int = 0
    real_copies: int = 1
    synthetic: int = 0
    tag: str | None = None
    seed: int | None = None
    sha256: str = ""


@dataclass(frozen=True)
class ArmScore(_Entry):
    """An arm's BLEU and chrF on one set, and its gain over the reference with the 95 % paired interval (None for
    the reference itself)."""

    bleu: float | None = None
    chrf: float | None = None
    gain: float | None = None
    low: float | None = None
    high: float | None = None


@dataclass(frozen=True)
class Arm(_Entry):
    """One training run scored by evaluation.arms: the reference (the model shipped before), an arm, or this one."""

    run: str = ""
    this: bool = False
    reference: bool = False
    minutes: float | None = None
    steps: int | None = None
    train_pairs: int | None = None
    test_unseen: ArmScore = ArmScore()
    newer: ArmScore = ArmScore()

    NESTED: ClassVar[dict] = {"test_unseen": ArmScore.from_dict, "newer": ArmScore.from_dict}


@dataclass(frozen=True)
class Replaced(_Entry):
    """This model scored against the one it replaced (record --replaced): the shipping rule's comparison."""

    run: str = ""
    test_unseen: ArmScore = ArmScore()
    newer: ArmScore = ArmScore()

    NESTED: ClassVar[dict] = {"test_unseen": ArmScore.from_dict, "newer": ArmScore.from_dict}


@dataclass(frozen=True)
class Backtranslation(_Entry):
    """What a model trained on back-translated pairs was trained on (python -m model.training.backtranslation
    record): the test sets the pool came from, the steps that built the pool, what it was kept apart from, the
    synthesis, the mix, the arms scored on the test half's unseen pairs and the newer Tatoeba pairs, and, for a
    model that replaced another trained so, this one scored against that one."""

    repository: str = ""
    commit: str = ""
    version: str = ""
    pool_language: str = ""
    pool_steps: tuple[PoolStep, ...] = ()
    excluded_from: Mapping[str, str] = field(default_factory=dict)  # file name → its SHA-256
    synthesis: Synthesis = Synthesis()
    mix: Mix = Mix()
    beam: int | None = None  # the arms' decoding
    test_unseen_pairs: int = 0
    newer_pairs: int = 0
    arms: tuple[Arm, ...] = ()
    replaced: Replaced | None = None  # None: the first model shipped with back-translated pairs

    @classmethod
    def from_dict(cls, data: Mapping | None) -> Backtranslation:
        data = data if isinstance(data, Mapping) else {}
        testsets, pool, scored = (data.get(k) or {} for k in ("testsets", "pool", "scored"))
        return cls(repository=testsets.get("repository", ""), commit=testsets.get("commit", ""),
                   version=testsets.get("version", ""), pool_language=pool.get("language", ""),
                   pool_steps=tuple(PoolStep.from_dict(s) for s in pool.get("steps") or ()),
                   excluded_from=dict(data.get("excluded_from") or {}),
                   synthesis=Synthesis.from_dict(data.get("synthesis")), mix=Mix.from_dict(data.get("mix")),
                   beam=scored.get("beam"), test_unseen_pairs=scored.get("test_unseen", 0),
                   newer_pairs=scored.get("newer", 0),
                   arms=tuple(Arm.from_dict(a) for a in scored.get("arms") or ()),
                   replaced=Replaced.from_dict(scored["replaced"]) if scored.get("replaced") else None)


@dataclass(frozen=True)
class HonestScore:
    """The BLEU a page quotes beside the model, with where and how it was measured."""

    bleu: float
    set: str  # "test" (the test half's pairs unlike training, no choice saw them), "test_seen" (the same pairs, but
    # the weights were chosen on all of dev), "unseen" (dev's pairs unlike training), "dev" (all of dev)
    pairs: int | None  # how many pairs `set` holds; None for "dev"
    beam: int | None  # the beam size; None: greedy


@dataclass(frozen=True)
class SnapshotProbe(_Entry):
    """A probe sentence as the model translated it (greedily) at a snapshot during training; its maps, kind →
    (layers, heads, Tq, Tk) float32, once read from the snapshots file (model.read_snapshots), none in the log."""

    source_tokens: tuple[str, ...] = ()
    target_tokens: tuple[str, ...] = ()
    translation: str = ""
    maps: Mapping[str, Any] = field(default_factory=dict)

    NESTED: ClassVar[dict] = {"source_tokens": lambda v: tuple(v or ()), "target_tokens": lambda v: tuple(v or ()),
                              "maps": lambda v: {}}

    def attention(self, kind: str):
        """This probe's maps of `kind` (encoder_self, decoder_self, cross): (layers, heads, Tq, Tk)."""
        return self.maps[kind]


@dataclass(frozen=True)
class Snapshot(_Entry):
    """The probes at one evaluation during training (model/training/snapshots.py)."""

    step: int = 0
    epoch: int = 0
    probes: tuple[SnapshotProbe, ...] = ()

    NESTED: ClassVar[dict] = {"probes": lambda v: tuple(SnapshotProbe.from_dict(p) for p in v or ())}


_LISTS = {"train": Batch, "dev": Evaluation, "study": StudyRow, "snapshots": Snapshot}
_ENTRIES = {"best": Evaluation, "average": Average, "final": Final, "test": TestScores, "everyday": Everyday,
            "names_effect": NamesEffect, "decoding_sweep": DecodingSweep, "reliability": Reliability,
            "calibration": Calibration, "agreement": Agreement, "backtranslation": Backtranslation,
            "lengths": Lengths, "ffn_units": FfnUnits, "heads": Heads, "alignment": Alignment, "head_roles": HeadRoles}


@dataclass(frozen=True)
class TrainingLog:
    """What training measured (losses, dev scores, which weights shipped) and what evaluation/ added since."""

    args: TrainingArgs | None = None  # None: a log without the training arguments (not written by our trainer)
    argv: tuple[str, ...] = ()
    hardware: str | None = None
    parameters: int | None = None
    mixed_precision: str = "fp32"
    train_pairs: int | None = None
    dev_pairs: int | None = None
    dedup_dev_pairs: int | None = None  # dev pairs unlike any training pair
    steps: int | None = None
    epochs: int | None = None
    train_minutes: float | None = None
    train: tuple[Batch, ...] = ()
    dev: tuple[Evaluation, ...] = ()
    best: Evaluation | None = None
    average: Average | None = None
    final: Final | None = None
    shipped: str | None = None  # which weights the trainer exported, in its words
    probes: tuple[str, ...] = ()
    snapshots: tuple[Snapshot, ...] = ()  # their maps are in the snapshots file: model.read_snapshots
    test: TestScores | None = None
    everyday: Everyday | None = None
    names_effect: NamesEffect | None = None
    decoding_sweep: DecodingSweep | None = None
    study: tuple[StudyRow, ...] = ()
    study_findings: tuple[str, ...] = ()
    study_findings_zh: tuple[str, ...] = ()
    reliability: Reliability | None = None
    calibration: Calibration | None = None
    heads: Heads | None = None
    agreement: Agreement | None = None
    alignment: Alignment | None = None
    head_roles: HeadRoles | None = None
    lengths: Lengths | None = None
    ffn_units: FfnUnits | None = None
    patching_study: Mapping[str, PatchingStudy] = field(default_factory=dict)  # kind of pair → its study
    backtranslation: Backtranslation | None = None  # None: trained on the real pairs alone

    @classmethod
    def from_dict(cls, data: Mapping | None) -> TrainingLog:
        """The log as read (read_training_log, Translator.training_log); None or {}: an empty log."""
        data = data if isinstance(data, Mapping) else {}
        nested: dict[str, Any] = {name: (lambda v, kind=kind: tuple(kind.from_dict(e) for e in v or ()))
                                  for name, kind in _LISTS.items()}
        nested |= {name: (lambda v, kind=kind: kind.from_dict(v) if v else None) for name, kind in _ENTRIES.items()}
        nested |= {name: (lambda v: tuple(v or ())) for name in ("argv", "probes", "study_findings",
                                                                 "study_findings_zh")}
        nested["args"] = lambda v: TrainingArgs.from_dict(v) if isinstance(v, Mapping) else None
        nested["mixed_precision"] = lambda v: v or "fp32"
        nested["patching_study"] = patching_studies
        return _build(cls, data, **nested)

    @classmethod
    def read(cls, folder: str | Path) -> TrainingLog | None:
        """The checkpoint's log, or None when it has none (or it does not parse)."""
        data = read_training_log(folder)
        return None if data is None else cls.from_dict(data)

    @property
    def shipped_average(self) -> bool:
        """Whether the trainer shipped the average of the last epochs' weights (it beat the best evaluation's)."""
        return self.average is not None and (self.shipped or "").startswith("average")

    @property
    def shipped_greedy(self) -> Scores | None:
        """The shipped weights' greedy dev scores: the average's when averaging won, else the best evaluation's."""
        return self.average if self.shipped_average else self.best

    @property
    def real_pairs(self) -> int | None:
        """The real sentence pairs trained on: the training file's pairs less the back-translated ones and the
        copies of the real ones (train_pairs counts lines)."""
        return self.backtranslation.mix.real if self.backtranslation is not None else self.train_pairs

    @property
    def steps_done(self) -> int:
        """The run's optimizer steps: the log's count, else the last logged batch's step."""
        if self.steps is not None:
            return self.steps
        return self.train[-1].step if self.train else 0

    @property
    def honest_score(self) -> HonestScore | None:
        """The most honest BLEU the log holds: the held-out test half's (evaluation.study --test-split: nothing was
        chosen on it but, without --test-split at training, the weights) on its pairs unlike training; else dev's,
        on the dev pairs unlike any training pair where measured, with beam search where measured, else greedily
        (the shipped weights' score). None when the log has no score."""
        test = self.test
        if test is not None and test.dedup_bleu is not None:
            return HonestScore(test.dedup_bleu, "test" if test.untouched else "test_seen", test.unseen_pairs,
                               test.beam)
        final = self.final if self.final is not None and self.final.bleu is not None else None
        scores, beam = (final, final.beam) if final else (self.shipped_greedy, None)
        if scores is None or scores.bleu is None:
            return None
        if scores.dedup_bleu is not None and self.dedup_dev_pairs:
            return HonestScore(scores.dedup_bleu, "unseen", self.dedup_dev_pairs, beam)
        return HonestScore(scores.bleu, "dev", None, beam)

    @property
    def selection_pairs(self) -> int | None:
        """The dev pairs outside the test half: all the trainer scored when it trained with --test-split (it never
        read the test half), else all of dev less the test half. None without a test half."""
        if not self.dev_pairs or self.test is None:
            return None
        return self.dev_pairs if self.args is not None and self.args.test_split else self.dev_pairs - self.test.pairs
