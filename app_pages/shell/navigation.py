"""Links from one page of the app to another, as registry.py lists them."""

from __future__ import annotations

import streamlit as st

from app_pages.shell import registry


def page_link(name: str, label: str, icon: str | None = None) -> None:
    """A link to another page of the app (registry.py), with its navigation icon unless `icon` says otherwise."""
    page = registry.PAGE[name]
    st.page_link(page.script, label=label, icon=icon or page.icon)
