"""Live lab: train a tiny Transformer on a made-up task in seconds, and watch its attention form.

The Train button gives the session a run (an id: the lab's worker process keeps the run itself, model/lab/worker.py)
and a ticket in the server's lab queue (lab_queue: one run computes at a time, the others wait in order and may
cancel). A fragment then advances the run one chunk of steps per run of its own (run_every) once its turn has come,
computed by the worker process at a lower priority (lab_queue.trainer), so classmates' translations go first. The
run's first and latest Progress live in session state: they survive reruns and visits to other pages, and the
pickers may change while it trains. What the page shows is computed in lab_view.py (plain data); this script keeps
the run and draws.
"""

from __future__ import annotations

import uuid

import streamlit as st

from app_pages.components import attention_view
from app_pages.components.parts import draw_part, draw_parts
from app_pages.components.teaching_slides import Pick
from app_pages.pages import lab_view
from app_pages.shell import presentation
from app_pages.shell.text import t
from app_pages.state import lab_queue, models, result_cache, server, widget_state
from model.lab import TASKS, LabSettings, Progress, train_steps

TASK, MAX_STEPS, KIND = "lab.task", "lab.max_steps", "lab.kind"
RUN, RUN_SETTINGS, FIRST, LAST, TICKET = "lab.run", "lab.run_settings", "lab.first", "lab.last", "lab.ticket"
STEP_OPTIONS = (100, 200, 300, 500, 1000)
TICK_SECONDS = 0.1  # pause between chunks: the browser draws the last one while the next computes
# A waiting run asks for its place once a second: at TICK_SECONDS, four students waiting would be 40 script runs a
# second on the server while the class translates.
WAIT_TICK_SECONDS = 1.0


def chosen_settings() -> LabSettings:
    return LabSettings(task=st.session_state[TASK], max_steps=st.session_state[MAX_STEPS])


def start() -> None:
    """The Train button: a fresh run replaces the last one; only one runs per session."""
    finish()
    st.session_state[RUN], st.session_state[RUN_SETTINGS] = uuid.uuid4().hex, chosen_settings()
    st.session_state[FIRST] = st.session_state[LAST] = None
    st.session_state[TICKET] = lab_queue.shared().join()


def finish() -> None:
    """The run ends (it stopped, or Cancel): its place in the queue goes to the next session."""
    lab_queue.shared().leave(st.session_state.pop(TICKET, None))
    if st.session_state.get(RUN):
        lab_queue.trainer().drop(st.session_state[RUN])
    st.session_state[RUN] = None


def next_chunk() -> Progress:
    """One chunk of the session's run (its id in RUN), computed by the lab's worker process at a lower priority
    (lab_queue.trainer), outside the server's limit on model work: a chunk holding one of its slots while the
    class takes the cores would make translations wait for it."""
    progress = lab_queue.trainer().next(st.session_state[RUN], st.session_state[RUN_SETTINGS])
    if progress.step == 0:
        st.session_state[FIRST] = progress
    st.session_state[LAST] = progress
    return progress


def fresh_model(settings: LabSettings) -> Progress:
    """What the fresh model (the run's seed, no step taken) does: the 'before' of a run not yet started."""
    with server.model_calls():
        return next(train_steps(settings))


def draw_map(shown: lab_view.LabMap) -> None:
    draw_part(shown.heading)
    attention_view.draw_map(shown.chart)
    draw_parts(shown.notes)


def results(first: Progress, last: Progress | None, settings: LabSettings, running: bool) -> None:
    """The run's progress, the example's map before training and now, the alignment and the curves (lab_view)."""
    picked = Pick(st.session_state[KIND], st.session_state["lab.layer"], st.session_state["lab.head"])
    shown = lab_view.results_view(lab_view.LabRun(first, last, settings, running), picked, presentation.presenting())
    st.progress(shown.done, text=shown.status)
    before, after = st.columns(2)
    with before:
        draw_map(shown.before)
    with after:
        if isinstance(shown.after, lab_view.LabMap):
            draw_map(shown.after)
        else:
            draw_part(shown.after)  # the notice to press Train
    draw_parts(shown.learned)
    draw_parts(shown.footer)


def waiting(place: int) -> None:
    """A run whose turn has not come: its place, about how long until its turn, and a way out."""
    queue = lab_queue.shared()
    seconds = queue.wait(st.session_state[TICKET], st.session_state[RUN_SETTINGS].max_seconds)
    with st.container(horizontal=True, vertical_alignment="center", key="lab.waiting"):
        draw_part(lab_view.waiting_notice(place, queue.runs, seconds))
        st.button(t("lab.cancel"), key="lab.cancel", on_click=finish)


def queue_place() -> int:
    """This session's place in the lab queue, back in line if it was dropped while the page was away (another page,
    a closed laptop)."""
    place = lab_queue.shared().place(st.session_state.get(TICKET, ""))
    if place is None:
        st.session_state[TICKET] = lab_queue.shared().join()
        place = lab_queue.shared().place(st.session_state[TICKET])
    return place


def training(was_waiting: bool) -> None:
    """Drawn only while a run is under way: its place in the queue until its turn, then one chunk per run of this
    fragment, then the page once it stops. A waiting run asks once a second, a training one as often as it can
    draw: registered by the page's run (`was_waiting`), the page runs again when its turn comes."""
    if st.session_state.get(RUN) is None:
        st.rerun()
    place = queue_place()
    if place >= lab_queue.shared().runs:
        waiting(place)
        return
    if was_waiting:
        st.rerun()  # the whole page: its fragment is registered again, now ticking as a training run
    progress = next_chunk()
    if progress.stopped_by:
        finish()
        st.rerun()  # the whole page: the Train button comes back and the page states what the run measured
    results(st.session_state[FIRST], progress, st.session_state[RUN_SETTINGS], running=True)


def controls(running: bool) -> None:
    """Task, steps and Train on one row with the example the task makes of it; kind, layer and head on the next
    (Train, the task and the steps wait while a run is under way)."""
    settings = LabSettings()
    with st.container(horizontal=True, vertical_alignment="bottom", gap="medium", key="lab.controls"):
        st.segmented_control(t("lab.task"), TASKS, format_func=lambda k: t(f"lab.task.{k}"), persist_state="session",
                             key=TASK, required=True, default=widget_state.kept(TASK, TASKS, "copy"),
                             disabled=running)
        st.select_slider(t("lab.max_steps"), STEP_OPTIONS, persist_state="session", key=MAX_STEPS,
                         value=widget_state.kept(MAX_STEPS, STEP_OPTIONS, settings.max_steps), disabled=running,
                         width=220)
        st.button(t("lab.train"), key="lab.train", type="primary", icon=":material/play_arrow:", on_click=start,
                  disabled=running)
        st.markdown(lab_view.example_line(st.session_state[TASK]))
    with st.container(horizontal=True, vertical_alignment="bottom", gap="medium", key="lab.pickers"):
        attention_view.kind_picker(KIND, "cross")
        config = settings.config()
        attention_view.layer_head_selectors("lab", config.n_decoder_layers, config.n_heads, average_layers=False)


def page() -> None:
    """The controls, then the run: training (a fragment, ticking), its results once it stopped, or the untrained
    model's maps before any run."""
    running = st.session_state.get(RUN) is not None
    heading = lab_view.heading(sum(models.translator().parameter_counts.values()))
    presentation.page_title(heading.title, heading.intro)
    controls(running)
    if running:
        queued = queue_place() >= lab_queue.shared().runs
        st.fragment(training, run_every=WAIT_TICK_SECONDS if queued else TICK_SECONDS)(queued)
    elif st.session_state.get(LAST) is not None:
        results(st.session_state[FIRST], st.session_state[LAST], st.session_state[RUN_SETTINGS], running=False)
    else:
        settings = chosen_settings()  # the fresh model's maps: computed once for every session
        results(result_cache.shared().get(("lab.untrained", settings), lambda: fresh_model(settings)), None,
                settings, running=False)
    st.divider()
    st.markdown(lab_view.tested_line())


page()
