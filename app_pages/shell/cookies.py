"""Cookies the server asks a browser to keep: Streamlit reads the ones a browser sends when a session connects
(st.context.cookies) but cannot set any, so a small component (COOKIE_JS) writes them in the page. What it writes is
the server's own (a browser id, a signed teacher cookie: server.py), never text a user typed.
"""

from __future__ import annotations

import streamlit as st

# Constant: `data` carries the cookie's name, value and lifetime in seconds. Secure where the page itself is (a proxy's
# https), so the cookie is not sent in plain text; SameSite=Lax: not sent by another site's requests.
COOKIE_JS = """export default function ({ data }) {
  const secure = location.protocol === "https:" ? "; Secure" : "";
  document.cookie = `${data.name}=${data.value}; path=/; max-age=${data.maxAge}; SameSite=Lax${secure}`;
}"""
cookie_writer = st.components.v2.component("attention.cookie_writer", js=COOKIE_JS)


def keep(name: str, value: str, max_age_s: int) -> None:
    """The browser keeps cookie `name` = `value` for max_age_s seconds (from this run on, for every later session)."""
    cookie_writer(key=f"cookie.{name}", data={"name": name, "value": value, "maxAge": max_age_s}, height=0)
