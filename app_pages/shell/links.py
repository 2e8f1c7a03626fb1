"""Every view has an address: on a session's first run (or after Back / Forward) the link sets the shared
settings and the page's own view, and every run writes what is on screen back into the URL."""

from __future__ import annotations

import streamlit as st

from app_pages.state import direction
from app_pages.shell import page_scripts
from app_pages.state.examples import default_sentence
from app_pages.shell.link_values import BadLinkValue, Param, flag, number_in, one_of, sentence
from app_pages.state.models import model_names
from app_pages.state.state_keys import (
    BEAM, CHECKPOINT, LANG, LINK_NAMES, LINK_NOTICES, LINK_PARAMS, LINK_PENDING, LINK_READ, LINK_WRITTEN, PRESENT,
    SENTENCE,
)
from app_pages.shell.text import md_escape, t
from i18n import LANGUAGES

# A link's names and values are shown cut to LINK_TEXT_SHOWN characters, and at most UNKNOWN_SHOWN of the names no
# page reads, then how many more: a crafted link with 200 unknown names gets a warning of a few lines, not pages.
LINK_TEXT_SHOWN = 40
UNKNOWN_SHOWN = 5


def shared_params() -> dict[str, Param]:
    """What every page's link carries: the language, the model, the beam size, the sentence, presentation mode."""
    return {
        "lang": Param(LANG, one_of(LANGUAGES)),
        "model": Param(CHECKPOINT, one_of(model_names())),
        "beam": Param(BEAM, number_in(1, 8)),
        "s": Param(SENTENCE, sentence),
        "present": Param(PRESENT, flag, lambda on: "1" if on else "0"),
    }


def read_link(params: dict[str, Param]) -> None:
    """The link's values of `params` into session state, on the session's first run only (later runs write the link).

    A value that does not read is left out and named in a notice (show_link_notices); it never raises.
    """
    pending: dict[str, str] = st.session_state.get(LINK_PENDING, {})
    notices = st.session_state.setdefault(LINK_NOTICES, [])
    for name, param in params.items():
        if name not in pending:
            continue
        text = pending.pop(name)
        try:
            st.session_state[param.key] = param.read(text)
        except BadLinkValue as exc:
            why = t(f"link.why.{exc.key}", **exc.values)
            notices.append(t("link.ignored", name=md_escape(name), value=md_escape(text[:LINK_TEXT_SHOWN]),
                             why=md_escape(why)))


def link_page(params: dict[str, Param]) -> None:
    """A page's own part of the link (e.g. the explorer's kind, layer and head): read on a first run, written on every run."""
    read_link(params)
    st.session_state[LINK_PARAMS] = params
    show_link_notices()


def show_link_notices(unknown: bool = False) -> None:
    """The link's ignored values, once; with `unknown`, also the names no page reads (a typo, or a crafted link)."""
    notices = st.session_state.pop(LINK_NOTICES, [])
    if unknown:
        leftover = st.session_state.get(LINK_PENDING, {})
        notices += [t("link.ignored", name=md_escape(name[:LINK_TEXT_SHOWN]), value=md_escape(value[:LINK_TEXT_SHOWN]),
                      why=t("link.unknown")) for name, value in list(leftover.items())[:UNKNOWN_SHOWN]]
        if len(leftover) > UNKNOWN_SHOWN:
            notices.append(t("link.unknown_more", n=len(leftover) - UNKNOWN_SHOWN))
        leftover.clear()
    if notices:
        st.warning("  \n".join(notices), icon=":material/link_off:")


def write_link() -> None:
    """The URL made to say what is on screen: the shared settings and the current page's own (link_page).

    Called at the end of every run and of each fragment run, so a link copied at any moment reopens that view.
    """
    values = {}
    for name, param in {**shared_params(), **st.session_state.get(LINK_PARAMS, {})}.items():
        value = st.session_state.get(param.key)
        if value is not None and value != "":
            values[name] = param.write(value)
    if values != st.query_params.to_dict():
        st.query_params.from_dict(values)
    st.session_state[LINK_WRITTEN] = values


def begin_run() -> None:
    """Before anything is drawn: on the session's first run the link (st.query_params) sets the shared settings
    and leaves the rest of itself for the page to read (read_link); a bad value is skipped with a notice.
    A link that differs from the one this session last wrote is read the same way: the user pressed Back or
    Forward (or edited the address), and the view follows the address, one history entry per change.
    A page's own controls keep their values across pages themselves (persist_state="session")."""
    query = st.query_params.to_dict()
    written = st.session_state.get(LINK_WRITTEN)
    first = LINK_READ not in st.session_state or (written is not None and query != written)
    st.session_state[LINK_READ] = True
    st.session_state[LINK_PENDING] = query if first else {}
    st.session_state[LINK_NAMES] = set(query) if first else set()
    st.session_state[LINK_PARAMS] = {}
    if first:
        read_link(shared_params())
    if SENTENCE not in st.session_state:  # so that every link names its sentence, in the language its model reads
        st.session_state[SENTENCE] = default_sentence(direction.of(st.session_state.get(CHECKPOINT, "en-zh"))[0])


def land_on_linked_view() -> None:
    """After the page is drawn: where the link this run read names the page's own view (not only the sentence or
    the language), scroll to that view (the page's container keyed page_scripts.LINKED_VIEW)."""
    if first_link_names(st.session_state.get(LINK_PARAMS, {})):
        page_scripts.scroll_to_linked_view()


def first_link_names(names) -> bool:
    """Whether the link this run reads (a first run's, or one the user went Back to) names any of `names`."""
    return bool(st.session_state.get(LINK_NAMES, set()) & set(names))


def read_link_again() -> None:
    """The next run reads the link as a first run does (after a redirect that carries it to another page)."""
    st.session_state.pop(LINK_READ, None)
    st.session_state.pop(LINK_WRITTEN, None)
