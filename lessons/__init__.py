"""The arithmetic the teaching pages show, in plain NumPy (no Streamlit, Plotly or torch).

Every number a teaching page displays is computed here (or by the model), so
tests can pin the documents' worked examples down exactly.
"""
