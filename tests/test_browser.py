"""A real browser against `streamlit run app.py`: type a sentence, see its translation and attention maps,
visit every page in both languages, and keep screenshots in screenshots/ for a person to look at."""

from __future__ import annotations

import time
from pathlib import Path
from urllib.parse import urlparse

import pytest

from tests.conftest import ROOT

CHROMIUM = Path("/usr/bin/chromium")
SHOTS = ROOT / "screenshots"
SENTENCE = "The dog saw the cat and the cat saw the dog."
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run",
]
TIMEOUT_MS = 180_000  # the CPU may be busy; a slow page is not a broken page

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed (Debian package chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def page(browser, streamlit_server):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = context.new_page()
    pg.set_default_timeout(TIMEOUT_MS)
    pg.goto(streamlit_server, timeout=TIMEOUT_MS)
    settle(pg)
    try:
        yield pg
    finally:
        context.close()


def settle(page) -> None:
    """Wait until the app is connected, its script has finished and its charts had time to draw."""
    page.wait_for_selector("[data-testid='stApp'][data-test-connection-state='CONNECTED']")
    time.sleep(0.8)  # a click's rerun may not have started yet
    page.wait_for_selector("[data-test-script-state='notRunning']")
    time.sleep(1.5)
    assert page.locator("[data-testid='stException']").count() == 0, page.locator(
        "[data-testid='stException']").first.inner_text()


def screenshot(page, name: str) -> Path:
    """The whole page: the viewport grows to the main area's height (Streamlit scrolls inside it)."""
    height = page.evaluate(
        "() => Math.max(...[...document.querySelectorAll('[data-testid=stMain], section')].map(e => e.scrollHeight), 1000)"
    )
    page.set_viewport_size({"width": 1400, "height": min(int(height) + 40, 9000)})
    time.sleep(1.0)  # plotly relayouts on resize
    SHOTS.mkdir(exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path))
    page.set_viewport_size({"width": 1400, "height": 1000})
    return path


def choose(page, label: str, nth: int = 0) -> None:
    """Click the option `label` of a segmented control in the main area (the nth control offering it)."""
    page.locator("[data-testid='stMain'] button", has=page.get_by_text(label, exact=True)).nth(nth).click()
    settle(page)


def test_translate_and_explore(page):
    page.locator("textarea").first.fill(SENTENCE)
    page.locator("[data-testid='stMain'] button", has=page.get_by_text("Translate", exact=True)).click()
    settle(page)
    translation = page.locator("[data-testid='stMain'] h3").first
    translation.wait_for()
    assert translation.inner_text().strip()
    assert page.locator("[data-testid='stMain']").get_by_text("▁saw").count() >= 2  # chips, one per token
    page.locator(".js-plotly-plot .heatmaplayer").first.wait_for()
    assert page.locator(".js-plotly-plot").count() == 1
    assert screenshot(page, "translate_en_one_head").stat().st_size > 10_000

    choose(page, "Decoder masked self-attention")
    choose(page, "3", nth=1)  # the layer picker offers "3" first, then the head picker
    screenshot(page, "translate_en_decoder_head3")
    choose(page, "All heads")
    choose(page, "Encoder–decoder cross-attention")
    assert page.locator(".js-plotly-plot").count() == 2  # the grid and the opened map
    # Clicking a small map (layer 2, head 5) opens it large below the grid.
    maps = page.locator(".js-plotly-plot").first.locator(".nsewdrag")
    assert maps.count() == 3 * 8
    maps.nth(8 + 4).scroll_into_view_if_needed()
    box = maps.nth(8 + 4).bounding_box()
    centre = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.move(*centre)
    time.sleep(0.5)  # Plotly finds the point under the mouse on hover; the click then selects it
    page.mouse.click(*centre)
    settle(page)
    titles = page.locator(".js-plotly-plot .gtitle").all_text_contents()
    assert titles[-1].endswith("layer 2 · head 5"), titles
    screenshot(page, "translate_en_grid")
    choose(page, "Head view")
    page.locator(".js-plotly-plot .scatterlayer").first.wait_for()
    screenshot(page, "translate_en_head_view")


def nav_links(page) -> list[str]:
    return page.locator("[data-testid='stSidebarNav'] a").evaluate_all("links => links.map(a => a.href)")


# Labels of the widgets the tour clicks, per language (they come from i18n/<lang>/explorer.py).
TOUR = {
    "en": {"views": ("All heads", "Head view"), "step": "Output step", "every_head": "Show every layer and head"},
    "zh": {"views": ("全部头", "连线视图"), "step": "输出步", "every_head": "显示每一层的每一个头"},
}


def test_every_page_in_both_languages(page):
    # Beam search, so the decoding page also shows kept and dropped hypotheses.
    beam = page.locator("[data-testid='stSidebar']").get_by_role("slider", name="Beam size")
    beam.focus()
    page.keyboard.press("ArrowRight")
    settle(page)
    for language, labels in TOUR.items():
        if language == "zh":
            page.locator("[data-testid='stSidebar']").get_by_text("中文", exact=True).click()
            settle(page)
        links = nav_links(page)
        assert len(links) == 8
        for i, href in enumerate(links):
            # Clicking the link (not page.goto) keeps the session, its sentence and its settings.
            page.locator("[data-testid='stSidebarNav'] a").nth(i).click()
            settle(page)
            name = urlparse(href).path.strip("/") or "translate"  # the default page lives at /
            screenshot(page, f"page_{name}_{language}")
            if name == "translate":
                page.locator(".js-plotly-plot").first.wait_for()
                for n, view in enumerate(labels["views"]):
                    choose(page, view)
                    screenshot(page, f"page_translate_{language}_view{n + 2}")
            elif name == "decoding":
                page.locator(".js-plotly-plot").first.wait_for()
                page.get_by_role("slider", name=labels["step"]).focus()
                page.keyboard.press("ArrowRight")
                page.keyboard.press("ArrowRight")
                settle(page)
                page.locator("[data-testid='stMain']").get_by_text(labels["every_head"], exact=True).click()
                settle(page)
                assert page.locator(".js-plotly-plot").count() == 4  # mask row, cross-attention, candidates, beams
                screenshot(page, f"page_decoding_{language}_step3")
