"""Decoding opened cold (a new tab, by its address) draws its Previous / Play / Next row in its first run, in a real
browser under the guard (tests/support/browser.py), with the Chinese → English model, in 中文.

Issue 60 §4 saw the page settle once without the row and draw it 1–3 s later, so that a check made right after the
first run found no Play button. A trace of the websocket on a fresh server (every ForwardMsg decoded) showed one run:
Previous / Play / Next are sent before its script_finished, and no run follows; when the app's state turns
notRunning the DOM still holds a dozen stSkeleton placeholders (Streamlit's frontend loading those widgets' code), and
the buttons replace them 50–350 ms later on this machine. So the row is the first run's; a check must wait for the
placeholders, as wait_for_runs does (LOADED), not for an element to appear. This checks right after that, and that no
second run follows.
"""

from __future__ import annotations

from urllib.parse import quote

import pytest

from i18n import strings
from tests.support.browser import full_runs, key, new_session, runs_finished, wait_for_runs
from tests.support.paths import ZH_CHECKPOINT

pytestmark = pytest.mark.skipif(not (ZH_CHECKPOINT / "model.safetensors").is_file(),
                                reason=f"needs the Chinese → English checkpoint in {ZH_CHECKPOINT}")
SENTENCE = "我有一个梦想。"
QUIET_MS = 3000  # the second run came 1–3 s after the first


def test_a_cold_load_draws_the_stepper_in_its_first_run(browser, streamlit_server):
    """In 中文: what the frontend loads, and when, does not depend on the interface language."""
    lang = "zh"
    words = strings(lang)
    context, page = new_session(browser)
    try:
        page.goto(f"{streamlit_server}/decoding?model=zh-en&lang={lang}&s={quote(SENTENCE)}", wait_until="commit")
        wait_for_runs(page, 1)
        # count() does not wait: what the first run drew, or nothing
        found = {name: page.locator(key(f"decoding.{name}")).get_by_role(
            "button", name=words[f"decoding.{name}"], exact=True).count() for name in ("prev", "play", "next")}
        assert found == {"prev": 1, "play": 1, "next": 1}, found
        page.wait_for_timeout(QUIET_MS)
        assert (runs_finished(page), full_runs(page)) == (1, 1), "the page ran again after its first run"
    finally:
        context.close()
