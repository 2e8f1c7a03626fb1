"""Is attention an explanation? from a fresh clone, in a real browser at 1280×800 (en, 中文), under the guard: a server
of its own without the Tatoeba dev set (no ../shared) opens the page with its three sentences on the first screen;
the word-alignment tab shows the stored AER table and draws the first gold pair (shipped in the repository; what the
tab says without the corpus: tests/test_app_explanation_opening.py); the ρ grids and the BLEU-drop grid show a colour
bar and every cell's number."""

from __future__ import annotations

import numpy as np
import pytest

from tests.support.app_server import running_app

from playwright.sync_api import expect

from i18n import strings
from tests.support.browser import MAIN, main, open_session, rerun, screenshot

SENTENCE = "I have a dream."


@pytest.fixture(scope="module")
def fresh_clone_server(tmp_path_factory):
    """A server of its own, its log watched here. The page reads no corpus file (tests/test_app_explanation_opening
    proves it with the corpus reader made to fail), so what it shows here is what a fresh clone shows. Yields (URL,
    its log)."""
    folder = tmp_path_factory.mktemp("fresh")
    log = folder / "server.log"
    with running_app(log) as url:
        yield url, log


def open_tab(page, s: dict, tab: str) -> None:
    rerun(page, main(page).get_by_role("tab", name=s[f"explain.tab.{tab}"]).click)


def grid_cells(page, key: str) -> tuple[int, list[str]]:
    """A heatmap's colour bars and the numbers written in its cells, as drawn."""
    chart = page.locator(f"{MAIN} .st-key-{key} .js-plotly-plot")
    expect(chart.locator(".main-svg").first).to_be_visible()
    return chart.locator("g.colorbar").count(), chart.locator("g.heatmaplayer text, g.textpoint text").all_text_contents()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_page_works_from_a_fresh_clone(browser, fresh_clone_server, translator, lang):
    url, log = fresh_clone_server
    s, found = strings(lang), translator.training_log
    context, page = open_session(browser, f"{url}/explanation?lang={lang}&s={SENTENCE}")
    try:
        opening = page.locator(f"{MAIN} .st-key-explain-opening")
        expect(opening).to_be_visible()
        box = opening.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= 800, box  # all three sentences on the first screen
        assert opening.locator("ol > li").count() == 3 and opening.locator("strong").count() == 3  # + each kind's li
        assert "**" not in opening.inner_text()  # each lead in bold, not in asterisks (中文's 。 before ** broke it)
        screenshot(page, f"explanation_opening_{lang}")

        open_tab(page, s, "heads")
        rho = found["agreement"]["integrated_gradients"]["rho"]
        bars, numbers = grid_cells(page, "explain-rho-dev")
        assert bars == 1
        # Each cell's number is its value as the figure holds it (float32: 0.055 is written 0.05).
        assert sorted(numbers) == sorted(f"{float(np.float32(v)):.2f}" for row in rho for v in row)
        screenshot(page, f"explanation_grids_{lang}", page.locator(f"{MAIN} .st-key-explain-rho-dev"))

        open_tab(page, s, "importance")
        bars, numbers = grid_cells(page, "explain-drops")
        assert bars == 1 and len(numbers) == len([h for h in found["heads"]["single"] if h["kind"] == "cross"])
        screenshot(page, f"explanation_importance_{lang}", page.locator(f"{MAIN} .st-key-explain-drops"))

        open_tab(page, s, "align")
        expect(main(page).locator("table").first).to_be_visible()  # the stored AER table
        gold_map = page.locator(f"{MAIN} .st-key-explain-align-map .js-plotly-plot")  # a gold pair, shipped
        expect(gold_map.locator(".main-svg").first).to_be_visible()
        screenshot(page, f"explanation_fresh_gold_{lang}", gold_map)
    finally:
        context.close()
    assert "Traceback" not in log.read_text(encoding="utf-8", errors="replace")
