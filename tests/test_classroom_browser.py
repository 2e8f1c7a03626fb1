"""A classroom against one real `streamlit run app.py`: eight students at once, and a student typing markup.

Each browser context is its own Streamlit session, as each student's tab is; the server and the
Chromium are the session-wide fixtures of tests/conftest.py.
Screenshots (1280×800): classroom_*.png under SCREENSHOTS=DIR, when it is set, for a person to look at.
"""

from __future__ import annotations

import pytest

from playwright.sync_api import expect

from app_pages.shell import page_scripts

from tests.support.browser import (
    MAIN,
    chips,
    hover,
    open_session,
    open_sessions,
    point_on_plot,
    screenshot,
    submit_sentence,
    translation,
    wait_for_runs,
)

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


def heatmap_ticks(page, axis: str):
    """The tick labels a heatmap draws on its `axis` ("x" or "y"): on the axis itself, or, where every k-th token
    is labelled, on the axis drawn over it (viz/heatmap.py)."""
    return page.locator(f"{MAIN} .js-plotly-plot .{axis}tick text, {MAIN} .js-plotly-plot .{axis}2tick text")


def test_eight_students_at_once_each_see_their_own_translation_and_attention(browser, streamlit_server, translator):
    expected = {s: translator.translate(s) for s in STUDENTS}  # each sentence alone, with the app's default beam
    students = open_sessions(browser, f"{streamlit_server}/translate", len(STUDENTS))
    try:
        for (_, page), sentence in zip(students, STUDENTS):
            # All eight are submitted before any result is awaited: the server runs them together.
            page.locator(f"{MAIN} textarea").first.fill(sentence)
            page.locator(MAIN).get_by_role("button", name="Translate", exact=True).click()
        for i, ((_, page), sentence) in enumerate(zip(students, STUDENTS)):
            wait_for_runs(page, 2)  # the first page load, then this sentence
            alone = expected[sentence]
            expect(translation(page)).to_have_text(alone.translation)
            expect(chips(page, "Source tokens")).to_have_text(alone.source_tokens)
            # The default map is encoder self-attention: this sentence's source tokens on both axes.
            expect(heatmap_ticks(page, "x")).to_have_text(alone.source_tokens)
            expect(heatmap_ticks(page, "y")).to_have_text(alone.source_tokens)
            expect(page.locator(f"{MAIN} textarea").first).to_have_value(sentence)
            screenshot(page, f"classroom_student{i + 1}")
    finally:
        for context, _ in students:
            context.close()


def test_markup_shows_as_text_and_never_runs(browser, streamlit_server, translator):
    context, page = open_session(browser, f"{streamlit_server}/translate")
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    try:
        submit_sentence(page, MARKUP)
        alone = translator.translate(MARKUP)
        tokens = alone.source_tokens
        # The translation, the token chips and the tick labels show the characters themselves.
        expect(translation(page)).to_have_text(alone.translation or "∅")
        expect(chips(page, "Source tokens")).to_have_text(tokens)
        # 37 tokens: the map takes the page's width, so every one is labelled, each with the characters themselves
        # ("<", ">", "</s>").
        expect(heatmap_ticks(page, "x")).to_have_text(tokens)
        drawn = heatmap_ticks(page, "x").all_text_contents()
        assert {"<", ">", "</s>", "=", "/"} <= set(drawn), drawn
        # Nothing was injected into the page.
        assert page.locator(f"{MAIN} img[src='x']").count() == 0
        own = (page_scripts.ONE_ENTRY_PER_PAGE, page_scripts.ARROW_KEYS, page_scripts.SCROLL_TO_TOP)
        scripts = page.locator(f"{MAIN} script").all_text_contents()  # only the app's own constant snippets
        assert all(any(text.strip() in snippet for snippet in own) for text in scripts), scripts
        assert not page.evaluate("[...document.scripts].some(s => s.textContent.includes('alert('))")
        # Hover text too: the cell where the second "<" attends to itself names it in its label, with the
        # weight of the default map (encoder self-attention, layer 1, average of heads).
        i = tokens.index("<", tokens.index("<") + 1)
        lines = hover(page, point_on_plot(page, 0, i, i))
        assert lines[:2] == [f"queries (English source tokens): {i} · <", f"keys (English source tokens): {i} · <"], lines
        weight = alone.attention("encoder_self")[0].mean(axis=0)[i, i]
        assert float(lines[2].partition(": ")[2]) == pytest.approx(float(weight), abs=1e-4), lines
        screenshot(page, "classroom_markup_hover")  # the viewport keeps the hover label
        # An onerror handler would have fired by now: the broken image would have failed to load long ago.
        assert dialogs == []
    finally:
        context.close()
