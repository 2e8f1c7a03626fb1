"""Structure of the attention figures: what a reader sees must match the arrays and tokens passed in."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import pytest

from viz.head_view import head_view
from viz.heatmap import attention_heatmap, heatmap_figure, matrix_heatmap
from viz.labels import token_label
from viz.model_view import clicked_map, model_view
from viz.options import ColourScale, Heads, Hidden, Labels
from viz.style import HIGHLIGHT_COLOR, MASKED_COLOR
from viz.teaching_anatomy import lr_figure
from viz.validate import as_float32, check_labels

DOG = ["▁the", "▁dog", "▁saw", "▁the", "▁cat", "</s>"]


def softmax_rows(*shape: int, seed: int = 0) -> np.ndarray:
    x = np.random.default_rng(seed).normal(size=shape) * 3
    e = np.exp(x - x.max(-1, keepdims=True))
    return (e / e.sum(-1, keepdims=True)).astype(np.float32)


def heatmaps(fig: go.Figure) -> list[go.Heatmap]:
    return [t for t in fig.data if isinstance(t, go.Heatmap)]


class TestHeatmap:
    def test_values_ticks_and_scale(self):
        w = softmax_rows(6, 6)
        fig = attention_heatmap(w,
                                Labels(DOG, DOG, query_title="queries (source tokens)",
                                       key_title="keys (source tokens)"))
        (hm,) = heatmaps(fig)
        np.testing.assert_array_equal(hm.z, w)
        assert hm.z.dtype == np.float32
        assert (hm.zmin, hm.zmax) == (0.0, 1.0)
        assert list(fig.layout.xaxis.ticktext) == ["▁the", "▁dog", "▁saw", "▁the", "▁cat", "&lt;/s&gt;"]
        assert list(fig.layout.yaxis.ticktext) == list(fig.layout.xaxis.ticktext)
        assert fig.layout.xaxis.title.text == "keys (source tokens)"
        assert fig.layout.yaxis.title.text == "queries (source tokens)"

    def test_repeated_tokens_stay_separate_positions(self):
        fig = attention_heatmap(softmax_rows(6, 6), Labels(DOG, DOG))
        (hm,) = heatmaps(fig)
        assert list(hm.x) == list(range(6)) and list(hm.y) == list(range(6))
        assert list(fig.layout.xaxis.tickvals) == list(range(6))
        assert fig.layout.xaxis.ticktext.count("▁the") == 2

    def test_queries_down_keys_across_for_cross_attention(self):
        target, source = ["<s>", "我", "有"], ["▁I", "▁have", "▁a", "▁dream", "</s>"]
        w = softmax_rows(3, 5)
        fig = attention_heatmap(w, Labels(target, source))
        (hm,) = heatmaps(fig)
        assert hm.z.shape == (3, 5)
        assert len(fig.layout.yaxis.ticktext) == 3 and len(fig.layout.xaxis.ticktext) == 5
        assert fig.layout.yaxis.range[0] > fig.layout.yaxis.range[1]  # first query at the top

    def test_hover_carries_the_weight_and_tokens(self):
        fig = attention_heatmap(softmax_rows(3, 3), Labels(["a", "b", "c"], ["a", "b", "c"], value_label="weight"))
        template = heatmaps(fig)[0].hovertemplate
        assert "%{z:.4f}" in template and "%{x}" in template and "%{y}" in template

    def test_mask_hides_future_cells(self):
        w = np.tril(softmax_rows(4, 4))
        fig = attention_heatmap(w, Labels(list("abcd"), list("abcd")), mask=np.tril(np.ones((4, 4), bool)))
        z = heatmaps(fig)[0].z
        assert np.isnan(z[0, 1]) and not np.isnan(z[1, 0])

    def test_masked_cells_are_grey_gaps_without_hover_and_explained(self):
        causal = np.tril(np.ones((4, 4), bool))
        fig = attention_heatmap(np.tril(softmax_rows(4, 4)),
                                Labels(list("abcd"), list("abcd"), masked_label="<future>"), mask=causal)
        (hm,) = heatmaps(fig)
        assert np.isnan(hm.z[~causal]).all() and not np.isnan(hm.z[causal]).any()
        assert hm.hoverongaps is False and fig.layout.plot_bgcolor == MASKED_COLOR
        assert [a.text for a in fig.layout.annotations] == ["&lt;future&gt;"]
        unmasked = attention_heatmap(softmax_rows(4, 4), Labels(list("abcd"), list("abcd")))
        assert unmasked.layout.plot_bgcolor == "white" and not unmasked.layout.annotations

    def test_attention_and_teaching_heatmaps_are_one_builder(self):
        w = softmax_rows(3, 3)
        attention = heatmaps(attention_heatmap(w, Labels(DOG[:3], DOG[:3], value_label="weight")))[0]
        teaching = heatmaps(matrix_heatmap(w, Labels(DOG[:3], DOG[:3], value_label="weight", query_title="queries",
                                                     key_title="keys"), scale=ColourScale(zmin=0.0, zmax=1.0)))[0]
        np.testing.assert_array_equal(attention.z, teaching.z)
        for field in ("x", "y", "zmin", "zmax", "hovertemplate", "texttemplate", "xgap", "ygap"):
            assert np.array_equal(attention[field], teaching[field]), field

    def test_user_text_is_escaped(self):
        fig = attention_heatmap(softmax_rows(2, 2), Labels(["<b>x</b>", "&"], ["<s>", "y"]), title="<i>t</i>")
        assert list(fig.layout.yaxis.ticktext) == ["&lt;b&gt;x&lt;/b&gt;", "&amp;"]
        assert fig.layout.title.text == "&lt;i&gt;t&lt;/i&gt;"

    def test_long_sentence_grows_the_figure(self):
        small = attention_heatmap(softmax_rows(5, 5), Labels(list("abcde"), list("abcde")))
        tokens = [f"▁w{i}" for i in range(45)]
        big = attention_heatmap(softmax_rows(45, 45), Labels(tokens, tokens))
        assert big.layout.height > small.layout.height
        assert big.layout.xaxis.tickangle == -90  # 45 labels side by side would overlap

    def test_labels_turn_vertical_when_two_neighbours_would_touch(self):
        """All seven fit in the figure's width, but ▁apples and ▁yesterday are each wider than their cell."""
        tokens = ["▁Tom", "▁bought", "▁three", "▁apples", "▁yesterday", ".", "</s>"]
        assert attention_heatmap(softmax_rows(3, 7), Labels(list("abc"), tokens)).layout.xaxis.tickangle == -90
        short = ["▁I", "▁have", "▁a", "▁dream", ".", "</s>"]
        assert attention_heatmap(softmax_rows(3, 6), Labels(list("abc"), short)).layout.xaxis.tickangle == 0

    @pytest.mark.parametrize(
        ("weights", "queries", "keys", "message"),
        [
            (np.zeros((2, 3, 3)), list("abc"), list("abc"), "2 dimensions"),
            (np.zeros((3, 3)), list("ab"), list("abc"), "labels.queries has 2 labels but the array has 3 rows"),
            (np.zeros((3, 3)), list("abc"), list("abcd"), "labels.keys has 4 labels but the array has 3 columns"),
            (np.zeros((3, 3)), list("abc"), list("abcd"), "TranslationResult.axis_tokens"),
            (np.full((2, 2), -np.inf), list("ab"), list("ab"), "NaN or infinite"),
            (np.zeros((3, 3)), "abc", list("abc"), "not one string"),
            (np.full((2, 2), np.nan), list("ab"), list("ab"), "NaN"),
        ],
    )
    def test_bad_input_raises_helpful_error(self, weights, queries, keys, message):
        with pytest.raises(ValueError, match=message):
            attention_heatmap(weights, Labels(queries, keys))

    def test_tokens_or_sizes_passed_where_an_object_belongs_say_which_object_to_build(self):
        with pytest.raises(TypeError, match=r"labels must be a viz.options.Labels, got list: pass labels=Labels\("):
            attention_heatmap(np.zeros((2, 2)), ["a", "b"])
        with pytest.raises(TypeError, match=r"room must be a viz.options.Room, got dict: pass room=Room\("):
            attention_heatmap(np.zeros((2, 2)), Labels(["a", "b"], ["a", "b"]), room={"max_width": 400})
        with pytest.raises(TypeError, match=r"frame must be a viz.options.Frame, got dict: pass frame=Frame\("):
            lr_figure([1, 2], [0.1, 0.2], [2], [0.2], 1, frame={"title": "t"}, names=("f", "l", "w"))
        with pytest.raises(ValueError, match=r"hidden.cells must have the matrix's shape \(2, 2\), got \(2, 3\)"):
            heatmap_figure(np.zeros((2, 2), np.float32), Labels(None, None), hidden=Hidden(np.ones((2, 3), bool)))


class TestModelView:
    def test_one_heatmap_per_layer_and_head(self):
        w = softmax_rows(3, 8, 6, 6)
        fig = model_view(w, Labels(DOG, DOG))
        maps = heatmaps(fig)
        assert len(maps) == 24
        np.testing.assert_array_equal(maps[8 * 2 + 5].z, w[2, 5])  # layer 3, head 6
        assert fig.layout.coloraxis.cmin == 0.0 and fig.layout.coloraxis.cmax == 1.0
        assert all(m.hovertemplate and "%{z:.4f}" in m.hovertemplate for m in maps)

    def test_every_subplot_axis_carries_the_tokens(self):
        fig = model_view(softmax_rows(2, 2, 3, 5), Labels(["<s>", "我", "我"], ["▁a", "▁b", "▁a", ".", "</s>"]))
        xaxes = [fig.layout[k] for k in fig.layout if k.startswith("xaxis")]
        yaxes = [fig.layout[k] for k in fig.layout if k.startswith("yaxis")]
        assert len(xaxes) == len(yaxes) == 4
        # Set once in the template, which Plotly applies to every x (y) axis; no axis overrides it.
        shared = fig.layout.template.layout
        assert list(shared.xaxis.ticktext) == ["▁a", "▁b", "▁a", ".", "&lt;/s&gt;"]
        assert list(shared.xaxis.tickvals) == [0, 1, 2, 3, 4]
        assert list(shared.yaxis.ticktext) == ["&lt;s&gt;", "我", "我"]
        assert all(a.ticktext is None and a.tickvals is None for a in xaxes + yaxes)

    def test_selected_map_is_framed_exactly(self):
        fig = model_view(softmax_rows(2, 2, 3, 3), Labels(list("abc"), list("abc")), selected=(1, 0))
        (frame,) = fig.layout.shapes
        assert (frame.xref, frame.yref, frame.line.color) == ("paper", "paper", HIGHLIGHT_COLOR)
        # Layer 2 · head 1 is the third map: the frame's edges are its domain's.
        assert [frame.x0, frame.x1] == list(fig.layout.xaxis3.domain)
        assert [frame.y0, frame.y1] == list(fig.layout.yaxis3.domain)
        assert not model_view(softmax_rows(2, 2, 3, 3), Labels(list("abc"), list("abc"))).layout.shapes

    def test_click_targets_name_their_map(self):
        fig = model_view(softmax_rows(2, 3, 4, 4), Labels(list("abcd"), list("abcd")), click_hint="click to open")
        targets = [t for t in fig.data if isinstance(t, go.Scatter)]
        assert [list(t.customdata[0]) for t in targets] == [[l, h] for l in range(2) for h in range(3)]
        assert "layer 2 · head 3" in targets[-1].hovertemplate and "click to open" in targets[-1].hovertemplate
        assert clicked_map([{"curve_number": 7, "customdata": [1, 2]}]) == (1, 2)
        assert clicked_map([]) is None
        assert not [t for t in model_view(softmax_rows(1, 1, 2, 2),
                                          Labels(["a", "b"], ["a", "b"])).data if isinstance(t, go.Scatter)]

    def test_payload_stays_small_for_a_40_token_grid(self):
        tokens = [f"▁w{i}" for i in range(40)]
        grid = model_view(softmax_rows(3, 8, 40, 40), Labels(tokens, tokens), click_hint="click to open")
        assert len(grid.to_json()) < 600_000

    def test_bad_shape_raises(self):
        with pytest.raises(ValueError, match="4 dimensions"):
            model_view(softmax_rows(3, 3), Labels(list("abc"), list("abc")))
        with pytest.raises(ValueError, match="selected"):
            model_view(softmax_rows(1, 2, 3, 3), Labels(list("abc"), list("abc")), selected=(1, 0))


class TestHeadView:
    def test_one_legend_entry_per_head_with_its_colour(self):
        fig = head_view(softmax_rows(4, 6, 6), Labels(DOG, DOG))
        legend = [t for t in fig.data if t.showlegend]
        assert [t.name for t in legend] == ["head 1", "head 2", "head 3", "head 4"]
        assert len({t.marker.color for t in legend}) == 4
        for entry in legend:  # the lines of a head share its legend group, so the legend toggles them together
            group = [t for t in fig.data if t.legendgroup == entry.legendgroup]
            assert len(group) >= 2

    def test_tokens_on_both_sides_repeated_ones_separate(self):
        fig = head_view(softmax_rows(2, 6, 6), Labels(DOG, DOG))
        assert list(fig.layout.yaxis.ticktext) == ["▁the", "▁dog", "▁saw", "▁the", "▁cat", "&lt;/s&gt;"]
        assert list(fig.layout.yaxis2.ticktext) == list(fig.layout.yaxis.ticktext)
        assert len(set(fig.layout.yaxis.tickvals)) == 6

    def test_pruning_keeps_strong_links_and_each_query_best(self):
        w = np.full((1, 3, 4), 0.02, np.float32)
        w[0, :, 0] = [0.94, 0.5, 0.03]
        w[0, 1, 1] = 0.44
        fig = head_view(w, Labels(list("abc"), list("wxyz")), min_weight=0.1)
        (markers,) = [t for t in fig.data if t.showlegend]
        assert len(markers.x) == 4  # 0.94, 0.5, 0.44, and query c's best (0.03)
        assert any("0.9400" in text for text in markers.text)  # hover carries the exact weight

    def test_large_sentence_stays_small(self):
        tokens = [f"▁w{i}" for i in range(45)]
        fig = head_view(softmax_rows(8, 45, 45), Labels(tokens, tokens))
        points = sum(len(t.x) for t in fig.data if t.mode == "markers")
        assert points < 45 * 45 * 8 / 4
        assert len(fig.to_json()) < 300_000

    def test_head_and_query_filters(self):
        fig = head_view(softmax_rows(4, 6, 6), Labels(DOG, DOG), heads=Heads(shown=[2]), query_index=1, min_weight=0.0)
        (markers,) = [t for t in fig.data if t.showlegend]
        assert markers.name == "head 3" and len(markers.x) == 6
        assert all(text.startswith("1 · ▁dog →") for text in markers.text)  # positions: which "the" it is

    def test_bad_input_raises(self):
        with pytest.raises(ValueError, match="3 dimensions"):
            head_view(softmax_rows(6, 6), Labels(DOG, DOG))
        with pytest.raises(ValueError, match="head must be an integer"):
            head_view(softmax_rows(2, 6, 6), Labels(DOG, DOG), heads=Heads(shown=[5]))
        with pytest.raises(ValueError, match="min_weight"):
            head_view(softmax_rows(2, 6, 6), Labels(DOG, DOG), min_weight=1.5)


class TestChecks:
    """viz/validate.py: the one checker every figure function calls; each refusal says how to fix the call."""

    def test_as_float32_gives_float32_of_the_asked_dimensions(self):
        array = as_float32([[1, 2], [3, 4]], "values", 2)
        assert array.dtype == np.float32 and array.shape == (2, 2)
        with pytest.raises(ValueError, match=r"values must have 1 dimensions, got shape \(2, 2\): pass one 1-D array"):
            as_float32(array, "values", 1)
        with pytest.raises(ValueError, match="values must be numeric, got str"):
            as_float32("abc", "values", 1)

    def test_minus_infinity_only_where_a_masked_score_may_stand(self):
        scores = np.array([1.0, -np.inf])
        with pytest.raises(ValueError, match="scores contains NaN or infinite values: pass finite numbers"):
            as_float32(scores, "scores", 1)
        kept = as_float32(scores, "scores", 1, allow_neg_inf=True)
        assert kept.dtype == np.float32 and kept[0] == 1 and np.isneginf(kept[1])
        for bad in (np.inf, np.nan):
            with pytest.raises(ValueError, match=r"only −∞ \(a masked score\)"):
                as_float32([1.0, bad], "scores", 1, allow_neg_inf=True)

    def test_check_labels_one_string_per_entry(self):
        assert check_labels(("a", 3), 2, "labels") == ["a", "3"]
        with pytest.raises(ValueError, match=r"labels must be a list of labels \(tokens\), not one string"):
            check_labels("ab", 2, "labels")
        with pytest.raises(ValueError, match="labels has 1 labels but the array has 2 columns: pass one label per entry"):
            check_labels(["a"], 2, "labels", "columns")


def test_token_label_escapes_and_never_empty():
    assert token_label("<unk>") == "&lt;unk&gt;"
    assert token_label("") != ""
    with pytest.raises(ValueError, match="string"):
        token_label(3)
