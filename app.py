"""Streamlit entry: `streamlit run app.py`. Navigation and the shared sidebar; each page is its own module."""

import streamlit as st

from app_pages import common

st.set_page_config(page_title="Attention, explained", page_icon="🔍", layout="wide")
common.sidebar()
pages = [
    st.Page("app_pages/translate.py", title=common.t("nav.translate"), icon="🌐", url_path="translate", default=True),
]
st.navigation(pages).run()
