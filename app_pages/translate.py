"""Translate a sentence (placeholder shell; the attention explorer is built in app issue #3)."""

import streamlit as st

from app_pages import common

result = common.current_result()
st.write(result.translation)
