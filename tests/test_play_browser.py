"""Autoplay in a real browser, under the guard (tests/support/browser.Guard): every Play control of the app
plays forward to its end with its charts on screen (skipping positions where a run is slower than the speed),
pauses and resumes, and stops when the user touches another control. An error box at any moment of the playback fails the test (the guard watches the DOM).
"""

from __future__ import annotations

import json
import time

import pytest
from playwright.sync_api import expect

from tests.support.paths import CHECKPOINT
from i18n import strings
from tests.support.browser import APP, MAIN, main, open_session, rerun, screenshot

EN = strings("en")
SNAPSHOTS = len(json.loads((CHECKPOINT / "training_log.json").read_text(encoding="utf-8"))["snapshots"])
# Every page with a Play control: its URL (opened at its first position) and how many positions it plays through.
PLAYERS = {
    "decoding": ("decoding?lang=en&s=Who+are+you%3F&step=1", None),  # None: as many as the translation has steps
    "replay": ("replay?lang=en&probe=1&snapshot=1", SNAPSHOTS),
}
# The slider's position and whether its charts are on the first screen, read in one go so that both belong to
# the same moment of the playback.
MOMENT = """() => {
  const thumb = document.querySelector("[data-testid='stMain'] [data-testid='stSlider'] input[type=range]");
  const charts = [...document.querySelectorAll("[data-testid='stMain'] .js-plotly-plot")];
  const top = charts.length ? Math.min(...charts.map(c => c.getBoundingClientRect().top)) : Infinity;
  return {position: thumb && thumb.value, charts: charts.length, top: top};
}"""


@pytest.fixture
def page(browser, streamlit_server):
    context, page = open_session(browser, f"{streamlit_server}/start?lang=en")
    yield page
    context.close()


def play_button(page):
    return main(page).locator(".st-key-decoding-play, .st-key-replay-play").get_by_role("button")


def slider(page):
    """The stepper's slider (a range input: its value is the position's index, 0 for the first)."""
    return main(page).locator("[data-testid='stSlider'] input[type=range]").first


def position(page) -> int:
    return int(slider(page).input_value())


SLIDER_JS = "document.querySelector(\"[data-testid='stMain'] [data-testid='stSlider'] input[type=range]\")"


def next_position(page, after: int) -> int:
    """The first position other than `after` that the slider shows, watched every frame: a step at the fast speed
    lasts 0.75 s, and Playwright's expect, polling ever more slowly on a busy machine, once missed step 1 for good."""
    changed = f"after => {{ const v = Number({SLIDER_JS}.value); return v !== after && String(v); }}"
    seen = page.wait_for_function(changed, arg=after, polling="raf")
    return int(seen.json_value())


def open_player(page, url: str) -> int:
    """Open a page with a Play control at its first position, fastest speed; returns the slider's last index."""
    page.goto(url)
    expect(play_button(page)).to_have_accessible_name(EN["decoding.play"])
    page.wait_for_selector(f"{MAIN} .js-plotly-plot .main-svg")
    rerun(page, main(page).get_by_role("radio", name=EN["stepper.speed.fast"], exact=True).click)
    assert position(page) == 0
    return int(slider(page).get_attribute("max"))


def watch_playback(page, until_s: float = 120) -> list[dict]:
    """What the page shows, sampled every 100 ms, until the Play button says Play again."""
    moments, deadline = [], time.monotonic() + until_s
    while time.monotonic() < deadline:
        moments.append(page.evaluate(MOMENT))
        if play_button(page).inner_text().strip().endswith(EN["decoding.play"]):  # after its icon's name
            page.wait_for_selector(f"{APP}[data-test-script-state='notRunning']")  # the run that stopped, drawn
            return moments + [page.evaluate(MOMENT)]
        page.wait_for_timeout(100)
    raise AssertionError(f"still playing after {until_s:.0f} s, at {moments[-1]}")


@pytest.mark.parametrize("name", PLAYERS)
def test_play_goes_forward_to_the_end_with_its_charts_on_screen(page, streamlit_server, name):
    url, expected = PLAYERS[name]
    last = open_player(page, f"{streamlit_server}/{url}")
    if expected is not None:
        assert last + 1 == expected
    rerun(page, play_button(page).click)
    expect(play_button(page)).to_have_accessible_name(EN["decoding.pause"])
    screenshot(page, f"play_{name}_playing")
    moments = watch_playback(page)
    seen = [int(m["position"]) for m in moments]
    assert seen[-1] == last, f"stopped at {seen[-1]} of {last}"
    # A run slower than the speed skips positions to keep its pace (stepper.tick; tests/test_stepper.py times it
    # on an injected clock): forward only, from the first to the last.
    assert seen[0] == 0 and all(b >= a for a, b in zip(seen, seen[1:])), f"went back while playing: {seen}"
    # A rerun may redraw a chart within one 100-ms sample; gone for two samples in a row, a class would see it.
    shown = [m["charts"] > 0 and m["top"] < 800 for m in moments]
    gone = [moments[i] for i in range(1, len(shown)) if not shown[i - 1] and not shown[i]]
    assert not gone and shown[-1], f"the charts left the screen while playing: {gone or moments[-1]}"
    expect(main(page).get_by_role("button", name=EN["decoding.next"])).to_be_disabled()


def test_pause_holds_the_step_and_play_resumes_from_it(page, streamlit_server):
    open_player(page, f"{streamlit_server}/{PLAYERS['replay'][0]}")
    rerun(page, play_button(page).click)
    assert next_position(page, 0) >= 1  # playing, from the first position on
    rerun(page, play_button(page).click)  # pause
    expect(play_button(page)).to_have_accessible_name(EN["decoding.play"])
    held = position(page)
    page.wait_for_timeout(2000)  # more than two steps at the fast speed
    assert position(page) == held
    rerun(page, play_button(page).click)  # resume
    assert next_position(page, held) > held


def test_another_control_stops_the_playback(page, streamlit_server):
    open_player(page, f"{streamlit_server}/{PLAYERS['replay'][0]}")
    rerun(page, play_button(page).click)
    assert next_position(page, 0) >= 1
    kind = main(page).get_by_role("radio", name=EN["kind.encoder_self"], exact=True)
    rerun(page, kind.click)
    expect(play_button(page)).to_have_accessible_name(EN["decoding.play"])
    # A tick due at the moment of the click may still move one step with it; from then on the position holds. The
    # Play label is drawn before the slider in the same run: the slider is read once that run has finished.
    page.wait_for_selector(f"{APP}[data-test-script-state='notRunning']")
    held = position(page)
    page.wait_for_timeout(2000)
    assert position(page) == held
