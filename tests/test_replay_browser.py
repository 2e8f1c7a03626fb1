"""The replay and the live lab in a real browser at a projector's 1280×800.

Replay: opened on the first snapshot and scrubbed to the last, the translation and the map follow. Lab: the
untrained model's map, then a run until it stops, the trained map beside the untrained one. On every view no
chart is taller than the screen and, except on the untrained model's map (see below), no tick labels overlap (the
tour's check). Screenshots go to SCREENSHOTS=DIR when it is set.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from tests.support.paths import CHECKPOINT
from i18n import strings
from tests.support.browser import main, rerun, screenshot, settle, visit
from tests.support.layout_checks import CHART_PROBLEMS, CLIPPED

EN = strings("en")


def test_replay_scrubbed_from_the_first_to_the_last_snapshot(shared_page, streamlit_server):
    log = json.loads((CHECKPOINT / "training_log.json").read_text(encoding="utf-8"))
    first, last = log["snapshots"][0], log["snapshots"][-1]
    visit(shared_page, f"{streamlit_server}/replay?lang=en&snapshot=1&probe=1", EN["replay.title"])
    expect(main(shared_page).get_by_text(first["probes"][0]["translation"], exact=False).first).to_be_visible()
    screenshot(shared_page, "learning_replay_first")
    assert not shared_page.evaluate(CHART_PROBLEMS)  # the untrained model's 23×6 map included

    # → is the Next button, as on the decoding page
    rerun(shared_page, lambda: shared_page.keyboard.press("ArrowRight"))
    second = log["snapshots"][1]
    expect(main(shared_page).get_by_text(f"step {second['step']:,}", exact=False).first).to_be_visible()

    slider = main(shared_page).get_by_role("slider")
    slider.focus()
    rerun(shared_page, lambda: shared_page.keyboard.press("End"))  # the slider's last stop: the last snapshot
    settle(shared_page)
    expect(main(shared_page).get_by_text(f"step {last['step']:,}", exact=False).first).to_be_visible()
    expect(main(shared_page).get_by_text(last["probes"][0]["translation"], exact=False).first).to_be_visible()
    expect(main(shared_page).get_by_role("button", name=EN["decoding.next"])).to_be_disabled()
    screenshot(shared_page, "learning_replay_last")
    assert not shared_page.evaluate(CHART_PROBLEMS)


def test_lab_before_and_after_a_run(shared_page, streamlit_server):
    visit(shared_page, f"{streamlit_server}/lab?lang=en", EN["lab.title"])
    expect(main(shared_page).get_by_text(re.compile(r"^Before training \(step 0\)"))).to_be_visible()
    screenshot(shared_page, "learning_lab_before")
    assert not shared_page.evaluate(CHART_PROBLEMS)

    main(shared_page).get_by_role("button", name=EN["lab.train"]).click()
    # The run goes on in fragment runs; it is over when the page says why it stopped and Train is back.
    expect(main(shared_page).get_by_text(re.compile(r"^(Learned after|Stopped at)"))).to_be_visible()
    expect(main(shared_page).get_by_role("button", name=EN["lab.train"])).to_be_enabled()
    settle(shared_page)
    expect(main(shared_page).get_by_text(re.compile(r"^After \d+ steps"))).to_be_visible()
    expect(main(shared_page).get_by_text("A diagonal.", exact=False)).to_be_visible()
    screenshot(shared_page, "learning_lab_after", main(shared_page).get_by_text(re.compile(r"^After \d+ steps")))
    assert not shared_page.evaluate(CHART_PROBLEMS)


# The replay's map as a reader gets it: its size, and each axis's tick labels (drawn, and turned or upright).
MAP_TICKS = r"""() => {
  const plot = [...document.querySelectorAll("[data-testid='stMain'] .js-plotly-plot")][0];
  const box = plot.querySelector('.nsewdrag').getBoundingClientRect();
  const axes = {x: [], y: []};
  plot.querySelectorAll('g[class*="tick"] > text').forEach(t => {
    const axis = (t.parentElement.getAttribute('class') || '').match(/^([xy])\d*tick/);
    if (axis && t.textContent.trim() && getComputedStyle(t).opacity !== '0' && t.getBoundingClientRect().width > 0)
      axes[axis[1]].push({text: t.textContent, turned: /rotate\((?!0\))/.test(t.getAttribute('transform') || '')});
  });
  return {width: box.width, height: box.height, ...axes};
}"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_replays_map_of_the_chinese_model_reads_at_1280x800(shared_page, streamlit_server, lang):
    """zh-en's cross-attention map: every row and column labelled, the Chinese source characters upright, and big
    enough to read (it was about 170×95 px, every other row labelled, the characters turned on their side)."""
    from tests.support.paths import ROOT

    log = json.loads((ROOT / "checkpoints" / "zh-en" / "training_log.json").read_text(encoding="utf-8"))
    snapshots = len(log["snapshots"])
    visit(shared_page, f"{streamlit_server}/replay?model=zh-en&lang={lang}&snapshot={snapshots}&probe=1&kind=cross",
          strings(lang)["replay.title"])
    settle(shared_page)
    shown = shared_page.evaluate(MAP_TICKS)
    screenshot(shared_page, f"replay_zh_en_{lang}")
    probe = log["snapshots"][-1]["probes"][0]
    assert [t["text"] for t in shown["y"]] == [t.replace("\u2581", "▁") for t in probe["target_tokens"]]
    assert [t["text"] for t in shown["x"]] == probe["source_tokens"]
    assert not any(t["turned"] for t in shown["x"]), "the Chinese characters (and </s>) stand upright"
    assert shown["width"] / len(probe["source_tokens"]) >= 24, shown  # cells of 24 px or more (they were 17)
    assert not shared_page.evaluate(CHART_PROBLEMS) and not shared_page.evaluate(CLIPPED)
