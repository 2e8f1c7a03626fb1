"""Across a corpus in a real browser at 1280×800, both directions in both languages (en→zh in English and zh→en in
中文; in presentation mode zh→en in English and en→zh in 中文): a link opens one head's picture and the matrix view
of every head, each within the screen (in presentation mode from top to bottom on the first screen). Not presenting
(one case per direction), the mouse then hovers a point of the picture: its label shows the point's token marked in
its sentence, that sentence being the shipped corpus's sentence the label names; a click on the same point opens that
sentence in the explorer on that head (/translate with the sentence, model, kind, layer and head).

Why the hover waits for the chart to stand still and never scrolls to reach a point: a link that names a view lands on
it (app_pages/shell/scroll_to_linked_view.js keeps the view under the header for 30 s after the page loads, undoing
any other scroll within 0.1 s). A position read right after a scroll is where the point is for 0.1 s only: scrolled
to the top, the landing moves the chart back 227 px up, and the mouse, sent to where the point was, rests on the
caption below the chart, where Plotly shows no label. The point hovered is a query on the screen with no other point
within its marker's reach, so the label can only be its own; where the chart still moves, its position is read again
and the mouse moved again.

Under the guard (tests/support/browser.Guard): no exception box, console error or server traceback. The server reads
the model's passes over the shipped corpus from the disk cache, filled first here where it lacks them.
SCREENSHOTS=DIR keeps a screenshot of each view."""

from __future__ import annotations

import html
import re
import unicodedata
from urllib.parse import parse_qs, urlencode, urlparse

import pytest

from app_pages.pages import corpus_view
from evaluation.corpus_view import ProjectionCache
from i18n import strings
from model import Translator
from tests.support.app_server import running_app
from tests.support.browser import GUARD, MAIN, new_session, screenshot, settle, wait_for_runs
from tests.support.paths import CHECKPOINT, ZH_CHECKPOINT

expect = pytest.importorskip("playwright.sync_api").expect  # the browser fixture skips where Chromium is missing
PlaywrightTimeout = pytest.importorskip("playwright.sync_api").TimeoutError
CASES = [("en-zh", "en", "0"), ("zh-en", "zh", "0"), ("zh-en", "en", "1"), ("en-zh", "zh", "1")]
WAIT_MS = 600_000  # a server that must project on a busy CPU
HOVER_TRIES, HOVER_WAIT_MS = 3, 20_000  # a label shows within a frame or two of the mouse reaching its point
CHART_SPAN = """() => {
  document.querySelector("[data-testid='stMain']").scrollTo(0, 0);
  const box = document.querySelector("[data-testid='stMain'] .js-plotly-plot").getBoundingClientRect();
  return [box.top, box.bottom, box.right];
}"""
CHART_TOP = "() => document.querySelector(\"[data-testid='stMain'] .js-plotly-plot\").getBoundingClientRect().top"
# Where on the screen the picture draws each point (Plotly's linear-to-pixel maps and the chart's offset), and of the
# queries (trace 0) inside the plot area and the viewport (below the header), the one farthest from any other point:
# {x, y, index, near (px to the nearest other point), text (its hover text), under (what the screen has there)}.
# With `index`, that query's position again.
HOVER_TARGET = """(index) => {
  const gd = document.querySelector("[data-testid='stMain'] .js-plotly-plot");
  const L = gd._fullLayout, xa = L.xaxis, ya = L.yaxis, box = gd.getBoundingClientRect();
  const left = box.left + xa._offset, top = box.top + ya._offset;
  const at = (trace, i) => [left + xa.l2p(trace.x[i]), top + ya.l2p(trace.y[i])];
  const header = document.querySelector("[data-testid='stHeader']").getBoundingClientRect().bottom;
  const inside = ([x, y]) => x > left + 8 && x < left + xa._length - 8 && y > Math.max(top, header) + 8
    && y < Math.min(top + ya._length, innerHeight) - 8;
  const all = gd.data.flatMap((trace, c) => trace.x.map((_, i) => [c, i, ...at(trace, i)]));
  let best = null;
  for (const [c, i, x, y] of all) {
    if (c !== 0 || (index !== null && i !== index) || !inside([x, y])) continue;
    let near = Infinity;
    for (const [c2, i2, x2, y2] of all) if (c2 !== c || i2 !== i) near = Math.min(near, Math.hypot(x2 - x, y2 - y));
    if (!best || near > best.near) best = {x, y, index: i, near, text: gd.data[0].hovertext[i]};
  }
  if (best) {
    const under = document.elementFromPoint(best.x, best.y);
    best.under = under === gd.querySelector(".nsewdrag") ? "plot" : (under ? under.outerHTML.slice(0, 160) : "nothing");
  }
  return best;
}"""


@pytest.fixture(scope="module")
def corpus_server(tmp_path_factory):
    """A server of its own whose corpus view reads both directions' passes from the disk cache."""
    if not (ZH_CHECKPOINT / "model.safetensors").is_file():
        pytest.skip(f"the Chinese → English checkpoint is not in {ZH_CHECKPOINT}")
    cache = ProjectionCache()
    for folder in (CHECKPOINT, ZH_CHECKPOINT):
        tr = Translator.from_checkpoint(folder, device="cpu")
        corpus_view.cached_run(tr, corpus_view.shipped_corpus(tr.config.source_language), cache)
    log = tmp_path_factory.mktemp("corpus-server") / "server.log"
    GUARD.log = log
    with running_app(log, env={"ATTENTION_CORPUS_CACHE": str(cache.folder)}) as url:
        yield url


def link(model: str, lang: str, present: str, view: str) -> str:
    return urlencode({"model": model, "lang": lang, "present": present, "view": view, "kind": "encoder_self",
                      "layer": "1", "head": "1", "projection": "pca", "colour": "position"})


def fits(page, present: str, name: str) -> None:
    chart = page.locator(f"{MAIN} .js-plotly-plot").first
    expect(chart).to_be_visible(timeout=WAIT_MS)
    top, bottom, right = page.evaluate(CHART_SPAN)
    assert right <= 1280 and bottom - top <= 800, (name, top, bottom, right)
    if present == "1":  # on a projector the whole chart is on the first screen, the controls above it
        assert 0 < top and bottom <= 800, (name, top, bottom)
    screenshot(page, name)


def standing_still(page) -> None:
    """Wait until the run has finished, the page's scripts are loaded and the chart has not moved for 0.3 s (the
    landing on the linked view corrects a scroll within 0.1 s)."""
    settle(page)
    before, now = None, page.evaluate(CHART_TOP)
    for _ in range(200):
        if now == before:
            return
        page.wait_for_timeout(300)
        before, now = now, page.evaluate(CHART_TOP)


def hovered(page, target: dict) -> list[str]:
    """The lines of the label Plotly shows with the mouse on `target` (moved there again, where the chart moved)."""
    label = page.locator(".hoverlayer .hovertext")
    page.mouse.move(0, 0)  # away from the plot: no label yet
    expect(label).to_have_count(0)
    for _ in range(HOVER_TRIES):
        page.mouse.move(target["x"] + 4, target["y"] + 4)
        page.mouse.move(target["x"], target["y"], steps=2)  # Plotly finds the point under the mouse on mousemove
        try:
            label.first.wait_for(timeout=HOVER_WAIT_MS)
            return [line.strip() for line in label.first.locator("tspan.line").all_text_contents()]
        except PlaywrightTimeout:
            target.update(page.evaluate(HOVER_TARGET, target["index"]) or {})
    pytest.fail(f"no hover label with the mouse on query {target['index']} at ({target['x']:.0f}, "
                f"{target['y']:.0f}) after {HOVER_TRIES} moves; the screen has there: {target.get('under')}")


def squeezed(text: str) -> str:
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text))


def hover_and_click(page, model: str, said: dict) -> None:
    """The mouse on a query of the picture: its label is its own hover text and marks its token in the corpus's
    sentence it names; a click on it opens that sentence in the explorer on the page's head."""
    standing_still(page)
    target = page.evaluate(HOVER_TARGET, None)
    assert target is not None, "no query of the picture is on the screen"
    assert target["under"] == "plot" and target["near"] >= 8, target  # the mouse can only show this point
    lines = hovered(page, target)
    assert lines == [line.strip() for line in html.unescape(target["text"]).split("<br>")], (lines, target)
    number = int(re.search(r"\d+", lines[-1]).group())
    token = re.search(r"“(.+?)”", lines[0]).group(1)
    sentence = corpus_view.shipped_corpus(model.split("-")[0]).sentences[number - 1].source
    marked = " ".join(lines[1:-1])  # the sentence, wrapped at spaces
    assert f"【{token}】" in marked, lines
    assert squeezed(re.sub("【|】|</s>", "", marked)) == squeezed(sentence), (lines, sentence)
    page.mouse.click(target["x"], target["y"])
    page.wait_for_url("**/translate?**", timeout=WAIT_MS)
    query = {name: values[0] for name, values in parse_qs(urlparse(page.url).query).items()}
    assert {name: query.get(name) for name in ("s", "model", "kind", "layer", "head")} == {
        "s": sentence, "model": model, "kind": "encoder_self", "layer": "1", "head": "1"}, query
    expect(page.get_by_text(said["translate.title"]).first).to_be_visible(timeout=WAIT_MS)
    expect(page.locator(f"{MAIN} textarea").first).to_have_value(sentence, timeout=WAIT_MS)


@pytest.mark.parametrize("model, lang, present", CASES,
                         ids=["en-zh-en", "zh-en-zh", "zh-en-en-presenting", "en-zh-zh-presenting"])
def test_a_head_and_every_head_fit_and_a_point_opens_its_sentence(browser, corpus_server, model, lang, present):
    said = strings(lang)
    context, page = new_session(browser)
    try:
        page.set_default_timeout(WAIT_MS)  # the first run of a server just started reads both models' passes
        page.goto(f"{corpus_server}/corpus?{link(model, lang, present, 'matrix')}", wait_until="commit")
        wait_for_runs(page, 1)
        page.set_viewport_size({"width": 1280, "height": 800})
        expect(page.get_by_text(said["corpus.title"]).first).to_be_visible(timeout=WAIT_MS)
        fits(page, present, f"corpus_{model}_{lang}_{present}_matrix")
        page.goto(f"{corpus_server}/corpus?{link(model, lang, present, 'head')}")
        fits(page, present, f"corpus_{model}_{lang}_{present}_head")
        if present == "0":  # one case per direction: the languages' hover texts are checked on the figure
            hover_and_click(page, model, said)
    finally:
        context.close()
