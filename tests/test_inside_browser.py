"""The Inside the Transformer page in a real browser at 1280×800, in English and 中文: a click on a block of the
architecture diagram opens that block's section below it and scrolls it into view, the diagram is whole on the
first screen with no text under 12 px (plain and presentation mode), and no chart is taller than the screen.

Screenshots: inside_*.png under SCREENSHOTS=DIR, when it is set, for a person to look at.
"""

from __future__ import annotations

import pytest

from playwright.sync_api import expect

from i18n import strings
from tests.support.browser import (
    MAIN,
    VIEWPORT,
    hover,
    in_one_session,
    open_session,
    point_on_plot,
    rerun,
    screenshot,
    settle,
)

# Where the diagram draws the cross-attention of decoder layer 2, read from the figure the browser shows: the
# centre of the click-target trace whose customdata names that block.
TARGET_CENTRE = """([key]) => {
  const gd = document.querySelector("[data-testid='stMain'] .js-plotly-plot");
  const trace = gd.data.find(d => d.customdata && d.customdata[0] === key);
  return [trace.x[0], trace.y[0]];
}"""
# One click target per block (its first box's), and the Encoder output's: [key, x, y, hover], as the browser has it.
BLOCK_TARGETS = """([memory]) => {
  const gd = document.querySelector("[data-testid='stMain'] .js-plotly-plot");
  const seen = new Set(), out = [];
  for (const d of gd.data.filter(d => d.customdata)) {
    const key = d.customdata[0], isMemory = d.hovertemplate.includes(memory);
    if (seen.has(key) && !isMemory) continue;
    if (!isMemory) seen.add(key);
    const middle = Math.floor(d.x.length / 2);
    out.push([key, d.x[middle], d.y[0], isMemory]);
  }
  return out;
}"""
# Whether the open block's heading reads `name` and lies on the screen, below Streamlit's header.
SECTION_IN_VIEW = """([name]) => {
  const h = document.querySelector("[data-testid='stMain'] .st-key-inside-details h2");
  const header = document.querySelector("[data-testid='stHeader']");
  if (!h || !h.textContent.includes(name)) return false;
  const r = h.getBoundingClientRect(), top = header ? header.getBoundingClientRect().bottom : 0;
  return r.top >= top && r.bottom <= window.innerHeight;
}"""
# The diagram's box on the screen (the main area scrolled to its top) and its texts' font sizes in px.
DIAGRAM_ON_SCREEN = """() => {
  document.querySelector("[data-testid='stMain']").scrollTo(0, 0);
  const gd = document.querySelector("[data-testid='stMain'] .js-plotly-plot"), r = gd.getBoundingClientRect();
  const sizes = [...gd.querySelectorAll("text")].filter(t => t.textContent.trim())
    .map(t => [t.textContent, parseFloat(getComputedStyle(t).fontSize)]);
  return {top: r.top, bottom: r.bottom, sizes};
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
    blocks = ("src_embed", "enc.2.ffn", "output")
    addresses = {block: f"{streamlit_server}/inside?lang=en&block={block}" for block in blocks}
    for block in in_one_session(page, addresses):
        drawn(page)
        heights = page.evaluate(CHART_HEIGHTS)
        assert len(heights) >= 2 and max(heights) <= VIEWPORT["height"], (block, heights)
        screenshot(page, f"inside_en_{block.replace('.', '_')}", page.locator(f"{MAIN} .js-plotly-plot").nth(1))


def block_heading(s: dict, key: str) -> str:
    """The heading the page gives block `key`."""
    parts = key.split(".")
    if len(parts) == 1:
        return s[f"inside.block.{key}"]
    stack, layer, name = parts
    return s[f"inside.block.{stack}"].format(n=int(layer) + 1, part=s[f"inside.part.{stack}.{name}"])


def block_kind(key: str) -> str:
    """"enc.2.ffn" → "enc.ffn": the same section, whichever layer."""
    parts = key.split(".")
    return key if len(parts) == 1 else f"{parts[0]}.{parts[2]}"


def test_a_click_on_any_block_brings_its_section_into_view(page, streamlit_server):
    """Every block of the diagram has a point to click; a click on each kind of block (the first layer's, the last
    layer's) and on the Encoder output (which opens the last encoder layer's FFN) brings the section whose heading
    names the block onto the screen, with no scrolling by the user. (Every block's section renders in both
    languages: tests/test_app_inside.py.)"""
    s = strings("en")
    page.goto(f"{streamlit_server}/inside?lang=en&s=I+have+a+dream.")
    drawn(page)
    targets = page.evaluate(BLOCK_TARGETS, [s["inside.diagram.memory"]])
    keys = [key for key, *_ in targets]
    assert sum(memory for *_, memory in targets) == 1 and len(set(keys)) == len(keys) - 1, keys
    first = {block_kind(key): i for i, (key, *_) in reversed(list(enumerate(targets)))}
    last = {block_kind(key): i for i, (key, *_) in enumerate(targets)}
    memory_at = next(i for i, (*_, memory) in enumerate(targets) if memory)
    chosen = sorted({*first.values(), *last.values(), memory_at})
    assert len(chosen) < len(targets)  # what this saves: the same sections, one layer further down
    for key, x, y, memory in (targets[i] for i in chosen):
        point = point_on_plot(page, 0, x, y)  # scrolls the diagram back into view
        rerun(page, lambda: page.mouse.click(*point))
        name = block_heading(s, key)
        page.wait_for_function(SECTION_IN_VIEW, arg=[name])
        expect(page.locator(f"{MAIN} .st-key-inside-block input")).to_have_value(name)
        if memory:
            note = s["inside.memory.note"].split("{")[0]  # what the section says of the encoder output
            expect(page.locator(f"{MAIN} .st-key-inside-details [data-testid='stAlert']").filter(has_text=note)
                   ).to_have_count(1)
            screenshot(page, "inside_en_encoder_output_clicked")


@pytest.mark.parametrize("present", ["0", "1"])
def test_the_diagram_is_whole_on_the_first_screen_with_12_px_text(page, streamlit_server, present):
    """In English, then in 中文 in the same session (a session opened in presentation mode keeps its sidebar closed:
    one opened plainly keeps it open, so each mode has its own)."""
    addresses = {lang: f"{streamlit_server}/inside?lang={lang}&present={present}" for lang in ("en", "zh")}
    for lang in in_one_session(page, addresses):
        drawn(page)
        shown = page.evaluate(DIAGRAM_ON_SCREEN)
        assert 0 <= shown["top"] and shown["bottom"] <= VIEWPORT["height"], (lang, shown)
        small = [(text, size) for text, size in shown["sizes"] if size < 12]
        assert shown["sizes"] and not small, (lang, small)
        screenshot(page, f"inside_{lang}_{'present' if present == '1' else 'page'}_first_screen")
