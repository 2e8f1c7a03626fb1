"""What several test modules (and the benchmarks) share. No test imports another test module or tests/conftest.py,
which keeps only fixtures and hooks (tests/test_layering.py checks).

paths: where things are (the repository, the checkpoints, the Tatoeba data) and the marks that skip without them;
chromium: the browser the tests drive; app_server: `streamlit run app.py` on a free port;
apptest: the app in-process (AppTest) and what its pages show; explanation: the explanation page in a new session;
browser: a browser session under the guard, and what a user does and sees in it; layout_checks: what a person would
see as broken, read from the DOM; poll: a poll from the students' browsers;
checkpoints: the shipped checkpoint's tokenizers, and a copy without checksums a test may damage;
attribution: log-probabilities by plain autograd; figures: every figure in viz/, built on tiny inputs;
tiny, tiny_marian: tiny random-weight models; tables: tables as a page shows them;
postgres: a throwaway PostgreSQL cluster."""
