"""Figures: pure functions from arrays and tokens to Plotly figures.

Nothing here imports Streamlit or the model, so every figure can be built
and tested from plain NumPy arrays and token lists.
"""
