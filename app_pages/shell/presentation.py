"""How a page presents itself: presentation mode (larger type and charts for a projector), its title and
introduction, its style, and a new page starting at its top."""

from __future__ import annotations

import streamlit as st

from app_pages.shell import page_scripts
from app_pages.state.state_keys import LAST_PAGE, PRESENT


def presenting() -> bool:
    return bool(st.session_state.get(PRESENT))


def chart_scale() -> float:
    return page_scripts.PRESENT_SCALE if presenting() else 1.0


def page_title(title: str, intro: str, tooltip: bool = False) -> None:
    """A page's title and its introduction: a caption under the title, or, in presentation mode, where every
    line of the first screen counts, the title's tooltip (always, with `tooltip`: a page whose first screen is
    its controls and chart)."""
    if presenting() or tooltip:
        st.title(title, help=intro)
    else:
        st.title(title)
        st.caption(intro)


def style() -> None:
    """The page's type size and margins: presentation mode's, or the everyday ones."""
    if presenting():
        page_scripts.present_style()
    else:
        page_scripts.page_style()


def opened_another_page(url_path: str) -> bool:
    """Whether this run shows another page than the last run did: it starts at its top
    (page_scripts.every_run_on_a_new_page), as Streamlit keeps the main area's scroll position across pages."""
    another = st.session_state.get(LAST_PAGE, url_path) != url_path
    st.session_state[LAST_PAGE] = url_path
    return another
