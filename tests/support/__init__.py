"""What several test modules (and the benchmarks) share; no test imports another test module or tests/conftest.py
(tests/test_layering.py checks). Where things are (paths), the Chromium they drive (chromium), the app's server
(app_server), the app in-process (apptest; the explanation page: explanation), a browser session under the guard (browser), tiny random-weight models (tiny, tiny_marian), tables as
a page shows them (tables), a throwaway PostgreSQL cluster (postgres)."""
