"""Slide deck: the views pinned under attention maps (session only). Edit: reorder, rename, delete, open, save as one
HTML file or as a folder of PNGs (a .zip), import an HTML one. Present: one slide at a time, its map rebuilt live, with Previous / Next (← →)."""

from dataclasses import replace

import streamlit as st

from app_pages.components import charts, deck_images, decks, stepper
from app_pages.pages import deck_view
from app_pages.shell import page_scripts, presentation
from app_pages.state.state_keys import DECK
from app_pages.shell.text import t
from app_pages.state import widget_state
from lessons.deck import MAX_FILE_BYTES, MAX_TITLE, moved

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


def slide_row(row: deck_view.SlideRow) -> None:
    with st.container(horizontal=True, vertical_alignment="bottom", key=f"deck.row.{row.index}"):
        st.text_input(t("deck.rename", n=row.index + 1), value=row.title, max_chars=MAX_TITLE,
                      key=decks.title_key(row.index), on_change=rename, args=(row.index,))
        st.page_link(row.script, label=t("deck.open"), icon=":material/open_in_new:", query_params=row.query)
        st.button("", icon=":material/arrow_upward:", help=t("deck.up"), key=f"deck.up.{row.index}", on_click=move,
                  args=(row.index, -1), disabled=row.first)
        st.button("", icon=":material/arrow_downward:", help=t("deck.down"), key=f"deck.down.{row.index}",
                  on_click=move, args=(row.index, 1), disabled=row.last)
        st.button("", icon=":material/delete:", help=t("deck.delete"), key=f"deck.delete.{row.index}",
                  on_click=delete, args=(row.index,))


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
    shown = deck_view.edit_view(decks.slides(), decks.slide_figure)
    for row in shown.rows:
        slide_row(row)
    if shown.unusable:
        st.warning(shown.unusable)
    with st.container(horizontal=True, vertical_alignment="bottom", key="deck.files"):
        if shown.files:
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
    slide = deck_view.presented(deck, index, decks.slide_figure)
    st.markdown(slide.heading)
    if slide.unusable:
        st.warning(slide.unusable)
    else:
        charts.chart(slide.figure, key="deck.chart", present_max_px=decks.SLIDE_PRESENT_PX)


def page() -> None:
    decks.follow_language()
    if widget_state.kept(MODE, MODES) == "present" and decks.slides():
        stepper.stepped_view("deck", present)  # a fragment, and Play's timer beside it (without it Play reran forever)
        return
    presentation.page_title(t("deck.title"), t("deck.intro"))
    if not decks.slides():
        st.info(t("deck.empty"), icon=":material/push_pin:")
    mode_control()
    edit()


page()
