"""The "How it was trained" page."""

STRINGS: dict[str, str] = {
    "nav.training": "How it was trained",
    "training.title": "How the shipped model was trained",
    "training.missing": (
        "The checkpoint in {folder} has no training log with its training settings: "
        "this page explains a run from its own log, so there is nothing to show."
    ),
    "training.intro": (
        "The model this app loads ({params} parameters) was trained on {pairs} {source}–{target} sentence pairs for "
        "{steps} steps ({epochs} epochs) in {minutes} minutes on {hardware}, in {precision}, and scored on {dev} dev "
        "pairs. Every number below comes from that run's training log (kept with the model), from the trainer's "
        "own code or from arithmetic shown on the page."
    ),
    "training.intro.bt": (
        "Of those pairs, {synthetic} are back-translated: {real_language} sentences from Tatoeba's other test sets, "
        "translated into {synthetic_language} by the {model} model and marked {tag}; the {real} real pairs were read "
        "{copies} times each. The model card says what was kept out of them (every test sentence) and what they gained."
    ),
    # ---- 1 · Adam
    "training.tab.adam": "1 · Adam",
    "training.adam.settings": (
        "Each training step computes the gradient g of the loss for every parameter θ, and Adam turns it into a "
        "step. **m** is a running mean of the gradient (momentum: noise from one batch to the next averages out; "
        "β₁ = {b1} remembers about the last {w1} steps). **v** is a running mean of the squared gradient: dividing "
        "by √v gives **every parameter its own step size**, so a parameter with tiny gradients (a rare word's "
        "embedding) moves as readily as one with large gradients. Both start at 0, which biases them towards 0 in "
        "the first steps; dividing by 1 − βᵗ (**bias correction**) removes that.\n\n"
        "The trainer builds PyTorch's Adam with **β₁ = {b1}, β₂ = {b2}, ε = {eps}** — the paper's values "
        "(§5.3), not PyTorch's defaults (β₂ = {default_b2}, ε = {default_eps}). β₂ = {b2} averages g² over "
        "about {w2} steps instead of {default_w2}, so the step sizes follow quickly when the gradients' scale "
        "changes, as it does early in training; ε = {eps} only keeps the division finite. Before each step the "
        "gradients of all parameters together are scaled down to a norm of at most {clip} "
        "(clip_grad_norm_), so one bad batch cannot throw the model far. That clipping is **ours, not the paper's**: "
        "its recipe (§5.3) has none. We added it because our batches are small (~{tokens} tokens against the "
        "paper's 25,000), so one unusual batch weighs more."
    ),
    "training.toy.header": "Adam against plain gradient descent on a toy loss",
    "training.toy.text": (
        "Two parameters and the loss ½·({a}·w₁² + {b}·w₂²): a valley {ratio} times steeper across (w₂) than along "
        "(w₁), starting at (w₁, w₂) = ({w1}, {w2}), {steps} steps each. Gradient descent (w ← w − lr·g) multiplies "
        "w₂ by 1 − lr·{b} each step: at lr = 2/{b} = {limit} it swings between ±w₂ forever, above that it diverges, "
        "so it runs at lr = {sgd_lr}; along the shallow "
        "direction its steps are then tiny. Adam runs at lr = {adam_lr} with the training run's β₁, β₂ and ε."
    ),
    "training.toy.sgd": "gradient descent, lr = {lr}",
    "training.toy.adam": "Adam, lr = {lr}",
    "training.toy.fig": "{steps} steps of each optimiser on the contours of the toy loss",
    "training.toy.loss": "loss",
    "training.toy.step": "step",
    "training.toy.update": "Δw",
    "training.toy.result": (
        "After {steps} steps the loss went from {start} to **{sgd}** with gradient descent (w₁ = {sgd_w1}) and to "
        "**{adam}** with Adam (w₁ = {adam_w1}). Adam's first three steps, number by number:"
    ),
    "training.toy.first": (
        "In step 1 the gradients are {g1} and {g2}, {ratio} times apart, yet both parameters move the same "
        "distance, each against the sign of its gradient: Δw₁ = {u1} and Δw₂ = {u2} (Δw = −lr·m̂/(√v̂ + ε), "
        "so |Δw| = lr = {lr}). Bias correction makes m̂₁ = g and √v̂₁ = |g| exactly, so the first step is "
        "Δw = −lr·g/|g|. Without it m₁ = {c1}·g and √v₁ = √{c2}·|g|, and the first step would be only "
        "{nobias} × lr."
    ),
    # ---- 2 · warm-up
    "training.tab.lr": "2 · LR schedule",
    "training.lr.text": (
        "Adam's step for a parameter is roughly bounded by lrate (previous section; approximately, not exactly: "
        "Kingma & Ba §2.1), so this schedule sets how far the "
        "model moves. This run: d_model = {d}, warmup = {warmup}, factor = {factor}. Step 1 uses {first}; the rate "
        "grows linearly to its peak at step = warmup, where both terms of min() are equal: "
        "factor · d_model^−0.5 · warmup^−0.5 = **{peak}**. The trainer logged {logged} at step {logged_step}. It then "
        "decays as 1/√step, down to {last} at the last step ({last_step})."
    ),
    "training.lr.fig": "Learning rate per step of this run (d_model = {d}, warmup = {warmup})",
    "training.lr.why": (
        "Why warm up: at the start the weights are random, Adam's running means have seen few gradients, and a "
        "full-size step would push the model somewhere it has trouble coming back from (post-norm Transformers "
        "like this one are known to diverge without warm-up). Why decay: later, smaller steps let the model settle "
        "into a minimum instead of bouncing around it."
    ),
    # ---- 3 · dropout
    "training.tab.dropout": "3 · Dropout",
    "training.dropout.embeddings": "token embedding × √d_model + positional encoding, before layer 1",
    "training.dropout.sublayers": (
        "each sublayer's output (attention, FFN), before the residual add and LayerNorm"
    ),
    "training.dropout.attention": "the attention weights, after softmax",
    "training.dropout.activation": "inside the FFN, after its {activation}",
    "training.dropout.text": (
        "These are the rates the model was built with (its config). The run used dropout {dropout} on "
        "embeddings and sublayer outputs; on the attention weights: {attention}; after the FFN's activation: {activation}. Token dropout (replacing input "
        "tokens by <unk>) was {token}. In training, dropout zeroes each value with probability p and multiplies "
        "the kept ones by 1/(1 − p) = {keep}, so that on average nothing changes. Here it is on the first {n} "
        "numbers of layer 1's input for the first token of your sentence:"
    ),
    "training.dropout.same": "not set on its own, so the same as the general rate",
    "training.dropout.row.input": "input",
    "training.dropout.row.kept": "kept (1) or dropped (0)",
    "training.dropout.row.train": "training: output",
    "training.dropout.row.mean": "training: mean of {n} draws",
    "training.dropout.row.eval": "inference: output",
    "training.dropout.row.dims": "dimension of {token}",
    "training.dropout.inference": (
        "At inference dropout is off: the app's model is in eval mode (Translator calls model.eval()), so every "
        "nn.Dropout passes its input through unchanged and the attention weights are used as computed. Because "
        "training rescaled the kept values, the output at inference already has the right size."
    ),
    # ---- 4 · label smoothing
    "training.tab.ls": "4 · Smoothing",
    "training.ls.text": (
        "This run used ε = {eps}. For the real {target} vocabulary of {v} tokens the target gives the right token "
        "{top} and every other token {rest}. Its entropy, {floor} nats per token, is the lowest training loss any "
        "model can reach; this run's lowest logged training loss, one batch's, was {lowest}."
    ),
    "training.ls.below": (
        "**Why the dev loss ({dev} at the end) is below the training loss ({train}, the mean of the {batches} "
        "{batches:batch loss|batch losses} logged in epoch {epoch}, the last complete one).** The two are not "
        "measured alike, and none of this means the dev sentences are easier."
    ),
    "training.ls.apart": (
        "**The dev loss ({dev} at the end) and the training loss ({train}, the mean of the {batches} "
        "{batches:batch loss|batch losses} logged in epoch {epoch}, the last complete one) are not measured alike.**"
    ),
    "training.ls.reasons": (
        "(1) Dropout is on while training: each logged training loss is that of a network with a share of its "
        "values zeroed (section 3), while the dev loss runs in eval mode with dropout off, the network at full "
        "strength. (2) The training loss is against the smoothed target, so it cannot go below {floor}; the dev "
        "loss is plain cross-entropy against the right token. (3) Each logged training loss is one batch's at "
        "its step, taken while the model was still improving during the epoch, while the dev loss is the whole "
        "dev set scored with the weights at the end of the epoch."
    ),
    # ---- 5 · batches
    "training.tab.batch": "5 · Batching",
    "training.batch.how": (
        "A batch is one tensor, so its shorter sentences are padded to the longest one, and padding costs compute "
        "without teaching anything. The trainer sorts the sentences by length (plus a little random "
        "noise, so batches differ from epoch to epoch), then fills each batch while batch size × longest "
        "sentence stays within a budget of {max_tokens} tokens, and shuffles the batches. The trainer batched its {train} "
        "training pairs this way; that data is not shipped with the app."
    ),
    "training.batch.source.dev": (
        "The statistics below are computed on the {n} dev pairs the run was scored on, tokenised with the "
        "model's own tokenizers and batched by the trainer's own code with this run's token budget, exactly as the trainer "
        "batched them for the dev loss. *Random* batches are built by the same function with the length sort "
        "turned off (a random order), under the same token budget."
    ),
    "training.batch.source.missing": (
        "The run's dev file is not on this machine, so the statistics below use the only sentences the app "
        "has: the {n} example and probe sentences, each paired with the model's own translation. That is far too "
        "few for reliable statistics; with the dev file present this section uses its pairs."
    ),
    "training.batch.axis": "tensor positions (source + decoder input)",
    "training.batch.real": "real tokens",
    "training.batch.padding": "padding",
    "training.batch.bucketed": "sorted by length (as the trainer does)",
    "training.batch.random": "random order, same budget",
    "training.batch.fig": "Padding in the batches of {n} sentence pairs, at most {max_tokens} tokens per batch",
    "training.batch.result": (
        "Sorted by length, the {n} pairs fill {b_batches} batches with {b_slots} tensor positions, {b_pad} of them "
        "padding. In random order they fill {r_batches} batches with {r_slots} positions, {r_pad} of them padding: "
        "{ratio} times as much computation for the same sentences. Per tensor, sorted against random: decoder input "
        "{b_tgt} against {r_tgt} padding, source {b_src} against {r_src}: the trainer sorts by the target's length, "
        "so the {source} sentences of a batch are only roughly alike in length."
    ),
    # ---- 6 · BLEU
    "training.tab.bleu": "6 · BLEU",
    "training.bleu.intro": (
        "BLEU compares a translation with a reference translation: which share of its 1-, 2-, 3- and 4-grams "
        "appear in the reference (each counted at most as often as the reference has it), combined by a "
        "geometric mean and multiplied by a brevity penalty so that a short, safe output cannot score high. "
        "The trainer scored with sacrebleu configured as {signature} (the log's BLEU signature): {tokenizer} "
        "This section uses the same configuration. Type a reference translation "
        "of your sentence, as you would translate it:"
    ),
    "training.bleu.reference": "Your reference translation ({target})",
    "training.bleu.tok.zh": "tok:zh splits Chinese into single characters.",
    "training.bleu.tok.en": "tok:13a splits English at spaces and punctuation: a token is a word or a punctuation mark.",
    "training.bleu.cleaned.zh": "It is cleaned and converted to Simplified characters as the dev references were.",
    "training.bleu.cleaned.en": "It is cleaned as the dev references were.",
    "training.bleu.placeholder": "Type how you would translate the sentence above",
    "training.bleu.reference_help": (
        "Your own translation of the {source} sentence. {cleaned}"
    ),
    "training.bleu.nosignature": "The training log records no BLEU signature, so this section cannot score as the trainer did.",
    "training.bleu.empty": "Type a reference translation above to see the model's translation scored against it, step by step.",
    "training.bleu.normalised.zh": "Your reference, cleaned and converted to Simplified as the dev references were:",
    "training.bleu.normalised.en": "Your reference, cleaned as the dev references were:",
    "training.bleu.unsupported": "This BLEU configuration cannot be recomputed step by step here: {error}",
    "training.bleu.hyp_tokens": "The model's translation (the hypothesis), as sacrebleu tokenises it:",
    "training.bleu.ref_tokens": "Your reference, as sacrebleu tokenises it:",
    "training.bleu.col.matches": "matches / n-grams",
    "training.bleu.col.precision": "precision pₙ (%)",
    "training.bleu.col.matched": "matched n-grams",
    "training.bleu.smoothed": (
        "* No n-gram of this order matched. Instead of 0 (which would make the whole score 0), the exp smoothing "
        "of the signature counts 1/(2ᵏ · n-grams), k the number of match-less orders so far."
    ),
    "training.bleu.zero.short": (
        "Why 0: the translation has fewer than {n} tokens, so it has no {n}-gram at all. Its {n}-gram precision is "
        "0 of 0, counted as 0, and one zero factor makes the geometric mean — and BLEU — 0. Smoothing only mends an "
        "order that has n-grams but no match. chrF, which counts character n-grams, still gives this pair {chrf}."
    ),
    "training.bleu.zero.nomatch": (
        "Why 0: not one n-gram of any order matched the reference, so there is nothing for smoothing to scale and "
        "BLEU is 0. chrF, which counts character n-grams, gives this pair {chrf}."
    ),
    "training.bleu.check": (
        "Step by step: **{mine}**. sacrebleu's own score for the same pair: **{theirs}**. The same number."
    ),
    "training.bleu.mismatch": "Step by step: {mine}, but sacrebleu says {theirs}: the recomputation above is wrong.",
    "training.bleu.noisy": (
        "Why one sentence's BLEU is noisy: the model's translation has {total} {total:4-gram|4-grams}, so one more or one fewer matching "
        "4-gram moves p₄ by {worth} points, and a single different token (a Chinese character, an English word) can break {affected} n-grams of orders 1 to "
        "{orders} at once. "
        "A correct translation worded differently from the reference can score near 0, and one reference can "
        "never list every correct wording. BLEU is meant for a whole test set."
    ),
    "training.bleu.dev.header": "What the dev BLEU in the log means",
    "training.bleu.dev.text": (
        "The log's BLEU is **corpus** BLEU over the {n} dev pairs: the matches and n-gram counts of all sentences "
        "are added up first and divided once, so no single sentence decides it. *Unseen* is the part of dev that is "
        "not within one word of a training pair ({unseen} pairs); it selects the checkpoint that ships."
    ),
    "training.bleu.dev.best": "best single evaluation: step {step} (epoch {epoch}), BLEU {bleu}, unseen {unseen} (greedy decoding)",
    "training.bleu.dev.average": (
        "average of the weights of epochs {first}–{last}: BLEU {bleu}, unseen {unseen} (greedy){chosen}"
    ),
    "training.bleu.dev.chosen": " — higher, so this average is the model the app loads",
    "training.bleu.dev.final": "the shipped weights with beam search ({beam} beams): BLEU {bleu}, unseen {unseen}",
    "training.bleu.dev.curves": "The training and dev curves of this run, evaluation by evaluation, are on the page “{page}”",
    # ---- 7 · BLEU's limits for Chinese
    "training.tab.bleuzh": "7 · BLEU, chrF",
    "training.bleuzh.intro": (
        "The dev BLEU of tab 6 is one number, and three choices stand behind it. **Tokens:** BLEU counts matching "
        "n-grams of tokens, and Chinese is written without spaces, so the trainer scored with sacrebleu configured "
        "as {signature}: tok:zh cuts Chinese into single characters. **One reference:** each dev sentence has one "
        "reference translation, so any other correct wording loses n-grams. **chrF** counts matching character "
        "n-grams (up to 6) instead, and gives partial credit where BLEU's 4-grams find nothing. Below, the app's "
        "own classroom sentences (never trained on) whose translation by the model "
        "differs from our reference; the first one shown is, among those not shorter than their reference (so that BLEU's brevity penalty plays no part), the one where chrF gives the most credit above BLEU. Read the "
        "two: is the model's wording wrong, or only different?"
    ),
    "training.bleuzh.intro.en": (
        "The dev BLEU of tab 6 is one number, and three choices stand behind it. **Tokens:** BLEU counts matching "
        "n-grams of tokens; the trainer scored with sacrebleu configured as {signature}: tok:13a splits English at "
        "spaces and punctuation, so a token is a whole word, and “dream” earns nothing against “dreams”. **One "
        "reference:** each dev sentence has one reference translation, so any other correct wording loses n-grams. "
        "**chrF** counts matching character n-grams (up to 6) instead, and gives partial credit where BLEU's "
        "4-grams find nothing. Below, the app's own classroom sentences (never trained on) whose translation by "
        "the model differs from our reference; the first one shown is, among those not shorter than their "
        "reference (so that BLEU's brevity penalty plays no part), the one where chrF gives the most credit above "
        "BLEU. Read the two: is the model's wording wrong, or only different?"
    ),
    "training.bleuzh.scores.en": (
        "Sentence BLEU on words: **{bleu}**; chrF: **{chrf}**. As 13a cuts it, the model's output is "
        "{n13a} {n13a:token|tokens}: [{words}]."
    ),
    "training.bleuzh.pick": "Sentence ({n} of {total} translated differently from the reference)",
    "training.bleuzh.col.what": "translation",
    "training.bleuzh.col.text": "{target}",
    "training.bleuzh.reference": "our one reference",
    "training.bleuzh.model": "the model (beam {beam})",
    "training.bleuzh.scores": (
        "Sentence BLEU on characters: **{bleu}**; chrF: **{chrf}**. On characters the model's output is the "
        "tokens [{zh}]. With sacrebleu's default tokenizer (13a), which splits only at spaces and ASCII punctuation, the same "
        "output is {n13a} {n13a:token|tokens}: [{words}]; no 4-gram, hardly a 1-gram, can match, and BLEU is **{bleu13a}**."
    ),
    "training.bleuzh.summary": (
        "Over the {n} of {total} classroom sentences the model translates differently from our reference, chrF is "
        "above sentence BLEU for {higher}: chrF is not always the kinder score (a wrong word shares no "
        "characters), but it never drops to 0 for a wording that shares characters without sharing 4 in a row. "
        "With only one reference, neither score can tell a paraphrase from an error: read the sentences."
    ),
    "training.bleuzh.all_exact": "The model translates all {n} classroom sentences exactly as our references: nothing to compare.",
    # ---- 8 · Label smoothing and calibration
    "training.tab.calib": "8 · Calibration",
    "training.calib.intro": (
        "Label smoothing (ε = {eps}, tab 4) trains the model to give the right token {top} instead of 1, and puts a "
        "floor of {floor} under the loss: it discourages certainty. Is the model's confidence then worth what it "
        "says? A **reliability curve** answers on sentences it never trained on: feed each dev pair's reference to "
        "the decoder as training does, take at every position the model's most probable next token, and sort the "
        "positions by its probability (the **confidence**) into bins. A calibrated model is right in each bin as "
        "often as it is confident there: its curve follows the diagonal. Below the diagonal it is over-confident, "
        "above it under-confident."
    ),
    "training.calib.missing": (
        "This checkpoint's training log has no reliability curve yet: it is computed on the dev pairs after "
        "training (the README says how)."
    ),
    "training.calib.fig": "Reliability on {pairs} dev pairs ({positions} output positions, teacher forcing)",
    "training.calib.confidence": "confidence (probability of the most probable token)",
    "training.calib.right": "share right (it is the reference's token)",
    "training.calib.model": "our model",
    "training.calib.ideal": "calibrated",
    "training.calib.positions": "positions",
    "training.calib.result": (
        "Expected calibration error (ECE), the positions' average distance from the diagonal, each bin weighted by "
        "its positions: **{ece}**. In {over} of the {bins} bins the model is right less often than it is confident. "
        "The top bin (confidence above {low}) holds {share} of all positions: mean confidence {conf}, right {right}."
    ),
    "training.calib.verdict.over": (
        "Smoothing aimed it at {top} for the right token in training; on new sentences it is still more sure than "
        "right in most bins, as a model that has seen its training pairs many times tends to be. The translate "
        "page's low-confidence marks use thresholds measured on dev for that reason."
    ),
    "training.calib.verdict.under": (
        "Smoothing aimed it at {top} for the right token in training, and on new sentences it is right at least as "
        "often as it is confident in most bins: smoothing's pull away from certainty shows."
    ),
    "training.calib.how": "Computed on the dev pairs after training, and kept in the checkpoint's training log.",
}
