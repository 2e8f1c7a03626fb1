"""Replay: how the shipped model's attention formed while it trained.

The trainer translated a few fixed probe sentences at moments of training and kept every attention map
(model/training/snapshots.py); this page reads those snapshots, so moving through them never runs the model. The model
runs once per probe (cached): the shipped weights' own greedy translations, which the intro compares with the last
snapshot's. What the page shows is computed in replay_view.py (plain data); this script draws the pickers and then
that.
Previous / Play / Next and the slider move one session-state index (SNAPSHOT) over the snapshots; all but Play rerun
only the snapshot's fragment (snapshot_fragment).
"""

from __future__ import annotations

from functools import partial

import streamlit as st

from app_pages.components import attention_view
from app_pages.components.parts import draw_part, draw_parts
from app_pages.components.stepper import stepped_view, stepper
from app_pages.pages import replay_view
from app_pages.pages.replay_view import NoReplay, Pick, Replay
from app_pages.shell import link_values, links, page_scripts, presentation
from app_pages.shell.text import t
from app_pages.state import direction, models, result_cache, translations, widget_state
from app_pages.state.state_keys import CHECKPOINT
from model import Snapshot, TrainingLog, read_snapshots

PROBE, KIND, SNAPSHOT = "replay.probe", "replay.kind", "replay.snapshot"
LAYER, HEAD = "replay.layer", "replay.head"
PROBE_PX = 280  # the probe picker beside the row of attention kinds (about 500 px in English)


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


def layer_and_head(shown: Replay, probe: int, kind: str) -> tuple[int, int]:
    """Layer and head, one above the other; a session that has not picked a head opens on cross-attention's
    replay_view.opening_head."""
    if HEAD not in st.session_state and kind == "cross":
        st.session_state[LAYER], st.session_state[HEAD] = replay_view.opening_head(shown, probe)
    with st.container(horizontal=True, gap="medium", key="replay.pickers"):
        layers, heads = replay_view.layers_and_heads(shown, probe, kind)
        return attention_view.layer_head_selectors("replay", layers, heads, average_layers=True)


def snapshot_fragment(shown: Replay) -> None:
    """Everything a snapshot or a picker changes: a fragment, so that Previous / Next, the slider and the pickers rerun
    only this part, not the whole page; the URL is written at its end (each fragment run's own), so that it stays the
    view on screen. Autoplay's timer, outside it, reruns the page (stepper.stepped_view)."""
    with st.container(key=page_scripts.LINKED_VIEW):  # where a link to a snapshot lands
        index = snapshot_controls(shown.steps)
    probe, kind = probe_and_kind(shown.probes)
    # The right column is a little wider: its row of heads needs about 400 px (at 1280 px, with the sidebar open).
    left, right = st.columns([9, 10])
    with right:
        now = st.empty()  # filled once the layer and head are chosen, below
        layer, head = layer_and_head(shown, probe, kind)
    view = replay_view.snapshot_view(shown, Pick(index, probe, kind, layer, head), direction.current(),
                                     numbers=not presentation.presenting())
    now.markdown(view.now)
    with left:
        draw_part(view.title)
        attention_view.draw_map(view.map)
        draw_parts(view.notes)
    with right:
        draw_parts(view.share)
    draw_parts(view.curves)
    links.write_link()


def shipped_translations(probes: list[str]) -> list[str]:
    """The shipped model's own translation of each probe, decoded greedily as the snapshots were (cached per sentence
    in the server's result cache): what the intro compares the last snapshot with."""
    name, device = st.session_state[CHECKPOINT], models.device()
    return [translations.translate(name, device, probe, beam=1).translation for probe in probes]


def link_params(probes: int, snapshots: int) -> dict:
    """The link's probe and snapshot (numbered from 1, of `probes` and `snapshots`), kind, layer and head."""
    config = models.translator().config
    layers, heads = max(config.n_encoder_layers, config.n_decoder_layers), config.n_heads
    return {"probe": link_values.Param(PROBE, link_values.number_in(1, probes, offset=1), lambda i: str(i + 1)),
            "kind": attention_view.kind_param(KIND),
            "snapshot": link_values.Param(SNAPSHOT, link_values.number_in(1, snapshots, offset=1),
                                          lambda i: str(i + 1)),
            **attention_view.layer_head_params("replay", layers, heads, average_layers=True)}


def read_cached(checkpoint: str, log: TrainingLog) -> list[Snapshot]:
    """The checkpoint's snapshots, read once for every session (the server's result cache, read-only): the log is
    that checkpoint's."""
    return result_cache.shared().get(("replay.snapshots", checkpoint),
                                     lambda: read_snapshots(checkpoint, log))


def draw_no_replay(none: NoReplay) -> None:
    """The title and why there is nothing to replay: the notice, and the command that trains snapshots where it has
    one."""
    st.title(t("replay.title"))
    draw_part(none.notice)
    if none.command:
        st.code(none.command, language="bash", wrap_lines=True)
        st.caption(none.note)


def page() -> None:
    translator = models.translator()
    log = TrainingLog.from_dict(translator.training_log)
    try:
        snapshots = replay_view.snapshots_of(partial(read_cached, translator.checkpoint, log),
                                             log, translator.checkpoint)
    except NoReplay as none:
        draw_no_replay(none)
        return
    probes = replay_view.probe_texts(log, snapshots)
    links.link_page(link_params(len(probes), len(snapshots)))
    shown = Replay(snapshots, probes, log, shipped_translations(probes))
    heading = replay_view.heading(shown)
    presentation.page_title(heading.title, heading.intro)
    stepped_view("replay", snapshot_fragment, shown)


page()
