"""Inside the Transformer: the student's sentence through every block of the encoder–decoder."""

STRINGS: dict[str, str] = {
    "nav.inside": "Inside the Transformer",
    "inside.title": "Inside the Transformer: your sentence, block by block",
    "inside.intro": (
        "The model of “Attention Is All You Need”: an encoder of **{enc} layers** reads the {source} sentence, a "
        "decoder of **{dec} layers** writes the {target} one, and every decoder layer reads the encoder's output "
        "through cross-attention. Every vector is d_model = {d} numbers; attention has {heads} heads; the FFN "
        "widens to d_ff = {dff}. Click a block of the diagram (or choose it below) to see your sentence's tensors "
        "there. Every number is the model's own, and next to it the same step recomputed from the checkpoint's "
        "weights, with the largest difference between the two."
    ),
    "inside.diagram.title": "The encoder–decoder Transformer: click a block",
    "inside.diagram.click": "click to open this block below",
    "inside.diagram.src_embed": "Source embedding × √d + positional encoding",
    "inside.diagram.tgt_embed": "Target embedding × √d + PE (shifted right)",
    "inside.diagram.self_attn": "Self-attention",
    "inside.diagram.masked_self_attn": "Masked self-attention",
    "inside.diagram.cross_attn": "Cross-attention",
    "inside.diagram.ffn": "Feed-forward",
    "inside.diagram.add_norm": "Add & Norm",
    "inside.diagram.encoder_layer": "Encoder layer {n}",
    "inside.diagram.decoder_layer": "Decoder layer {n}",
    "inside.diagram.memory": "Encoder output (to every decoder layer)",
    "inside.diagram.linear": "Linear: h · E_tgtᵀ (logits)",
    "inside.diagram.softmax": "Softmax → next token",
    "inside.diagram.tied": "same matrix (tied)",
    "inside.memory.note": (
        "This block's output {shape} is the **encoder output**: the cross-attention of each of the {dec} decoder "
        "layers computes its keys and values from it."
    ),
    "inside.pick.block": "Block",
    "inside.pick.token": "Token",
    "inside.block.src_embed": "Source embedding and positional encoding",
    "inside.block.tgt_embed": "Target embedding and positional encoding",
    "inside.block.output": "Output: linear projection and softmax",
    "inside.block.enc": "Encoder layer {n} · {part}",
    "inside.block.dec": "Decoder layer {n} · {part}",
    "inside.part.enc.self_attn": "self-attention, add & norm",
    "inside.part.enc.ffn": "feed-forward, add & norm",
    "inside.part.dec.self_attn": "masked self-attention, add & norm",
    "inside.part.dec.cross_attn": "cross-attention, add & norm",
    "inside.part.dec.ffn": "feed-forward, add & norm",
    "inside.axis.tokens": "tokens",
    "inside.axis.dims": "dimension",
    "inside.axis.value": "value",
    "inside.axis.candidate": "candidate next token",
    "inside.axis.prob": "probability",
    "inside.col.step": "step",
    "inside.col.shape": "shape",
    "inside.col.diff": "max |recomputed − model|",
    "inside.col.token": "token",
    "inside.col.mean_in": "μ before",
    "inside.col.var_in": "σ² before",
    "inside.col.mean_std": "μ normalised",
    "inside.col.var_std": "σ² normalised",
    "inside.col.mean_out": "μ after γ, β",
    "inside.col.var_out": "σ² after γ, β",
    "inside.col.candidate": "candidate",
    "inside.col.logit": "logit",
    "inside.col.prob": "probability (recomputed)",
    "inside.col.model_prob": "probability (model)",
    "inside.tensor.input": "x (layer input)",
    "inside.tensor.self_attn_out": "self-attention output",
    "inside.tensor.norm1": "after add & norm 1",
    "inside.tensor.cross_attn_out": "cross-attention output",
    "inside.tensor.norm2": "after add & norm 2",
    "inside.tensor.ffn_out": "FFN output",
    "inside.tensor.output": "layer output",
    "inside.vec.row": "row {id} of E",
    "inside.vec.onehot": "one-hot · E",
    "inside.vec.scaled": "× {root}",
    "inside.vec.pe": "PE at position {pos}",
    "inside.vec.sum": "× √d + PE (recomputed)",
    "inside.vec.model_input": "layer 1's input (model)",
    "inside.vec.recomputed": "recomputed",
    "inside.vec.returned_as": "the model's {name}",
    "inside.vec.returned": "the model's",
    "inside.vec.residual": "x + Sublayer(x)",
    "inside.vec.standardised": "(v − μ) / √(σ² + ε)",
    "inside.vec.layernorm": "γ ⊙ … + β (recomputed)",
    "inside.vec.model": "{name} (model)",
    "inside.panel.scaled": "E[token] × √d {s}",
    "inside.panel.pe": "positional encoding {s}",
    "inside.panel.input": "sum = layer 1's input {s}",
    # ---- embeddings
    "inside.embed.text": (
        "The embedding matrix E holds one row of d_model = {d} numbers per token of the {v}-token vocabulary: "
        "E is ({v} × {d}). Looking a token up takes its row — the same as multiplying a one-hot vector by E. The "
        "row is multiplied by √d_model = {root} = {scale}, and the positional encoding of the token's position is "
        "added: the {t} rows that result are the first layer's input."
    ),
    "inside.embed.shifted": (
        "The decoder's input is the translation **shifted right**: it starts with {first}, and each position reads "
        "the token before the one it must predict (see the output block)."
    ),
    "inside.embed.lookup": (
        "{token} has id **{id}**. As a one-hot vector it is {onehot}: {v} numbers, {ones} of them 1 (at {id}). "
        "One-hot {onehot} · E {table} = {row}, which is row {id} of E (largest difference {diff})."
    ),
    "inside.embed.check": (
        "Recomputed for all {t} tokens and {d} dimensions: one-hot · E and E[id] · √d + PE agree with the model's "
        "layer-1 input (largest difference {diff})."
    ),
    "inside.embed.fig": "Token rows × √d, positional encoding, and their sum (one row per token)",
    # ---- attention
    "inside.attn.enc.self_attn": (
        "Multi-head **scaled dot-product attention**, as the paper names it: every source token (query) looks at "
        "every source token (keys, values), {tq} × {tk} weights per head. Q, K and V are all projected from the "
        "layer's input x."
    ),
    "inside.attn.dec.self_attn": (
        "Multi-head **masked** scaled dot-product attention: decoder position i may only look at positions ≤ i "
        "(the mask M puts −∞ on later ones), {tq} × {tk} weights per head. Q, K and V come from the decoder's input."
    ),
    "inside.attn.dec.cross_attn": (
        "Cross-attention (the paper calls it “encoder–decoder attention”): the **queries come from the decoder** (this layer's output "
        "of add & norm 1), the **keys and values from the encoder's output** — the same encoder output in every "
        "decoder layer. {tq} target tokens × {tk} source tokens per head."
    ),
    "inside.attn.shapes": (
        "Shapes: x ({d} wide) is projected per head to q {q}, k and v {k}, with d_k = d_model / h = {d} / {h} = "
        "{dk}; the scores QKᵀ / √d_k (√{dk} = {root}) and the softmax weights are {w} per head; the {h} heads' "
        "outputs are concatenated to {concat} and multiplied by W^O: the sublayer's output is {out}."
    ),
    "inside.attn.qkv_link": "One head's Q·K·V step by step for your sentence: the page “{page}”",
    "inside.attn.step.q": "Q = x W_Q + b (per head)",
    "inside.attn.step.k": "K = x W_K + b (per head)",
    "inside.attn.step.v": "V = x W_V + b (per head)",
    "inside.attn.step.weights": "softmax(QKᵀ / √d_k) weights",
    "inside.attn.step.out": "Concat(heads) W^O + b",
    "inside.attn.check": "Every head's projections, weights and the sublayer's output, recomputed: largest difference {diff}.",
    # ---- FFN
    "inside.ffn.text": (
        "The position-wise feed-forward network applies the same two linear layers to every token on its own: "
        "d_model = {d} → d_ff = {dff} (**{ratio}** wider) → {d}, with **{act}** between them. x {x} → hidden {h} "
        "→ output {x}."
    ),
    "inside.act.relu": "ReLU, max(0, z) (the paper's)",
    "inside.act.swish": "swish, z · sigmoid(z) (Marian's, not the paper's ReLU)",
    "inside.ffn.hidden.relu": "For {token}, ReLU sets **{zero} of the {dff}** hidden numbers to exactly 0.",
    "inside.ffn.hidden.swish": "For {token}, **{negative} of the {dff}** hidden numbers are negative: swish lets small negative values through.",
    "inside.ffn.check": "FFN recomputed from linear1 and linear2's weights for every token: largest difference {diff}.",
    # ---- add & norm
    "inside.norm.header": "Residual add and LayerNorm",
    "inside.norm.text": (
        "The sublayer's output is **added** to its input (the residual connection), and the sum is normalised: "
        "LayerNorm({x} + {sub}) = {out}. LayerNorm takes each token's own mean μ and variance σ² over its d_model "
        "numbers, then scales and shifts with the learned γ and β (one pair per dimension)."
    ),
    "inside.norm.post": (
        "**Post-norm** — LayerNorm(x + Sublayer(x)) — is the paper's arrangement and this model's. Many later "
        "models use **pre-norm**, x + Sublayer(LayerNorm(x)), which trains more stably in deep stacks; there the "
        "residual stream is not normalised inside the layers — each sublayer reads a normalised copy and adds to "
        "the raw sum — and one final LayerNorm after the last layer normalises it before the output projection."
    ),
    "inside.norm.stats": "Each token's mean μ and variance σ² over its numbers: before normalising (x + Sublayer(x)), after it, and after γ and β:",
    "inside.norm.numbers": "The first numbers of {token}, step by step:",
    "inside.norm.check": "LayerNorm(x + Sublayer(x)) recomputed for every token: largest difference {diff}.",
    "inside.bn.title": "Why LayerNorm and not BatchNorm?",
    "inside.bn.text": (
        "BatchNorm takes each dimension's mean and variance over **every position of the batch**. Here your "
        "sentence ({n} tokens) is put in a batch with “{other}” ({m} tokens), the shorter one padded with zero "
        "vectors (padding positions: {pad}). Below, your first token's vector normalised (γ and β left out) "
        "four ways:"
    ),
    "inside.bn.ln_alone": "LayerNorm, sentence alone",
    "inside.bn.ln_batch": "LayerNorm, in the batch",
    "inside.bn.bn_alone": "BatchNorm, sentence alone",
    "inside.bn.bn_batch": "BatchNorm, padded batch",
    "inside.bn.bn_real": "BatchNorm, batch without padding",
    "inside.bn.result": (
        "LayerNorm gives the same numbers alone and in the batch (largest difference {ln}): each token uses only "
        "its own statistics. BatchNorm's change by up to {bn} when the other sentence and the padding join the "
        "batch, and still by {real} with the padding left out: the result for your sentence would depend on "
        "which sentences it was batched with, and on padding that means nothing. Sentences have different "
        "lengths, so Transformers normalise each token on its own. At inference BatchNorm does not use the "
        "batch at all: it uses **running statistics**, averages of the training batches' means and variances kept "
        "during training — padding included when the training batches were padded, and stale whenever the "
        "sentences a class types differ from the training data. LayerNorm keeps no running statistics: training "
        "and inference compute the same thing."
    ),
    # ---- output
    "inside.out.text": (
        "The last decoder layer's output h {h} is multiplied by the **transposed target embedding** E_tgtᵀ {e}: "
        "the output projection is tied to the embedding, so it adds no weights. The result is {logits}: one score "
        "(logit) per token of the {v}-token vocabulary at each of the {t} positions. Softmax turns each row into "
        "probabilities."
    ),
    "inside.out.bias": "This model also adds a learned bias b to the logits (output_bias).",
    "inside.out.no_bias": "This model adds no bias to the logits, as in the paper.",
    "inside.out.banned": (
        "Before the softmax the {n} token {n:id|ids} the search never chooses ({ids}: padding and the decoder's start "
        "token, and <unk> where the model's rules ban it) get a logit of −∞, as the search does: their probability is 0. "
        "Training does not do this: its softmax runs over the whole vocabulary, and the model only learns to give "
        "these tokens little probability, because no target ever contains them. The ban is a decoding rule, which "
        "is why the probabilities here can be a little higher than the raw softmax's."
    ),
    "inside.out.position": (
        "At {input} the model chose **{chosen}** with probability {prob} (recomputed); the model reported {model}."
    ),
    "inside.out.same_top": "the {k} most probable tokens recomputed are the model's {k}, in the same order",
    "inside.out.other_top": "but the {k} most probable tokens recomputed differ from the model's",
    "inside.out.check": (
        "Logits and softmax recomputed for all {t} positions: each chosen token's probability agrees with the "
        "model's (largest difference {diff}); {top}."
    ),
    "inside.tf.header": "Shifted right: teacher forcing and autoregressive decoding",
    "inside.tf.text": (
        "Position t of the decoder **reads** the token before the one it **predicts**. In training the reference "
        "translation is fed in shifted right (teacher forcing): every position is computed at once, the mask hides "
        "later tokens, and each prediction is scored against the next reference token. For your sentence:"
    ),
    "inside.tf.position": "position",
    "inside.tf.input": "reads (decoder input)",
    "inside.tf.target": "predicts (output)",
    "inside.tf.inference": (
        "At inference there is no reference: decoding is **autoregressive**. The model starts from <s> alone, "
        "predicts {first}, feeds that back as the next input ({second}), and so on until it predicts </s>. The "
        "numbers on this page come from one pass over the model's own output, which gives the same numbers as the "
        "step-by-step decoding (the “Decoding step by step” page steps through it)."
    ),
}
