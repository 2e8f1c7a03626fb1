"""What several test modules share: a browser session under the guard (browser), tiny random-weight models
(tiny, tiny_marian), tables as a page shows them (tables), a throwaway PostgreSQL cluster (postgres)."""
