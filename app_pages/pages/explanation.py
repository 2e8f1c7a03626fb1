"""Is attention an explanation? Attribution beside attention on the session's sentence, heads knocked out and the
sentence re-translated, the dev set's evidence (agreement per head, importance, pruning) from the training log, and
attention scored against hand-made gold word alignments (AER) with one gold sentence's links drawn on a head's map:
each a tab, the maps first (teaching_shared.sections: only the open tab runs and is drawn). The session's choices
and the results each tab needs are read here, what they show is computed in explanation_view.py, and drawn here."""

from __future__ import annotations

import numpy as np
import streamlit as st

from app_pages.components import attention_view
from app_pages.components.parts import draw_parts
from app_pages.components.teaching_shared import sections
from app_pages.pages import explanation_view
from app_pages.pages.explanation_view import KnockView, Session
from app_pages.shell.text import t
from app_pages.state import direction, models, result_cache, translations, widget_state
from app_pages.state.state_keys import CHECKPOINT
from evaluation.alignment.directions import attention_scores, directed, pair_maps
from evaluation.alignment.gold import GoldError, GoldPair, english_words, load_examples, load_gold
from model import ATTENTION_KINDS, ATTRIBUTION_METHODS, Alignment, TrainingLog, TranslationResult

METHOD, LAYER, HEAD, KNOCK = "explain.method", "explain.layer", "explain.head", "explain.knock"
GOLD_PAIR, GOLD_LAYER, GOLD_HEAD = "explain.align.pair", "explain.align.layer", "explain.align.head"
ROLES_KIND, IMPORTANCE_KIND = "explain.roles.kind", "explain.importance.kind"


def chosen_method() -> str:
    """The attribution method chosen above the maps (kept while their tab is closed)."""
    return widget_state.kept(METHOD, ATTRIBUTION_METHODS, ATTRIBUTION_METHODS[-1])


def attribution(result: TranslationResult, method: str):
    return translations.attribute(*translations.settings_for(result.source_text), method)


def maps_tab(result: TranslationResult, log: TrainingLog, session: Session) -> None:
    """The controls, the four maps with Pin to deck (the head's map, as the explorer shows it), then what the
    research says about reading them."""
    layers, heads = result.cross.shape[:2]
    method = chosen_method()
    layer, head = widget_state.kept(LAYER, range(layers)), widget_state.kept(HEAD, range(heads))
    shown = explanation_view.maps_view(result, attribution(result, method), method, layer, head, log, session)
    with st.container(horizontal=True):
        st.segmented_control(t("explain.method"), ATTRIBUTION_METHODS, key=METHOD, required=True, default=method,
                             format_func=lambda m: t(f"explain.method.{m}"), persist_state="session")
        attention_view.index_picker(LAYER, t("explorer.layer"), list(range(layers)))
        attention_view.index_picker(HEAD, t("explorer.head"), list(range(heads)))
    draw_parts(shown.maps)
    attention_view.pin_button(shown.pin, "explain.pin")
    draw_parts(shown.notes)


def knock_all_cross(options: tuple) -> None:
    st.session_state[KNOCK] = [o for o in options if o[0] == "cross"]


def draw_knock(shown: KnockView) -> None:
    st.header(shown.header)
    st.button(shown.all_cross, key="explain.knock.cross", on_click=knock_all_cross, args=(shown.options,))
    st.multiselect(shown.pick, shown.options, key=KNOCK, format_func=shown.names.__getitem__,
                   placeholder=shown.placeholder, persist_state="session")
    draw_parts(shown.after)


def knock_tab(result: TranslationResult, session: Session) -> None:
    """Pick heads, re-translate without them, mark what changed."""
    options = explanation_view.head_options(result)
    chosen = st.session_state[KNOCK] = [h for h in st.session_state.get(KNOCK, []) if h in options]  # another model's
    knocked = translations.translation_of(result.source_text, knock_out=tuple(chosen)) if chosen else None
    draw_knock(explanation_view.knock_view(result, chosen, knocked, session.languages))


def importance_tab(log: TrainingLog, session: Session) -> None:
    shown = explanation_view.importance_view(log, widget_state.kept(IMPORTANCE_KIND, ATTENTION_KINDS,
                                                                    "cross"), session.checkpoint)
    draw_parts(shown.before)
    if shown.picker:
        attention_view.kind_picker(IMPORTANCE_KIND, "cross")  # full width: a half column clips it
    draw_parts(shown.after)


def gold_pairs() -> list[GoldPair]:
    """The gold alignments with their shipped sentences, read once for every session (the server's result cache)."""
    return result_cache.shared().get(("explain.gold_pairs",), load_gold)


def shown_pairs() -> tuple[list[GoldPair], str, str | None]:
    """The gold pairs and "dev", or — where the shipped pairs cannot be read or no longer fit the gold links (a
    damaged copy) — the pairs written for the app and "example", with the i18n key of why."""
    try:
        return gold_pairs(), "dev", None
    except OSError:
        return load_examples(), "example", "explain.align.no_dev"
    except GoldError:
        return load_examples(), "example", "explain.align.bad_dev"


def gold_words() -> str:
    """The gold pairs' mean English words, as the texts that describe the gold give it; "—" where they cannot be read
    (the tab says why)."""
    try:
        return f"{np.mean([len(english_words(pair.english)) for pair in gold_pairs()]):.1f}"
    except (OSError, GoldError):
        return "—"


def live_alignment(session: Session) -> Alignment | None:
    """The attention rows of the alignment figures measured now on the session's model (attention_scores: every
    gold pair teacher-forced, links turned to its direction), once per model for every session; None where the
    shipped gold pairs cannot be read."""
    name, device = session.checkpoint, models.device()
    try:
        gold = [directed(pair, session.languages[0]) for pair in gold_pairs()]
    except (OSError, GoldError):
        return None

    def run() -> dict:
        with st.spinner(t("explain.align.measuring", pairs=len(gold))):
            return attention_scores(lambda source, target: translations.teacher_forced(source, target, name, device),
                                    gold)
    return Alignment.from_dict(result_cache.shared().get(("explain.live_alignment", name, device), run))


def gold_overlay(best: tuple[int, int], scored: int, session: Session) -> None:
    """One gold sentence (selectbox): a head's map over its units with the gold links drawn on it."""
    gold, source, why = shown_pairs()
    if why:
        st.info(t(why))
    config = models.translator().config
    layers, heads = config.n_decoder_layers, config.n_heads
    st.session_state.setdefault(GOLD_LAYER, min(best[0], layers - 1))
    st.session_state.setdefault(GOLD_HEAD, min(best[1], heads - 1))
    shown = [directed(pair, session.languages[0]) for pair in gold]
    index = st.selectbox(t(f"explain.align.pick_{source}"), range(len(gold)), key=GOLD_PAIR, persist_state="session",
                         index=widget_state.kept(GOLD_PAIR, range(len(gold))),
                         format_func=lambda i: f"{shown[i].source} — {shown[i].target}")
    with st.container(horizontal=True):
        layer = attention_view.index_picker(GOLD_LAYER, t("explorer.layer"), list(range(layers)))
        head = attention_view.index_picker(GOLD_HEAD, t("explorer.head"), list(range(heads)))
    pair = shown[index]
    # Cached for every session, as the masks page's teacher forcing: one model run per gold pair, not per page run.
    maps = pair_maps(translations.teacher_forced(pair.source, pair.target), pair)
    draw_parts(explanation_view.gold_view(pair, maps, layer, head, source, scored, session.languages))


def align_tab(log: TrainingLog, session: Session) -> None:
    """The AER figures (the log's, or measured now where the log has none: a newly trained model, another
    direction), the table, one gold sentence's map and the heads' roles."""
    found, live = log.alignment, False
    if found is None or found.source_language != session.languages[0]:
        found, live = live_alignment(session), True
    shown = explanation_view.align_view(log, found, live, gold_words(), session)
    draw_parts(shown.before)
    if shown.best is None:
        return
    gold_overlay(shown.best, found.pairs, session)
    roles = explanation_view.roles_view(log, widget_state.kept(ROLES_KIND, ATTENTION_KINDS, "cross"),
                                        None if live else found, session)
    draw_parts(roles.before)
    if roles.picker:
        attention_view.kind_picker(ROLES_KIND, "cross")
    draw_parts(roles.after)


def page() -> None:
    translator = models.translator()
    log = TrainingLog.from_dict(translator.training_log)
    result = translations.current_result()
    config = translator.config
    session = Session(st.session_state[CHECKPOINT], (config.source_language, config.target_language),
                      direction.language_name(config.source_language), direction.language_name(config.target_language))
    heading = explanation_view.heading(log, gold_words(), result)
    st.title(heading.title)
    if heading.opening is not None:
        draw_parts((heading.opening,))
    st.caption(heading.intro)
    draw_parts(heading.banner)
    sections("explain", {
        "maps": lambda: maps_tab(result, log, session),
        "heads": lambda: draw_parts(explanation_view.heads_view(result, attribution(result, chosen_method()).scores,
                                                                chosen_method(), log, session)),
        "knock": lambda: knock_tab(result, session),
        "importance": lambda: importance_tab(log, session),
        "align": lambda: align_tab(log, session),
        "caveat": lambda: draw_parts(explanation_view.caveat_view(result))})


page()
