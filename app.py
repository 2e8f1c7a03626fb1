"""Streamlit entry: `streamlit run app.py`. Navigation and the shared sidebar; each page is its own module.

Every page is reachable by its own URL (/translate, /decoding, …) with the view in the query string
(app_pages/session.py: read_link, write_link), so a teacher can prepare links before class.
"""

from pathlib import Path

import streamlit as st

from app_pages import session

FAVICON = Path(__file__).parent / "assets" / "favicon.png"  # a file: a :material/…: icon is fetched from Google's servers

session.begin_run()
st.set_page_config(page_title=session.t("app.title"), page_icon=str(FAVICON), layout="wide",
                   initial_sidebar_state="collapsed" if session.presenting() else "auto")
session.sidebar()


def page(name: str, icon: str, url_path: str | None = None, default: bool = False) -> st.Page:
    # Material icons ship with Streamlit's own font; emoji would need a colour-emoji font on the server.
    return st.Page(f"app_pages/{name}.py", title=session.t(f"nav.{name}"), icon=icon, url_path=url_path or name,
                   default=default)


translate = page("translate", ":material/translate:", url_path="home", default=True)  # served at /


def translate_by_name() -> None:
    """/translate: the default page lives at /, so its own name would be "Page not found" without this alias."""
    session.read_link_again()
    st.switch_page(translate, query_params=st.query_params.to_dict())


pages = {
    session.t("nav.section.explore"): [
        page("start", ":material/school:"),
        translate,
        page("decoding", ":material/stairs:"),
        page("compare", ":material/compare:"),
        page("model_card", ":material/description:"),
    ],
    session.t("nav.section.learn"): [
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
    "": [st.Page(translate_by_name, title=session.t("nav.translate"), url_path="translate", visibility="hidden")],
}
current = st.navigation(pages, expanded=True)  # every page listed: no "View more" to find
session.scroll_to_top_on_new_page(current.url_path)
session.show_link_notices()
current.run()
session.show_link_notices(unknown=True)
session.write_link()
