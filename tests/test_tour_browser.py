"""A newcomer's tour at a projector's 1280×800: every page in English and 中文, then links that share a view.

What a person would see as broken is asserted from the DOM: two tick labels of a chart overlapping (their
bounding boxes), a chart taller than the viewport, an option label cut short (text-overflow: ellipsis that
is actually clipping), a Python exception. Screenshots of each page: tour_*.png under SCREENSHOTS=DIR, when it is set.
One server and one browser context serve the whole tour.
"""

from __future__ import annotations

import re

import pytest

from tests.conftest import CHROMIUM

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed (Debian package chromium)", allow_module_level=True)
pytest.importorskip("playwright.sync_api")

from playwright.sync_api import expect

from i18n import LANGUAGES, strings
from tests.browser_support import APP, MAIN, TIMEOUT_MS, VIEWPORT, assert_no_exception, screenshot

PAGES = ("start", "translate", "decoding", "compare", "model_card", "qkv", "masks", "positional", "scaling", "multihead",
         "anatomy", "inside", "training", "replay", "lab")
# A sentence whose 16 source tokens crowd an axis, as the tour found.
CROWDED = "The animal didn't cross the street because it was too tired."

# Per chart: the tick-label boxes of each axis that overlap a neighbour, and the chart's height.
CHART_PROBLEMS = r"""() => {
  const out = [];
  document.querySelectorAll("[data-testid='stMain'] .js-plotly-plot").forEach((plot, index) => {
    const title = plot.querySelector('.gtitle')?.textContent || `chart ${index}`;
    const height = plot.getBoundingClientRect().height;
    if (height > window.innerHeight) out.push(`${title}: ${Math.round(height)} px tall`);
    // Tick labels by axis (x, x2, y, y2…): a heatmap draws thinned labels on an axis laid over its own.
    const axes = {};
    plot.querySelectorAll('g[class*="tick"] > text').forEach(t => {
      const axis = (t.parentElement.getAttribute('class') || '').match(/^([xy]\d*)tick/);
      if (axis) (axes[axis[1]] = axes[axis[1]] || []).push(t);
    });
    Object.values(axes).forEach(texts => {
      const boxes = texts
        .filter(t => t.textContent.trim() && getComputedStyle(t).opacity !== '0')
        .map(t => [t.textContent, t.getBoundingClientRect()])
        .filter(([, r]) => r.width > 0 && r.height > 0);
      for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
        const [a, ra] = boxes[i], [b, rb] = boxes[j];
        const dx = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
        const dy = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
        if (dx > 1 && dy > 1) out.push(`${title}: tick labels "${a}" and "${b}" overlap`);
      }
    });
  });
  return out;
}"""

# Option labels (segmented controls, radios, pills, select boxes, tabs) whose text is cut by an ellipsis.
# A collapsed sidebar (presentation mode) squeezes its text to nothing on purpose: only an open one counts.
TRUNCATED = """() => [...document.querySelectorAll("[data-testid='stMain'] *, [data-testid='stSidebar']:not([data-collapsed='true']) *")]
  .filter(e => e.children.length === 0 && e.textContent.trim() && getComputedStyle(e).textOverflow === 'ellipsis'
               && e.scrollWidth > e.clientWidth + 1)
  .map(e => e.textContent.trim())"""


NO_CHARTS = ("start", "model_card")
# Pages whose main chart starts within the first screen (its top at most FIRST_SCREEN_PX at 1280×800), with its
# controls above or beside it, plain ("0") and in presentation mode ("1").
FIRST_SCREEN_PX = 560
FIRST_SCREEN = {"0": ("translate", "decoding", "scaling", "inside", "replay", "lab"), "1": ("inside", "replay")}
FIRST_CHART_TOP = """() => {
  document.querySelector("[data-testid='stMain']").scrollTo(0, 0);
  const charts = [...document.querySelectorAll("[data-testid='stMain'] .js-plotly-plot")];
  return Math.min(...charts.map(c => c.getBoundingClientRect().top));
}"""


def settle(page, charts: bool = True) -> None:
    """Wait until the app has finished its run and every chart it sent is drawn (with `charts`, until there is one:
    right after page.goto the app may not have started its run yet)."""
    if charts:
        page.wait_for_selector(f"{MAIN} .js-plotly-plot .main-svg")
    page.wait_for_selector(f"{APP}[data-test-connection-state='CONNECTED'][data-test-script-state='notRunning']")
    page.wait_for_function(
        "() => [...document.querySelectorAll(\"[data-testid='stMain'] [data-testid='stPlotlyChart']\")]"
        ".every(c => c.querySelector('.main-svg'))", timeout=TIMEOUT_MS)
    page.wait_for_timeout(300)  # Plotly's automargin redraw
    assert_no_exception(page)


TITLE_KEYS = {"start": "start.title", "translate": "translate.title", "decoding": "decoding.title",
              "model_card": "card.title", "qkv": "qkv.title", "masks": "masks.title", "positional": "pe.title",
              "scaling": "scaling.title", "multihead": "mh.title", "anatomy": "anatomy.title", "compare": "compare.title",
              "inside": "inside.title", "training": "training.title", "replay": "replay.title", "lab": "lab.title"}


@pytest.fixture(scope="module")
def tour(browser):
    context = browser.new_context(viewport=VIEWPORT)
    context.set_default_timeout(TIMEOUT_MS)
    yield context.new_page()
    context.close()


@pytest.mark.parametrize("lang, present", [("en", "0"), ("zh", "0"), ("en", "1")])
def test_every_page_fits_a_projector(tour, streamlit_server, lang, present):
    """Every page, in each language and (English) in presentation mode, where every chart is enlarged."""
    page, problems = tour, []
    for name in PAGES:
        sentence = f"&s={CROWDED}" if name in ("translate", "decoding", "compare", "inside") else ""
        page.goto(f"{streamlit_server}/{name}?lang={lang}&present={present}{sentence}")
        settle(page, charts=name not in NO_CHARTS)
        # The page asked for, in the language asked for (a wrong path would show "Page not found" and the default page).
        expect(page.locator(f"{MAIN} h1").first).to_contain_text(strings(lang)[TITLE_KEYS[name]].format(name="en-zh"))
        screenshot(page, f"tour_{lang}_{name}" + ("_present" if present == "1" else ""))
        problems += [f"{lang} {name}: {p}" for p in page.evaluate(CHART_PROBLEMS)]
        problems += [f"{lang} {name}: option cut short: {text!r}" for text in page.evaluate(TRUNCATED)]
        if name in FIRST_SCREEN[present] and (top := page.evaluate(FIRST_CHART_TOP)) > FIRST_SCREEN_PX:
            problems.append(f"{lang} {name}: the first chart starts at {top:.0f} px, below the first screen")
    assert not problems, "\n".join(problems)


def test_every_explorer_view_of_a_crowded_sentence_fits(tour, streamlit_server):
    page, problems = tour, []
    for kind in ("encoder_self", "decoder_self", "cross"):
        for view in ("head", "grid", "lines"):
            page.goto(f"{streamlit_server}/translate?s={CROWDED}&kind={kind}&view={view}&layer=2&head=3")
            settle(page)
            problems += [f"{kind} {view}: {p}" for p in page.evaluate(CHART_PROBLEMS)]
    page.goto(f"{streamlit_server}/decoding?s={CROWDED}&step=4")
    settle(page)
    page.locator(f"{MAIN} .st-key-decoding-every_head label").first.click()
    settle(page)
    screenshot(page, "tour_decoding_every_head", page.locator(f"{MAIN} .st-key-decoding-every_head"))
    problems += [f"decoding every head: {p}" for p in page.evaluate(CHART_PROBLEMS)]
    assert not problems, "\n".join(problems)


def test_a_shared_link_restores_its_view_and_follows_changes(tour, streamlit_server):
    page, s = tour, strings("zh")
    page.goto(f"{streamlit_server}/translate?lang=zh&s=Who+are+you%3F&kind=cross&view=head&layer=2&head=4")
    settle(page)
    title = s["explorer.map_title"].format(kind=s["kind.cross"], layer=s["explorer.layer_n"].format(n=2),
                                           head=s["explorer.head_n"].format(n=4))
    expect(page.locator(f"{MAIN} .js-plotly-plot .gtitle").first).to_have_text(title)
    screenshot(page, "tour_link_cross", page.locator(f"{MAIN} .js-plotly-plot"))
    # Changing the view changes the link, so copying the address bar shares what is on screen.
    page.locator(f"{MAIN} .st-key-explorer-head").get_by_role("radio", name="1", exact=True).click()
    expect(page).to_have_url(re.compile(r"kind=cross.*head=1|head=1.*kind=cross"))

    page.goto(f"{streamlit_server}/decoding?s=Who+are+you%3F&step=2")
    settle(page)
    step = page.locator(f"{MAIN} .st-key-decoding-step input[type=range]")  # its value is the step's index
    expect(step).to_have_attribute("aria-valuetext", "2")
    page.keyboard.press("ArrowRight")  # the → key is the Next button
    expect(step).to_have_attribute("aria-valuetext", "3")
    expect(page).to_have_url(re.compile(r"[?&]step=3(&|$)"))
    screenshot(page, "tour_decoding_step3", page.locator(f"{MAIN} .st-key-decoding-controls"))

    page.goto(f"{streamlit_server}/translate?beam=<b>&kind=everything&lang=en")
    settle(page)
    alerts = page.locator(f"{MAIN} [data-testid='stAlert']")
    expect(alerts.filter(has_text="beam=<b> was ignored")).to_have_count(1)
    expect(alerts.filter(has_text="kind=everything was ignored")).to_have_count(1)


def test_presentation_mode_shows_an_explorer_view_with_its_controls_on_one_screen(tour, streamlit_server):
    """present=1: type of at least 18 px, the sidebar closed, and from the attention-kind control to the bottom of
    the map (labels included) no taller than the screen, so the teacher never scrolls between them."""
    page = tour
    for view in ("head", "grid", "lines"):
        page.goto(f"{streamlit_server}/translate?present=1&s={CROWDED}&kind=cross&view={view}")
        settle(page)
        assert float(page.evaluate("getComputedStyle(document.documentElement).fontSize")[:-2]) >= 18
        expect(page.locator("[data-testid='stSidebar']")).to_have_attribute("data-collapsed", "true")
        span = page.evaluate("""() => {
            const top = document.querySelector("[data-testid='stMain'] .st-key-explorer-kind").getBoundingClientRect().top;
            const chart = document.querySelector("[data-testid='stMain'] .js-plotly-plot");  // the view right under them
            return chart.getBoundingClientRect().bottom - top;
        }""")
        assert span <= VIEWPORT["height"], (view, span)
        assert not page.evaluate(CHART_PROBLEMS)
        screenshot(page, f"tour_present_{view}", page.locator(f"{MAIN} .st-key-explorer-kind"))
