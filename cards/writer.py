"""The model card (the checkpoint's README.md, and README.zh.md in Chinese), written from the config and the
training log: one generator, the prose from a phrasebook per language (phrasebooks.py), the numbers the same in both.

Rewrite the cards of an existing checkpoint (after a study, or when a phrasebook changed) without retraining:

    python -m cards checkpoints/en-zh
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping
from pathlib import Path

from model.architecture.config import ModelConfig
from model.loading.checkpoint import CARDS, CONFIG
from model.loading.training_log import (TRAINING_LOG, Calibration, DecodingSweep, Everyday, NamesEffect, Scores,
                                        StudyRow, TestScores, TrainingArgs, TrainingLog)
from . import backtranslation
from .phrasebooks import PHRASEBOOKS, log_words, phrasebook_key


def model_card(config: ModelConfig, log: TrainingLog | Mapping, name: str | None = None, language: str = "en") -> str:
    """The checkpoint's README in `language` ("en" or "zh"): what the model is, its scores, its data and how to
    retrain it. `log`: the training log, read (TrainingLog) or as the trainer holds it (a dict).

    `name`: the folder the card is written into, when the checkpoint was moved after training.
    """
    log = log if isinstance(log, TrainingLog) else TrainingLog.from_dict(log)
    language = phrasebook_key(language, config.source_language)  # the direction's own wording, same numbers
    p = PHRASEBOOKS[language]
    args = log.args or TrainingArgs({})
    name = name or Path(args.out).name
    lines = [
        p["title"].format(name=name),
        "",
        p["intro"],
        "",
        *_summary(config, log, args, language),
        "",
        *_dev_scores(log, language),
        *_test(log.test, log.calibration, log.selection_pairs, language),
        *_everyday(log.everyday, language),
        *_names(log.names_effect, language),
        *_decoding_sweep(log.decoding_sweep, language),
        *_study(log, language),
        *_rounding_note(log, name, language),
        p["data.header"],
        "",
        p["data.text"].format(train=f"{_or(log.real_pairs, 26777):,}", dev=f"{_or(log.dev_pairs, 1221):,}"),
        "",
        *_dictionary_credit(args, language),
        *backtranslation.section(log.backtranslation, language, str(args.given.get("train", ""))),
        p["limits.header"],
        "",
        p["limits.text"].format(example=_names_example(log.everyday, language)),
        "",
        p["retraining.header"],
        "",
        "```",
        "python -m model.training.train " + " ".join(log.argv),
        "```",
        "",
    ]
    return "\n".join(lines)


def _summary(config: ModelConfig, log: TrainingLog, args: TrainingArgs, language: str) -> list[str]:
    """The table at the top: direction, size, shape, vocabularies, weights, training run and recipe."""
    p = PHRASEBOOKS[language]
    shipped = log.shipped or f"best evaluation (step {log.best.step})"
    return [
        "| | |",
        "|---|---|",
        p["row.direction"],
        p["row.parameters"].format(params=f"{log.parameters:,}"),
        p["row.shape"].format(c=config),
        p["row.vocabularies"].format(c=config),
        p["row.weights"].format(dtype=args.save_dtype),
        p["row.integrity"],
        p["row.training"].format(hardware=log_words(log.hardware, language), precision=log.mixed_precision,
                                 minutes=log.train_minutes, steps=log.steps, epochs=log.epochs,
                                 shipped=log_words(shipped, language)),
        p["row.recipe"].format(c=config, warmup=args.warmup, smoothing=args.label_smoothing,
                               token_dropout=args.token_dropout, max_tokens=args.max_tokens),
    ]


def _or(value, absent):
    """`value`, or what the card says where the log has none."""
    return absent if value is None else value


def _cells(*values) -> str:
    """Table cells of scores, "–" for one not measured."""
    return " | ".join("–" if value is None else str(value) for value in values)


def _scores(scores: Scores) -> str:
    """BLEU, chrF and both on the pairs unlike training, as table cells."""
    return _cells(scores.bleu, scores.chrf, scores.dedup_bleu, scores.dedup_chrf)


def _signatures(scored: Scores, language: str) -> list[str]:
    """sacrebleu's signatures of how BLEU and chrF were computed."""
    p = PHRASEBOOKS[language]
    return [p["signature.bleu"].format(signature=scored.bleu_signature),
            p["signature.chrf"].format(signature=scored.chrf_signature), ""]


def _dev_scores(log: TrainingLog, language: str) -> list[str]:
    """Dev-set scores of the shipped weights, greedy and (when measured) with beam search."""
    p = PHRASEBOOKS[language]
    final = log.final
    lines = [
        p["dev.header"].format(pairs=f"{_or(log.dev_pairs, 1221):,}"),
        "",
        p["dev.unseen"].format(unseen=_or(log.dedup_dev_pairs, "?")),
        "",
        p["dev.columns"],
        "|---|---|---|---|---|",
        p["dev.greedy"].format(shipped=log_words(_or(log.shipped, "best evaluation"), language),
                               scores=_scores(log.shipped_greedy)),
    ]
    if final:
        lines.append(p["dev.beam"].format(beam=final.beam, scores=_scores(final)))
    return lines + ["", *_signatures(log.best, language)]


def _test(test: TestScores | None, calibration: Calibration | None, selection_pairs: int | None,
          language: str) -> list[str]:
    """The held-out test half's scores (evaluation.study --test-split), with what was nevertheless chosen on
    it: the weights (unless trained with --test-split) and the confidence thresholds, when calibration translated
    more dev pairs than lie outside the test half."""
    if not test:
        return []
    p = PHRASEBOOKS[language]
    thresholds = ""
    if calibration and selection_pairs:
        overlap = calibration.pairs > selection_pairs
        thresholds = p["test.thresholds_all" if overlap else "test.thresholds_selection"].format(
            pairs=f"{calibration.pairs:,}")
    return [
        p["test.header"].format(pairs=f"{test.pairs:,}", unseen=f"{test.unseen_pairs:,}"),
        "",
        p["test.what"] + thresholds + p["test.untouched" if test.untouched else "test.touched"],
        p["test.beam"].format(beam=test.beam),
        "",
        p["test.columns"],
        "|---|---|---|---|---|",
        p["test.row"].format(scores=_scores(test)),
        "",
        *_signatures(test, language),
    ]


def _everyday(everyday: Everyday | None, language: str) -> list[str]:
    """The everyday classroom set of the model's direction (evaluation.everyday --into), when it was scored."""
    if not everyday:
        return []
    p = PHRASEBOOKS[language]
    return [p["everyday.header"], "", p["everyday.what"].format(beam=everyday.beam), "", p["everyday.columns"],
            "|---|---|---|", p["everyday.row"].format(bleu=everyday.bleu, chrf=everyday.chrf, exact=everyday.exact,
                                                      sentences=everyday.sentences),
            "", *_signatures(everyday, language)]


def _names(effect: NamesEffect | None, language: str) -> list[str]:
    """Names it never learned, read as known ones (evaluation.everyday --names-effect): the same weights decoded
    as typed and with names swapped, on dev's halves, the classroom set and the unseen names."""
    if not effect:
        return []
    p = PHRASEBOOKS[language]
    lines = [p["names.header"], "", p["names.what"].format(beam=effect.beam), "", p["names.columns"],
             "|---|---|---|---|---|---|---|---|---|---|"]
    for label, r in (("as_typed", effect.as_typed), ("names_read_as", effect.names_read_as)):
        lines.append(f"| {p['names.' + label]} | {r.test.bleu} | {r.test.chrf} | {r.test_unseen.bleu} "
                     f"| {r.test_unseen.chrf} | {r.selection.bleu} | {r.selection_unseen.bleu} | {r.classroom.bleu} "
                     f"| {r.classroom.chrf} | {r.names_survived} / {r.names} |")
    return lines + ["", p["names.caveat"].format(swapped=f"{effect.names_read_as.swapped:,}"), ""]


def _decoding_sweep(sweep: DecodingSweep | None, language: str) -> list[str]:
    """The beam sizes and length penalties weighed on dev's selection half, the choice and its test-half score."""
    if not sweep:
        return []
    p = PHRASEBOOKS[language]

    def alpha(value) -> str:
        return p["sweep.greedy"] if value is None else str(value)

    rows = [f"| {r.beam} | {alpha(r.alpha)} | {r.bleu} | {r.chrf} |" for r in sweep.rows if not r.outside_grid]
    best, default = sweep.best, sweep.default
    if best == default:
        verdict = p["sweep.default_best"].format(beam=default.beam, alpha=alpha(default.alpha))
    else:
        tested_p = sweep.p_value
        key = "sweep.adopted" if sweep.chosen == best else "sweep.no_lead" if tested_p is None else "sweep.kept"
        verdict = p[key].format(beam=best.beam, alpha=alpha(best.alpha),
                                p="" if tested_p is None else f"{tested_p:.3f}", default_beam=default.beam,
                                default_alpha=alpha(default.alpha))
    rule = p["sweep.rule"] if sweep.threshold is None else p["sweep.rule_shared"].format(
        threshold=f"{sweep.threshold:.4f}", compared=sweep.compared)
    settings = {"chosen": sweep.chosen, "default": sweep.default, "best": sweep.best}
    tested = [p["sweep.test_row"].format(name=p[f"sweep.{name}"], beam=r.beam, alpha=alpha(r.alpha), bleu=r.bleu,
                                         chrf=r.chrf)
              for name, r in sweep.test.items() if name == "chosen" or settings[name] != sweep.chosen]
    return [
        p["sweep.header"], "",
        p["sweep.what"].format(selection=sweep.selection_pairs, test=sweep.test_pairs, rule=rule), "",
        p["sweep.columns"], "|---|---|---|---|", *rows, "",
        verdict, "",
        p["sweep.test_columns"], "|---|---|---|---|---|", *tested, "",
    ]


def _budgets(rows: tuple[StudyRow, ...], language: str) -> list[str]:
    """One line per group saying whether its runs had equal budgets, from their minutes and steps."""
    p = PHRASEBOOKS[language]
    lines = []
    for group in sorted({row.group for row in rows}):
        members = [row for row in rows if row.group == group]
        minutes = [row.minutes or 0 for row in members]
        steps = [row.steps or 0 for row in members]
        if len(members) < 2 or max(minutes) <= 1.02 * min(minutes):
            same = p["budget.minutes"]
        elif len(set(steps)) == 1:
            same = p["budget.steps"]
        else:
            runs = p["budget.versus"].join(p["budget.run"].format(minutes=m, steps=s) for m, s in zip(minutes, steps))
            same = p["budget.unequal"].format(runs=runs)
        lines.append(p["budget.group"].format(group=group, same=same))
    return lines


def _study(log: TrainingLog, language: str) -> list[str]:
    """The recipe-study table (evaluation/study.py): each group's first row is the reference."""
    rows = log.study
    if not rows:
        return []
    p = PHRASEBOOKS[language]
    lines = [p["study.header"], "", p["study.intro"], "", *_budgets(rows, language), "", p["study.columns"],
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    reference: dict[int, StudyRow] = {}
    for row in rows:
        ref = reference.setdefault(row.group, row)
        delta = row.selection_bleu - ref.selection_bleu
        verdict = "reference" if row is ref else "helped" if delta >= 0.5 else "hurt" if delta <= -0.5 else "unclear"
        test = _cells(row.test_bleu, row.test_chrf, row.test_dedup_bleu)
        lines.append(
            f"| {row.group} | {row.run} | {log_words(row.changes, language)} | {row.minutes} "
            f"| {row.steps} | {log_words(row.hardware, language)} | {_scores(row)} | {test} | {delta:+.2f} "
            f"| {p['verdict.' + verdict]} |"
        )
    findings = _findings(log, language)
    return lines + [""] + findings + ([""] if findings else [])


def _findings(log: TrainingLog, language: str) -> list[str]:
    """The study's findings as bullets: in Chinese from `study_findings_zh` when the study recorded one for each
    English finding, else the English ones under a note saying so."""
    english = log.study_findings
    own = english if language.split("/")[0] == "en" else log.study_findings_zh  # "zh/zh-en": the zh-en model's
    if len(own) == len(english):
        return [f"- {finding}" for finding in own]
    return [PHRASEBOOKS[language]["findings.untranslated"], ""] + [f"- {finding}" for finding in english]


def _rounding_note(log: TrainingLog, name: str, language: str) -> list[str]:
    """Why the study's greedy score of this checkpoint differs from its training log's (float16 rounding)."""
    entry = log.shipped_greedy
    row = next((r for r in log.study if r.run == name and r.test_bleu is None), None)
    if not row or entry is None or entry.bleu in (None, row.bleu) or log.args is None \
            or log.args.save_dtype != "float16":
        return []
    return [PHRASEBOOKS[language]["rounding"].format(name=name, study=row.bleu, log=entry.bleu), ""]


NAMES_EXAMPLE = "爱丽丝和鲍勃是朋友。"  # the classroom's sentence with two names in Chinese characters (Alice, Bob)


def _names_example(everyday: Everyday | None, language: str) -> str:
    """How the model wrote the classroom's sentence with two names in Chinese characters, for the card's limits
    (a model reading Chinese); "" where the log has no such translation."""
    found = next((row for row in (everyday.classroom if everyday else ()) if row.en == NAMES_EXAMPLE), None)
    if found is None or "limits.example" not in PHRASEBOOKS[language]:
        return ""
    return PHRASEBOOKS[language]["limits.example"].format(source=NAMES_EXAMPLE, translation=found.translation)


def _dictionary_credit(args: TrainingArgs, language: str) -> list[str]:
    """CC-CEDICT's attribution and share-alike terms, when its pairs were trained on."""
    words, names = args.dictionary_words, args.names
    if not words and not names:
        return []
    return [PHRASEBOOKS[language]["dictionary"].format(words=f"{words:,}", names=f"{names:,}"), ""]


def write_cards(folder: str | Path, config: ModelConfig, log: TrainingLog | Mapping,
                name: str | None = None) -> list[Path]:
    """Write the checkpoint's card in every language (README.md, README.zh.md); returns the files written."""
    written = []
    for language, filename in CARDS.items():
        path = Path(folder) / filename
        path.write_text(model_card(config, log, name, language), encoding="utf-8")
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m cards",
                                description="Rewrite a checkpoint's model cards from its config and training log.")
    p.add_argument("checkpoint", help="the checkpoint folder (its name goes into the cards' titles)")
    folder = Path(p.parse_args(argv).checkpoint)
    log = TrainingLog.read(folder)
    if log is None:
        p.error(f"{folder} has no readable {TRAINING_LOG}")
    config = ModelConfig.from_dict(json.loads((folder / CONFIG).read_text(encoding="utf-8")))
    for path in write_cards(folder, config, log, folder.resolve().name):
        print(path)
    return 0

