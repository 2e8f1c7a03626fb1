"""What pages share and keep: session-state keys, the loaded models and their directions, the server's settings, the
one result cache every model result goes through (translations, result_cache), the lab queue and the poll store."""
