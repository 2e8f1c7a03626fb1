"""Slide deck: the views pinned under attention maps (session only). Edit: reorder, rename, delete, open, save as one
HTML file or as a folder of PNGs (a .zip), import an HTML one. Present: one slide at a time, its map rebuilt live, with Previous / Next (← →)."""

from dataclasses import replace

import streamlit as st

from app_pages.components import charts, deck_images, decks, stepper
from app_pages.shell import page_scripts, presentation
from app_pages.shell.link_values import BadLinkValue
from app_pages.shell.registry import PAGE
from app_pages.state.state_keys import DECK
from app_pages.shell.text import md_escape, t
from app_pages.state import widget_state
from lessons.deck import MAX_FILE_BYTES, MAX_TITLE, BadDeck, moved

MODE = "deck.mode"
MODES = ("edit", "present")


def move(index: int, by: int) -> None:
    st.session_state[DECK] = moved(decks.slides(), index, by)
    decks.forget_titles()


def delete(index: int) -> None:
    del decks.slides()[index]
    decks.forget_titles()


def rename(index: int) -> None:
    title = st.session_state[decks.title_key(index)].strip()[:MAX_TITLE]
    if title:
        decks.slides()[index] = replace(decks.slides()[index], title=title)


def slide_row(index: int, count: int) -> None:
    slide = decks.slides()[index]
    with st.container(horizontal=True, vertical_alignment="bottom", key=f"deck.row.{index}"):
        st.text_input(t("deck.rename", n=index + 1), value=slide.title, max_chars=MAX_TITLE,
                      key=decks.title_key(index), on_change=rename, args=(index,))
        st.page_link(PAGE[slide.page].script, label=t("deck.open"), icon=":material/open_in_new:",
                     query_params=slide.query)
        st.button("", icon=":material/arrow_upward:", help=t("deck.up"), key=f"deck.up.{index}", on_click=move,
                  args=(index, -1), disabled=index == 0)
        st.button("", icon=":material/arrow_downward:", help=t("deck.down"), key=f"deck.down.{index}",
                  on_click=move, args=(index, 1), disabled=index == count - 1)
        st.button("", icon=":material/delete:", help=t("deck.delete"), key=f"deck.delete.{index}",
                  on_click=delete, args=(index,))


def drawable() -> bool:
    """Whether every slide can be drawn with the models this server has (the files are offered only then); a
    warning names the first that cannot."""
    for i, slide in enumerate(decks.slides()):
        try:
            decks.slide_figure(slide)
        except (BadDeck, BadLinkValue) as exc:
            st.warning(t("deck.unusable", n=i + 1, why=decks.why(exc)))
            return False
    return True


def png_button() -> None:
    """Save the deck as PNGs (one per slide, in a .zip), drawn when clicked: a browser draws them, several seconds.
    Where this server has no browser for that, the button is off and a sentence says why."""
    browser = deck_images.browser()
    st.download_button(t("deck.export_png"),
                       decks.when_clicked(lambda: deck_images.png_zip(decks.saved_figures())) if browser else b"",
                       file_name="attention-deck-png.zip", mime="application/zip", icon=":material/photo_library:",
                       help=t("deck.export_png_help"), on_click="ignore", disabled=browser is None,
                       key="deck.export_png")
    if browser is None:
        st.caption(t("deck.png_unavailable"))


def edit() -> None:
    deck = decks.slides()
    for index in range(len(deck)):
        slide_row(index, len(deck))
    shown = bool(deck) and drawable()
    with st.container(horizontal=True, vertical_alignment="bottom", key="deck.files"):
        if shown:
            st.download_button(t("deck.export"), decks.when_clicked(decks.saved_document),
                               file_name="attention-deck.html", mime="text/html", icon=":material/download:",
                               help=t("deck.export_help"), on_click="ignore", key="deck.export")
            png_button()
        st.file_uploader(t("deck.import"), type=["html"], help=t("deck.import_help"), key=decks.UPLOAD,
                         max_upload_size=MAX_FILE_BYTES // 1_000_000, on_change=decks.import_upload)
    decks.import_note()


def mode_control() -> str:
    return st.segmented_control(t("deck.mode"), MODES, format_func=lambda m: t(f"deck.mode.{m}"), key=MODE,
                                required=True, default=st.session_state[MODE], disabled=not decks.slides())


def present() -> None:
    page_scripts.leave_deck_mode()  # ← → then show the slides, not switch back to Edit
    deck = decks.slides()
    # The mode on the slide controls' row: a projector's screen keeps its height for the slide.
    index = stepper.stepper("deck", decks.SLIDE, 0, len(deck) - 1, t("deck.slide"), lead=mode_control,
                            format_func=lambda i: t("deck.slide_of", n=i + 1, count=len(deck)), width=140)
    if st.session_state[MODE] != "present":
        st.rerun()  # Edit, pressed in this fragment: the whole page draws the editor
    # The title above the chart, not in it: a long one ran under Plotly's mode bar (the chart's own top right).
    st.markdown("#### " + md_escape(deck[index].title))
    try:
        fig = decks.slide_figure(replace(deck[index], title=""), max_width=decks.SLIDE_PX[0],
                                 max_height=decks.SLIDE_PX[1])
    except (BadDeck, BadLinkValue) as exc:
        st.warning(t("deck.unusable", n=index + 1, why=decks.why(exc)))
        return
    charts.chart(decks.filled(fig), key="deck.chart", present_max_px=decks.SLIDE_PRESENT_PX)


decks.follow_language()
if widget_state.kept(MODE, MODES) == "present" and decks.slides():
    stepper.stepped_view("deck", present)  # a fragment, and Play's timer beside it (without it Play reran forever)
else:
    presentation.page_title(t("deck.title"), t("deck.intro"))
    if not decks.slides():
        st.info(t("deck.empty"), icon=":material/push_pin:")
    mode_control()
    edit()
