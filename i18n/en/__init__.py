"""Merged strings of this language: one module per page (or group of pages)."""

from . import (anatomy, app, classroom, corpus, decks, explanation, explorer, inside, lab, masks, multihead, patching,
               positional, qkv, replay, scaling, teaching, training)

STRINGS: dict[str, str] = {
    **app.STRINGS, **explorer.STRINGS, **teaching.STRINGS, **qkv.STRINGS, **masks.STRINGS, **positional.STRINGS,
    **scaling.STRINGS, **multihead.STRINGS, **anatomy.STRINGS, **training.STRINGS, **replay.STRINGS, **lab.STRINGS,
    **inside.STRINGS, **explanation.STRINGS, **classroom.STRINGS, **decks.STRINGS,
    **patching.STRINGS, **corpus.STRINGS,
}
