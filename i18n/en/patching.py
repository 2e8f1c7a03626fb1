"""The "Which head carries it?" page: activation patching between two sentences, the logit lens and contrastive
attribution."""

STRINGS: dict[str, str] = {
    "nav.patching": "Which head carries it?",
    "patching.title": "Which head carries it?",
    "patching.intro": (
        "Attention shows where a head looks; patching tests what it carries. Translate a **clean** sentence and a "
        "**corrupted** one that differs in one word. Then run the corrupted sentence again, each time with one head's "
        "output (or one point of the residual stream) taken from the clean run, and see how far that brings back the "
        "clean answer: 0 = no effect, 1 = the clean answer restored."
    ),
    "patching.builtin": "Built-in pairs",
    "patching.clean": "Clean sentence",
    "patching.corrupt": "Corrupted sentence",
    "patching.run": "Patch",
    "patching.target": "Target",
    "patching.foil": "Foil",
    "patching.auto": "auto",
    "patching.view": "Show",
    "patching.target_help": (
        "A token of the clean translation: the metric reads its logit. Auto: where the two translations part."
    ),
    "patching.foil_help": "The token the target is compared with. Auto: what the corrupted run writes at that step.",
    "patching.slide_title": "Patching · {view} — {clean} / {corrupt}",
    "deck.bad.patching": "a slide's pair cannot be patched: {why}",  # a patching slide in a deck (decks.py)
    "patching.view.heads": "Heads",
    "patching.view.residual": "Residual stream",
    "patching.view.lens": "Logit lens",
    "patching.view.attribution": "Attribution",
    "patching.clean_line": "**Clean:** {sentence} → {translation}",
    "patching.corrupt_line": "**Corrupted:** {sentence} → {translation}",
    "patching.metric": (
        "Metric: logit({target}) − logit({foil}) at output step {step}, both runs fed the clean translation up to "
        "there: clean {clean}, corrupted {corrupt}."
    ),
    "patching.unpatched": (
        "The sentences have different token counts: these corrupted tokens have no counterpart and are never "
        "patched: {tokens}."
    ),
    "patching.kind.encoder_self": "Encoder self-attention",
    "patching.kind.decoder_self": "Decoder self-attention",
    "patching.kind.cross": "Cross-attention",
    "patching.side.encoder": "Encoder residual stream",
    "patching.side.decoder": "Decoder residual stream",
    "patching.embeddings": "embeddings",
    "patching.layer_n": "layer {n}",
    "patching.head_n": "H{n}",
    "patching.cell.head": "{kind}, layer {layer}, head {head}",
    "patching.cell.residual": "{side}, {point}, position {position}",
    "patching.axis.heads": "heads",
    "patching.axis.encoder_positions": "source positions (corrupted sentence's tokens)",
    "patching.axis.decoder_positions": "decoder positions (inputs: <s> and the clean translation so far)",
    "patching.axis.decoder_layers": "decoder layer whose output is read",
    "patching.axis.steps": "output step → token written",
    "patching.axis.source": "source tokens (clean sentence)",
    "patching.effect": "effect",
    "patching.hover": "{row} · {column}: effect {value}",
    "patching.heads.title": "Patching one head (rows: layers, columns: heads)",
    "patching.residual.title": "Patching one point of the residual stream (rows: layers, columns: positions)",
    "patching.lens.title": "Logit lens: each decoder layer's top token and its probability",
    "patching.attr.contrastive": "Why {target} and not {foil}?",
    "patching.attr.ordinary": "Why {target}?",
    "patching.attr.share": "share of |attribution|",
    "patching.caption.heads": (
        "Each cell: the corrupted sentence run with that one head's output (every position) taken from the clean "
        "run. Red brings the clean answer back; blue pushes further away. Click a cell, or choose it below, to "
        "translate the corrupted sentence with that patch."
    ),
    "patching.caption.residual": (
        "Each cell: the corrupted run with the residual stream at one layer and one position taken from the clean "
        "run (causal tracing, Meng et al. 2022). A blank cell has no counterpart in the clean sentence."
    ),
    "patching.caption.lens": (
        "Each decoder layer's output read through the output projection as if it were the last layer (the clean "
        "sentence). The last column is the model's own output."
    ),
    "patching.caption.attribution": (
        "Integrated gradients over the clean sentence's tokens: on the left of logit(target) − logit(foil) "
        "(Yin & Neubig 2022), on the right of the target's log-probability. Each bar is a share of its chart's total."
    ),
    "patching.limits": "What this does not show",
    "patching.limit.baseline": (
        "An effect depends on the corrupted sentence: another corruption of the same sentence can give other heads."
    ),
    "patching.limit.backup": (
        "Effects of heads do not add up: when one head is patched, others may compensate (backup heads), and two "
        "heads together can do more or less than the sum of each alone."
    ),
    "patching.limit.one_pair": (
        "One pair is one pair: a head with a large effect here may matter for nothing else. Try several pairs of "
        "the same kind before saying a head does a job."
    ),
    "patching.limit.lens": (
        "The logit lens reads intermediate layers through a projection they were not trained for, so an early "
        "layer may know more than its reading shows (Belrose et al. 2023)."
    ),
    "patching.cell_pick": "Patch one cell and translate",
    "patching.cell_none": "none",
    "patching.redecode.clean": "**Clean:** {translation}",
    "patching.redecode.corrupt": "**Corrupted:** {translation}",
    "patching.redecode.patched": "**Corrupted, with {cell} patched:** {translation}",
    "patching.guess.question": "Which head do you think carries it?",
    "patching.guess.kind": "Kind",
    "patching.guess.layer": "Layer",
    "patching.guess.head": "Head",
    "patching.guess.reveal": "Reveal",
    "patching.guess.toggle": "Guess first",
    "patching.guess.toggle_help": "Hide the head grids until you have guessed which head carries the difference.",
    "patching.guess.verdict": (
        "Your guess, {guess}, has effect {effect}: {rank} of {n}. The largest is {best} ({best_effect})."
    ),
    "patching.download": "CSV",
    "patching.error.identical": (
        "The two sentences are the same once read as the model reads them: nothing differs, so there is nothing "
        "to patch."
    ),
    "patching.error.same_token": (
        "The target and the foil are the same token ({token}): a token's logit minus its own is always 0. Choose a "
        "foil the corrupted sentence would write instead."
    ),
    "patching.error.no_difference": (
        "The two translations are the same at every step ({translation}): choose a target token of the clean "
        "translation and a foil to compare it with."
    ),
    "patching.error.too_long": (
        "Patching takes sentences of at most {limit} tokens each; this pair has {clean} and {corrupt}. Shorten them."
    ),
    "patching.error.not_trained_here": (
        "This page needs a model trained here (en-zh or zh-en): {checkpoint} is a converted Marian model. Choose "
        "one of ours in the sidebar."
    ),
    "patching.error.unknown_token": (
        "{token} is not one token of what this model writes: give one token of the translation as it is shown "
        "(e.g. {example})."
    ),
    "patching.error.target_missing": (
        "The clean translation ({translation}) does not write {token}: the target must be one of its tokens."
    ),
    "patching.error.no_effect": (
        "The logit difference {target} − {foil} is the same in the clean and the corrupted run ({diff}): there is "
        "nothing for a patch to restore. Choose another target or foil."
    ),
    "patching.error.no_cell": "There is no {cell} to patch in this model and pair.",
    "patching.error.input": "This sentence cannot be translated: {why}",
    "patching.study.title": "Built-in study, {kind}: {n} pairs",
    "patching.study.short.pronoun": "pronouns",
    "patching.study.short.adjective": "adjectives",
    "patching.study.kind.pronoun": "a pronoun swapped",
    "patching.study.kind.adjective": "an adjective swapped",
    "patching.study.couples_sep": ", ",
    "patching.study.couple": "{target} against {foil}",
    "patching.study.title_none": "Built-in study: not measured",
    "patching.study.none": "This model has no built-in study yet (one pair is one pair). Measure it with `{command}`.",
    "patching.study.intro": (
        "A large effect for one pair is one pair. Here {kept} pairs of one kind, {kind} ({couples}): {tried} tried, "
        "each kept only if the model writes the expected target and foil where the two "
        "translations part. Each cell is a head's mean effect over the pairs; hover over it for its 95 % bootstrap "
        "interval over pairs ({resamples} resamples)."
    ),
    "patching.study.figure": "Mean effect over {n} pairs: {kind}",
    "patching.study.colour": "mean effect",
    "patching.study.hover": (
        "{kind}, layer {layer}, head {head}: mean {mean} over {n} pairs, 95 % interval {low} to {high}"
    ),
    "patching.study.head": "{head} {mean} ({low} to {high})",
    "patching.study.consistent": (
        "Heads that matter consistently (interval excludes 0, mean at least {threshold}): {heads}."
    ),
    "patching.study.no_consistent": (
        "No head matters consistently: none has an interval excluding 0 with a mean of at least {threshold}."
    ),
    "patching.study.empty": "The model got none of the pairs right, so there is nothing to average.",
}
