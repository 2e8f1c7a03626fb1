"""The live lab: a small Transformer trained in the browser"""

STRINGS: dict[str, str] = {
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
        "answer letter i (counting from 0), to its mirror, source letter {mirror} − i (the source's {letters} "
        "letters run from 0 to {mirror}); before training it gave {before}, about what even attention over the {n} "
        "source tokens, </s> included, gives ({uniform})."
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
    "lab.queued": "Waiting for your turn: {ahead} ahead of you in the queue (the server trains {runs} at a time, so everyone's translations stay quick). Your run starts by itself, in about {seconds} s.",
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
