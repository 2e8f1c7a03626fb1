"""Streamlit entry: `streamlit run app.py`. Navigation and the shared sidebar; each page is its own module,
listed once in app_pages/shell/registry.py.

Every page is reachable by its own URL (/translate, /decoding, …) with the view in the query string
(app_pages/shell/links.py: read_link, write_link), so a teacher can prepare links before class.
"""

from pathlib import Path

import pandas  # noqa: F401
import PIL.Image  # noqa: F401
import streamlit as st

from app_pages.state import examples, heap, translations
from app_pages.shell import links, page_scripts, presentation, registry, sidebar
from app_pages.shell.text import t

# pandas and PIL.Image, imported above before any page builds a figure: Plotly looks them up in sys.modules without
# importing them, and on a cold server five first page runs at once found pandas half-imported by another session's
# thread ("partially initialized module 'pandas' has no attribute 'Series'"). An import statement waits for it.
FAVICON = Path(__file__).parent / "assets" / "favicon.png"  # a file: a :material/…: icon is fetched from Google's servers
# A root link made before Start here was the first screen (/?s=Hello, /?kind=cross) still opens the explorer.
EXPLORER_LINK = ("kind", "view", "layer", "head")

links.begin_run()
st.set_page_config(page_title=t("app.title"), page_icon=str(FAVICON), layout="wide",
                   initial_sidebar_state="collapsed" if presentation.presenting() else "auto")
sidebar.draw()


def explorer_link() -> bool:
    """Whether this run reads a root link meant for the explorer: its view, or a sentence other than the default
    (every page's address carries the sentence, so Start here's own address has the default one)."""
    typed = links.first_link_names(("s",)) and translations.current_sentence() != examples.DEFAULT_SENTENCE
    return links.first_link_names(EXPLORER_LINK) or typed


def moved(to: st.Page):
    """A hidden page at an old address that opens `to` with the link it was given (the link is read again there)."""
    def open_it() -> None:
        links.read_link_again()
        st.switch_page(to, query_params=st.query_params.to_dict())
    return open_it


shown = {entry.name: st.Page(entry.script, title=t(f"nav.{entry.name}"), icon=entry.icon, url_path=entry.address,
                             default=entry.name == registry.FIRST) for entry in registry.PAGES}
navigation = {t(section): [shown[entry.name] for entry in registry.PAGES if entry.section == section]
              for section in (registry.EXPLORE, registry.LEARN)}
navigation[""] = [st.Page(moved(shown[name]), title=t(f"nav.{name}"), url_path=old, visibility="hidden")
                  for old, name in registry.MOVED.items()]
current = st.navigation(navigation, expanded=True)  # every page listed: no "View more" to find
if current is shown[registry.FIRST] and explorer_link():
    moved(shown["translate"])()
if presentation.opened_another_page(current.url_path):
    page_scripts.every_run_on_a_new_page()
else:
    page_scripts.every_run()
links.show_link_notices()
current.run()
links.land_on_linked_view()
links.show_link_notices(unknown=True)
links.write_link()
sidebar.student_link(next(name for name, page in shown.items() if page is current))
heap.shared().trim()  # what this run freed goes back to the operating system (at most every few seconds)
