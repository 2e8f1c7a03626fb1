"""How the shipped model was trained, from its own training log: Adam, the warm-up schedule, dropout, label
smoothing, length-bucketed batches, and BLEU taken apart on the student's translation. The session's choices and
the results each tab needs are read here, what they show is computed in training_view.py, and drawn here; only the
open tab is computed and drawn (teaching_shared.sections)."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from app_pages.components.parts import draw_parts
from app_pages.components.teaching_shared import example_sentences, in_direction, sections
from app_pages.pages import training_view
from app_pages.pages.training_view import Batching, BleuLimitsView, BleuView, Classroom, NoTrainingArgs, Run
from app_pages.shell import presentation
from app_pages.shell.text import t
from app_pages.state import models, result_cache, state_keys, translations
from lessons import training
from model import DEFAULT_BEAM, TrainingLog, read_pairs
from model.training import batch_lengths

ROOT = Path(__file__).resolve().parents[2]  # where the trainer ran: the log's paths are relative to it
CLASSROOM = ROOT / "evaluation" / "classroom.tsv"  # (English, Chinese): our own sentences and references
REFERENCE, SENTENCE = "training.bleu.reference", "training.bleuzh.sentence"


def batch_padding(checkpoint: str, device: str, pairs: tuple[tuple[str, str], ...], max_tokens: int) -> tuple:
    """Padding of length-bucketed and of shuffled batches of the pairs, encoded as the trainer encodes them
    (Translator.encode_pairs, the model's own tokenizers). Cached in the server's result cache: batching the 1,221
    dev pairs twice takes 1.2 s, which every rerun of this page would pay (typing a BLEU reference included)."""
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


def batching(log: TrainingLog, checkpoint: str, device: str) -> Batching:
    """The run's dev pairs batched both ways; without its dev file, the app's sentences and the run's probes (in the
    language the model reads), each with the model's own translation as its target."""
    dev_path = training.dev_file(log.args.dev, ROOT)
    if dev_path:
        pairs = dev_pairs(str(dev_path))
    else:
        sentences = tuple(dict.fromkeys(example_sentences() + list(log.probes)))
        pairs = tuple(zip(sentences, translations.translate_all(checkpoint, device, sentences)))
    return Batching(len(pairs), bool(dev_path), *batch_padding(checkpoint, device, pairs, log.args.max_tokens))


def classroom(log: TrainingLog, checkpoint: str, device: str) -> Classroom | None:
    """Our classroom sentences and the sidebar's model's translations of them (one batch: a few seconds once, then
    cached); None where the log has no BLEU signature to score them with or the file is missing."""
    if not (log.best and log.best.bleu_signature) or not CLASSROOM.is_file():
        return None
    pairs = dev_pairs(str(CLASSROOM))
    beam = int(st.session_state.get(state_keys.BEAM, DEFAULT_BEAM))
    outputs = translations.translate_all(checkpoint, device, tuple(source for source, _ in pairs), beam)
    return Classroom(pairs, tuple(outputs), beam)


def draw_bleu(shown: BleuView) -> None:
    draw_parts(shown.before)
    st.text_input(shown.label, key=REFERENCE, placeholder=shown.placeholder, help=shown.help)
    draw_parts(shown.after)


def draw_bleu_limits(shown: BleuLimitsView) -> None:
    draw_parts(shown.before)
    if shown.choice is not None:
        choice = shown.choice
        st.selectbox(choice.label, choice.options, index=choice.index, format_func=choice.labels.__getitem__,
                     key=SENTENCE)
    draw_parts(shown.after)


def tabs(run: Run, checkpoint: str, device: str) -> dict:
    """Each tab's body: its section computed from what it reads, then drawn."""
    log = run.log
    return {
        "adam": lambda: draw_parts(training_view.adam_section(run)),
        "lr": lambda: draw_parts(training_view.learning_rate_section(run)),
        "dropout": lambda: draw_parts(training_view.dropout_section(run, translations.current_result())),
        "ls": lambda: draw_parts(training_view.label_smoothing_section(run)),
        "batch": lambda: draw_parts(training_view.batching_section(run, batching(log, checkpoint, device))),
        "bleu": lambda: draw_bleu(training_view.bleu_section(run, translations.current_result(),
                                                             st.session_state.get(REFERENCE, ""))),
        "bleuzh": lambda: draw_bleu_limits(training_view.bleu_limits_section(
            run, classroom(log, checkpoint, device), st.session_state.get(SENTENCE))),
        "calib": lambda: draw_parts(training_view.calibration_section(run)),
    }


def page() -> None:
    translator = models.translator()
    run = Run(translator.config, TrainingLog.from_dict(translator.training_log))
    try:
        heading = training_view.heading(run, translator.checkpoint)
    except NoTrainingArgs as missing:
        st.title(t("training.title"))
        st.info(missing.message())
        return
    presentation.page_title(heading.title, heading.intro)
    sections("training", tabs(run, st.session_state[state_keys.CHECKPOINT], models.device()))


page()
