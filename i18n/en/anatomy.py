"""Model anatomy: parameters, tied embeddings, dead units: the page's strings."""

STRINGS: dict[str, str] = {
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
