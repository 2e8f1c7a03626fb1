"""Streamlit entry: `streamlit run app.py`. Navigation and the shared sidebar; each page is its own module."""

import streamlit as st

from app_pages import session

st.set_page_config(page_title="Attention, explained", page_icon=":material/visibility:", layout="wide")
session.sidebar()


def page(name: str, icon: str, default: bool = False) -> st.Page:
    # Material icons ship with Streamlit's own font; emoji would need a colour-emoji font on the server.
    return st.Page(f"app_pages/{name}.py", title=session.t(f"nav.{name}"), icon=icon, url_path=name, default=default)


pages = {
    session.t("nav.section.explore"): [
        page("translate", ":material/translate:", default=True),
        page("decoding", ":material/stairs:"),
        page("model_card", ":material/description:"),
    ],
    session.t("nav.section.learn"): [
        page("qkv", ":material/calculate:"),
        page("masks", ":material/grid_on:"),
        page("positional", ":material/waves:"),
        page("scaling", ":material/straighten:"),
        page("multihead", ":material/view_module:"),
        page("anatomy", ":material/account_tree:"),
    ],
}
st.navigation(pages).run()
