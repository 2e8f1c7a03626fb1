"""Merged strings of this language: one module per page group."""

from . import app, classroom, decks, explanation, explorer, inside, lab, replay, teaching, training

STRINGS: dict[str, str] = {**app.STRINGS, **explorer.STRINGS, **teaching.STRINGS, **training.STRINGS, **replay.STRINGS, **lab.STRINGS, **inside.STRINGS, **explanation.STRINGS,
                          **classroom.STRINGS, **decks.STRINGS}
