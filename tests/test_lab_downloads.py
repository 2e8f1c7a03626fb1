"""The lab's Download CSV buttons keep working during a run (issue 53: four 404s in a 30-student run)."""

from __future__ import annotations

from tests.support.apptest import open_page, page_text
from tests.support.paths import needs_checkpoint


def downloads(at) -> dict[str, str]:
    """Each download button's key and the address its file is served at (a hash of the file's content)."""
    return {button.proto.id.split("-", 2)[-1]: button.proto.url for button in at.get("download_button")}


@needs_checkpoint
def test_during_a_run_no_download_button_changes_its_address_and_both_come_back_when_it_stops():
    """A button redrawn with new numbers gets a new address at every tick (0.1 s), and Streamlit deletes the old
    file as soon as any session's run ends: a click the browser sent before it redrew the button found nothing.
    The live map offers its numbers when the run stops; the untrained map's never change, so its address stays."""
    from app_pages.state import lab_queue

    lab_queue.shared().__init__()  # an empty queue: runs of earlier tests leave nothing behind
    at = open_page("lab", **{"lab.task": "reverse"})
    at.select_slider(key="lab.max_steps").set_value(100).run()
    at.button(key="lab.train").click().run()
    ticks, said = [], []
    while at.session_state["lab.run"] is not None:
        ticks.append(downloads(at))
        said.append("once the run stops" in page_text(at))  # under the live map, from its first chunk on
        at.run()
    assert said[0] is False and all(said[1:])
    assert len(ticks) >= 3 and all(tick == ticks[0] for tick in ticks), ticks  # the same addresses at every tick
    assert set(ticks[0]) == {"lab.chart.before.csv"}
    assert set(downloads(at)) == {"lab.chart.before.csv", "lab.chart.after.csv"} and not at.exception
    assert downloads(at)["lab.chart.before.csv"] == ticks[0]["lab.chart.before.csv"]
