"""Merged strings of this language: one module per page group."""

from . import app, explorer, teaching

STRINGS: dict[str, str] = {**app.STRINGS, **explorer.STRINGS, **teaching.STRINGS}
