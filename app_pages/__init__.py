"""Streamlit pages: widgets, session state and layout only; figures come from viz/, numbers from model/."""
