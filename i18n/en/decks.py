"""Classroom activities: a slide deck of pinned views, and the compare page's three comparisons."""

STRINGS = {
    "nav.deck": "Slide deck",
    "deck.title": "Slide deck",
    "deck.intro": (
        "Views you pinned with **Pin to deck** under an attention map, in the order you will show them. Reorder, "
        "rename or delete them, then present them one at a time (← → move between slides), or save the deck as one "
        "HTML file that opens without a network and can be imported here again, or as one PNG image per slide."
    ),
    "deck.pin": "Pin to deck",
    "deck.pin_help": "Adds this view (its page, sentence, kind or step, layer and head) to the session's slide deck.",
    "deck.pinned": "Pinned as slide {n}: {title}",
    "deck.full": "The deck has its {n} slides already: delete one to pin another.",
    "deck.slide_title": "{kind} · {layer} · {head} — {sentence}",
    "deck.view_title": "{kind} · {view} · {layer} · {head} — {sentence}",
    "deck.decoding_title": "Decoding step {step} · {layer} · {head} — {sentence}",
    "deck.qkv_title": "Q·K·V · {kind} · {layer} · {head} · query position {query} — {sentence}",
    "deck.masks_title": "Causal mask · {layer} · {head} — {sentence}",
    "deck.multihead_title": "Two heads and their average · {kind} · {layer} — {sentence}",
    "deck.empty": (
        "No slides yet. Pin a view with **Pin to deck** under any map of Translate & explore or Compare, beside "
        "the chart of where Decoding looked, or under the live charts of Q, K, V, Masks and Multi-head."
    ),
    "deck.mode": "Deck",
    "deck.mode.edit": "Edit",
    "deck.mode.present": "Present",
    "deck.rename": "Title of slide {n}",
    "deck.up": "Move up",
    "deck.down": "Move down",
    "deck.delete": "Delete",
    "deck.open": "Open this view",
    "deck.slide": "Slide",
    "deck.slide_of": "Slide {n} of {count}",
    "deck.export": "Save deck as HTML",
    "deck.export_help": (
        "One file with every slide's chart (plotly.js inside it, so it opens offline) and the deck's views, which "
        "Import reads back."
    ),
    "deck.export_png": "Save as PNGs (.zip)",
    "deck.export_png_help": (
        "A .zip with one PNG image per slide, each at its chart's own size: for slides in another program."
    ),
    "deck.png_unavailable": (
        "Saving PNGs needs the kaleido package and a Chrome or Chromium browser on the server; this server has no such "
        "browser, so only the HTML file can be saved."
    ),
    "deck.import": "Import a deck saved here",
    "deck.import_help": "An HTML file saved with **Save deck as HTML**: its slides replace this deck's.",
    "deck.imported": "Imported {n} {n:slide|slides}.",
    "deck.bad": "This file cannot be imported: {why}",
    "deck.bad.size": "it is larger than {mb} MB.",
    "deck.bad.no_deck": "it is not a deck saved by this app (it has no deck in it, or more than one).",
    "deck.bad.json": "its deck is not valid JSON.",
    "deck.bad.format": "its deck is not in this app's format.",
    "deck.bad.count": "a deck has 1 to {n} slides.",
    "deck.bad.field": "a slide's “{field}” is missing, too long or not text.",
    "deck.bad.page": "a slide names the page “{page}”, which has no attention map to show.",
    "deck.bad.name": "a slide's view names “{name}”, which its page does not read.",
    "deck.bad.query": "a slide shows query position {query}, but this sentence has {n} queries (0 to {n} − 1).",
    "deck.bad.step": "a slide shows decoding step {step}, but this translation has {steps} steps.",
    "deck.bad.value": "a slide's “{name}” cannot be used: {why}",
    "deck.unusable": "Slide {n} cannot be drawn with the models this server has: {why}",
    "compare.mode": "Compare",
    "compare.mode.models": "Two models",
    "compare.mode.heads": "Two heads",
    "compare.mode.sentences": "Two sentences",
    "compare.side.a": "A",
    "compare.side.b": "B",
    "compare.sentence_a": "Sentence A",
    "compare.sentence_b": "Sentence B",
    "compare.difference": "B − A",
    "compare.difference_title": "Difference B − A",
    "compare.difference_help": (
        "Red: B gives the cell more weight than A; blue: less; white: the same. The scale runs as far below 0 as "
        "above it."
    ),
    "compare.heads_note": "Both maps are of one sentence and one model: only the layer and head differ.",
    "compare.heads_translation": "Its translation (one for both maps): {translation}",
    "compare.sentences_note": "One model, one layer and head: only the sentence differs.",
}
