"""Merged strings of this language: one module per page group."""

from . import app, explorer, learning, inside, teaching, training

STRINGS: dict[str, str] = {**app.STRINGS, **explorer.STRINGS, **teaching.STRINGS, **inside.STRINGS, **training.STRINGS, **learning.STRINGS}
