"""The "Is attention an explanation?" page."""

STRINGS: dict[str, str] = {
    "nav.explanation": "Is attention an explanation?",
    "explain.title": "Is attention an explanation?",
    "explain.intro": (
        "Attention shows where the decoder looked; attribution, what the output depended on. Do they agree?"
    ),
    "explain.tab.maps": "1 · Attention vs attribution",
    "explain.tab.heads": "2 · Heads that agree",
    "explain.tab.knock": "3 · Knock heads out",
    "explain.tab.importance": "4 · Importance",
    "explain.tab.align": "5 · Word alignment",
    "explain.tab.caveat": "6 · Caveat",
    "explain.papers.title": "What the research says",
    "explain.papers": (
        "- **Jain & Wallace 2019, \"Attention is not Explanation\"**: attention weights often disagree with "
        "gradient-based importance, and very different attention can give the same prediction.\n"
        "- **Wiegreffe & Pinter 2019, \"Attention is not not Explanation\"**: it depends on what *explain* means; "
        "attention can be one plausible account, but it has to be tested, not assumed.\n"
        "- **Abnar & Zuidema 2020**: in deep layers raw attention mixes positions that earlier layers already mixed; "
        "*rollout* multiplies the layers' maps to trace attention back to the input tokens.\n"
        "- **Voita et al. 2019, Michel et al. 2019**: most heads can be removed at little cost; the few that matter "
        "have roles (positional, syntactic, rare words)."
    ),
    "explain.method": "Attribution",
    "explain.method.integrated_gradients": "integrated gradients",
    "explain.method.input_x_gradient": "input × gradient",
    "explain.maps.attribution": "Attribution ({method})",
    "explain.maps.head": "Cross · layer {layer} · head {head}",
    "explain.maps.layer": "Cross · layer {layer} · average",
    "explain.maps.rollout": "Rollout into layer {layer}",
    "explain.maps.value": "share",
    "explain.maps.caption": (
        "Rows: the output token being written; columns: the source tokens (keys). Attribution is how much each "
        "source token's embedding mattered to that token's log-probability, as |attribution| / row total so it "
        "reads on attention's 0–1 scale. Agreement with attribution on this sentence (Spearman ρ over the source "
        "tokens, averaged over steps; top-1: both weigh the same token most): this head ρ = {head_rho}, top-1 "
        "{head_top1}; layer average ρ = {layer_rho}, top-1 {layer_top1}; rollout ρ = {roll_rho}, top-1 {roll_top1}."
    ),
    "explain.gap": (
        "Integrated gradients' completeness check ({points} points on the path from a zero embedding to the real "
        "one): its attributions add up to the change in log-probability along that path within {gap} (worst step, "
        "relative). The path gets more points until this is at most {bound}, or has {most}."
    ),
    "explain.heads.header": "Which heads agree with attribution?",
    "explain.heads.sentence": "This sentence ({method}): Spearman ρ of each cross head",
    "explain.heads.dev": "{n} unseen dev sentences: mean ρ",
    "explain.heads.rows": "layer",
    "explain.heads.cols": "head",
    "explain.heads.value": "ρ",
    "explain.heads.dev_missing": (
        "This checkpoint has no dev-set agreement yet: python -m evaluation.agreement --dev DEV.tsv --train TRAIN.tsv "
        "measures it."
    ),
    "explain.heads.dev_summary": (
        "On {n} unseen dev sentences, with integrated gradients: the best head is layer {best_layer} · head "
        "{best_head} (ρ = {best_rho}, top-1 {best_top1}); layer-1 heads average ρ = {first_rho}; the last "
        "layer's head average agrees at ρ = {last_rho} (top-1 {last_top1}) and rollout at ρ = {roll_rho} "
        "(top-1 {roll_top1})."
    ),
    "explain.knock.header": "Knock heads out and re-translate",
    "explain.knock.pick": "Heads to knock out",
    "explain.knock.all_cross": "All cross-attention heads",
    "explain.knock.head": "{kind} · layer {layer} · head {head}",
    "explain.knock.placeholder": "Choose heads",
    "explain.knock.none": "Pick heads above: the sentence is translated again with their output set to zero.",
    "explain.knock.result": "Whole model: **{plain}** — with {n} head(s) knocked out: **{knocked}**",
    "explain.knock.same": "The translation did not change: these heads were not needed for it.",
    "explain.knock.map_title": "With those heads knocked out: cross-attention, layer {layer}, average of heads",
    "explain.knock.map_plain_title": "Whole model: cross-attention, layer {layer}, average of heads",
    "explain.knock.changed": "Changed output tokens are marked ✱ ({changed} of {total}).",
    "explain.importance.header": "How much each head matters on the dev set",
    "explain.importance.intro": (
        "Each head knocked out alone, on {pairs} dev pairs (greedy): BLEU {bleu} for the whole model. No single head "
        "costs more than {worst} BLEU ({worst_head}). Removing heads one after another, least important first, "
        "until BLEU falls more than chance would move it:"
    ),
    "explain.importance.chance": (
        "BLEU on these {pairs} pairs moves by ±{chance} by chance alone (half the 95 % interval of 1,000 bootstrap "
        "resamples of the pairs): a head whose drop is smaller is within noise."
    ),
    "explain.importance.kind": "{kind}: {kept} BLEU with {n} of {total} heads removed; {none} with all removed.",
    "explain.importance.drop": "BLEU drop when this head alone is knocked out · {kind}",
    "explain.importance.missing": (
        "This checkpoint has no head importance yet: python -m model.training.heads --dev DEV.tsv measures it."
    ),
    "explain.pruning.title": "BLEU as heads are knocked out, least important first",
    "explain.pruning.removed": "heads knocked out",
    "explain.pruning.bleu": "dev BLEU",
    "explain.align.header": "Does attention line up with a human word alignment?",
    "explain.align.intro": (
        "{pairs} unseen dev pairs aligned by hand (English words × Chinese characters, *sure* and *possible* links; "
        "evaluation/alignment/GUIDELINE.md). Each pair is fed to the model with its reference (teacher forcing), each "
        "character is linked to the English word a head weighs most (tokens summed into words), and the links are "
        "scored by alignment error rate (AER: 0 is the human alignment, 1 nothing in common). The best head, layer "
        "{best_layer} · head {best_head}, reaches AER {best}; read one step later (the step that reads the character it "
        "wrote: Chen et al. 2020), layer {shifted_layer} · head {shifted_head} reaches {shifted}. IBM Model 1, word "
        "statistics with no attention at all, reaches {baseline}: attention aligns far worse than a 1993 baseline."
    ),
    "explain.align.col.aligner": "links read off",
    "explain.align.row.head_plain": "cross · layer {layer} · head {head}",
    "explain.align.row.head_shifted": "cross · layer {layer} · head {head}, shifted (the step that reads the character)",
    "explain.align.row.layer_plain": "cross · layer {layer} · average of heads",
    "explain.align.row.layer_shifted": "cross · layer {layer} · average of heads, shifted",
    "explain.align.row.attribution": "attribution ({method})",
    "explain.align.row.baseline": "IBM Model 1 (5 EM iterations on the training split; no attention)",
    "explain.align.missing": (
        "This checkpoint has no alignment scores yet: python -m evaluation.alignment --dev DEV.tsv --train TRAIN.tsv "
        "measures them."
    ),
    "explain.align.no_dev": (
        "The gold sentences are read from the Tatoeba dev set at run time (the project stores only line numbers and "
        "links); it is not available here ({path}: {error})."
    ),
    "explain.align.pick": "Gold sentence (Tatoeba, tatoeba.org, CC-BY 2.0 FR)",
    "explain.align.rows": "queries: the Chinese characters written (reference)",
    "explain.align.cols": "keys: English words",
    "explain.align.not_characters": (
        "This model does not write this reference one character per token, so its map cannot be laid over the gold."
    ),
    "explain.align.caption": (
        "Dev line {line}. Square outline: a sure gold link ({sure}); thin circle: a possible one ({possible}). Rows "
        "are the steps that wrote each character, columns the English words (a word's weight is the sum over its "
        "tokens). This head's darkest word in a row lands on a gold link in {hits} of {rows} rows: AER {aer} on this "
        "sentence."
    ),
    "explain.roles.header": "Head roles on the gold pairs",
    "explain.roles.title": "{kind}: each head's role and the share that earned it",
    "explain.roles.value": "share / AER",
    "explain.roles.previous": "previous",
    "explain.roles.next": "next",
    "explain.roles.sink": "sink",
    "explain.roles.rare": "rare word",
    "explain.roles.alignment": "alignment",
    "explain.roles.mixed": "mixed",
    "explain.roles.caption": (
        "Measured on the {pairs} gold pairs, teacher-forced. *previous* / *next*: the head's largest weight falls on "
        "the token just before / after the query in at least {threshold} of rows (self-attention). *sink*: at least "
        "{threshold} of its weight goes to <s>, </s> or punctuation. *rare word*: its largest weight falls on the "
        "sentence's least frequent source token (in the training English) in at least {threshold} of rows. "
        "*alignment*: a cross head whose AER (plain or shifted, the number shown) is within {margin} of the best. "
        "*mixed*: none of these; the number is its largest share. Here: {previous} previous, {next} next, {sink} "
        "sink, {rare} rare word, {alignment} alignment, {mixed} mixed."
    ),
    # Attention is not explanation: the caveat
    "explain.caveat.header": "Attention is not explanation (the caveat)",
    "explain.caveat.sinks": (
        "**Sinks.** Much of a head's attention can go to tokens that carry no word at all: the start <s>, the end "
        "</s>, the final full stop. A head with nothing useful to read parks its weight there (the weights must sum "
        "to 1), and a heatmap draws that as strong attention. Below, for this sentence, each layer's share of the "
        "attention mass on those tokens (averaged over its heads and query positions), and the share uniform "
        "attention over the keys each query may see would give them:"
    ),
    "explain.caveat.layer": "layer {n}",
    "explain.caveat.uniform": "uniform",
    "explain.caveat.most": (
        "The largest excess: {kind}, layer {layer} puts **{share}** of its attention on {token}, where uniform "
        "attention would put {uniform}."
    ),
    "explain.caveat.residual": (
        "**The residual stream.** Each layer computes LayerNorm(x + Attention(x)) (post-norm): x, the token's own "
        "vector, goes round attention untouched, and the weights describe only how the second term was mixed — "
        "not how much it counts next to x, nor how large each value vector is. The mean size of the attention "
        "sublayer's output against the residual it is added to, ‖Attention(x)‖ / ‖x‖, per layer for this sentence "
        "(cross-attention's x is the decoder's state after its self-attention):"
    ),
    "explain.caveat.residual_result": (
        "Where the ratio is small, as for {kind} in layer {layer} ({ratio}), most of what leaves the layer is what "
        "came in, whatever the weights show. This is why the page tests attention against evidence instead of "
        "reading it: attribution (gradients through the whole model, residual included) and knocking heads out "
        "above."
    ),
}
