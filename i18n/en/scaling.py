"""Why √d_k: the page's strings."""

STRINGS: dict[str, str] = {
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
}
