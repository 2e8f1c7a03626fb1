"""Replay: how the shipped model's attention formed while it trained.

The trainer translated a few fixed probe sentences at moments of training and kept every attention map
(model/training/snapshots.py); this page reads those snapshots, so moving through them never runs the model. The model
runs once per probe (cached): the shipped weights' own greedy translations, which the intro compares with the last
snapshot's.
Previous / Play / Next and the slider move one session-state index (SNAPSHOT) over the snapshots; all but Play rerun
only the snapshot's fragment (replay_view).
"""

import shlex

import numpy as np
import streamlit as st

from app_pages.components import attention_view, charts, chips
from app_pages.state import direction, models, result_cache, translations, widget_state
from app_pages.shell import link_values, links, page_scripts, presentation, screen
from app_pages.state.state_keys import CHECKPOINT
from app_pages.components.stepper import stepped_view, stepper
from app_pages.shell.text import md_escape, sentences, t
from lessons import replay
from lessons.attention_maps import ALL, axis_tokens, pick
from model import SnapshotError, TrainingLog, read_snapshots
from viz.options import Frame
from viz.style import MAX_HEIGHT_PX
from viz.teaching_anatomy import training_curves_figure
from viz.teaching_replay import marked_at, share_figure

PROBE, KIND, SNAPSHOT = "replay.probe", "replay.kind", "replay.snapshot"
MAP_MAX_PX = MAX_HEIGHT_PX  # the untrained model writes 22 tokens: its map needs all the height a figure may take
MAP_PX = 370  # the map's column: 9 of 19 parts of the page at 1280 px with the sidebar open (the pickers get the rest)
PROBE_PX = 280  # the probe picker beside the row of attention kinds (about 500 px in English)


def missing(log: TrainingLog, folder: str) -> None:
    """What a checkpoint without snapshots shows: why, and the command that trains one with them."""
    args = log.args.given if log.args else {}
    command = ["python", "-m", "model.training.train", "--train", args.get("train", "../shared/data/tatoeba-cmn-eng/train.tsv"),
               "--dev", args.get("dev", "../shared/data/tatoeba-cmn-eng/dev.tsv"), "--out", folder]
    if args.get("direction", "en-zh") != "en-zh":  # the trainer's default: named only for the other direction
        command += ["--direction", args["direction"]]
    command += [part for sentence in log.probes for part in ("--probe", sentence)]
    st.info(t("replay.missing", folder=md_escape(folder)), icon=":material/history_toggle_off:")
    st.code(shlex.join(command), language="bash", wrap_lines=True)
    st.caption(t("replay.missing_probes"))


def snapshot_controls(steps: list[int]) -> int:
    """Previous / Play / Next and a slider over the training steps that have a snapshot; returns the snapshot's index."""
    return stepper("replay", SNAPSHOT, 0, len(steps) - 1, t("replay.step"), format_func=lambda i: f"{steps[i]:,}",
                   width=300)


def probe_and_kind(probes: list[str]) -> tuple[int, str]:
    """Probe sentence and attention kind, side by side above the map and its text (on two lines where the row is
    too narrow for both)."""
    with st.container(horizontal=True, gap="medium", key="replay.what"):
        probe = st.selectbox(t("replay.probe"), list(range(len(probes))), format_func=lambda i: probes[i],
                             persist_state="session", key=PROBE, index=widget_state.kept(PROBE, range(len(probes))),
                             width=PROBE_PX)
        kind = attention_view.kind_picker(KIND, "cross")  # the kind that turns from uniform into an alignment
    return probe, kind


def layer_and_head(final: dict, probe: int, kind: str) -> tuple[int, int]:
    """Layer and head, one above the other; `final`: the last snapshot."""
    if "replay.head" not in st.session_state and kind == "cross":
        # Open on the head closest to the average of all heads in the last snapshot (not the most focused: a sink).
        layer, head, _, _ = replay.consensus_head(final["probes"][probe]["cross"])
        st.session_state["replay.layer"], st.session_state["replay.head"] = layer, head
    with st.container(horizontal=True, gap="medium", key="replay.pickers"):
        layers, heads = final["probes"][probe][kind].shape[:2]
        return attention_view.layer_head_selectors("replay", layers, heads, average_layers=True)


def share_section(snapshots: list[dict], probe: int, kind: str, layer: int, head: int, index: int) -> None:
    """How far from uniform the chosen kind's attention is at every snapshot: per layer, and for the selection."""
    steps = [s["step"] for s in snapshots]
    shares = replay.shares_over_snapshots(snapshots, probe, kind)  # (layers, heads, snapshots)
    lines, names = list(shares.mean(axis=1)), [attention_view.layer_name(i) for i in range(shares.shape[0])]
    if head == ALL and layer != ALL:
        highlight = layer  # the selection is that layer's line
    else:
        lines.append(pick(shares, layer, head))
        names.append(t("decoding.which", layer=attention_view.layer_name(layer), head=attention_view.head_name(head)))
        highlight = len(lines) - 1
    chosen = lines[highlight]
    st.markdown("#### " + t("replay.share.header"))
    charts.chart(share_figure(
        steps, np.stack(lines), names, step=steps[index], highlight=highlight, width=screen.HALF_COLUMN_PX,
        frame=Frame(t("replay.share.fig", kind=t(f"kind.{kind}")), t("anatomy.axis.step"), t("replay.share.axis")),
        uniform_label=t("replay.share.uniform"),
    ), key="replay.chart.share")
    # At the first snapshot "now" is the first value: said once.
    now = t("replay.share.now", now=f"{chosen[index]:.0%}", step=f"{steps[index]:,}") if index else ""
    st.caption(t("replay.share.text", which=names[highlight], first=f"{chosen[0]:.0%}", first_step=f"{steps[0]:,}",
                 now=now, lowest=f"{chosen.min():.0%}", lowest_step=f"{steps[int(chosen.argmin())]:,}"))


def consensus_caption(last, layer: int, head: int) -> str:
    """The probe's head closest to the average of all heads in the last snapshot (what the page opens on), said to
    be the map's head only when it is: another probe's, or the reader's pick, may be on the map."""
    best_layer, best_head, agree, rows = replay.consensus_head(last)
    names = dict(layer=attention_view.layer_name(best_layer), head=attention_view.head_name(best_head))
    shown = t("decoding.which", layer=attention_view.layer_name(layer), head=attention_view.head_name(head))
    which = t("replay.aligned.shown" if (layer, head) == (best_layer, best_head) else "replay.aligned.other",
              shown=shown, **names)
    return sentences([which, t("replay.aligned", agree=agree, rows=rows, heads=last.shape[0] * last.shape[1])])


def shipped_weights(log: TrainingLog) -> str:
    """Which weights the shipped model holds, in the page's language, from the training log."""
    if log.shipped_average and log.average.epochs:
        return t("replay.shipped_average", first=log.average.epochs[0], last=log.average.epochs[-1])
    return t("replay.shipped_best", step=f"{log.best.step:,}" if log.best else "?")


def shipped_translations(probes: list[str]) -> list[str]:
    """The shipped model's own translation of each probe, decoded greedily as the snapshots were (cached per sentence
    in the server's result cache): what the intro compares the last snapshot with."""
    name, device = st.session_state[CHECKPOINT], models.device()
    return [translations.translate(name, device, probe, beam=1).translation for probe in probes]


def curves_section(log: TrainingLog, step: int) -> None:
    """The shipped run's loss and dev scores, the replayed step marked on both panels."""
    train, dev = log.train, log.dev
    if not train:
        return
    st.markdown("#### " + t("replay.curves.header"))
    fig = training_curves_figure([e.step for e in train], [e.loss for e in train], [e.step for e in dev],
                                 [e.loss for e in dev], [e.bleu for e in dev], [e.chrf for e in dev],
                                 frame=Frame(t("replay.curves.fig", step=f"{step:,}"), t("anatomy.axis.step"),
                                             t("anatomy.axis.loss"), t("anatomy.axis.score")),
                                 labels=(t("anatomy.curves.train"), t("anatomy.curves.dev"), "BLEU", "chrF"))
    charts.chart(marked_at(fig, step, ("x", "x2")), key="replay.chart.curves")


def replay_view(snapshots: list[dict], probe_texts: list[str], log: TrainingLog, shipped: list[str]) -> None:
    """Everything a snapshot or a picker changes: a fragment, so that Previous / Next, the slider and the pickers rerun
    only this part, not the whole page; the URL is written at its end (each fragment run's own), so that it stays the
    view on screen. Autoplay's timer, outside it, reruns the page
    (stepper.stepped_view)."""
    with st.container(key=page_scripts.LINKED_VIEW):  # where a link to a snapshot lands
        index = snapshot_controls([s["step"] for s in snapshots])
    snapshot = snapshots[index]
    probe, kind = probe_and_kind(probe_texts)
    # The right column is a little wider: its row of heads needs about 400 px (at 1280 px, with the sidebar open).
    left, right = st.columns([9, 10])
    with right:
        now_line = st.empty()  # filled once the layer and head are chosen, below
        layer, head = layer_and_head(snapshots[-1], probe, kind)
    shown = snapshot["probes"][probe]
    evaluation = next((e for e in log.dev if e.step == snapshot["step"]), None)  # None: a step not evaluated
    repeated = replay.repeated_token(shown["target_tokens"])  # the untrained model's one token, said why
    now_line.markdown(t("replay.now", n=index + 1, total=len(snapshots), step=f"{snapshot['step']:,}",
                        epoch=snapshot["epoch"], source=md_escape(probe_texts[probe]),
                        translation=md_escape(shown["translation"] or "∅"))
                      + (t("replay.now_dev", bleu=evaluation.bleu) if evaluation else "")
                      + (t("replay.untrained", token=md_escape(repeated)) if repeated else "")
                      + "\n\n" + t("replay.now_shipped", translation=md_escape(shipped[probe] or "∅")))
    with left:
        queries, keys = axis_tokens(shown["source_tokens"], shown["target_tokens"], kind)
        # The title goes above the figure: a narrow map (6 source tokens) would wrap it into a column of words.
        st.markdown("**" + t("replay.map_title", kind=attention_view.kind_name(kind), layer=attention_view.layer_name(layer),
                             head=attention_view.head_name(head), step=f"{snapshot['step']:,}") + "**")
        # In a third of the page the usual colour bar and full axis titles would take half the map's width (17-px
        # cells, every other row labelled, Chinese characters on their side): a compact bar and short titles, and
        # the caption says which tokens the axes are.
        drawn = attention_view.MapView(shown[kind], kind, layer, head, queries, keys, direction.current())
        attention_view.draw_map(attention_view.map_chart_of(
            drawn, "replay.chart.map", sentence=probe_texts[probe], numbers=not presentation.presenting(),
            max_width=MAP_PX, max_height=MAP_MAX_PX, compact_scale=True, **attention_view.short_axis_titles()))
        # ▁ marks English words: in the source of an English → Chinese model, in the target of a Chinese → English one.
        st.caption(sentences([attention_view.axes_note(kind, direction.current()), attention_view.kind_help(kind),
                              chips.word_start_note([*queries, *keys])]))
        if kind == "cross":
            st.caption(consensus_caption(snapshots[-1]["probes"][probe]["cross"], layer, head))
    with right:
        share_section(snapshots, probe, kind, layer, head, index)
    curves_section(log, snapshot["step"])
    links.write_link()


translator = models.translator()
config = translator.config
log = TrainingLog.from_dict(translator.training_log)
try:
    # Read once for every session (the server's result cache, read-only) per checkpoint: the log is that checkpoint's.
    snapshots = result_cache.shared().get(("replay.snapshots", translator.checkpoint),
                                          lambda: read_snapshots(translator.checkpoint, translator.training_log or {}))
except SnapshotError as exc:
    st.title(t("replay.title"))
    st.error(t("replay.corrupt", error=md_escape(exc)), icon=":material/broken_image:")
    st.stop()
if not snapshots:
    st.title(t("replay.title"))
    missing(log, translator.checkpoint)
    st.stop()

probe_texts = list(log.probes or [replay.sentence_of(p["source_tokens"]) for p in snapshots[0]["probes"]])
layers, heads = max(config.n_encoder_layers, config.n_decoder_layers), config.n_heads
links.link_page({
    "probe": link_values.Param(PROBE, link_values.number_in(1, len(probe_texts), offset=1), lambda i: str(i + 1)),
    "kind": attention_view.kind_param(KIND),
    "snapshot": link_values.Param(SNAPSHOT, link_values.number_in(1, len(snapshots), offset=1), lambda i: str(i + 1)),
    **attention_view.layer_head_params("replay", layers, heads, average_layers=True),
})
shipped = shipped_translations(probe_texts)
differ = sum(own != probe["translation"] for own, probe in zip(shipped, snapshots[-1]["probes"]))
presentation.page_title(t("replay.title"), t(
    "replay.intro", probes=len(probe_texts), snapshots=len(snapshots), first=f"{snapshots[0]['step']:,}",
    last=f"{snapshots[-1]['step']:,}", last_epoch=snapshots[-1]["epoch"], shipped=shipped_weights(log), differ=differ))

stepped_view("replay", replay_view, snapshots, probe_texts, log, shipped)
