"""The beam search's tree (viz/beam_tree.py): its structure (parent links, the chosen path, pruned branches), its
figure (hover, highlight, the current step) and its fit at 1280×800, on a hand-made search and on the shipped
model's own."""

from __future__ import annotations

import numpy as np
import pytest

from i18n import strings
from viz.beam_tree import CHOSEN_EDGE, NODE_FONT_PX, TreeLabels, beam_tree, tree_nodes
from viz.options import Room
from viz.style import GAP_EM, LINE_EM, text_em

# A beam of 2, three steps: 我 and 你 kept; then 我有 and 你好 kept, 我</s> finished (not among the best two: a
# hypothesis that ends only counts among the best `beam`), 我是 pruned; then 我有</s> finished.
STEPS = [
    {"kept": [(("我",), -0.2), (("你",), -1.8)], "dropped": [(("他",), -2.5), (("她",), -3.0)]},
    {"kept": [(("我", "有"), -0.5), (("你", "好"), -2.0)], "finished": [(("我", "</s>"), -2.2)],
     "dropped": [(("我", "是"), -2.4)]},
    {"finished": [(("我", "有", "</s>"), -0.7)], "kept": [(("我", "有", "梦"), -1.5), (("你", "好", "吗"), -2.3)],
     "dropped": [(("你", "好", "。"), -3.1)]},
]
CHOSEN = ["我", "有", "</s>"]
SISTER = "My sister bought a red bicycle yesterday."
TREE_PX = (820, 480)  # the Decoding page's room for it (app_pages/pages/decoding.py TREE_PX)


def test_every_hypothesis_hangs_from_the_kept_one_it_extends():
    nodes = tree_nodes(STEPS, CHOSEN)
    assert len(nodes) == 1 + sum(len(h) for step in STEPS for h in step.values())  # the root and every hypothesis
    for node in nodes[1:]:
        parent = nodes[node.parent]
        assert parent.tokens == node.tokens[:-1] and parent.step == node.step - 1
        assert parent.status in ("root", "kept")  # only a kept hypothesis goes on
    by_tokens = {n.tokens: n for n in nodes}
    assert nodes[by_tokens[("你", "好", "吗")].parent].tokens == ("你", "好")


def test_the_chosen_path_runs_from_the_root_to_the_chosen_translation():
    nodes = tree_nodes(STEPS, CHOSEN)
    path = [n.tokens for n in nodes if n.chosen]
    assert path == [(), ("我",), ("我", "有"), ("我", "有", "</s>")]
    end = next(i for i, n in enumerate(nodes) if n.tokens == tuple(CHOSEN))
    chain = []
    while end != -1:
        chain.append(end)
        end = nodes[end].parent
    assert all(nodes[i].chosen for i in chain) and len(chain) == len(path)


def test_pruned_branches_are_drawn_and_end_there():
    nodes = tree_nodes(STEPS, CHOSEN)
    pruned = [i for i, n in enumerate(nodes) if n.status == "dropped"]
    assert [nodes[i].tokens for i in pruned] == [("他",), ("她",), ("我", "是"), ("你", "好", "。")]
    assert not any(n.parent in pruned for n in nodes)  # no child: the branch ends


def test_edges_do_not_cross():
    """In a column, the nodes follow their parents' rows: an edge's two ends are in the same order as any other's."""
    nodes = tree_nodes(STEPS, CHOSEN)
    for step in range(len(STEPS)):
        rows = [(nodes[n.parent].slot, n.slot) for n in nodes if n.step == step]
        assert sorted(rows) == sorted(rows, key=lambda pair: pair[1])


def test_a_hypothesis_without_its_parent_is_refused():
    with pytest.raises(ValueError, match="extends no hypothesis kept"):
        tree_nodes([STEPS[0], {"kept": [(("他", "们"), -3.0)]}], CHOSEN)  # 他 was pruned
    with pytest.raises(ValueError, match="grouped as"):
        tree_nodes([{"alive": [(("我",), -1.0)]}], CHOSEN)
    with pytest.raises(ValueError, match="not one string"):
        tree_nodes([{"kept": [("我有", -1.0)]}], CHOSEN)
    with pytest.raises(ValueError, match="no search step"):
        beam_tree([], CHOSEN)


def test_the_figure_highlights_the_chosen_path_and_hovers_log_probabilities():
    fig = beam_tree(STEPS, CHOSEN,
                    labels=TreeLabels(statuses={"kept": "kept", "finished": "finished", "dropped": "pruned"}))
    chosen = next(tr for tr in fig.data if tr.line.width == CHOSEN_EDGE["width"])
    points = {(x, y) for x, y in zip(chosen.x, chosen.y) if x is not None}
    assert sorted({x for x, _ in points}) == [0, 1, 2, 3]  # root to step 3, one node a column
    nodes = {tr.name: tr for tr in fig.data if tr.customdata is not None}
    assert set(nodes) == {"kept", "finished", "pruned"}
    finished = nodes["finished"]
    row = [list(r) for r in finished.customdata]
    assert ["我有&lt;/s&gt;", -0.7, pytest.approx(-0.2), 3] in row  # log P(我有</s>) − log P(我有)
    assert "%{customdata[1]:.3f}" in finished.hovertemplate and "%{customdata[2]:.3f}" in finished.hovertemplate
    outlined = [w for w, text in zip(finished.marker.line.width, finished.text) if text == "&lt;/s&gt;"]
    assert max(outlined) > 1  # the chosen translation's end is outlined
    (shade,) = fig.layout.shapes
    assert (shade.x0, shade.x1) == (2.5, 3.5)  # the current step: the last by default


def test_the_tree_grows_with_the_current_step():
    fig = beam_tree(STEPS, CHOSEN, current=0)
    shown = {x for tr in fig.data if tr.mode != "lines" for x in tr.x}
    assert shown == {0, 1}  # the root and step 1's nodes; the later steps are still to come
    assert list(fig.layout.xaxis.range) == list(beam_tree(STEPS, CHOSEN).layout.xaxis.range)  # the same frame
    whole = beam_tree(STEPS, CHOSEN, current=1, last=2)  # the page's last step, where the search went one on
    assert {x for tr in whole.data if tr.mode != "lines" for x in tr.x} == {0, 1, 2, 3}
    assert (whole.layout.shapes[0].x0, whole.layout.shapes[0].x1) == (1.5, 2.5)  # the page's step stays shaded
    with pytest.raises(ValueError, match="current <= last"):
        beam_tree(STEPS, CHOSEN, current=2, last=1)


def shipped_tree(translator, sentence: str, lang: str, current: int | None = None):
    result = translator.translate(sentence, beam=4)
    steps = [{s: [(h.tokens, h.logprob) for h in getattr(r, s)] for s in ("kept", "finished", "dropped")}
             for r in result.beam_steps]
    s = strings(lang)
    fig = beam_tree(steps, result.output_tokens,
                    labels=TreeLabels(statuses={k: s[f"beam.{k}"] for k in steps[0]}, chosen=s["beam.chosen"],
                                      step_title=s["beam.step"], logprob=s["beam.logprob"],
                                      token_logprob=s["beam.token_logprob"]),
                    room=Room(TREE_PX[0], TREE_PX[1]), current=current)
    return result, steps, fig


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("sentence", [SISTER, "The animal didn't cross the street because it was too tired, and the "
                                      "children laughed at the big brown dog in the park."])
def test_the_models_own_tree_fits_the_page_with_labels_apart(translator, sentence, lang):
    result, steps, fig = shipped_tree(translator, sentence, lang)
    nodes = tree_nodes(steps, result.output_tokens)
    assert [n.tokens for n in nodes if n.chosen][-1] == tuple(result.output_tokens)  # the path ends at the output
    assert any(n.status == "dropped" for n in nodes)
    assert fig.layout.width <= TREE_PX[0] and fig.layout.height <= TREE_PX[1]
    low, high = fig.layout.xaxis.range
    column_px = (fig.layout.width - fig.layout.margin.l - fig.layout.margin.r) / (high - low)
    widest = max(text_em(n.tokens[-1]) for n in nodes[1:])
    assert column_px >= (widest + GAP_EM) * NODE_FONT_PX  # neighbour columns' labels never meet
    columns: dict[float, list[float]] = {}
    for tr in fig.data:
        for x, y in zip(tr.x, tr.y) if tr.mode != "lines" else ():
            columns.setdefault(x, []).append(y)
    rows = np.concatenate([np.diff(sorted(ys)) for ys in columns.values() if len(ys) > 1])
    plot_px = fig.layout.height - fig.layout.margin.t - fig.layout.margin.b
    row_px = plot_px / (fig.layout.yaxis.range[0] - fig.layout.yaxis.range[1])
    assert rows.min() * row_px >= LINE_EM * NODE_FONT_PX  # nor do those of a column's rows
