"""Teaching pages: Q·K·V, masks, positional encoding, scaling, multi-head shapes, anatomy."""

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
    # ---- Q, K, V walkthrough
    "qkv.title": "Q, K, V: attention step by step",
    "qkv.intro": (
        "Attention gives every token three vectors: a **query** q (what this token is looking for), a **key** k "
        "(what it offers to others) and a **value** v (what it passes on). A token's output is a mix of the "
        "values, weighted by how well its query matches each key. First on a small worked example, then on the "
        "real model and your own sentence."
    ),
    "qkv.tab.example": "1 · The worked example: “Thinking Machines”",
    "qkv.example.source": (
        "From Jay Alammar's “The Illustrated Transformer”, an example many study notes retell: two words, "
        "“Thinking” and “Machines”, with embeddings x₁, x₂ of {n} numbers each, and weight matrices W_Q, W_K, "
        "W_V of size {n}×{m}."
    ),
    "qkv.example.chosen": (
        "The Illustrated Transformer shows only the results — {results} — never the embeddings or the matrices. "
        "The small integer matrices below were **chosen to reproduce exactly those results** (found by a search "
        "over small integers); W_V is free, any {n}×{m} matrix would do. Every other number on this page is "
        "computed from them."
    ),
    "qkv.step.label": "Step",
    "qkv.step.project": "① Projections",
    "qkv.step.dot": "② Dot products",
    "qkv.step.scale": "③ Divide by {root}",
    "qkv.step.softmax": "④ Softmax",
    "qkv.step.sum": "⑤ Weighted sum",
    "qkv.project.text": (
        "Each word's embedding (a row of x) is multiplied by the three matrices: q = x·W_Q, k = x·W_K, v = x·W_V. "
        "Every word gets its own q, k and v, each 1×{m}."
    ),
    "qkv.dot.text": (
        "How much should “Thinking” attend to each word? Take its query q₁ and the dot product with every key. "
        "A larger score means that key matches what the query is looking for better."
    ),
    "qkv.scale.text": (
        "Both scores are divided by {root}. Why {root}? It is √d_k with **the paper's d_k = {d_k}** (d_model = "
        "{d_model} split over {heads} heads) — not the width of these toy vectors, which is {width}. The "
        "Illustrated Transformer borrowed the paper's divisor for its example, and study notes that retell it "
        "copy the {root}, some calling it an engineering detail with nothing to explain. There is a reason, on "
        "the page “Why divide by √d_k”: if the entries of q and k have variance 1, q·k has variance d_k, and "
        "dividing by √d_k keeps the scores from pushing the softmax into saturation. These small integers are "
        "not such vectors, so that argument does not decide their divisor: the {root} here is simply borrowed."
    ),
    "qkv.scale.alt": (
        "With the toy vectors' own d_k = {d} the divisor would be √{d} ≈ {root}: scaled scores {a} and {b}, softmax "
        "{wa} and {wb} — nearly all the weight on one word."
    ),
    "qkv.softmax.text": (
        "Softmax turns the scaled scores {a} and {b} into weights that are positive and add up to 1. Only their "
        "difference matters ({a} − {b} = {diff}), which is why the first weight is 1 / (1 + e^−{diff})."
    ),
    "qkv.softmax.rounded": (
        "Rounded to two decimals: **{a}** and **{b}**, the numbers the Illustrated Transformer shows."
    ),
    "qkv.sum.text": (
        "The output z₁ for “Thinking” is the weighted sum of the value vectors. This page uses the exact softmax "
        "weights {wa} and {wb}; the Illustrated Transformer rounds them to {ra} and {rb}."
    ),
    "qkv.fig.sum.title": "Weighted sum: each key's weight × v, stacked per dimension; ◆ = their sum",
    "qkv.fig.dim": "dimension of v",
    "qkv.fig.output": "output (the sum)",
    "qkv.fig.dot": "① q·k for every key",
    "qkv.fig.scaled": "② ÷ √d_k = {root} (masked keys: −∞)",
    "qkv.fig.weights": "③ softmax: the attention weights (sum to 1)",
    "qkv.fig.words": "k₁, k₂: the keys of “{a}” and “{b}”; q₁ is the query of “{a}”.",
    "qkv.fig.example.scaled": "② ÷ √d_k = {root}",
    "qkv.fig.example.dot": "① q₁ · k",
    "qkv.fig.example.weights": "③ softmax: the weights",
    "qkv.tab.matrix": "2 · The matrix form: both words at once",
    "qkv.matrix.text": (
        "Stack the words as rows: X ({w}×{n}) gives Q, K, V ({w}×{m}) in one multiplication each. QKᵀ is a {w}×{w} table of "
        "every query against every key (rows = queries, columns = keys); its first row holds the two scores above. "
        "Divide by √d_k = {root}, take the softmax of each row, multiply by V: row 1 of Z is z₁ for “Thinking”, "
        "row 2 is z₂ for “Machines”."
    ),
    "qkv.matrix.index": "query ↓ · key →",
    "qkv.matrix.check": (
        "Row 1 of QKᵀ holds {a} and {b}, and row 1 of Z equals z₁ from the step-by-step computation "
        "(largest difference {diff})."
    ),
    "qkv.tab.live": "3 · Your sentence, on the real model",
    "qkv.live.explain.encoder_self": (
        "Layer {layer}, head {head} of the **encoder**: queries, keys and values are three projections of the "
        "same vectors, one per source token — in layer 1 each token's embedding plus its positional encoding, in "
        "every higher layer the previous encoder layer's output at that position. Each head works with d_head = "
        "{d} numbers, so the scores are divided by √{d} = {root}. Nothing is masked (a single sentence has no "
        "padding)."
    ),
    "qkv.live.explain.decoder_self": (
        "Layer {layer}, head {head} of the **decoder's self-attention**: queries, keys and values are "
        "projections of one vector per decoder input token (`<s>` then the translation so far) — in layer 1 its "
        "embedding plus positional encoding, in every higher layer the previous decoder layer's output. Scores "
        "are divided by √{d} = {root}; the causal mask hides every later token (−∞ before the softmax)."
    ),
    "qkv.live.explain.cross": (
        "Layer {layer}, head {head} of the **cross-attention**: the query is projected from the decoder's vector "
        "for a target token (this layer's masked self-attention output, after its residual connection and "
        "LayerNorm); keys and values are projected from the encoder's final output (one vector per source token, "
        "the same for every decoder layer). Scores are divided by √{d} = {root}."
    ),
    "qkv.live.q": "The query q of the chosen token ({d} numbers, projected by this head's slice of W_Q):",
    "qkv.live.marian": (
        "q = x·W_Q + b_Q: this head's slice of the projection, bias included. Marian's own code multiplies q by "
        "1/√d_head = {inv} right after the projection instead of dividing the scores by {root}; the weights are the "
        "same numbers (the tests compare them with transformers' to 1e-5)."
    ),
    "qkv.live.kv": "Show every key k and value v of this head",
    "qkv.live.table": "Per key: the dot product, scaled, the mask (1 = may attend), masked, softmax — and the weight the model returned:",
    "qkv.live.col.dot": "q·k",
    "qkv.live.col.scaled": "÷ √d_head",
    "qkv.live.col.allowed": "may attend",
    "qkv.live.col.masked": "masked",
    "qkv.live.col.weight": "softmax",
    "qkv.live.col.model": "model's weight",
    "qkv.live.output": "The head's output for this query: the weighted sum of the value vectors.",
    "qkv.live.check": (
        "Check: the weights recomputed here equal the attention the model returned — largest difference {diff} for "
        "this query, {whole} over all {n} queries of the head."
    ),
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
    # ---- positional encoding
    "pe.title": "Positional encoding",
    "pe.intro": (
        "Attention by itself ignores order: shuffle the tokens and every token gets the same output, shuffled. "
        "So before the first layer each token's embedding gets a position vector PE(pos) added to it. The paper uses "
        "fixed sines and cosines: dimension pair i turns at its own speed ω_i = 1/10000^(2i/d_model), from one turn "
        "every 2π ≈ {fast} positions (i = 0) to one turn every 2π·10000^((d_model−2)/d_model) positions for the last "
        "pair (i = d_model/2 − 1): {slow} for this model's d_model = {d}. (2π·10000 is only the limit for very large d_model.)"
    ),
    "pe.tab.note": "4 · A common slip",
    "pe.note.text": (
        "Some study notes print the cosine as cos(pos / 10,000^{{2i+1 / d_model}}) and compute 10000 ** (2 * i + "
        "1 / d_model) in a snippet with pos = {pos} and d_model = {d}. Read as printed, that exponent is 2i + "
        "1/d_model; read as probably meant, (2i+1)/d_model. Both are wrong. The paper uses the **same** exponent "
        "2i/d_model for the sine and the cosine of a pair: PE(pos, 2i+1) = cos(pos / 10000^(2i/d_model)). Only "
        "then do the two share one frequency, which is what makes PE(pos + k) a rotation of PE(pos) (section 2). "
        "This model and every number on this page follow the paper."
    ),
    "pe.note.eq": "as sometimes printed:",
    "pe.note.paper": "paper: cos exponent 2i/d",
    "pe.note.literal": "as printed: 2i + 1/d",
    "pe.note.meant": "as probably meant: (2i+1)/d",
    "pe.note.diff": "as printed − as meant",
    "pe.note.parts": (
        "“As printed” and “as probably meant” part only at dimension {dims}, by {diffs}: to 4 decimals both read "
        "the same, so the table shows {decimals} decimals and their difference."
    ),
    "pe.note.table": (
        "PE(pos = {pos}) with d_model = {d}, the snippet's size, computed three ways (columns are dimensions):"
    ),
    "pe.note.rotation": (
        "The rotation test of section 2 (largest error of PE(pos+1) = R·PE(pos) over {n} positions): paper "
        "{paper}; as printed {literal}; as probably meant {meant}. With another exponent for the cosine there is "
        "no such rotation."
    ),
    "pe.tab.matrix": "1 · The PE matrix",
    "pe.length": "Positions",
    "pe.d_model": "d_model",
    "pe.matrix.model": (
        "Defaults are the chosen model's own size (d_model = {d}, up to {length} positions). This table is computed "
        "here with NumPy; it equals the model's model.sinusoidal_table to {diff}."
    ),
    "pe.matrix.halves": (
        "This model (Marian) stores the same numbers in another order: all sin columns, then all cos columns "
        "(PE(pos, 2i) in column i, PE(pos, 2i+1) in column d_model/2 + i). Reordered, this table equals its table to "
        "{diff}. The order changes nothing the model computes: its weights were learned for that order."
    ),
    "pe.matrix.fig": "PE for {length} positions × {d} dimensions (rows = positions, columns = dimensions)",
    "pe.axis.pos": "position pos",
    "pe.axis.dim": "dimension (even = sin, odd = cos)",
    "pe.axis.pos_a": "position a",
    "pe.axis.pos_b": "position b",
    "pe.matrix.text": (
        "Left columns change fast from row to row (dimension pair 0 repeats every {fast} positions): fine, local "
        "position. Right columns change slowly (the last pair would need about {slow} positions for one turn): "
        "coarse, global position. Every row is different, so every position gets its own pattern."
    ),
    "pe.curves.header": "Chosen dimensions as curves",
    "pe.curves.pick": "Dimensions",
    "pe.curves.name": "dim {dim} = {fn}(pos·ω_{i}), period {period}",
    "pe.curves.fig": "PE value against position (solid = sin, dashed = cos)",
    "pe.sim.header": "Position-by-position similarity",
    "pe.sim.text": (
        "The dot product PE(a)·PE(b) = Σ_i cos((a−b)·ω_i) depends only on the distance a − b: bands parallel to the "
        "diagonal. It is largest on the diagonal ({norm2} = d_model/2) and falls off with distance."
    ),
    "pe.sim.fig": "PE(a)·PE(b) for every pair of positions",
    "pe.tab.rot": "2 · A rotation",
    "pe.rot.text": (
        "Each (sin, cos) pair is a point on a circle that turns by the angle ω_i per position. Moving k positions "
        "turns it by kω_i — the same rotation for every pos. So PE(pos+k) is a fixed linear function of PE(pos): "
        "the reason the paper gives for choosing sinusoids (a model can learn to attend by relative offset)."
    ),
    "pe.rot.k": "Offset k",
    "pe.rot.pos": "Position pos",
    "pe.rot.pair": "Dimension pair i",
    "pe.rot.check": (
        "Checked numerically: with the same rotations for every position, R_k·PE(pos) reproduces PE(pos+{k}) for {n:the|all} "
        "{n} {n:position|positions} and all {d} dimensions; largest error {err}."
    ),
    "pe.rot.fig": "Pair {pair} (dimensions {a}, {b}) of every position: points on the unit circle",
    "pe.rot.sin": "PE dimension {a} (sin)",
    "pe.rot.cos": "PE dimension {b} (cos)",
    "pe.rot.start": "PE(pos)",
    "pe.rot.end": "PE(pos + k)",
    "pe.rot.path": "all positions",
    "pe.tab.size": "3 · PE vs embeddings",
    "pe.size.text": (
        "PE and the embedding are added, so their sizes matter. Every PE row has length √(d_model/2) = {pe} "
        "(each pair is a point on the unit circle). The model multiplies its embeddings by √d_model = {root} "
        "before adding PE (paper §3.4), so that the words are not drowned out by their positions. On your "
        "sentence the scaled embeddings have an average length of {emb}."
    ),
    "pe.size.fig": "Length of each token's scaled embedding and of its position's PE",
    "pe.size.tokens": "source tokens (position: token)",
    "pe.size.emb": "‖√d_model · embedding‖ (×{root})",
    "pe.size.pe": "‖PE(pos)‖",
    # ---- scaling
    "scaling.title": "Why divide by √d_k",
    "scaling.intro": (
        "A score is the sum of d_k products q_j·k_j. If the entries of q and k are independent with mean 0 and "
        "variance 1 (the paper's assumption, in its footnote 4), each product has variance 1 and the sum has "
        "variance d_k: the longer the vectors, the larger the scores. Dividing by √d_k brings the variance back "
        "to 1, whatever d_k is."
    ),
    "scaling.tex.when": "when a weight approaches 1 (and the others 0)",
    "scaling.dk": "d_k (numbers per query/key vector)",
    "scaling.var.header": "1 · The variance of q·k grows with d_k",
    "scaling.var.fig": "Variance of the score, from {samples} random pairs q, k per d_k (log–log)",
    "scaling.var.axis": "variance of the score",
    "scaling.var.raw": "q·k",
    "scaling.var.scaled": "q·k / √d_k",
    "scaling.var.theory": "theory: Var = d_k",
    "scaling.var.text": (
        "At d_k = {d} the sampled variance of q·k is {raw} (standard deviation {std}); after dividing by √d_k it "
        "is {scaled}. The dashed line marks the chosen d_k."
    ),
    "scaling.sat.header": "2 · Large scores saturate the softmax",
    "scaling.sat.fig": "One random query against {n} random keys, d_k = {d}",
    "scaling.sat.keys": "the {n} keys",
    "scaling.sat.weight": "softmax weight",
    "scaling.sat.raw": "softmax(q·k)",
    "scaling.sat.scaled": "softmax(q·k / {root})",
    "scaling.sat.text": (
        "Without scaling, the largest weight here is {top_raw}; with scaling, {top_scaled}. Averaged over {trials} random "
        "queries the largest weight is {mean_raw} unscaled and {mean_scaled} scaled (uniform would be {uniform}). "
        "A saturated softmax — one weight near 1, the rest near 0 — barely changes when the scores change: its "
        "largest gradient w(1 − w) is {grad_raw} unscaled against {grad_scaled} scaled, so training learns little "
        "through it. Move the d_k slider: the larger d_k, the stronger the effect."
    ),
    "scaling.toy.header": "3 · Back to the worked example",
    "scaling.toy.text": (
        "The worked example divides its scores {a} and {b} by {root} = √{d_k} and gets a first weight of {w8}. "
        "Divided by √{width} ≈ {root3}, the √d_k of its own vectors, the first weight would be {w3}: saturated. "
        "So it is the borrowed {root}, not the rule “divide by √d_k”, that keeps this example in the softmax's "
        "useful range. The rule rests on the assumption above: entries of q and k with mean 0 and variance 1, so "
        "that q·k has variance d_k. The toy entries are small integers with a mean square of {ms}, not 1, so "
        "their scores are far larger than √{width} and the argument does not apply to them. It applies to "
        "vectors like those of section 1, and there dividing by √d_k is what keeps the softmax out of saturation."
    ),
    # ---- multi-head shapes
    "multihead.title": "Multi-head attention: every tensor's shape",
    "multihead.intro": (
        "Multi-head attention runs h attentions side by side. It does not use h full-size projections: it projects "
        "once to the hidden size, cuts each vector into h equal slices of hidden / h numbers, lets each slice (head) "
        "attend on its own, and glues the h outputs back together before the output projection W^O. The total cost "
        "stays that of one full-width attention."
    ),
    "multihead.tab.doc": "2 · Work every shape out by hand",
    "multihead.doc.text": (
        "A walk-through that circulates in study notes: a batch of {batch} sentence pairs, {query_len} query "
        "words, {key_len} key/value words, hidden size {hidden}, {heads} heads. Change the numbers to see every "
        "shape change."
    ),
    "multihead.in.batch": "batch",
    "multihead.in.query_len": "query words",
    "multihead.in.key_len": "key words",
    "multihead.in.hidden": "hidden",
    "multihead.in.heads": "heads",
    "multihead.width": "{hidden} / {heads} = {d} {d:number|numbers} per head.",
    "multihead.indivisible": (
        "hidden = {hidden} cannot be split into {heads} heads: {hidden} / {heads} = {ratio} is not a whole number. "
        "view(batch, length, heads, hidden / heads) needs equal slices (and PyTorch's nn.MultiheadAttention refuses "
        "such sizes). Head counts that work for hidden = {hidden}: {valid}."
    ),
    "multihead.col.step": "step",
    "multihead.col.tensor": "tensor",
    "multihead.col.code": "code",
    "multihead.col.shape": "shape",
    "multihead.step.query_in": "input queries",
    "multihead.step.key_in": "input keys and values",
    "multihead.step.project_q": "project: Q = query·W_Q",
    "multihead.step.project_kv": "project: K = key·W_K, V = value·W_V",
    "multihead.step.split_q": "split Q into heads",
    "multihead.step.transpose_q": "heads to the front",
    "multihead.step.split_kv": "split K and V, heads to the front",
    "multihead.step.scores": "scores: every query × every key, per head",
    "multihead.step.weights": "softmax over the keys (last axis)",
    "multihead.step.heads_out": "weighted sum of V, per head",
    "multihead.step.transpose_back": "words to the front again",
    "multihead.step.concat": "concatenate the heads",
    "multihead.step.output": "output projection W^O",
    "multihead.why": (
        "**Why must hidden divide by heads?** The heads are slices of one vector: view() reshapes the last axis of "
        "size hidden into (heads, hidden / heads), which only works if every head gets the same whole number of "
        "dimensions. That is also what lets all heads run as one batched matrix multiplication."
    ),
    "multihead.doc.bugs": (
        "Two slips to watch for in versions of this walk-through. One builds nn.MultiheadAttention(embed_dim = "
        "{bad}, num_heads = 1) for vectors of {hidden} numbers; run here, PyTorch refuses: “{error}”. embed_dim "
        "must be {hidden}. And a hand-written version's comments on K, V and Q swap the word counts: Q has {lq} "
        "words ({q_in} → {q_heads}), K and V have {lk} ({k_in} → {k_heads})."
    ),
    "multihead.tab.live": "1 · The heads of the real model",
    "multihead.live.text": (
        "The shipped model has d_model = {d_model} and {heads} heads, so d_head = {d}. For your sentence the chosen "
        "attention has {tq} query tokens and {tk} key tokens (batch = 1)."
    ),
    "multihead.live.check": (
        "The model returned this attention with shape {shape} = (layers, heads, queries, keys): per layer and head, "
        "{scores} as in the table. One head's q is {q}; the heads side by side give Q of {full}."
    ),
    "multihead.live.fig": "Q of layer {layer}: one row per query token, columns cut into heads",
    "multihead.live.dim": "dimension of Q (d_model)",
    # ---- anatomy and training
    "anatomy.title": "Model anatomy and training",
    "anatomy.intro": (
        "The chosen model: d_model = H = {d}, {heads} heads, d_ff = {d_ff}, {enc} encoder layers and {dec} decoder "
        "layers, vocabularies of {vs} {source} and {vt} {target} tokens. Everything below is counted from that "
        "configuration and checked against the loaded model."
    ),
    "anatomy.tab.params": "1 · Parameters per component",
    "anatomy.col.component": "component",
    "anatomy.col.formula": "formula",
    "anatomy.col.each": "per copy",
    "anatomy.col.copies": "copies",
    "anatomy.col.total": "total (formula)",
    "anatomy.col.model": "counted in the model",
    "anatomy.part.src_embed": "source embedding",
    "anatomy.part.tgt_embed": "target embedding",
    "anatomy.part.tgt_embed_shared": "target embedding (the source's table, shared)",
    "anatomy.part.output_bias": "bias on the logits (Marian's final_logits_bias)",
    "anatomy.part.output_projection": "output projection (tied to the target embedding)",
    "anatomy.part.positional": "positional encoding (fixed sinusoids)",
    "anatomy.part.encoder.self_attn": "encoder self-attention",
    "anatomy.part.encoder.ffn": "encoder feed-forward",
    "anatomy.part.encoder.norms": "encoder LayerNorms",
    "anatomy.part.decoder.self_attn": "decoder masked self-attention",
    "anatomy.part.decoder.cross_attn": "decoder cross-attention",
    "anatomy.part.decoder.ffn": "decoder feed-forward",
    "anatomy.part.decoder.norms": "decoder LayerNorms",
    "anatomy.params.total": (
        "Total from the formulas: {formula}. Counted in the loaded model: {model}. Recorded by the training run: {logged}."
    ),
    "anatomy.params.fig": "Parameters per component (all layers together)",
    "anatomy.params.axis": "parameters",
    "anatomy.formula.header": "The usual count: 12H² + 13H per encoder layer",
    "anatomy.tex.attention": "attention",
    "anatomy.tex.norms": "2 LayerNorms",
    "anatomy.tex.decoder": "decoder layer",
    "anatomy.tex.cross": "cross-attention",
    "anatomy.tex.norm3": "3rd LayerNorm",
    "anatomy.formula.text": (
        "The usual count of an encoder layer assumes d_ff = 4H. This model has d_ff / H = {ratio}, so the "
        "formula applies: with H = {h}, 12H² + 13H = {formula}; summing the components gives {layer}; the "
        "model's first encoder layer holds {model} parameters."
    ),
    "anatomy.formula.text_other": (
        "The usual count of an encoder layer assumes d_ff = 4H. This model has d_ff / H = {ratio}, so the "
        "formula does not apply to it: with H = {h}, 12H² + 13H would be {formula}, while summing its components "
        "(FFN 2H·d_ff + d_ff + H) gives {layer}; the model's first encoder layer holds {model} parameters."
    ),
    "anatomy.formula.decoder": (
        "A decoder layer adds a cross-attention (its own W_Q, W_K, W_V, W_O: 4H² + 4H) and a third LayerNorm (2H): "
        "16H² + 19H = {formula}; from the components {layer}; counted in the model's first decoder layer: {model}."
    ),
    "anatomy.formula.note": (
        "A common slip in study notes: “VH + L(12H² + 13H)” labelled as the parameters of “each Transformer "
        "block”. That is the whole of a decoder-only model with L layers and one tied embedding; one block is "
        "12H² + 13H. An encoder–decoder model like this one has two embeddings, L encoder layers of 12H² + 13H "
        "and L decoder layers of 16H² + 19H. Like many implementations (output_proj = nn.Linear(d_model, V, "
        "bias=False) with its weight set to the embedding's), this model ties the output projection to the "
        "target embedding, so it adds no parameters. The paper shares one matrix three ways (source embedding, "
        "target embedding and output) over a joint vocabulary; with separate {source} and {target} vocabularies "
        "this model can share it only two ways."
    ),
    "anatomy.tab.flops": "2 · FLOPs for your sentence",
    "anatomy.flops.text": (
        "One pass over your sentence — {s} source tokens through the encoder, {t} target tokens through the "
        "decoder — costs about {total} floating-point operations ({mflops} million), counting 2·m·k·n for an "
        "(m×k)·(k×n) matrix product, the usual convention. For one encoder layer the usual estimate 24SH² + 4S²H "
        "gives {note}; counted part by part: {mine}."
    ),
    "anatomy.flops.fig": "Forward FLOPs by part (S = {s}, T = {t})",
    "anatomy.flop.encoder.projections": "encoder: W_Q, W_K, W_V, W_O",
    "anatomy.flop.encoder.scores_and_sum": "encoder: QKᵀ and weights·V",
    "anatomy.flop.encoder.ffn": "encoder: feed-forward",
    "anatomy.flop.decoder.self_projections": "decoder self-attention: W_Q, W_K, W_V, W_O",
    "anatomy.flop.decoder.self_scores_and_sum": "decoder self-attention: QKᵀ and weights·V",
    "anatomy.flop.decoder.cross_projections": "cross-attention: W_Q, W_O (target), W_K, W_V (source)",
    "anatomy.flop.decoder.cross_scores_and_sum": "cross-attention: QKᵀ and weights·V",
    "anatomy.flop.decoder.ffn": "decoder: feed-forward",
    "anatomy.flop.output_logits": "output projection to the vocabulary",
    "anatomy.flops.note": (
        "Study notes sometimes count “computing Q, K, V: 8BSH²”. Q, K and V take 6BSH²; the other 2BSH² is the "
        "output projection W_O. The total 24BSH² + 4BS²H per layer is right. For short sentences the H² terms "
        "dominate; the S² terms (the attention map itself) take over only once 4S²H > 24SH², that is once S > 6H."
    ),
    "anatomy.tab.lr": "3 · Learning rate and curves",
    "anatomy.lr.text": (
        "The paper's schedule (§5.3): the rate grows linearly for the first warmup = {warmup} steps, then falls "
        "like 1/√step. This run used factor = {factor} and d_model = {d}: the peak at step {warmup} is {peak}. "
        "The dots are the rates the training run actually logged."
    ),
    "anatomy.lr.fig": "Learning rate per training step",
    "anatomy.lr.formula": "formula",
    "anatomy.lr.logged": "logged by the training run",
    "anatomy.lr.warmup": "end of warm-up (step {w})",
    "anatomy.axis.step": "training step",
    "anatomy.axis.lr": "learning rate",
    "anatomy.axis.loss": "loss (nats per token)",
    "anatomy.axis.score": "score on the dev set",
    "anatomy.curves.header": "Training curves of the shipped checkpoint",
    "anatomy.curves.missing": "No training log found in {folder}: the curves appear once the checkpoint has its training_log.json.",
    "anatomy.curves.text": (
        "{steps} steps in {minutes} minutes on {hardware}. Best single evaluation: dev BLEU {bleu} (chrF {chrf}) at "
        "step {best_step}. {shipped}"
    ),
    "anatomy.curves.best": "That is the checkpoint the app loads.",
    "anatomy.curves.average": (
        "The app loads the average of the weights of epochs {first}–{last}, which scores dev BLEU {bleu} (chrF {chrf}): "
        "averaging the last epochs smooths out the noise of single steps."
    ),
    "anatomy.curves.fig": "Loss (left) and dev scores (right) against training step",
    "anatomy.curves.train": "training loss (with label smoothing)",
    "anatomy.curves.dev": "dev loss (plain cross-entropy)",
    "anatomy.tab.ls": "4 · Label smoothing",
    "anatomy.ls.eps": "ε (label smoothing)",
    "anatomy.ls.fig": "The target for a {c}-word vocabulary whose right answer is c0, ε = {eps}",
    "anatomy.ls.classes": "vocabulary entry",
    "anatomy.ls.prob": "target probability",
    "anatomy.ls.hard": "one-hot target",
    "anatomy.ls.smooth": "smoothed target",
    "anatomy.ls.text": (
        "Instead of asking for probability 1 on the right token, training asks for 1 − ε + ε/C and spreads ε "
        "over all C tokens, so the model is not pushed towards infinite confidence. This is what PyTorch's "
        "cross_entropy(label_smoothing = ε) computes; the paper uses ε = 0.1 (§5.4), this training run ε = "
        "{used}. With the real {target} vocabulary of C = {v} tokens and ε = {eps}, the right token's target is "
        "{top} and every other token's {rest}. A side effect: the training loss can never go below the smoothed "
        "target's entropy, {floor} nats per token, however good the model."
    ),
    # ---- topics: why several heads (multi-head page)
    "multihead.tab.why": "3 · Why several heads",
    "multihead.why.text": (
        "One head's weights for one query are one softmax row: numbers of at least 0 that add up to 1. Whatever it "
        "gives one key it takes from the others, so one head cannot give each of two keys nearly all of its weight: it "
        "can split it (0.49 and 0.49), but then each key gets about half. Two heads can give each key nearly all. In layer {layer} ({kind}) the two heads whose strongest keys lie furthest apart for one "
        "query are head {a} and head {b}, at query “{query}”: head {a} gives {wa} to “{ka}”, head {b} gives {wb} "
        "to “{kb}”."
    ),
    "multihead.why.average": (
        "Their average (grey) is what a single head would have to write to cover both keys: {avg_a} on “{ka}” and "
        "{avg_b} on “{kb}”, and its output would be one blend of those tokens' values. With two heads the layer keeps "
        "both, each at full strength: head {a}'s {d} numbers and head {b}'s sit side by side in the concatenation, "
        "and W^O can use each one on its own."
    ),
    "multihead.why.fig": "Layer {layer}, query “{query}”",
    "multihead.why.mean": "average of the two",
    "multihead.why.weight": "attention weight",
    # ---- topics: alternatives and extrapolation (positional page)
    "pe.tab.ext": "5 · Other schemes, longer input",
    "pe.ext.alternatives": (
        "| | how position enters | past the longest training sentence |\n"
        "|---|---|---|\n"
        "| **sinusoidal** (this model, the paper) | a fixed vector added to each embedding | defined at any "
        "position, but the layers never learned what the new positions look like |\n"
        "| **learned** (BERT, GPT-2) | a trained vector per position, added to the embedding | none: there is no "
        "vector for a position never trained |\n"
        "| **relative** (Shaw et al. 2018, T5) | a learned term per distance i − j, inside the attention scores | "
        "distances are clipped or bucketed, so long distances share what was learned |\n"
        "| **RoPE** (rotary: LLaMA, Qwen) | q and k rotated by their position, so q·k depends on position only through i − j (and still on q and k) | "
        "better than absolute, still weak far past the trained length unless the angles are rescaled |\n"
        "| **ALiBi** (Press et al. 2022) | no position vector: a penalty −m·\\|i − j\\| added to each score, m a fixed slope per head, not learned | "
        "extrapolates well: far keys simply get less attention |"
    ),
    "pe.ext.known": (
        "Our model's positional table has max_len = {max_len} positions: a source may have {room} tokens and "
        "</s>. The longest training pair has {src} source tokens and {tgt} target tokens, both with their end "
        "markers ({pairs} pairs, counted by `python -m evaluation.coverage` into the training log). Sines and "
        "cosines exist at every position, so the model runs on positions {src}–{last} too, but it never saw a "
        "token there in training."
    ),
    "pe.ext.unknown": (
        "Our model's positional table has max_len = {max_len} positions. Its training log does not record the "
        "longest training sentence, so the experiment below cannot say where the trained positions end: run "
        "`python -m evaluation.coverage --dev DEV.tsv --train TRAIN.tsv` on the training data to record it."
    ),
    "pe.ext.try": (
        "Tried live: your sentence followed by the app's example sentences (in the language the model reads), until it is longer than any "
        "training sentence: {tokens} source tokens, {past} of them at positions the model never saw in training. The "
        "chart: the cross-attention each source position receives, averaged over layers and heads and summed over "
        "the output steps."
    ),
    "pe.ext.result": (
        "Translated one by one, these {n} sentences give {parts} tokens in all; together, the model writes {whole} "
        "({coverage} % of them), with a mean confidence of {conf} in the tokens it chose (your sentence alone: "
        "{conf_one}). Source positions {src} and beyond are {token_share} % of the sentence and receive "
        "{attention_share} % of the cross-attention (all layers and heads)."
    ),
    "pe.ext.control": (
        "The same test within the trained length: the first {n} of these sentences ({tokens} tokens) give {whole} of "
        "their {parts} tokens ({coverage} %). Tatoeba's pairs are one sentence each, so several sentences in one "
        "already cost the model much of its output; the gap between the two percentages is what the extra length adds."
    ),
    "pe.ext.fig": "Cross-attention each source position receives",
    "pe.ext.alt_header": "Other ways to encode position",
    "pe.ext.position": "source position (the keys)",
    "pe.ext.received": "attention received",
    "pe.ext.limit": "longest training source: {n}",
    "pe.ext.caption.long": "The long sentence and the model's translation:",
    # ---- topics: why embeddings are multiplied by √d_model (scaling page)
    "scaling.tab.dk": "1 · Why divide by √d_k",
    "scaling.tab.emb": "2 · Why embeddings are multiplied by √d_model",
    "scaling.emb.text": (
        "Layer 1 reads embedding × √d_model + PE (paper §3.4; the model does the same). Every PE row has length "
        "√(d_model/2) = {pe}. The rows of the shipped model's source embedding table ({rows} tokens, padding left "
        "out) have a median length of {raw}: added as they are, they would be {ratio_raw} × the PE's length, and "
        "the position would drown the word. Multiplied by √{d} = {root} they have length {scaled}, {ratio_scaled} × "
        "the PE: the word leads, its position is a smaller signal on top. (Target table: {tgt_raw}, scaled {tgt_scaled}.)"
    ),
    "scaling.emb.init": (
        "Why the factor fits: the tables start with entries drawn from N(0, 1/d_model), rows of length about 1; "
        "× √d_model gives entries of variance 1, the same scale as PE's sines and cosines. Training let them grow, "
        "but not by much: the shipped model's median row is {raw} long in the source table and {tgt_raw} in the "
        "target table, against about 1 at the start. A model that shares its embedding table with the output layer wants small rows there (large "
        "ones make large logits), and the factor lets it keep them small."
    ),
    "scaling.emb.fig": "Typical lengths in layer 1's input (the shipped model)",
    "scaling.emb.bar": "median {table} embedding row × {factor}",
    "scaling.emb.source": "source",
    "scaling.emb.target": "target",
    "scaling.emb.pe": "PE row (every position)",
    "scaling.emb.length": "length (Euclidean norm)",
    # ---- topics: dead ReLU units (anatomy page)
    "anatomy.tab.dead": "5 · Dead ReLU units",
    "anatomy.dead.text": (
        "Each encoder layer's FFN has d_ff = {d_ff} hidden units, max(0, x·W1 + b1). A unit that is 0 for every "
        "token passes nothing on to W2: for those tokens it might as well not exist. On your sentence ({tokens} "
        "tokens) {dead} units never fire, layer by layer; on the app's {n} example sentences (in the language the model reads) "
        "({example_tokens} tokens) {example_dead}."
    ),
    "anatomy.dead.dev": (
        "On all {sentences} dev sentences (counted by `python -m evaluation.coverage` into the training log) the "
        "encoder's FFN layers use {used} of their {d_ff} units; the last one uses {last} ({share} %)."
    ),
    "anatomy.dead.no_dev": (
        "The training log has no dev-set count yet: `python -m evaluation.coverage --dev DEV.tsv --train TRAIN.tsv` "
        "records one."
    ),
    "anatomy.dead.note": (
        "A unit that never fires on any input gets no gradient through its ReLU, so its own weights stop changing: a “dead "
        "ReLU”. It is not necessarily gone for good: the layers before it keep training, so its inputs change and "
        "may lift it above 0 again. A unit silent on a few sentences may still fire on others, so a short sentence shows far more "
        "silent units than the dev set does."
    ),
    "anatomy.dead.swish": (
        "This model's FFN uses {activation}, which is 0 only at 0: none of its units is ever switched off, so "
        "there are no dead units to count."
    ),
    "anatomy.dead.fig": "FFN units that never fire (of {d_ff} per layer)",
    "anatomy.dead.layer": "encoder layer",
    "anatomy.dead.count": "units that never fire",
    "anatomy.dead.sentence": "your sentence",
    "anatomy.dead.examples": "the {n} example sentences",
    "anatomy.dead.devset": "dev set ({n} sentences)",
}
