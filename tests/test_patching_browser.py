"""Which head carries it? in a real browser at 1280×800, one direction per language (en→zh in English, zh→en in
中文; in presentation mode zh→en's pronoun pair in English and en→zh's in 中文): a link opens the pair on its head
grids, every view draws its chart within the screen's width and height (in presentation mode from top to bottom on
the first screen, the controls above it), and a click on a head's cell re-decodes the corrupted sentence with that
head patched. Under the guard (tests/support/browser.Guard): no exception box, console error or server traceback.
SCREENSHOTS=DIR keeps a screenshot of each view."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

from tests.support.paths import ZH_CHECKPOINT

if not (ZH_CHECKPOINT / "model.safetensors").is_file():
    pytest.skip(f"the Chinese → English checkpoint is not in {ZH_CHECKPOINT}", allow_module_level=True)

from playwright.sync_api import expect

from app_pages.components.patching_charts import VIEWS
from app_pages.pages.patching_view import PAIRS
from i18n import strings
from tests.support.browser import MAIN, choose, open_session, point_on_plot, rerun, screenshot, settle_charts

CASES = [("en-zh", "en", PAIRS["en"][0], "0"), ("zh-en", "zh", PAIRS["zh"][0], "0"),
         ("zh-en", "en", PAIRS["zh"][1], "1"), ("en-zh", "zh", PAIRS["en"][0], "1")]
# The main area scrolled to its top, the first chart's top and bottom (px from the viewport's top).
CHART_SPAN = """() => {
  document.querySelector("[data-testid='stMain']").scrollTo(0, 0);
  const box = document.querySelector("[data-testid='stMain'] .js-plotly-plot").getBoundingClientRect();
  return [box.top, box.bottom];
}"""


def chart_box(page) -> dict:
    chart = page.locator(f"{MAIN} .js-plotly-plot").first
    expect(chart).to_be_visible(timeout=120_000)
    return chart.bounding_box()


@pytest.mark.parametrize("model, lang, pair, present", CASES,
                         ids=["en-zh", "zh-en", "zh-en-presenting", "en-zh-zh-presenting"])
def test_every_view_fits_the_screen_and_a_click_re_decodes(browser, streamlit_server, model, lang, pair, present):
    said = strings(lang)
    link = urlencode({"model": model, "lang": lang, "clean": pair[0], "corrupt": pair[1], "view": "heads",
                      "present": present})
    context, page = open_session(browser, f"{streamlit_server}/patching?{link}")
    try:
        page.set_viewport_size({"width": 1280, "height": 800})
        expect(page.get_by_text(said["patching.title"]).first).to_be_visible()
        for view in VIEWS:
            if view != "heads":
                choose(page, said["patching.view"], said[f"patching.view.{view}"])
            box = chart_box(page)
            assert box["height"] <= 800 and box["x"] + box["width"] <= 1280, (view, box)
            if present == "1":  # on a projector the whole chart is on the first screen, the controls above it
                top, bottom = page.evaluate(CHART_SPAN)
                assert 0 < top and bottom <= 800, (view, top, bottom)
            screenshot(page, f"patching_{model}_{lang}_{present}_{view}")
        choose(page, said["patching.view"], said["patching.view.heads"])
        settle_charts(page)
        rerun(page, lambda: page.mouse.click(*point_on_plot(page, 0, 0, 2, axes="3")))  # cross-attention L3 H1
        cell = said["patching.cell.head"].format(kind=said["patching.kind.cross"], layer=3, head=1)
        expect(page.get_by_text(cell).first).to_be_visible(timeout=60_000)  # the picker and the patched line
        screenshot(page, f"patching_{model}_{lang}_{present}_redecoded")
    finally:
        context.close()
