"""Replay: watching attention being learned during the shipped model's training"""

STRINGS: dict[str, str] = {
    "nav.replay": "Replay: attention forming",
    "nav.lab": "Live lab: train a tiny model",
    # ---- replay
    "replay.title": "Replay: how attention was learned",
    "replay.intro": (
        "While the shipped model trained, it translated {probes} fixed probe sentences at {snapshots} moments "
        "(steps {first} to {last}) and kept every attention map. Untrained, its cross-attention spreads almost "
        "evenly over the source; training focuses it — in some heads each row on a source token of its own, in "
        "others every row on the same one (a sink); whether a row reads the word it translates the probes cannot "
        "say, having no gold alignment. The last snapshot holds the weights after epoch {last_epoch}; the "
        "shipped model is the {shipped}, not those weights: decoding greedily, as the snapshots did, it translates "
        "{differ} of the {probes} probes differently from the last snapshot, and its maps differ from the last "
        "frame's. Moving through the snapshots does not run the model."
    ),
    "replay.shipped_best": "weights of its best evaluation (step {step})",
    "replay.shipped_average": "average of the weights after epochs {first}–{last}",
    "replay.aligned.shown": "The map shows {layer}, {head}, the head closest to the average of all heads for this probe:",
    "replay.aligned.other": (
        "For this probe the head closest to the average of all heads is {layer}, {head} (the map shows {shown}; "
        "choose {layer}, {head} with the Layer and Head buttons to see it):"
    ),
    "replay.aligned": (
        "in the last snapshot its strongest source token agrees on {agree} of {rows} rows "
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
}
