"""Every view has an address: on a session's first run (or after Back / Forward) the link sets the shared
settings and the page's own view, and every run writes what is on screen back into the URL. A link given to a class
(Start here's prepared links, the poll's join address) is made by share_links alone: it points where students reach
the app, never at the teacher's own localhost."""

from __future__ import annotations

import os
from urllib.parse import urlsplit

import streamlit as st

from app_pages.state import direction, server
from app_pages.shell import page_scripts, registry
from app_pages.state.examples import default_sentence
from app_pages.shell.link_values import BadLinkValue, Param, app_bases, flag, number_in, one_of, sentence, shared_link
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
PUBLIC_URL = "ATTENTION_PUBLIC_URL"  # the app's address as students reach it (behind a proxy), read at each call
LOCAL_ONLY = ("localhost", "127.", "::1")  # a server listening here is reached from this machine only


def student_bases() -> list[str]:
    """Where students open this app, best first (link_values.app_bases): ATTENTION_PUBLIC_URL where set, else the
    address the teacher's browser used unless it is this machine's own, else this server's LAN addresses at its port."""
    path = st.get_option("server.baseUrlPath").strip("/")
    url = st.context.url
    return app_bases(os.environ.get(PUBLIC_URL), url if isinstance(url, str) else None, server.lan_addresses(),
                     st.get_option("server.port"), f"/{path}" if path else "")


def browser_base() -> str | None:
    """The app's address as this session's browser opened it (scheme, host, port), or None where it is unknown."""
    url = st.context.url
    parts = urlsplit(url) if isinstance(url, str) else None
    return f"{parts.scheme}://{parts.netloc}" if parts and parts.netloc else None


def local_only() -> bool:
    """Whether no other device can open this server's links: it listens on this machine only, with no
    ATTENTION_PUBLIC_URL in front of it."""
    return not os.environ.get(PUBLIC_URL) and (st.get_option("server.address") or "").startswith(LOCAL_ONLY)


def share_links(page: str, values: dict) -> list[str]:
    """The links students open for `page` (a registry name) with `values` in the query string, best first: one per
    student_bases address (the first is the one to give; the others are the same server's other networks)."""
    return [shared_link(base, registry.PAGE[page].address, values) for base in student_bases()]


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
    Where no run has finished since the link was read (a click interrupted the first run, as a student's vote can
    right after a reconnection, or the page stopped), the next run reads what that run left unread.
    A page's own controls keep their values across pages themselves (persist_state="session")."""
    query = st.query_params.to_dict()
    written = st.session_state.get(LINK_WRITTEN)
    first = LINK_READ not in st.session_state or (written is not None and query != written)
    st.session_state[LINK_READ], st.session_state[LINK_PARAMS] = True, {}
    if first:
        st.session_state[LINK_PENDING], st.session_state[LINK_NAMES] = query, set(query)
        read_link(shared_params())
    elif written is not None:  # a run has finished since: the link is read
        st.session_state[LINK_PENDING], st.session_state[LINK_NAMES] = {}, set()
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
