"""Streamlit entry: `streamlit run app.py`. Navigation and the shared sidebar; each page is its own module."""

import streamlit as st

from app_pages import common

st.set_page_config(page_title="Attention, explained", page_icon="🔍", layout="wide")
common.sidebar()


def page(name: str, icon: str, default: bool = False) -> st.Page:
    return st.Page(f"app_pages/{name}.py", title=common.t(f"nav.{name}"), icon=icon, url_path=name, default=default)


pages = {
    common.t("nav.section.explore"): [page("translate", "🌐", default=True), page("decoding", "🪜")],
    common.t("nav.section.learn"): [
        page("qkv", "🧮"),
        page("masks", "🎭"),
        page("positional", "〰️"),
        page("scaling", "📏"),
        page("multihead", "🧩"),
        page("anatomy", "🏗️"),
    ],
}
st.navigation(pages).run()
