"""Placeholder until its issue lands."""

import streamlit as st

st.info("This page is being built.")
