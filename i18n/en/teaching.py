"""What the teaching pages share (teach.*); each page's own strings are in its module: qkv, masks, positional, scaling,
multihead, anatomy."""

STRINGS: dict[str, str] = {
    # ---- shared by the teaching pages
    "teach.sentence.caption": "Your sentence (set on the “Translate & explore” page) and the model's translation:",
    "teach.pick.kind": "Attention",
    "teach.pick.layer": "Layer",
    "teach.pick.head": "Head",
    "teach.pick.query": "Query token",
    "teach.axis.keys": "keys (the tokens attended to)",
    "teach.axis.queries": "queries (the tokens doing the attending)",
    "teach.masked": "grey = masked (−∞)",
    "teach.dims": "dimensions {a}–{b}",
    "teach.sep": ", ",
}
