"""The translate page's view is honest about its model, without Streamlit (app_pages/pages/translate_view.py): a sure
translation says so against the calibrated line, an uncalibrated checkpoint still gives every probability and says
it is uncalibrated, what the model knows comes from its training log, and a sentence that is no pill has no hint and
nothing to notice. Drawn (the chips' colours, the link to the card, a pill's hint and its button): tests/
test_app_honesty.py."""

from __future__ import annotations

from app_pages.pages import translate_view
from app_pages.pages.translate_view import ExplorerSettings
from app_pages.shell.text import in_language
from i18n import strings
from lessons.attention_maps import ALL
from model import TrainingLog, assess
from viz.style import MAX_WIDTH_PX

EN, ZH = strings("en"), strings("zh")
UNSURE = "My grandmother plants tulips in the garden every spring."  # the shipped model stumbles here
PLAIN = {"max_width": MAX_WIDTH_PX}


def shown(translator, sentence: str, lang: str = "en", log: dict | None = None):
    """The page's view of `sentence` as a session in `lang` sees it, against `log` (the model's own by default)."""
    result = translator.translate(sentence)
    marks = assess([step.chosen.prob for step in result.steps], translator.training_log if log is None else log)
    with in_language(lang):
        return translate_view.view(translator, result, marks)


def test_a_sure_translation_says_so_without_a_warning(translator):
    """Moved from test_app_honesty (an AppTest in 中文)."""
    verdict = shown(translator, "I have a dream.", "zh").verdict
    sentence = translator.training_log["calibration"]["sentence"]
    assert not verdict.unsure  # a caption, not the orange line
    assert ZH["confidence.sure_short"].split("{")[0] in verdict.line and f"{sentence['threshold']:.0%}" in verdict.line
    assert ZH["confidence.sure"].split("{")[0] in verdict.help


def test_an_uncalibrated_checkpoint_shows_probabilities_and_says_so(translator):
    """Moved from test_app_honesty (an AppTest on a checkpoint reloaded without "calibration" in its log)."""
    bare = {k: v for k, v in translator.training_log.items() if k != "calibration"}
    view = shown(translator, UNSURE, log=bare)
    assert not view.verdict.unsure and view.verdict.line.startswith(EN["confidence.uncalibrated"].split("{")[0])
    confidence = view.details.confidence
    assert not any(confidence.low) and confidence.threshold is None and confidence.legend == ""  # no red chip
    assert len(confidence.probs) == len(confidence.tokens) and all(0 < p <= 1 for p in confidence.probs)


def test_what_the_model_knows_comes_from_its_training_log(translator):
    """Moved from test_app_honesty (an AppTest; the card's link drawn: its token-chips run)."""
    log = translator.training_log
    details = shown(translator, "I have a dream.").details
    line = details.knows
    if (pairs := TrainingLog.from_dict(log).real_pairs) is not None:
        assert f"{pairs:,}" in line  # the real pairs: a back-translated model's training file holds more lines
    # The held-out test half's unseen part where the study scored it (it chose nothing), else the unseen part of dev
    # (not all of it: near-duplicates of training pairs flatter the score), and its beam.
    if "test" in log:
        key = "knows.set_test" if log["test"]["untouched"] else "knows.set_test_seen"  # the shipped one was chosen on it
        assert EN[key].format(pairs=f"{log['test']['unseen_pairs']:,}") in line
        assert f"BLEU {log['test']['dedup_bleu']} (beam {log['test']['beam']})" in line
    else:
        assert EN["knows.set_unseen"].format(pairs=f"{log['dedup_dev_pairs']:,}") in line
        assert f"BLEU {log['final']['dedup_bleu']} (beam {log['final']['beam']})" in line
    assert EN["knows.limits"] in line and details.card_link == EN["knows.card_link"]


def test_no_hint_and_no_notice_for_a_sentence_that_is_no_pill(translator):
    """Moved from test_app_honesty (an AppTest: no info box, no Show button)."""
    sentence = "The weather is nice today."
    result = translator.translate(sentence)
    choices = ExplorerSettings("encoder_self", "head", 0, ALL, False, None, 0.1, "en-zh", ("en", "zh"), PLAIN, PLAIN,
                               PLAIN, True)
    with in_language("en"):
        assert translate_view.explorer_view(result, choices).hint is None
    assert shown(translator, sentence).notices == []
