"""Numbers out in a real browser: the explorer's default view (encoder self-attention, layer 1, the heads' average of
the default sentence) downloaded as CSV holds exactly the weights the model computed, labelled by its tokens.
Against one real `streamlit run app.py` under the guard (tests/support/browser.py)."""

from __future__ import annotations

import csv
import os

import numpy as np
import torch

from app_pages.state.examples import DEFAULT_SENTENCE
from i18n import strings
from lessons.attention_table import CORNER, unique_labels
from model.translation.threads import THREADS_ENV, default_threads, usable_cores
from tests.support.browser import main, open_session, screenshot

EN = strings("en")


def translated_as_the_server_does(translator, sentence: str):
    """The translation with the torch thread count the server runs with (model/translation/threads.py): another
    count sums in another order, and the weights differ in their last bits."""
    before = torch.get_num_threads()
    torch.set_num_threads(int(os.environ.get(THREADS_ENV) or default_threads(usable_cores())))
    try:
        return translator.translate(sentence)
    finally:
        torch.set_num_threads(before)


def test_the_default_views_csv_holds_the_models_weights(browser, streamlit_server, translator, tmp_path):
    context, page = open_session(browser, f"{streamlit_server}/translate?lang=en")
    try:
        with page.expect_download() as download:
            main(page).get_by_role("button", name=EN["numbers.csv"]).click()
        saved = tmp_path / "map.csv"
        download.value.save_as(saved)
        assert download.value.suggested_filename == "attention-encoder_self-layer-1-head-average.csv"
        screenshot(page, "numbers_csv_default_view")
    finally:
        context.close()
    head, *rows = saved.read_text(encoding="utf-8").splitlines()
    assert head == f"# kind=encoder_self, layer=1, head=average, sentence={DEFAULT_SENTENCE}"
    table = list(csv.reader(rows))
    result = translated_as_the_server_does(translator, DEFAULT_SENTENCE)
    labels = unique_labels(result.source_tokens)
    assert table[0] == [CORNER, *labels] and [row[0] for row in table[1:]] == labels
    drawn = result.encoder_self[0].mean(axis=0)  # layer 1, the average over heads: what the default view draws
    weights = np.array([[np.float32(value) for value in row[1:]] for row in table[1:]], dtype=np.float32)
    assert weights.shape == drawn.shape and np.array_equal(weights, drawn.astype(np.float32))
