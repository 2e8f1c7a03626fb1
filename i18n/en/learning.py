"""Watching attention being learned: the replay of the shipped model's training, and the live lab."""

STRINGS: dict[str, str] = {
    "nav.replay": "Replay: attention forming",
    "nav.lab": "Live lab: train a tiny model",
    # ---- replay
    "replay.title": "Replay: how attention was learned",
    "replay.intro": (
        "While the shipped model trained, it translated {probes} fixed probe sentences at {snapshots} moments "
        "(steps {first} to {last}) and kept every attention map. Untrained, its cross-attention spreads almost "
        "evenly over the source; training focuses it — in some heads on the word being translated, in others on "
        "one token for every row (a sink). The last snapshot holds the weights after epoch {last_epoch}; the "
        "shipped model is the {shipped}, not those weights: decoding greedily, as the snapshots did, it translates "
        "{differ} of the {probes} probes differently from the last snapshot, and its maps differ from the last "
        "frame's. Moving through the snapshots does not run the model."
    ),
    "replay.shipped_best": "weights of its best evaluation (step {step})",
    "replay.shipped_average": "average of the weights after epochs {first}–{last}",
    "replay.aligned": (
        "Opened on {layer}, {head}: in the last snapshot its strongest source token agrees on {agree} of {rows} rows "
        "with the average of all {heads} cross-attention heads, sinks included (the source token with the most "
        "weight in that average), the most among the heads that do not park more than half their rows on one "
        "token. That average is what the heads say together, not a word alignment: the probes have no gold "
        "alignment to check against. Low entropy alone would pick a sink: entropy measures how focused a row is, not whether it looks at the "
        "right word."
    ),
    "replay.probe": "Probe sentence",
    "replay.step": "Training step",
    "replay.now": (
        "Snapshot {n} of {total}, **step {step}** (epoch {epoch}): the model translated “{source}” as "
        "**{translation}**"
    ),
    "replay.now_dev": " · dev BLEU at this step: {bleu}",
    "replay.now_shipped": "The shipped model, decoding greedily as the snapshots did, writes: **{translation}**",
    "replay.untrained": (
        " — before any training step the weights are random, so every step's most probable token is the same one "
        "({token}), repeated until the length limit."
    ),
    "replay.map_title": "{kind}, {layer}, {head}, step {step}",
    "replay.share.header": "From uniform to focused",
    "replay.share.fig": "{kind}: entropy ÷ uniform entropy",
    "replay.share.axis": "H ÷ log n",
    "replay.share.uniform": "uniform",
    "replay.share.text": (
        "Each row of a map is a probability distribution over the n keys its query may see. Its entropy "
        "H = −Σ p·log p is log n when it spreads evenly and 0 when it reads one key only; the chart shows the mean "
        "of H ÷ log n over the rows, per layer (averaged over heads). {which}: {first} at step {first_step}"
        "{now}, lowest {lowest} (step {lowest_step})."
    ),
    "replay.share.now": ", {now} at step {step}",
    "replay.curves.header": "Where this step lies in training",
    "replay.curves.fig": "Loss (left) and dev scores (right); the dashed line is step {step}",
    "replay.corrupt": "The replay cannot be shown: {error} The model itself still translates on every other page; retraining writes a new snapshots file.",
    "replay.missing": (
        "The checkpoint in {folder} has no attention snapshots: it was trained before the trainer kept them. "
        "Training it again records them — the probe sentences' attention maps and translations before the first "
        "step, after each of the first two epochs and at every evaluation (every `--eval-every` epochs):"
    ),
    "replay.missing_probes": (
        "Add `--probe \"a sentence\"` (repeatable) to choose the probe sentences; without it the trainer uses "
        "its five default probes. The README's “Retraining” section has the full recipe."
    ),
    # ---- live lab
    "lab.title": "Live lab: watch a tiny Transformer learn",
    "lab.intro": (
        "The app's own Transformer, built tiny: d_model = {d}, {heads} heads, {layers} encoder and {layers} decoder "
        "layer, d_ff = {d_ff}: {params} parameters (the translation model: {big}). It learns a made-up task on strings "
        "of {symbols} letters, {batch} random strings a step, scored on {held_out} strings it never trains on; the "
        "page redraws every {every} steps."
    ),
    "lab.task": "Task",
    "lab.task.copy": "Copy",
    "lab.task.reverse": "Reverse",
    "lab.task.sort": "Sort",
    "lab.max_steps": "Steps at most",
    "lab.train": "Train",
    "lab.example": "Example: **{source}** → **{answer}**",
    "lab.status": (
        "Step {step} of {steps} · {seconds} s · loss {loss} · held-out: {exact} exactly right, {per_token} of letters"
    ),
    "lab.stopped.learned": (
        "Learned after {step} steps ({seconds} s): {exact} of the {held_out} held-out strings come out exactly "
        "right ({per_token} of letters)."
    ),
    "lab.stopped.steps": (
        "Stopped at the cap of {step} steps ({seconds} s): {exact} of the {held_out} held-out strings exactly right "
        "({per_token} of letters)."
    ),
    "lab.stopped.seconds": (
        "Stopped at the time cap ({seconds} s) after {step} steps: {exact} of the {held_out} held-out strings exactly right "
        "({per_token} of letters)."
    ),
    "lab.before": "Before training (step 0), {which}",
    "lab.after": "After {step} steps, {which}",
    "lab.press_train": "Press **Train**: the map of the trained model appears here, redrawn as it learns.",
    "lab.wrote": "Writes: {wrote} · held-out: {exact} exactly right, {per_token} of letters",
    "lab.aligned.copy": (
        "**A diagonal.** Layer {layer}, head {head} now gives {share} of its cross-attention, while writing answer "
        "letter i, to source letter i; before training it gave {before}, about what even attention over the {n} "
        "source tokens gives ({uniform})."
    ),
    "lab.aligned.reverse": (
        "**The anti-diagonal.** Layer {layer}, head {head} now gives {share} of its cross-attention, while writing "
        "answer letter i, to the mirror position n − 1 − i of the source; before training it gave {before}, about "
        "what even attention over the {n} source tokens gives ({uniform})."
    ),
    "lab.aligned.sort": (
        "**Sorting.** Layer {layer}, head {head} gives {share} of its cross-attention, while writing a letter, to "
        "the source position that letter comes from (before training {before}; even attention over {n} tokens: "
        "{uniform}). Sorting does not need that one position — the model can count letters instead — so the answers "
        "can be right while this share stays low."
    ),
    "lab.curves.fig": "{task}: training loss (left) and held-out accuracy (right)",
    "lab.axis.loss": "loss (nats per letter)",
    "lab.axis.accuracy": "held-out accuracy",
    "lab.curves.loss": "training loss",
    "lab.curves.exact": "strings exactly right",
    "lab.curves.per_token": "letters right",
    "lab.queued": "Waiting for your turn: {ahead} ahead of you in the queue (the server trains {runs} at a time, so everyone's translations stay quick). Your run starts by itself.",
    "lab.cancel": "Cancel",
    "lab.running": "Training… change the attention, layer or head at any time; the run goes on.",
    "lab.tested": (
        "**What is guaranteed.** The app's own checks train copy and reverse with these settings (at most {steps} "
        "steps and {seconds} s of computing, seed fixed: a run here with the same task is the same run) and requires "
        "at least {exact} of the held-out strings exactly right and one cross-attention head giving at least {share} "
        "of its weight to the source position each answer letter comes from; the untrained model gives about "
        "{uniform}."
    ),
}
