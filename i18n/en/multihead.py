"""Multi-head shapes: the page's strings."""

STRINGS: dict[str, str] = {
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
}
