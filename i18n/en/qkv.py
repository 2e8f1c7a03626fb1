"""Q·K·V: the worked example and the live walkthrough: the page's strings."""

STRINGS: dict[str, str] = {
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
}
