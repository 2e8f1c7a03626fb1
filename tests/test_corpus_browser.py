"""Across a corpus in a real browser at 1280×800, both directions in both languages (en→zh in English and zh→en in
中文; in presentation mode zh→en in English and en→zh in 中文): a link opens one head's picture and the matrix view
of every head, each within the screen (in presentation mode from top to bottom on the first screen). A point's hover
text is checked on the figure (tests/test_corpus_view_page.py) and the click's link by AppTest; the hover and click in
Chromium timed out here in the full suite (no hover label within 180 s) and are not yet checked in a browser.
Under the guard (tests/support/browser.Guard): no exception box, console error or server traceback. The server reads
the model's passes over the shipped corpus from the disk cache, filled first here where it lacks them.
SCREENSHOTS=DIR keeps a screenshot of each view."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

from app_pages.pages import corpus_view
from evaluation.corpus_view import ProjectionCache
from i18n import strings
from model import Translator
from tests.support.app_server import running_app
from tests.support.browser import GUARD, MAIN, open_session, screenshot
from tests.support.paths import CHECKPOINT, ZH_CHECKPOINT

expect = pytest.importorskip("playwright.sync_api").expect  # the browser fixture skips where Chromium is missing
CASES = [("en-zh", "en", "0"), ("zh-en", "zh", "0"), ("zh-en", "en", "1"), ("en-zh", "zh", "1")]
WAIT_MS = 600_000  # a server that must project on a busy CPU
CHART_SPAN = """() => {
  document.querySelector("[data-testid='stMain']").scrollTo(0, 0);
  const box = document.querySelector("[data-testid='stMain'] .js-plotly-plot").getBoundingClientRect();
  return [box.top, box.bottom, box.right];
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


@pytest.mark.parametrize("model, lang, present", CASES,
                         ids=["en-zh-en", "zh-en-zh", "zh-en-en-presenting", "en-zh-zh-presenting"])
def test_a_head_and_every_head_fit_on_the_screen(browser, corpus_server, model, lang, present):
    said = strings(lang)
    context, page = open_session(browser, f"{corpus_server}/corpus?{link(model, lang, present, 'matrix')}")
    try:
        page.set_viewport_size({"width": 1280, "height": 800})
        expect(page.get_by_text(said["corpus.title"]).first).to_be_visible(timeout=WAIT_MS)
        fits(page, present, f"corpus_{model}_{lang}_{present}_matrix")
        page.goto(f"{corpus_server}/corpus?{link(model, lang, present, 'head')}")
        fits(page, present, f"corpus_{model}_{lang}_{present}_head")
    finally:
        context.close()
