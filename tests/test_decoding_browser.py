"""Decoding in a real browser under the guard (tests/support/browser.py: no exception box, console error or server
traceback): what-if marks what a forced token changed, the beam is drawn as a tree.

Screenshots (1280×800) under SCREENSHOTS=DIR, when it is set, for a person to look at: decoding_whatif_*.png,
decoding_beam_tree_*.png.
"""

from __future__ import annotations

from urllib.parse import quote

import pytest

from tests.support.chromium import CHROMIUM

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed (Debian package chromium)", allow_module_level=True)
pytest.importorskip("playwright.sync_api")

from playwright.sync_api import expect

from i18n import strings
from lessons.classroom import token_edits
from tests.support.browser import MAIN, hover, key, open_session, point_on_plot, rerun, screenshot
from tests.support.layout_checks import TREE, overlapping

pytestmark = pytest.mark.browser
SISTER = "My sister bought a red bicycle yesterday."  # issue 51's example: 自 forced at step 10 drops 色


def red_chips(page, name: str) -> list[str]:
    """The texts of the chips of the chip row `name` that are drawn red (Streamlit's red badge: a red text colour)."""
    return page.locator(f"{key(name)} .stMarkdownBadge").evaluate_all(
        """chips => chips.filter(c => c.getClientRects().length).filter(c => {  // a chip's hidden copy: not twice
            const [r, g, b] = getComputedStyle(c).color.match(/\\d+/g).map(Number);
            return r > 150 && g < 100 && b < 100;
        }).map(c => c.textContent.trim())""")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_forcing_a_token_marks_what_it_dropped(browser, streamlit_server, translator, lang):
    """Forcing 自 at step 10 writes …红自行车 where the original had …红色自行车: 色 is marked in the original and the
    caption counts it, where a count of the forced output's new tokens alone said "0 of 14"."""
    original = translator.translate(SISTER)
    position = 9
    forced = translator.translate(SISTER, beam=original.beam_size, forced_prefix=tuple(
        step.chosen.token_id for step in original.steps[:position]) + (translator.target_token_id("自"),))
    edits = token_edits(original.output_tokens, forced.output_tokens)
    dropped = [tok for tok, gone in zip(original.output_tokens, edits.dropped) if gone]
    added = [tok for tok, new in zip(forced.output_tokens, edits.added) if new]
    assert dropped or added  # the model still changes something here, or the example no longer shows the bug
    context, page = open_session(browser, f"{streamlit_server}/decoding?lang={lang}&s={quote(SISTER)}"
                                          f"&step={position + 1}")
    text = strings(lang)
    try:
        page.locator(f"{key('whatif.typed')} input").fill("自")
        rerun(page, lambda: page.keyboard.press("Enter"))
        rerun(page, page.locator(f"{key('whatif.run')} button").click)
        continued = page.locator(key("whatif.continued"))
        expect(continued.locator(".stMarkdownBadge").filter(visible=True)).to_have_text(forced.output_tokens)
        assert red_chips(page, "whatif.original") == dropped
        assert red_chips(page, "whatif.continued") == added
        caption = text["whatif.changed"].split("{")[0].strip()  # the caption's opening words, before any number
        said = page.locator(f"{MAIN} [data-testid='stCaptionContainer']").filter(has_text=caption)
        expect(said).to_contain_text(" ".join(dropped) or text["ex.none"])
        expect(said).to_contain_text(str(len(dropped)))
        screenshot(page, f"decoding_whatif_{lang}", continued)
    finally:
        context.close()


@pytest.mark.parametrize(("lang", "present"), [("en", 0), ("zh", 0), ("en", 1), ("zh", 1)])
def test_the_beam_is_drawn_as_a_tree(browser, streamlit_server, translator, lang, present):
    """At the last step: every hypothesis the search scored is a node (pruned ones too), the chosen path runs from
    <s> to the translation's </s>, a node's hover gives its log-probability, and the tree fits 1280×800 with no
    label over another, in plain and presentation mode."""
    result = translator.translate(SISTER)
    text = strings(lang)
    scored = sum(len(getattr(r, s)) for r in result.beam_steps for s in ("kept", "finished", "dropped"))
    context, page = open_session(browser, f"{streamlit_server}/decoding?lang={lang}&present={present}"
                                          f"&s={quote(SISTER)}&step={len(result.steps)}")
    try:
        chart = page.locator(f"{key('decoding.chart.beam')} .js-plotly-plot")
        page.mouse.wheel(0, 10)  # a user's scroll: the link's view stops holding the step's controls at the top
        chart.evaluate("e => e.scrollIntoView({block: 'center'})")
        page.wait_for_selector(f"{key('decoding.chart.beam')} .textpoint text")
        tree = chart.evaluate(TREE)
        nodes = {t["name"]: t for t in tree["traces"] if t["customdata"]}
        assert sum(t["n"] for t in nodes.values()) == scored  # every scored hypothesis, one node each
        assert nodes[text["beam.dropped"]]["n"] > 0  # pruned branches drawn
        (path,) = [t for t in tree["traces"] if t["name"] == text["beam.chosen"]]
        assert path["n"] == 2 * len(result.output_tokens)  # an edge per token, from <s> to </s>
        box = tree["box"]
        assert box["x"] >= 0 and box["x"] + box["width"] <= 1280 and box["height"] <= 800, box
        assert not overlapping(tree["labels"]), overlapping(tree["labels"])[:3]
        finished = nodes[text["beam.finished"]]
        logprob = finished["customdata"][0][1]
        lines = hover(page, point_on_plot(page, tree["index"], finished["x"][0], finished["y"][0]))
        assert f"{abs(logprob):.3f}" in " ".join(lines), lines  # its log-probability (Plotly writes − for -)
        screenshot(page, f"decoding_beam_tree_{lang}{'_present' if present else ''}")
    finally:
        context.close()
