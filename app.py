"""Streamlit entry: `streamlit run app.py`. Navigation and the shared sidebar; each page is its own module.

Every page is reachable by its own URL (/translate, /decoding, …) with the view in the query string
(app_pages/links.py: read_link, write_link), so a teacher can prepare links before class.
"""

from pathlib import Path

import streamlit as st

from app_pages import examples, links, page_scripts, presentation, sidebar, translations
from app_pages.text import t

FAVICON = Path(__file__).parent / "assets" / "favicon.png"  # a file: a :material/…: icon is fetched from Google's servers

links.begin_run()
st.set_page_config(page_title=t("app.title"), page_icon=str(FAVICON), layout="wide",
                   initial_sidebar_state="collapsed" if presentation.presenting() else "auto")
sidebar.draw()


def page(name: str, icon: str, url_path: str | None = None, default: bool = False) -> st.Page:
    # Material icons ship with Streamlit's own font; emoji would need a colour-emoji font on the server.
    return st.Page(f"app_pages/{name}.py", title=t(f"nav.{name}"), icon=icon, url_path=url_path or name,
                   default=default)


start = page("start", ":material/school:", url_path="guide", default=True)  # served at /: a newcomer's first screen
translate = page("translate", ":material/translate:")
# A root link made before Start here was the first screen (/?s=Hello, /?kind=cross) still opens the explorer.
EXPLORER_LINK = ("kind", "view", "layer", "head")


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


pages = {
    t("nav.section.explore"): [
        start,
        translate,
        page("decoding", ":material/stairs:"),
        page("compare", ":material/compare:"),
        page("model_card", ":material/description:"),
    ],
    t("nav.section.learn"): [
        page("qkv", ":material/calculate:"),
        page("masks", ":material/grid_on:"),
        page("positional", ":material/waves:"),
        page("scaling", ":material/straighten:"),
        page("multihead", ":material/view_module:"),
        page("inside", ":material/schema:"),
        page("anatomy", ":material/account_tree:"),
        page("training", ":material/model_training:"),
        page("replay", ":material/history:"),
        page("lab", ":material/science:"),
    ],
    "": [
        # /home: the translate page's address while it was the first screen; /start: Start here's own name
        # (the first screen lives at /).
        st.Page(moved(translate), title=t("nav.translate"), url_path="home", visibility="hidden"),
        st.Page(moved(start), title=t("nav.start"), url_path="start", visibility="hidden"),
    ],
}
current = st.navigation(pages, expanded=True)  # every page listed: no "View more" to find
if current is start and explorer_link():
    moved(translate)()
presentation.scroll_to_top_on_new_page(current.url_path)
page_scripts.one_entry_per_page()
links.show_link_notices()
current.run()
links.show_link_notices(unknown=True)
links.write_link()
