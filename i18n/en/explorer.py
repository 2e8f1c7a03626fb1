"""Translate page, attention explorer and step-by-step decoding."""

STRINGS: dict[str, str] = {
    # Translate page
    "translate.title": "Translate a sentence, then look inside",
    "translate.intro": (
        "Type an English sentence. The Transformer on this page was trained from scratch to translate English into "
        "Chinese; below its translation you can open every attention map it computed on the way."
    ),
    "translate.input": "English sentence",
    "translate.submit": "Translate",
    "translate.examples": "Or try an example",
    "translate.translation": "Translation",
    "translate.details": "checkpoint {checkpoint} · device {device} · beam size {beam} · {S} source tokens · {T} target tokens",
    "translate.source_tokens": "Source tokens (encoder input, {n})",
    "translate.target_tokens": "Target tokens (decoder input, {n})",
    "translate.tokens_help": (
        "▁ marks the start of an English word (so ▁have is a whole word, and a token without ▁ continues the word "
        "before it). Chinese is split into single characters. </s> ends the source; the decoder starts from <s> and, "
        "at each position, predicts the next target token."
    ),
    "chips.position": "position {n}",
    # Explorer
    "explorer.title": "Attention explorer",
    "explorer.kind": "Attention",
    "explorer.view": "View",
    "explorer.layer": "Layer",
    "explorer.head": "Head",
    "explorer.layer_n": "layer {n}",
    "explorer.head_n": "head {n}",
    "explorer.average": "average",
    "explorer.all_layers": "average of layers",
    "explorer.all_heads": "average of heads",
    "explorer.map_title": "{kind} · {layer} · {head}",
    "explorer.grid_title": "{kind}: every head of every layer",
    "explorer.lines_title": "{kind} · {layer}",
    "explorer.click_hint": "click to open this map large below",
    "explorer.focus": "Show the lines of one query token",
    "explorer.focus_all": "all query tokens",
    "explorer.min_weight": "Hide lines lighter than",
    "kind.encoder_self": "Encoder self-attention",
    "kind.decoder_self": "Decoder masked self-attention",
    "kind.cross": "Encoder–decoder cross-attention",
    "kind.encoder_self.help": (
        "Each English token (row) looks at every English token (column) of the same sentence. "
        "Each row sums to 1: it is how that token mixes the others into its new representation."
    ),
    "kind.decoder_self.help": (
        "Each target position (row) looks at the target tokens so far (columns). Grey cells are masked: "
        "a position may not look at tokens it has not produced yet, which is why the map is a triangle."
    ),
    "kind.cross.help": (
        "Each target position (row) looks at the English source tokens (columns) — where the decoder read "
        "from while producing its next Chinese character."
    ),
    "view.head": "One head",
    "view.grid": "All heads",
    "view.lines": "Head view",
    "view.head.help": (
        "Queries down, keys across. Colours use one fixed scale from 0 (white) to 1 (dark blue) so heads can be "
        "compared; hover a cell for its exact weight. Pick “average of heads” to see the layer as a whole."
    ),
    "view.grid.help": (
        "Every head of every layer, rows = layers, columns = heads, all on the same 0–1 scale. Click a map "
        "(or use the layer and head pickers) to open it large below; the open one has a red frame."
    ),
    "view.lines.help": (
        "Queries on the left, keys on the right; a line's thickness and opacity follow the weight, one colour per "
        "head. Click a head in the legend to hide it, double-click to see it alone; hover a dot for the exact weight."
    ),
    "axis.encoder_self.queries": "queries (source tokens)",
    "axis.encoder_self.keys": "keys (source tokens)",
    "axis.decoder_self.queries": "queries (target tokens)",
    "axis.decoder_self.keys": "keys (target tokens)",
    "axis.cross.queries": "queries (target tokens)",
    "axis.cross.keys": "keys (source tokens)",
    "axis.weight": "weight",
    "axis.masked": "grey = masked (future)",
    "axis.step_query": "query (this step)",
    "axis.layer_head": "layer · head",
    "axis.candidate": "candidate",
    "axis.probability": "probability",
    "axis.hypothesis": "hypothesis",
    "axis.sequence_prob": "probability of the hypothesis (log scale)",
    # Decoding page
    "decoding.title": "Decoding, one token at a time",
    "decoding.intro": (
        "The decoder writes the translation one token per step. At each step it reads the tokens it has written so "
        "far, looks back at the English sentence, and scores every possible next token. Move the slider to step "
        "through the translation."
    ),
    "decoding.sentence": "**English:** {source}  \n**Chinese:** {translation}",
    "decoding.change_sentence": "Change the sentence on the translate page",
    "decoding.step": "Output step",
    "decoding.now": "Step **{step}** of {steps}: the model writes **{token}** (probability {prob}).",
    "decoding.prefix": "What the decoder has read so far (the target prefix)",
    "decoding.which": "{layer} · {head}",
    "decoding.mask_title": "What this step may look at",
    "decoding.mask_help": (
        "The causal mask: this step's query sees only the prefix (coloured by its self-attention weights); "
        "later positions are masked grey, because at this point they do not exist yet."
    ),
    "decoding.cross_title": "Where it looked in the English sentence",
    "decoding.cross_help": "Cross-attention of this step over the source tokens, for the layer and head chosen above.",
    "decoding.every_head": "Show every layer and head",
    "decoding.every_head_help": "One row per layer and head: this step's cross-attention over the source tokens.",
    "decoding.candidates_title": "Candidates for the next token",
    "decoding.candidates_help": "The {k} most probable next tokens; the one the search chose is highlighted in orange.",
    "decoding.beam_title": "Beam search (beam size {beam})",
    "decoding.beam_greedy": (
        "Greedy decoding keeps only the single best token at each step. Raise the beam size in the sidebar to "
        "see which hypotheses beam search keeps and drops."
    ),
    "decoding.beam_done": "Beam search stopped after {steps} steps; this step belongs to the chosen hypothesis only.",
    "decoding.beam_help": (
        "Hypotheses after this step and the probability the model gives each whole prefix (log scale: the longer "
        "the bar, the likelier): "
        "{kept} kept for the next step, {finished} finished with </s>, {dropped} dropped."
    ),
    "beam.kept": "kept",
    "beam.finished": "finished",
    "beam.dropped": "dropped",
}
