"""Masks: padding and causal: the page's strings."""

STRINGS: dict[str, str] = {
    # ---- masks
    "masks.title": "Masks: who may attend to whom",
    "masks.intro": (
        "A mask decides, for every query and key, whether that query may look at that key. It works by adding M to "
        "the scaled scores: 0 where attending is allowed, −∞ where it is not. After the softmax, e^−∞ = 0, so a masked "
        "key gets weight exactly 0 and the remaining weights of the row still add up to 1."
    ),
    "masks.tex.allowed": "may attend",
    "masks.tex.masked": "masked",
    "masks.tab.doc": "1 · Causal: “i have a dream” ({n}×{n})",
    "masks.doc.text": (
        "In the decoder a token may not see the tokens after it. When translating, they have not been generated "
        "yet. In training they do exist: the whole target sentence is fed in at once (teacher forcing), and "
        "position t must predict token t+1. Without the mask, position t could look at tokens t+1, t+2, … and "
        "copy the answer; with it, every position sees only the **positions** step-by-step decoding would have "
        "seen. The **tokens** in them still differ: training feeds the reference, decoding feeds the model's own "
        "output (section 2 shows where they part). For a sentence of {n} tokens that is a {n}×{n} lower-triangular mask: "
        "query i may attend to keys 0…i."
    ),
    "masks.tab.exposure": "2 · Teacher forcing: exposure bias",
    "masks.exposure.text": (
        "The mask makes training and translation see the same positions, not the same tokens.\n\n"
        "- sentence: “{english}”\n- our reference: {reference}\n- the model's translation: **{translation}**\n\n"
        "At step {step} the model wrote **{wrote}** "
        "where the reference has **{right}** (the model gave {right} only {ref_prob}). From there on the two read "
        "different prefixes: training feeds the reference, **{train_prefix}**, and after it the model would "
        "write {train_top} ({train_top_prob}) at step {next}; translation feeds the model's own **{free_prefix}** "
        "— a prefix no training step ever showed it — and it writes {free_next}. Training only ever sees right "
        "prefixes; decoding must live with its own mistakes. This gap is called **exposure bias**; scheduled "
        "sampling and sequence-level training are attempts to close it. Step by step (◀: the first step whose "
        "prefixes differ):"
    ),
    "masks.exposure.none": (
        "Teacher forcing is not decoding: training feeds the reference's tokens, decoding the model's own. The "
        "model translated every example sentence exactly as our references, so there is no step here where the "
        "two part."
    ),
    "masks.exposure.step": "step",
    "masks.exposure.train_reads": "training reads",
    "masks.exposure.train_top": "then would write (p)",
    "masks.exposure.free_reads": "translation reads",
    "masks.exposure.free_writes": "and writes (p)",
    "masks.doc.sees": "- **{token}** sees: {keys}",
    "masks.toy": "The scores here are illustrative: random q and k with d_k = {d} (no model is involved in this example).",
    "masks.stage.mask": "① The mask M: 0 or −∞",
    "masks.stage.scores": "② Scores QKᵀ/√d_k",
    "masks.stage.masked": "③ Scores + M",
    "masks.stage.weights": "④ Softmax: the weights",
    "masks.value.mask": "M",
    "masks.value.scores": "score",
    "masks.value.masked": "score",
    "masks.value.weights": "weight",
    "masks.rowsums": "Each row of ④ adds up to: {sums}. The largest weight on a masked cell: {above}.",
    "masks.zero_vs_inf": (
        "Study notes often say the mask “covers the grey area with 0”. That is true of the **weights after the "
        "softmax**, not of the scores: setting the hidden scores of row “{token}” to 0 instead of −∞ would still "
        "give the hidden keys weight (softmax: {zeroed}), while −∞ gives {proper}."
    ),
    "masks.tab.live": "3 · Your sentence in the decoder",
    "masks.live.text": (
        "The decoder reads `<s>` and the translation so far ({n} tokens) and predicts the next token at every position. "
        "These are the model's own scaled scores for the chosen layer and head, masked and softmaxed here."
    ),
    "masks.live.check": "The weights computed here equal the attention the model returned (largest difference {diff}).",
    "masks.tab.pad": "4 · Padding a batch",
    "masks.pad.text": (
        "Sentences are trained in batches, and a batch is a rectangle: the shorter sentence ({b} tokens) is filled "
        "with `<pad>` up to the length of the longer one ({a} tokens), {width} columns in all. The padding mask is True at real tokens, False at "
        "`<pad>`: no query may attend to a `<pad>` key."
    ),
    "masks.pad.fig": "The padded batch (blue = real token, grey = <pad>)",
    "masks.pad.sentence": "sentence in the batch",
    "masks.pad.position": "position",
    "masks.pad.real": "real token (mask = 1)",
    "masks.pad.pad": "<pad> (mask = 0)",
    "masks.pad.row": "sentence {i}",
    "masks.pad.index": "padding mask",
    "masks.pad.pick": "Sentence of the batch to look at",
    "masks.pad.kind": "Attention",
    "masks.pad.kind.self": "Encoder self-attention",
    "masks.pad.kind.combined": "Decoder self-attention (padding + causal)",
    "masks.pad.kind.cross": "Cross-attention",
    "masks.self.header": "Encoder self-attention with padding",
    "masks.self.text": (
        "The encoder has no causal mask: each real token sees every real token. The `<pad>` **columns** are "
        "masked (nobody attends to padding). The `<pad>` rows still compute something, but their outputs are "
        "never used."
    ),
    "masks.combined.header": "Padding + causal: the decoder's self-attention",
    "masks.combined.text": (
        "The decoder combines both masks with a logical AND: a key is visible if it is not in the future "
        "**and** not padding."
    ),
    "masks.cross.header": "Cross-attention: target queries × source keys",
    "masks.cross.text": (
        "In cross-attention the queries are the target tokens and the keys are the source tokens, so the mask is "
        "rectangular (target length × source length). There is no “future” in the source — the whole source "
        "sentence is known — so only the source's padding is masked."
    ),
    "masks.convention": (
        "Conventions differ: in this model True means “may attend”, as in many tutorials' code. PyTorch's "
        "nn.MultiheadAttention uses the opposite for boolean masks: True means “ignore this key”. The Annotated "
        "Transformer's code, which many study notes copy, writes masked_fill(mask == 0, −1e9): a very large "
        "negative number instead of −∞, which gives the same weights — except in a row whose every key is "
        "masked: there −1e9 gives equal weights, while −∞ gives 0/0 = NaN; this model (and the arithmetic on "
        "these pages) returns a row of zeros instead."
    ),
}
