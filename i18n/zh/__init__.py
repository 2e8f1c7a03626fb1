"""Merged strings of this language: one module per page group."""

from . import app

STRINGS: dict[str, str] = {**app.STRINGS}
