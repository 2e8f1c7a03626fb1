"""Positional encoding: the page's strings."""

STRINGS: dict[str, str] = {
    # ---- positional encoding
    "positional.title": "Positional encoding",
    "positional.intro": (
        "Attention by itself ignores order: shuffle the tokens and every token gets the same output, shuffled. "
        "So before the first layer each token's embedding gets a position vector PE(pos) added to it. The paper uses "
        "fixed sines and cosines: dimension pair i turns at its own speed ω_i = 1/10000^(2i/d_model), from one turn "
        "every 2π ≈ {fast} positions (i = 0) to one turn every 2π·10000^((d_model−2)/d_model) positions for the last "
        "pair (i = d_model/2 − 1): {slow} for this model's d_model = {d}. (2π·10000 is only the limit for very large d_model.)"
    ),
    "positional.tab.note": "4 · A common slip",
    "positional.note.text": (
        "Some study notes print the cosine as cos(pos / 10,000^{{2i+1 / d_model}}) and compute 10000 ** (2 * i + "
        "1 / d_model) in a snippet with pos = {pos} and d_model = {d}. Read as printed, that exponent is 2i + "
        "1/d_model; read as probably meant, (2i+1)/d_model. Both are wrong. The paper uses the **same** exponent "
        "2i/d_model for the sine and the cosine of a pair: PE(pos, 2i+1) = cos(pos / 10000^(2i/d_model)). Only "
        "then do the two share one frequency, which is what makes PE(pos + k) a rotation of PE(pos) (section 2). "
        "This model and every number on this page follow the paper."
    ),
    "positional.note.eq": "as sometimes printed:",
    "positional.note.paper": "paper: cos exponent 2i/d",
    "positional.note.literal": "as printed: 2i + 1/d",
    "positional.note.meant": "as probably meant: (2i+1)/d",
    "positional.note.diff": "as printed − as meant",
    "positional.note.parts": (
        "“As printed” and “as probably meant” part only at dimension {dims}, by {diffs}: to 4 decimals both read "
        "the same, so the table shows {decimals} decimals and their difference."
    ),
    "positional.note.table": (
        "PE(pos = {pos}) with d_model = {d}, the snippet's size, computed three ways (columns are dimensions):"
    ),
    "positional.note.rotation": (
        "The rotation test of section 2 (largest error of PE(pos+1) = R·PE(pos) over {n} positions): paper "
        "{paper}; as printed {literal}; as probably meant {meant}. With another exponent for the cosine there is "
        "no such rotation."
    ),
    "positional.tab.matrix": "1 · The PE matrix",
    "positional.length": "Positions",
    "positional.d_model": "d_model",
    "positional.matrix.model": (
        "Defaults are the chosen model's own size (d_model = {d}, up to {length} positions). This table is computed "
        "here with NumPy; it equals the model's model.sinusoidal_table to {diff}."
    ),
    "positional.matrix.halves": (
        "This model (Marian) stores the same numbers in another order: all sin columns, then all cos columns "
        "(PE(pos, 2i) in column i, PE(pos, 2i+1) in column d_model/2 + i). Reordered, this table equals its table to "
        "{diff}. The order changes nothing the model computes: its weights were learned for that order."
    ),
    "positional.matrix.fig": "PE for {length} positions × {d} dimensions (rows = positions, columns = dimensions)",
    "positional.axis.pos": "position pos",
    "positional.axis.dim": "dimension (even = sin, odd = cos)",
    "positional.axis.pos_a": "position a",
    "positional.axis.pos_b": "position b",
    "positional.matrix.text": (
        "Left columns change fast from row to row (dimension pair 0 repeats every {fast} positions): fine, local "
        "position. Right columns change slowly (the last pair would need about {slow} positions for one turn): "
        "coarse, global position. Every row is different, so every position gets its own pattern."
    ),
    "positional.curves.header": "Chosen dimensions as curves",
    "positional.curves.pick": "Dimensions",
    "positional.curves.name": "dim {dim} = {fn}(pos·ω_{i}), period {period}",
    "positional.curves.fig": "PE value against position (solid = sin, dashed = cos)",
    "positional.sim.header": "Position-by-position similarity",
    "positional.sim.text": (
        "The dot product PE(a)·PE(b) = Σ_i cos((a−b)·ω_i) depends only on the distance a − b: bands parallel to the "
        "diagonal. It is largest on the diagonal ({norm2} = d_model/2) and falls off with distance."
    ),
    "positional.sim.fig": "PE(a)·PE(b) for every pair of positions",
    "positional.tab.rot": "2 · A rotation",
    "positional.rot.text": (
        "Each (sin, cos) pair is a point on a circle that turns by the angle ω_i per position. Moving k positions "
        "turns it by kω_i — the same rotation for every pos. So PE(pos+k) is a fixed linear function of PE(pos): "
        "the reason the paper gives for choosing sinusoids (a model can learn to attend by relative offset)."
    ),
    "positional.rot.k": "Offset k",
    "positional.rot.pos": "Position pos",
    "positional.rot.pair": "Dimension pair i",
    "positional.rot.check": (
        "Checked numerically: with the same rotations for every position, R_k·PE(pos) reproduces PE(pos+{k}) for {n:the|all} "
        "{n} {n:position|positions} and all {d} dimensions; largest error {err}."
    ),
    "positional.rot.fig": "Pair {pair} (dimensions {a}, {b}) of every position: points on the unit circle",
    "positional.rot.sin": "PE dimension {a} (sin)",
    "positional.rot.cos": "PE dimension {b} (cos)",
    "positional.rot.start": "PE(pos)",
    "positional.rot.end": "PE(pos + k)",
    "positional.rot.path": "all positions",
    "positional.tab.size": "3 · PE vs embeddings",
    "positional.size.text": (
        "PE and the embedding are added, so their sizes matter. Every PE row has length √(d_model/2) = {pe} "
        "(each pair is a point on the unit circle). The model multiplies its embeddings by √d_model = {root} "
        "before adding PE (paper §3.4), so that the words are not drowned out by their positions. On your "
        "sentence the scaled embeddings have an average length of {emb}."
    ),
    "positional.size.fig": "Length of each token's scaled embedding and of its position's PE",
    "positional.size.tokens": "source tokens (position: token)",
    "positional.size.emb": "‖√d_model · embedding‖ (×{root})",
    "positional.size.pe": "‖PE(pos)‖",
    # ---- topics: alternatives and extrapolation (positional page)
    "positional.tab.ext": "5 · Other schemes, longer input",
    "positional.ext.alternatives": (
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
    "positional.ext.known": (
        "Our model's positional table has max_len = {max_len} positions: a source may have {room} tokens and "
        "</s>. The longest training pair has {src} source tokens and {tgt} target tokens, both with their end "
        "markers ({pairs} pairs, counted by `python -m evaluation.coverage` into the training log). Sines and "
        "cosines exist at every position, so the model runs on positions {src}–{last} too, but it never saw a "
        "token there in training."
    ),
    "positional.ext.unknown": (
        "Our model's positional table has max_len = {max_len} positions. Its training log does not record the "
        "longest training sentence, so the experiment below cannot say where the trained positions end: run "
        "`python -m evaluation.coverage --dev DEV.tsv --train TRAIN.tsv` on the training data to record it."
    ),
    "positional.ext.try": (
        "Tried live: your sentence followed by the app's example sentences (in the language the model reads), until it is longer than any "
        "training sentence: {tokens} source tokens, {past} of them at positions the model never saw in training. The "
        "chart: the cross-attention each source position receives, averaged over layers and heads and summed over "
        "the output steps."
    ),
    "positional.ext.result": (
        "Translated one by one, these {n} sentences give {parts} tokens in all; together, the model writes {whole} "
        "({coverage} % of them), with a mean confidence of {conf} in the tokens it chose (your sentence alone: "
        "{conf_one}). Source positions {src} and beyond are {token_share} % of the sentence and receive "
        "{attention_share} % of the cross-attention (all layers and heads)."
    ),
    "positional.ext.control": (
        "The same test within the trained length: the first {n} of these sentences ({tokens} tokens) give {whole} of "
        "their {parts} tokens ({coverage} %). Tatoeba's pairs are one sentence each, so several sentences in one "
        "already cost the model much of its output; the gap between the two percentages is what the extra length adds."
    ),
    "positional.ext.fig": "Cross-attention each source position receives",
    "positional.ext.alt_header": "Other ways to encode position",
    "positional.ext.position": "source position (the keys)",
    "positional.ext.received": "attention received",
    "positional.ext.limit": "longest training source: {n}",
    "positional.ext.caption.long": "The long sentence and the model's translation:",
}
