"""Live lab: train a tiny Transformer on a made-up task in seconds, and watch its attention form.

The Train button gives the session a run (an id: the lab's worker process keeps the run itself, model/lab/worker.py)
and a ticket in the server's lab queue (lab_queue: one run computes at a time, the others wait in order and may
cancel). A fragment then advances the run one chunk of steps per run of its own (run_every) once its turn has come,
computed by the worker process at a lower priority (lab_queue.trainer), so classmates' translations go first. The
run's first and latest Progress live in session state: they survive reruns and visits to other pages, and the
pickers may change while it trains.
"""

import math
import uuid

import streamlit as st

from app_pages.components import attention_view, charts
from app_pages.state import lab_queue, models, result_cache, server, widget_state
from app_pages.shell import presentation
from app_pages.shell.text import md_escape, t
from lessons.anatomy import total_parameters
from lessons.attention_maps import axis_tokens
from model.lab import ALIGNED_SHARE, EXAMPLE, TASKS, TESTED_EXACT, LabSettings, Progress, answer, train_steps
from viz.options import Frame
from viz.teaching_replay import lab_curves_figure

TASK, MAX_STEPS, KIND = "lab.task", "lab.max_steps", "lab.kind"
RUN, RUN_SETTINGS, FIRST, LAST, TICKET = "lab.run", "lab.run_settings", "lab.first", "lab.last", "lab.ticket"
STEP_OPTIONS = (100, 200, 300, 500, 1000)
TICK_SECONDS = 0.1  # pause between chunks: the browser draws the last one while the next computes
# A waiting run asks for its place once a second: at TICK_SECONDS, four students waiting would be 40 script runs a
# second on the server while the class translates.
WAIT_TICK_SECONDS = 1.0
# Each of the two maps side by side, at 1280 px with the sidebar open: with the controls above, on one screen.
MAP_PX, MAP_HEIGHT_PX = 400, 330


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


def attention_map(progress: Progress, kind: str, layer: int, head: int, heading: str, key: str,
                  live: bool = False) -> None:
    """One map of the fixed example: queries on rows, keys on columns, as the explorer draws them.

    A `live` map (the run's, redrawn every TICK_SECONDS) offers its numbers once the run stops: a download button
    redrawn with new numbers gets a new address each time, and Streamlit deletes the old file as soon as any
    session's run ends, so a click on a button the browser had not redrawn yet would find nothing (404)."""
    queries, keys = axis_tokens(progress.source_tokens, progress.target_tokens, kind)
    st.markdown(f"**{heading}**")
    shown = attention_view.MapView(progress.attention[kind], kind, layer, head, queries, keys)
    attention_view.draw_map(attention_view.map_chart_of(
        shown, key, sentence=" ".join(progress.source_tokens), numbers=not (live or presentation.presenting()),
        max_width=MAP_PX, max_height=MAP_HEIGHT_PX))
    if live:
        st.caption(t("lab.numbers_when_stopped"))
    st.caption(t("lab.wrote", wrote=md_escape(" ".join(progress.prediction) or "∅"),
                 exact=f"{progress.accuracy.exact:.0%}", per_token=f"{progress.accuracy.per_token:.0%}"))


def results(first: Progress, last: Progress | None, settings: LabSettings, running: bool) -> None:
    """The run's progress, the example's map before training and now, the alignment and the curves."""
    kind, layer, head = st.session_state[KIND], st.session_state["lab.layer"], st.session_state["lab.head"]
    now = last or first
    status = t("lab.status", step=now.step, steps=settings.max_steps, seconds=f"{now.seconds:.1f}",
               loss=f"{now.losses[-1]:.3f}" if now.losses else "—", exact=f"{now.accuracy.exact:.0%}",
               per_token=f"{now.accuracy.per_token:.0%}")
    if now.stopped_by:
        status = t(f"lab.stopped.{now.stopped_by}", step=now.step, exact=f"{now.accuracy.exact:.0%}",
                   per_token=f"{now.accuracy.per_token:.0%}", held_out=settings.held_out, seconds=f"{now.seconds:.1f}")
    st.progress(now.step / settings.max_steps, text=status)
    which = t("decoding.which", layer=attention_view.layer_name(layer), head=attention_view.head_name(head))
    before, after = st.columns(2)
    with before:
        attention_map(first, kind, layer, head, t("lab.before", which=which), "lab.chart.before")
    with after:
        if last is not None and last.step > 0:
            attention_map(last, kind, layer, head, t("lab.after", step=last.step, which=which), "lab.chart.after",
                          live=running)
        else:
            st.info(t("lab.press_train"))
    if last is not None and last.step > 0:
        best = int(last.aligned.argmax())
        layers, heads = last.aligned.shape
        st.markdown(t(f"lab.aligned.{settings.task}", layer=best // heads + 1, head=best % heads + 1,
                      share=f"{last.aligned.max():.0%}", before=f"{first.aligned.flat[best]:.0%}",
                      uniform=f"{1 / len(first.source_tokens):.0%}", n=len(first.source_tokens),
                      letters=len(first.source_tokens) - 1, mirror=len(first.source_tokens) - 2))  # less </s>
        charts.chart(lab_curves_figure(
            list(range(1, len(last.losses) + 1)), last.losses, [e.step for e in last.evaluations],
            [e.exact for e in last.evaluations], [e.per_token for e in last.evaluations], max_steps=settings.max_steps,
            frame=Frame(t("lab.curves.fig", task=t(f"lab.task.{settings.task}")), t("anatomy.axis.step"),
                        t("lab.axis.loss"), t("lab.axis.accuracy")),
            labels=(t("lab.curves.loss"), t("lab.curves.exact"), t("lab.curves.per_token")),
        ), key="lab.chart.curves")
    if running:
        st.caption(t("lab.running"))


def waiting(place: int) -> None:
    """A run whose turn has not come: its place, about how long until its turn, and a way out."""
    queue = lab_queue.shared()
    seconds = queue.wait(st.session_state[TICKET], st.session_state[RUN_SETTINGS].max_seconds) or 0.0
    with st.container(horizontal=True, vertical_alignment="center", key="lab.waiting"):
        st.info(t("lab.queued", ahead=place - queue.runs + 1, runs=queue.runs,
                  seconds=max(5, 5 * math.ceil(seconds / 5))), icon=":material/hourglass_top:")
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


settings_now = LabSettings()
config = settings_now.config()
task_default = widget_state.kept(TASK, TASKS, "copy")
steps_default = widget_state.kept(MAX_STEPS, STEP_OPTIONS, settings_now.max_steps)
running = st.session_state.get(RUN) is not None

presentation.page_title(t("lab.title"), t("lab.intro", d=config.d_model, heads=config.n_heads, layers=config.n_encoder_layers, d_ff=config.d_ff,
             params=f"{total_parameters(config):,}", big=f"{sum(models.translator().parameter_counts.values()):,}",
             symbols=len(EXAMPLE), batch=settings_now.batch, held_out=settings_now.held_out, every=settings_now.every))
with st.container(horizontal=True, vertical_alignment="bottom", gap="medium", key="lab.controls"):
    st.segmented_control(t("lab.task"), TASKS, format_func=lambda k: t(f"lab.task.{k}"), persist_state="session", key=TASK, required=True,
                         default=task_default, disabled=running)
    st.select_slider(t("lab.max_steps"), STEP_OPTIONS, persist_state="session", key=MAX_STEPS, value=steps_default,
                     disabled=running, width=220)
    st.button(t("lab.train"), key="lab.train", type="primary", icon=":material/play_arrow:", on_click=start,
              disabled=running)
    task = st.session_state[TASK]
    st.markdown(t("lab.example", source="".join(EXAMPLE), answer="".join(answer(task, EXAMPLE))))
with st.container(horizontal=True, vertical_alignment="bottom", gap="medium", key="lab.pickers"):
    attention_view.kind_picker(KIND, "cross")
    attention_view.layer_head_selectors("lab", config.n_decoder_layers, config.n_heads, average_layers=False)

if running:
    queued = queue_place() >= lab_queue.shared().runs
    st.fragment(training, run_every=WAIT_TICK_SECONDS if queued else TICK_SECONDS)(queued)
elif st.session_state.get(LAST) is not None:
    results(st.session_state[FIRST], st.session_state[LAST], st.session_state[RUN_SETTINGS], running=False)
else:
    settings = chosen_settings()  # the fresh model's maps: computed once for every session
    results(result_cache.shared().get(("lab.untrained", settings), lambda: fresh_model(settings)), None, settings,
            running=False)
st.divider()
st.markdown(t("lab.tested", exact=f"{TESTED_EXACT:.0%}", share=f"{ALIGNED_SHARE:.0%}", steps=settings_now.max_steps,
              seconds=f"{settings_now.max_seconds:.0f}", uniform=f"{1 / (settings_now.length + 1):.0%}"))
