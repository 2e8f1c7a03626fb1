"""Presentation mode enlarges each chart as a whole (charts.chart); the figures the browser gets are the enlarged
ones, so every size in them is what a projector shows.

Maps keep their labels: they are laid out for the size they will be shown at. Before, the explorer's map of the
app's own example sentence (16 source tokens) labelled every other row on the projector, laid out at 11 px before
being enlarged to 14. Titles fit their figures: a figure without a width of its own is drawn at Streamlit's 700 px,
and enlarged text in it was cut ("PE for 128 positions × 256 dimensions (rows = positions, columns = dime")."""

from __future__ import annotations

import json

import pytest

from app_pages.state import state_keys
from app_pages.shell.page_scripts import PRESENT_SCALE
from app_pages.shell.screen import CONTENT_PX
from app_pages.components import charts
from tests.support.apptest import PAGES, app, open_page
from tests.support.figures import label_axes
from viz.style import LINE_EM, MIN_FONT_PX, min_font_px_at

CROWDED = "The animal didn't cross the street because it was too tired."  # the app's example: 16 source tokens


def presenting(sentence: str, page: str | None = None, **state):
    at = app(sentence, page=page)
    at.session_state[state_keys.PRESENT] = True
    for key, value in state.items():
        at.session_state[key] = value
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def fonts_and_labels(at) -> list[tuple[str, str, float, int, int, float]]:
    """(chart key, axis, label font px on screen, labels shown, positions, px per position on screen) of every
    labelled axis of every chart."""
    found = []
    for chart in at.get("plotly_chart"):
        layout = json.loads(chart.proto.spec)["layout"]
        margin = layout["margin"]
        plot = {"x": layout["width"] - margin["l"] - margin["r"], "y": layout["height"] - margin["t"] - margin["b"]}
        for name, axis in label_axes(layout).items():
            size = (axis.get("tickfont") or {}).get("size") or layout["font"]["size"]
            low, high = sorted(axis["range"])
            domain = axis.get("domain", [0, 1])
            px = plot[name[0]] * (domain[1] - domain[0]) / (high - low)
            found.append((chart.key, name, size, len(axis["ticktext"]), round(high - low), px))
    return found


def assert_thinned_only_where_needed(found) -> None:
    """No label under 11 px on the projector, and every position labelled unless its labels, at the smallest font
    presentation mode lays them out in, would overlap on the projector."""
    assert found, "no labelled chart"
    crowded = LINE_EM * min_font_px_at(PRESENT_SCALE) * PRESENT_SCALE  # px per position below which labels thin
    for key, axis, size, shown, positions, px in found:
        assert size >= MIN_FONT_PX, (key, axis, size)
        assert shown == positions or px < crowded, f"{key} {axis}: {shown} of {positions} labels, {px:.1f} px apart"


@pytest.mark.parametrize("view", ["head", "lines", "rollout"])
def test_the_example_sentence_keeps_every_label_on_a_projector(translator, view):
    at = presenting(CROWDED, **{"explorer.kind": "encoder_self", "explorer.view": view})
    found = fonts_and_labels(at)
    assert_thinned_only_where_needed(found)
    tokens = len(translator.translate(CROWDED).source_tokens)
    assert all(shown == tokens for *_, shown, _, _ in found), found


@pytest.mark.parametrize("mode", ["heads", "sentences"])
def test_compare_maps_thin_labels_only_where_a_projector_needs_it(mode):
    """Compare's maps are held to the height its controls leave, so the page may enlarge them less than
    PRESENT_SCALE, or more than their limits promised where a map is narrower than them: their labels are laid out
    for the enlargement they get (charts.fitted_map)."""
    at = presenting(CROWDED, page="app_pages/pages/compare.py", **{"compare.mode": mode})
    found = fonts_and_labels(at)
    assert {key for key, *_ in found} >= {"compare.chart.a", "compare.chart.b"}, found
    assert_thinned_only_where_needed(found)


def layouts(at) -> dict[str, dict]:
    return {chart.key: json.loads(chart.proto.spec)["layout"] for chart in at.get("plotly_chart")}


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("page", [*PAGES, "training"])
def test_every_chart_keeps_room_for_its_enlarged_text(page, lang):
    """Each chart in presentation mode is at least as wide, for its text, as it is on the plain page, where a figure
    without a width of its own is 700 px wide: its title fits there, so it fits enlarged."""
    plain, present = layouts(open_page(page, lang)), layouts(open_page(page, lang, **{state_keys.PRESENT: True}))
    assert plain and present.keys() == plain.keys(), (page, sorted(plain), sorted(present))
    for key, layout in present.items():
        grown = layout["font"]["size"] / plain[key]["font"]["size"]
        assert grown > 1, (page, key)
        room = grown * (plain[key].get("width") or CONTENT_PX)
        assert layout.get("width", 0) >= room - 1e-6, (page, key, layout.get("width"), grown)
