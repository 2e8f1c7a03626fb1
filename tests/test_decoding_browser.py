"""Decoding in a real browser under the guard (tests/support/browser.py: no exception box, console error or server
traceback): the beam is drawn as a tree that fits 1280×800 with no label over another, and a node's hover gives its
log-probability. What-if's chips and caption need no browser: tests/test_app_decoding_whatif.py.

Screenshots (1280×800) under SCREENSHOTS=DIR, when it is set, for a person to look at: decoding_beam_tree_*.png.
"""

from __future__ import annotations

from urllib.parse import quote


from i18n import strings
from tests.support.browser import hover, in_one_session, key, point_on_plot, screenshot, settle_charts
from tests.support.layout_checks import TREE, overlapping

SISTER = "My sister bought a red bicycle yesterday."


def test_the_beam_is_drawn_as_a_tree(shared_page, streamlit_server, translator):
    """At the last step: every hypothesis the search scored is a node (pruned ones too), the chosen path runs from
    <s> to the translation's </s>, a node's hover gives its log-probability, and the tree fits 1280×800 with no
    label over another, plainly in English and in presentation mode in 中文 (one session, by Forward)."""
    result = translator.translate(SISTER)
    scored = sum(len(getattr(r, s)) for r in result.beam_steps for s in ("kept", "finished", "dropped"))
    walk = {(lang, present): f"{streamlit_server}/decoding?lang={lang}&present={present}&s={quote(SISTER)}"
                             f"&step={len(result.steps)}&layer=1&head=1" for lang, present in (("en", 0), ("zh", 1))}
    page = shared_page
    for lang, present in in_one_session(page, walk, go_on=True):
        text = strings(lang)
        settle_charts(page)
        chart = page.locator(f"{key('decoding.chart.beam')} .js-plotly-plot")
        page.mouse.wheel(0, 10)  # a user's scroll: the link's view stops holding the step's controls at the top
        chart.evaluate("e => e.scrollIntoView({block: 'center'})")
        page.wait_for_selector(f"{key('decoding.chart.beam')} .textpoint text")
        tree = chart.evaluate(TREE)
        nodes = {t["name"]: t for t in tree["traces"] if t["customdata"]}
        assert sum(t["n"] for t in nodes.values()) == scored  # every scored hypothesis, one node each
        assert nodes[text["beam.dropped"]]["n"] > 0  # pruned branches drawn
        (path,) = [t for t in tree["traces"] if t["name"] == text["beam.chosen"]]
        assert path["n"] == 2 * len(result.output_tokens)  # an edge per token, from <s> to </s>
        box = tree["box"]
        assert box["x"] >= 0 and box["x"] + box["width"] <= 1280 and box["height"] <= 800, box
        assert not overlapping(tree["labels"]), overlapping(tree["labels"])[:3]
        finished = nodes[text["beam.finished"]]
        logprob = finished["customdata"][0][1]
        lines = hover(page, point_on_plot(page, tree["index"], finished["x"][0], finished["y"][0]))
        assert f"{abs(logprob):.3f}" in " ".join(lines), lines  # its log-probability (Plotly writes − for -)
        screenshot(page, f"decoding_beam_tree_{lang}{'_present' if present else ''}")
