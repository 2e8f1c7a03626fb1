"""A classroom against one real `streamlit run app.py`: eight students at once, and a student typing markup.

Each browser context is its own Streamlit session, as each student's tab is.
Screenshots go to screenshots/classroom_*.png for a person to look at.
"""

from __future__ import annotations

import time

import pytest

from tests.conftest import CHECKPOINT
from tests.test_browser import SHOTS, TIMEOUT_MS, screenshot, settle
from tests.test_browser import browser  # noqa: F401  (the fixture: one Chromium for this module too)

STUDENTS = (
    "I like my dog.",
    "The cat is sleeping on the chair.",
    "We eat rice every day.",
    "She reads a book in the library.",
    "The train is late again.",
    "My father drinks green tea.",
    "Where is the hospital?",
    "Tom bought three apples yesterday.",
)
MARKUP = "<script>alert(1)</script> <img src=x onerror=alert(2)>"


@pytest.fixture(scope="module")
def expected():
    """What each sentence gives when translated alone, by a separate copy of the shipped model."""
    from model import Translator

    tr = Translator.from_checkpoint(CHECKPOINT, device="cpu")
    return {s: tr.translate(s) for s in STUDENTS}


def open_student(browser, url: str):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(url, timeout=TIMEOUT_MS)
    return context, page


def submit(page, sentence: str) -> None:
    page.locator("textarea").first.fill(sentence)
    page.locator("[data-testid='stMain'] button", has=page.get_by_text("Translate", exact=True)).click()


def heatmap_ticks(page, axis: str) -> list[str]:
    return page.locator(f".js-plotly-plot .{axis}tick text").all_text_contents()


def test_eight_students_at_once_each_see_their_own_translation_and_attention(browser, streamlit_server, expected):
    students = [open_student(browser, streamlit_server) for _ in STUDENTS]
    try:
        for _, page in students:
            settle(page)
        for (_, page), sentence in zip(students, STUDENTS):
            submit(page, sentence)  # all eight submitted before any result is awaited: the server runs them together
        for i, ((_, page), sentence) in enumerate(zip(students, STUDENTS)):
            settle(page)
            alone = expected[sentence]
            assert page.locator("[data-testid='stMain'] h3").first.inner_text().strip() == alone.translation
            page.locator(".js-plotly-plot .heatmaplayer").first.wait_for()
            # The default map is encoder self-attention: this sentence's source tokens on both axes.
            assert heatmap_ticks(page, "x") == alone.source_tokens
            assert heatmap_ticks(page, "y") == alone.source_tokens
            assert page.locator("textarea").first.input_value() == sentence
            screenshot(page, f"classroom_student{i + 1}")
    finally:
        for context, _ in students:
            context.close()


def test_markup_shows_as_text_and_never_runs(browser, streamlit_server):
    context, page = open_student(browser, streamlit_server)
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    try:
        settle(page)
        submit(page, MARKUP)
        settle(page)
        page.locator(".js-plotly-plot .heatmaplayer").first.wait_for()
        # Tick labels show the characters themselves (Plotly got them escaped, so it drew text, not tags).
        ticks = heatmap_ticks(page, "x")
        drawn = "".join(ticks).replace("▁", " ")
        assert "<script>alert(1)</script>" in drawn and "<img src=x onerror=alert(2)>" in drawn, ticks
        # Hover text too: move over the cell where the second "<" attends to itself and read Plotly's label.
        plot = page.locator(".js-plotly-plot .nsewdrag").first
        plot.scroll_into_view_if_needed()
        box = plot.bounding_box()
        n, i = len(ticks), ticks.index("<", ticks.index("<") + 1)
        cell = (box["x"] + box["width"] * (i + 0.5) / n, box["y"] + box["height"] * (i + 0.5) / n)
        page.mouse.move(cell[0] + 5, cell[1] + 5)
        page.mouse.move(*cell, steps=5)  # Plotly finds the point under the mouse on mousemove
        hover = page.locator(".hoverlayer .hovertext")
        hover.first.wait_for(timeout=20_000)
        assert "<" in hover.first.text_content(), hover.first.text_content()
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / "classroom_markup_hover.png"))  # the viewport: keeps the hover label
        # Token chips show the markup's pieces as text.
        chips = page.locator("[data-testid='stMain'] [data-testid='stMarkdownContainer']").all_inner_texts()
        assert {"<", ">", "/", "=", "(", ")", "▁on"} <= {c.strip() for c in chips}, chips
        # Nothing was injected into the page and no dialog opened.
        assert page.locator("[data-testid='stMain'] img[src='x']").count() == 0
        assert not page.evaluate("[...document.scripts].some(s => s.textContent.includes('alert('))")
        time.sleep(1.0)  # an onerror handler would fire as soon as the broken image loaded
        assert dialogs == []
        screenshot(page, "classroom_markup")
    finally:
        context.close()
