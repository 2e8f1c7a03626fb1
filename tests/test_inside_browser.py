"""The Inside the Transformer page in a real browser at 1280×800, in English and 中文: a click on a block of the
architecture diagram opens that block's section below it, and no chart is taller than the screen.

Screenshots: inside_*.png under SCREENSHOTS=DIR, when it is set, for a person to look at.
"""

from __future__ import annotations

import pytest

from tests.conftest import CHROMIUM

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed (Debian package chromium)", allow_module_level=True)
pytest.importorskip("playwright.sync_api")

from playwright.sync_api import expect

from i18n import strings
from tests.browser_support import (
    MAIN,
    VIEWPORT,
    hover,
    open_session,
    point_on_plot,
    rerun,
    screenshot,
)
from tests.test_teaching_browser import settle

# Where the diagram draws the cross-attention of decoder layer 2, read from the figure the browser shows: the
# centre of the click-target trace whose customdata names that block.
TARGET_CENTRE = """([key]) => {
  const gd = document.querySelector("[data-testid='stMain'] .js-plotly-plot");
  const trace = gd.data.find(d => d.customdata && d.customdata[0] === key);
  return [trace.x[0], trace.y[0]];
}"""
CHART_HEIGHTS = """() => [...document.querySelectorAll("[data-testid='stMain'] .js-plotly-plot")]
  .map(e => e.getBoundingClientRect().height)"""


def drawn(page) -> None:
    """Wait until the diagram and the block's own figure are drawn (settle alone passes before any chart exists)."""
    page.locator(f"{MAIN} .js-plotly-plot").nth(1).wait_for()
    settle(page)


@pytest.fixture(scope="module")
def page(browser, streamlit_server):
    context, page = open_session(browser, f"{streamlit_server}/inside?lang=en")
    yield page
    context.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_click_on_the_diagram_opens_that_block(page, streamlit_server, lang):
    s = strings(lang)
    page.goto(f"{streamlit_server}/inside?lang={lang}&s=I+have+a+dream.")
    page.locator(f"{MAIN} h1").filter(has_text=s["inside.title"]).first.wait_for()
    drawn(page)
    assert page.viewport_size == VIEWPORT
    screenshot(page, f"inside_{lang}_diagram", page.locator(f"{MAIN} .js-plotly-plot").first)

    key = "dec.1.cross_attn"
    x, y = page.evaluate(TARGET_CENTRE, [key])
    point = point_on_plot(page, 0, x, y)
    name = s["inside.block.dec"].format(n=2, part=s["inside.part.dec.cross_attn"])
    lines = hover(page, point)
    assert s["inside.diagram.click"] in lines and any(s["inside.diagram.cross_attn"] in line for line in lines)
    rerun(page, lambda: page.mouse.click(*point))
    settle(page)
    heading = page.locator(f"{MAIN} h2").filter(has_text=name)
    expect(heading).to_be_visible()
    expect(page.locator(f"{MAIN} .st-key-inside-block input")).to_have_value(name)  # the picker follows the click
    # the section under the heading is the chosen block's: cross-attention's explanation and its check
    expect(page.locator(f"{MAIN} h3").filter(has_text=s["inside.diagram.cross_attn"])).to_have_count(1)
    screenshot(page, f"inside_{lang}_cross_attention", heading)

    heights = page.evaluate(CHART_HEIGHTS)
    assert heights and max(heights) <= VIEWPORT["height"], heights


def test_every_kind_of_block_fits_the_screen(page, streamlit_server):
    """The embedding, an FFN and the output block at 1280×800: each chart no taller than the screen."""
    for block in ("src_embed", "enc.2.ffn", "output"):
        page.goto(f"{streamlit_server}/inside?lang=en&block={block}")
        drawn(page)
        heights = page.evaluate(CHART_HEIGHTS)
        assert len(heights) >= 2 and max(heights) <= VIEWPORT["height"], (block, heights)
        screenshot(page, f"inside_en_{block.replace('.', '_')}", page.locator(f"{MAIN} .js-plotly-plot").nth(1))
