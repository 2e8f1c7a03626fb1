"""Translate page, attention explorer and step-by-step decoding."""

STRINGS: dict[str, str] = {
    # Translate page
    "translate.title": "Translate a sentence, then look inside",
    "translate.intro": (
        "Type a sentence in {source}: the Transformer translates it into {target}, and every attention map it "
        "computed opens below."
    ),
    "translate.input": "Sentence to translate",
    "translate.input_in": "{source} sentence",  # the sentence box's placeholder: the language the model reads
    "translate.submit": "Translate",
    "translate.examples": "Or try an example",
    "cache.translating": "Translating…",
    "cache.attributing": "Attributing…",
    "translate.examples_button": "Examples",
    # Under the translation, for a Chinese source (model/translation/chinese_names.py): names it cannot read; short
    # (the map below stays on the first screen), the why in the translation's tooltip.
    "translate.names_unread": "Likely a name it never learned, read as ordinary characters: {names}.",
    "translate.names_unread_help": (
        "The Chinese sentences this model learned from (Tatoeba) name almost no one but 汤姆 (Tom) and 玛丽 (Mary), "
        "so it reads a name it never saw as ordinary characters: the translation may drop the name or turn it into "
        "other words (the model card's Limits)."
    ),
    "translate.translation": "Translation",
    "translate.details": "checkpoint {checkpoint} · device {device} · beam size {beam} · {S} source tokens · {T} target tokens",
    "translate.source_tokens": "Source tokens ({language}, encoder input, {n})",
    "translate.target_tokens": "Target tokens ({language}, decoder input, {n})",
    "translate.tokens_help": (
        "Chinese is split into single characters, English into word pieces. </s> ends the source; the decoder "
        "starts from <s> and, at each position, predicts the next target token."
    ),
    "chips.position": "position {n}",
    "tokens.word_start": "▁ marks the start of an English word: ▁have begins a word, a token without ▁ continues the one before it.",
    "tokens.bytes": (
        "Byte tokens ({runs}): a character the tokenizer never saw in the training sentences has no token of its "
        "own, so it is spelled as its UTF-8 bytes, one token per byte. The model never met these tokens in training "
        "either, so what it makes of them is a guess."
    ),
    # What this model knows (numbers from the checkpoint's training log)
    "knows.data": "**What this model knows:** it learned to translate {source} into {target} from {pairs} short everyday sentence pairs (Tatoeba).",
    "translate.intro_marian": (
        "Type a sentence. The model chosen in the sidebar is a production Marian (opus-mt) Transformer, converted into "
        "this app's Transformer code; below its translation you can open every attention map it computed on the way."
    ),
    "knows.marian": "**{name}** is a Marian (opus-mt) model trained by its authors on millions of sentence pairs; the app did not train it and has no dev score of its own for it.",
    "knows.data_bt": "**What this model knows:** it learned to translate {source} into {target} from {pairs} short everyday sentence pairs (Tatoeba) and {synthetic} more whose {source} side was machine-translated (back-translation).",
    "knows.data_unknown": "**What this model knows:** it learned to translate {source} into {target} from short everyday sentence pairs (Tatoeba).",
    "knows.score": "On {set} it scores BLEU {bleu} ({decoding}).",
    "knows.set_test": "{pairs} held-out test sentences unlike any it trained on (never used to choose anything)",
    "knows.set_test_seen": "{pairs} held-out test sentences unlike any it trained on (its checkpoint was chosen on all of dev, these included)",
    "knows.set_unseen": "{pairs} dev sentences unlike any it trained on",
    "knows.set_dev": "its dev set",
    "knows.beam": "beam {beam}",
    "knows.greedy": "greedy",
    "knows.limits": "Short everyday sentences work best; long or technical text translates poorly.",
    "knows.card_link": "Model card",
    "knows.sep": " ",  # between the sentences of the line
    # Confidence of each output token (thresholds from the checkpoint's calibration, evaluation/calibrate.py)
    "confidence.title": "How sure the model was of each token it wrote",
    "chips.probability": "probability {prob} · position {n}",
    "confidence.legend": (
        "Each chip is a token the model wrote, with its probability for it (hover for the exact value). Red chips "
        "are below {threshold}: on {pairs} dev sentences, tokens that unsure were in the reference only {below_right} "
        "of the time ({above_right} above)."
    ),
    "confidence.sure_short": "Confidence of the whole translation: {score}, above the {threshold} line.",
    "confidence.sure": (
        "Confidence of the whole translation: {score} (the geometric mean of its token probabilities), above the "
        "{threshold} line — on the dev set {above_exact} of translations above it matched the reference exactly, "
        "{below_exact} below it."
    ),
    "confidence.unsure_short": "Unsure: confidence {score}, below the {threshold} line. Read it with care.",
    "confidence.unsure": (
        "The model is unsure about this translation: its confidence is {score} (the geometric mean of its token "
        "probabilities), below {threshold}. On the dev set only {below_exact} of translations below that line "
        "matched the reference exactly ({above_exact} above it). Read it with care."
    ),
    "confidence.beam_same": "These thresholds were measured at beam {beam}, the beam of this translation.",
    "confidence.beam_other": (
        "These thresholds were measured at beam {measured}; this translation used beam {beam}, where they were "
        "not measured: a different search changes the probabilities, so read the colours as a rough guide."
    ),
    "confidence.uncalibrated": (
        "This checkpoint is uncalibrated (python -m evaluation.calibrate has not been run on it), so no token is marked "
        "low-confidence: the chips show the raw probabilities. Geometric mean of the token probabilities: {score}."
    ),
    # Example pills: what to look for (computed from the result's cross-attention, model/translation/alignment.py)
    "example.dream": (
        "What to look for: while writing {target}, cross-attention layer {layer} · head {head} puts weight {weight} on "
        "{source} — more than any other head (in its map, rows {rows}: each row writes the next token)."
    ),
    "example.who": (
        "What to look for: {source} opens the English question; while writing {target}, cross-attention layer {layer} · "
        "head {head} finds it (weight {weight}, row {rows}) — compare where {target} stands in the translation."
    ),
    "example.yesterday": (
        "What to look for: {source} is the last English word; while writing {target}, cross-attention layer {layer} · "
        "head {head} looks there (weight {weight}, rows {rows}) — see where Chinese puts {target}."
    ),
    "example.where": (
        "What to look for: while writing {target}, cross-attention layer {layer} · head {head} looks back at {source} "
        "(weight {weight}, rows {rows}): compare where the question word stands in each language."
    ),
    "example.dog": (
        "What to look for: one English word, one Chinese character — while writing {target}, cross-attention "
        "layer {layer} · head {head} puts weight {weight} on {source} (row {rows})."
    ),
    # The same pills read in Chinese (the Chinese → English model): where word order differs, said the other way.
    "example.who_zh": (
        "What to look for: {source} ends the Chinese question, and English opens with {target}; while writing it, "
        "cross-attention layer {layer} · head {head} looks back to the end (weight {weight}, row {rows})."
    ),
    "example.yesterday_zh": (
        "What to look for: Chinese says {source} second, English says {target} last; while writing it, "
        "cross-attention layer {layer} · head {head} looks back there (weight {weight}, rows {rows})."
    ),
    "example.dog_zh": (
        "What to look for: one Chinese character, one English word — while writing {target}, cross-attention "
        "layer {layer} · head {head} puts weight {weight} on {source} (rows {rows})."
    ),
    "example.missing": "This translation does not contain {target}, so there is no {target} ↔ {source} link to point at.",
    "example.rows_sep": ", ",
    "example.show": "Show this head",
    # Model card page
    "card.title": "Model card: {name}",
    "card.intro": (
        "What the model is, how it was trained and how well it scores, written by the trainer from the checkpoint's "
        "config and training log."
    ),
    "card.intro_marian": "A Marian (opus-mt) model: its own card (the README.md of its folder) or, without one, what its config says. Its authors trained it; the app converted it.",
    "card.missing": "This checkpoint has no model card (README.md).",
    "card.english_only": "This model's card exists in English only; it is shown in English.",
    "card.calibration.header": "Confidence calibration",
    "card.calibration.missing": (
        "This checkpoint is uncalibrated: run python -m evaluation.calibrate --checkpoint DIR --dev DEV.tsv to measure "
        "where its probabilities stop being trustworthy."
    ),
    "card.calibration.intro": (
        "The translate page marks tokens and whole translations as unsure with two thresholds measured on "
        "{pairs} dev pairs (beam {beam}, python -m evaluation.calibrate):"
    ),
    "card.calibration.tokens": (
        "**Tokens** below probability {threshold} were in the reference {below_right} of the time ({below_n} "
        "tokens); above it, {above_right} ({above_n} tokens). The threshold is where an isotonic fit of that rate "
        "reaches one half."
    ),
    "card.calibration.sentences": (
        "**Translations** whose geometric-mean token probability is below {threshold} matched the reference "
        "exactly {below_exact} of the time (mean chrF {below_chrf}, {below_n} translations); above it, "
        "{above_exact} (chrF {above_chrf}, {above_n} translations). The threshold best separates exact matches from the rest "
        "(Youden's J)."
    ),
    # Explorer
    "explorer.title": "Attention explorer",
    "explorer.kind": "Attention",
    "explorer.view": "View",
    "explorer.layer": "Layer",
    "explorer.head": "Head",
    "explorer.layer_n": "layer {n}",
    "explorer.head_n": "head {n}",
    "explorer.average": "average",
    "explorer.all_layers": "average of layers",
    "explorer.all_heads": "average of heads",
    "explorer.map_title": "{kind} · {layer} · {head}",
    "explorer.grid_title": "{kind}: every head of every layer",
    "explorer.lines_title": "{kind} · {layer}",
    "explorer.click_hint": "click to open this map large below",
    "explorer.focus": "Show the lines of one query token",
    "explorer.focus_all": "all query tokens",
    "explorer.min_weight": "Hide lines lighter than",
    "kind.encoder_self": "Encoder self-attention",
    "kind.decoder_self": "Decoder masked self-attention",
    "kind.cross": "Cross-attention",
    "kind.encoder_self.help": (
        "Each {source} token (row) looks at every {source} token (column) of the same sentence. "
        "Each row sums to 1: it is how that token mixes the others into its new representation."
    ),
    "kind.decoder_self.help": (
        "Each target position (row) looks at the {target} tokens written so far (columns). Grey cells are masked: "
        "a position may not look at tokens it has not produced yet, which is why the map is a triangle."
    ),
    "kind.cross.help": (
        "Each target position (row) looks at the {source} source tokens (columns) — where the decoder read "
        "from while producing its next {target} token."
    ),
    "view.head": "One head",
    "view.grid": "All heads",
    "view.lines": "Head view",
    "view.head.help": (
        "Queries down, keys across. Colours use one fixed scale from 0 (white) to 1 (dark blue) so heads can be "
        "compared; hover a cell for its exact weight. Pick head “average” to see the mean of all heads of the layer."
    ),
    "view.grid.help": (
        "Every head of every layer, rows = layers, columns = heads, all on the same 0–1 scale. Click a map "
        "(or use the layer and head pickers) to open it large below; the open one has a red frame."
    ),
    "view.lines.help": (
        "Queries on the left, keys on the right; a line's thickness and opacity follow the weight. Hover a token for "
        "its position and strongest links with their exact weights; click a query token to see only its lines "
        "(“all query tokens” above brings the others back)."
    ),
    "view.rollout": "Rollout",
    "view.rollout.help": (
        "Rollout (Abnar & Zuidema 2020) is not raw attention: it multiplies the maps of layers 1 up to the one picked "
        "(each averaged over its heads, with the residual connection as half of each row), so a cell estimates how "
        "much of that row's information came from that input token through every layer in between. It is an "
        "estimate under one assumption, that information mixes only as the attention weights say: it leaves out how "
        "large each value vector is, the feed-forward layers and LayerNorm. For cross-attention "
        "it is the picked decoder layer's cross-attention (averaged over heads) times the encoder's rollout through "
        "all its layers: the columns are the input tokens, not the encoder outputs the decoder reads; the decoder's "
        "own layers below it (self-attention, residual) are not traced. Each row sums to 1; hover a cell for its exact value. Compare “One head” at “average”: raw "
        "attention shows where one layer looked, rollout estimates where the information came from."
    ),
    "rollout.title.encoder_self": "Rollout · encoder self-attention · layers 1 to {layer}",
    "rollout.title.decoder_self": "Rollout · decoder self-attention · layers 1 to {layer}",
    "rollout.title.cross": "Rollout · cross-attention of layer {layer}, through the encoder",
    "rollout.value": "rollout share",
    "axis.encoder_self.queries": "queries (source tokens)",
    "axis.encoder_self.keys": "keys (source tokens)",
    "axis.decoder_self.queries": "queries (target tokens)",
    "axis.decoder_self.keys": "keys (target tokens)",
    "axis.cross.queries": "queries (target tokens)",
    "axis.cross.keys": "keys (source tokens)",
    "axis.queries": "queries",
    # A map of a translation names its tokens' language: "queries (Chinese source tokens)"
    "axis.queries_of": "queries ({tokens})",
    "axis.keys_of": "keys ({tokens})",
    "axis.source_tokens": "{language} source tokens",
    "axis.target_tokens": "{language} target tokens",
    "axis.keys": "keys",
    "axis.note": "Rows: {queries}; columns: {keys}.",
    "axis.weight": "weight",
    "axis.masked": "grey = masked (future)",
    "decoding.not_yet": "grey · = not written yet (masked)",
    "axis.step_query": "query (this step)",
    "axis.layer_head": "layer · head",
    "axis.candidate": "candidate",
    "axis.probability": "probability",
    # Decoding page
    "decoding.title": "Decoding, one token at a time",
    "decoding.intro": (
        "The decoder writes the translation one token per step. At each step it reads the tokens it has written so "
        "far, looks back at the {source} sentence, and scores every possible next token. Step through the translation "
        "with Previous / Next (or the ← → keys), Play, or the slider."
    ),
    "decoding.sentence": "**{source}:** {sentence} → **{target}:** {translation}",
    "decoding.change_sentence": "Change the sentence",
    "decoding.prev": "Previous",
    "decoding.next": "Next",
    "stepper.speed": "Speed",
    "stepper.speed.slow": "Slow",
    "stepper.speed.normal": "Normal",
    "stepper.speed.fast": "Fast",
    "decoding.play": "Play",
    "decoding.pause": "Pause",
    "decoding.step": "Output step",
    "decoding.now": "Step **{step}** of {steps}: the model writes **{token}** (probability {prob}).",
    "decoding.which": "{layer} · {head}",
    "decoding.mask_title": "What this step may look at",
    "decoding.mask_help": (
        "The causal mask: this step's query sees only the prefix (coloured by its self-attention weights); "
        "later positions are masked grey, because at this point they do not exist yet."
    ),
    "decoding.cross_title": "Where it looked in the {source} sentence",
    "decoding.cross_help": "Cross-attention of this step over the source tokens, for the layer and head chosen above.",
    "decoding.every_head": "Show every layer and head",
    "decoding.every_head_help": "One row per layer and head: this step's cross-attention over the source tokens.",
    "decoding.candidates_title": "Candidates for the next token",
    "decoding.candidates_help": "The {k} most probable next tokens; the one the search chose is highlighted in orange.",
    "decoding.beam_title": "Beam search (beam size {beam})",
    "decoding.beam_greedy": (
        "Greedy decoding keeps only the single best token at each step. Raise the beam size in the sidebar to "
        "see which hypotheses beam search keeps and prunes."
    ),
    "decoding.beam_help": (
        "The tree of the hypotheses the search scored up to step {last}: a column per step, each node the token a "
        "hypothesis added to the one it extends (hover a node for the whole hypothesis and its log-probabilities). "
        "At each step the search looks at the best {top} continuations: green ones are kept for the next step, "
        "blue ones finished with </s>, grey ones pruned (their branch ends there). The orange path is the "
        "translation it chose. At step {step}: {kept} kept, {finished} finished, {dropped} pruned."
    ),
    "beam.kept": "kept",
    "beam.finished": "finished",
    "beam.dropped": "pruned",
    "beam.chosen": "chosen translation",
    "beam.step": "step",
    "beam.logprob": "log P(hypothesis)",
    "beam.token_logprob": "log P(its last token)",
    "compare.title": "Compare attention",
    "compare.intro": "Two maps side by side: one sentence in two models, one sentence pair from both directions, two heads of one sentence, or one head for two sentences (with their difference, B − A).",
    "compare.one_model": "This server offers one model, so both maps are the same map. Compare two heads or two sentences instead, or ask your teacher to offer a second model (for instance a production Marian model).",
    "compare.same_model": "Both pickers name the same model, so both maps are the same map: choose another model on the right.",
    "compare.one_map_twice": "one model, so the same map twice (see below)",
    "compare.enter": "Press Enter to translate with both models.",
    "compare.left": "Left model",
    "compare.right": "Right model",
    "compare.shape": "{layers} layers × {heads} heads · vocabularies of {src} and {tgt} tokens · {s} source tokens · {t} decoder positions",
    "compare.clamped": "This model has {layers} layers and {heads} heads: showing layer {layer}, {head}.",
    "compare.note": "Tokens differ between models: each has its own vocabularies (their sizes are in the tooltip beside each translation), so the axes differ even for the same sentence. Beam size and target language come from the sidebar.",
    "compare.mode.directions": "Both ways",  # short: the four modes and the attention kinds share one row
    "compare.other_way": "{left} and {right} read different languages, so one of them reads a sentence in the language it writes. To see one sentence pair from both sides, choose “{mode}”.",
    "compare.no_reverse": "Both directions needs a model that translates the other way round from {model}, and this server offers none. Compare two heads or two sentences instead.",
    "compare.nothing_written": "The model wrote nothing for this sentence, so there is nothing for the other direction to read.",
    "compare.transpose": "Transpose the right map",
    "compare.transpose_help": "Swap the right map's rows and columns, so that both maps have the same language down the side and the other across: a word and its translation then sit at the same row and column in both.",
    "compare.directions_note": "Left: {left} reads your sentence. Right: {right} reads what the left model wrote, so both maps show one sentence pair, seen from both sides.",
    "compare.one_scale": "One colour bar, at the right, serves both maps: both draw weights on the same scale, 0 to 1.",
    "compare.directions_cross": "In cross-attention the right map is the left one's pair turned round: the {target} tokens the left model wrote (its rows) are what the right model reads (its columns). Transpose it to put them on the same axis.",
    "compare.directions_transposed": "In cross-attention the right map is the left one's pair turned round; here it is drawn transposed, so both maps have {target} down the side and {source} across: find a word and its translation at the same place in both (e.g. where the left model wrote a word and where the right model read it).",
    "compare.side_axes": "{side} — rows: {rows}; columns: {cols}.",
    "compare.pairs": "Pairs to try",
    "compare.pairs_help": "Two sentences one word apart, both translated correctly: the difference map shows where the changed word moves attention.",
    "compare.goes_wrong": "Where it goes wrong",
    "compare.goes_wrong_help": "Sentences the small model mistranslates, kept to show its limits: compare its translation with what a person would write.",
    "compare.lined_up": "The two sentences' tokens are lined up first, so every token of both is on the map; where they differ, A's run and B's run share one row or column, labelled A/B ({runs}): its column is the weight on the whole run (its columns added), its row the mean of the run's rows.",
    # Decoding page · length penalty in beam search
    "decoding.lp.title": "Length penalty in beam search",
    "decoding.lp.formula.gnmt": (
        "Every extra token multiplies a hypothesis's probability by a number below 1, so its log-probability "
        "log P(Y) only falls as it grows: ranked by log P(Y) alone, beam search prefers short outputs. "
        "Our decoder therefore ranks a finished hypothesis by log P(Y) ÷ ((5 + |Y|) / 6)^α, GNMT's length penalty, "
        "with α = {alpha} (|Y|: its tokens, </s> included). "
        "α = 0 divides by 1: no penalty; a larger α favours longer outputs. The Transformer paper used α = 0.6; "
        "ours was chosen on the dev set (the model card's decoding table)."
    ),
    "decoding.lp.formula.power": (
        "Every extra token multiplies a hypothesis's probability by a number below 1, so its log-probability "
        "log P(Y) only falls as it grows: ranked by log P(Y) alone, beam search prefers short outputs. "
        "This model ranks a finished hypothesis by log P(Y) ÷ |Y|^α, as the Hugging Face library it comes from "
        "does, with its authors' α = {alpha} (|Y|: its tokens, </s> included). α = 0 divides by 1: no penalty; a larger α favours "
        "longer outputs."
    ),
    "decoding.lp.greedy": (
        "Greedy decoding finishes one hypothesis only, so there is nothing to rank: raise the beam size in the "
        "sidebar to compare the hypotheses beam search finishes."
    ),
    "decoding.lp.col.hypothesis": "finished hypothesis",
    "decoding.lp.col.length": "|Y|",
    "decoding.lp.col.logprob": "log P(Y)",
    "decoding.lp.col.score": "score, α = {alpha}",
    "decoding.lp.result": (
        "The search with beam size {beam} finished {n:this|these} {n} {n:hypothesis|hypotheses} for the sentence; each column "
        "re-scores {n:it|them} with one α (★: the highest score in the column; the search itself ranks with α = {own}). The winner:"
    ),
    "decoding.lp.winner": "α = {alpha}: **{text}** ({n} {n:token|tokens})",
    "decoding.lp.changes": "Here the choice of α changes the translation: the penalty is not a detail.",
    "decoding.lp.same": (
        "Here every α picks the same hypothesis: it is so much more probable than the others that dividing by the "
        "penalty does not reorder them. Try a longer sentence, where the candidates differ more in length."
    ),
    "decoding.lp.caveat": (
        "Re-scored, not searched again: a search run with another α would also stop at another step and could "
        "finish other hypotheses."
    ),
}
