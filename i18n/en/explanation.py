"""The "Is attention an explanation?" page."""

STRINGS: dict[str, str] = {
    "nav.explanation": "Is attention an explanation?",
    "explain.title": "Is attention an explanation?",
    "explain.intro": (
        "Attention shows where the decoder looked; attribution, what the output depended on. Do they agree?"
    ),
    "explain.open.agreement": (
        "**Attention and attribution.** On {n} unseen sentences, a cross-attention head ranks the source tokens like "
        "integrated gradients at Spearman ρ = {mean} on average, where 1 is the same order and 0 no relation; {best}, "
        "and the last layer's heads averaged into one map {last_map}."
    ),
    "explain.open.best_one": "the best of the {heads} heads on those sentences ({named}) reaches {rho}",
    "explain.open.best_tied": "the best of the {heads} heads on those sentences tie at {rho} ({named})",
    "explain.to": "to",  # between an interval's ends
    "explain.head_one": "layer {layer} · head {head}",
    "explain.head_many": "layer {layer} · heads {heads}",
    "explain.open.pruning": (
        "**Knocking heads out.** Heads taken out least important first, scored on {pairs} sentence pairs that did "
        "not choose the order (BLEU {whole} for the whole model). Where a drop's 95 % interval holds 0, {pairs} "
        "sentences cannot tell it from zero — which does not show that those heads cost nothing:"
    ),
    "explain.open.prune.kept": (
        "{kind}: with {n} of {total} heads out, BLEU is {drop} lower ({low} to {high}); with {next_n} out, "
        "{next_drop} lower ({next_low} to {next_high}), more than chance explains; all out: BLEU {none}."
    ),
    "explain.open.prune.first": (
        "{kind}: taking out even the least important of its {total} heads costs {next_drop} BLEU ({next_low} to "
        "{next_high}), more than chance explains; all out: BLEU {none}."
    ),
    "explain.open.prune.all": (
        "{kind}: with all {total} heads out, BLEU is {drop} lower ({low} to {high}): no removal was told from zero."
    ),
    "explain.open.kind.encoder_self": "encoder self-attention",
    "explain.open.kind.decoder_self": "decoder self-attention",
    "explain.open.kind.cross": "cross-attention",
    "explain.open.alignment": (
        "**Word alignment.** On {pairs} hand-aligned pairs of short sentences from the dev set's test half ({words} "
        "English words on average), alignment error rate against the hand links (lower is better; 95 % intervals): "
        "the best attention head, chosen on the other half of the pairs, {chosen_aer} ({chosen_low}–{chosen_high}); "
        "integrated gradients {ig_aer} ({ig_low}–{ig_high}); IBM Model 1, word statistics with no attention at all, "
        "{ibm_aer} ({ibm_low}–{ibm_high}). {longer}"
    ),
    "explain.align.longer": (
        "On longer sentences these figures are optimistic: a check of the English → Chinese model on 20 longer, "
        "newer Tatoeba pairs aligned by the same guideline found every AER 0.09–0.15 higher, in the same order."
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
        "- **Serrano & Smith 2019, \"Is Attention Interpretable?\"**: zeroing the most-attended inputs often leaves "
        "the decision unchanged, while gradient-ranked ones change it sooner: high attention weight is a weak sign "
        "of importance.\n"
        "- **Wiegreffe & Pinter 2019, \"Attention is not not Explanation\"**: it depends on what *explain* means; "
        "attention can be one plausible account, but it has to be tested, not assumed.\n"
        "- **Abnar & Zuidema 2020**: in deep layers raw attention mixes positions that earlier layers already mixed; "
        "*rollout* multiplies the layers' maps to trace attention back to the input tokens — an estimate that assumes "
        "each layer passes on what it reads in the proportions of its weights (it leaves out the value vectors' sizes, "
        "the feed-forward layers and LayerNorm). The rollout map here is "
        "decoder layer L's cross-attention (averaged over heads) times the encoder's rollout (every encoder layer's "
        "head average, the residual as half of each row): it traces the encoder side only, not the decoder's own "
        "self-attention and residual stream.\n"
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
        "Rows: the decoder's steps, each labelled with the token it reads, so the row <s> is the step that writes "
        "the first output token; columns: the source tokens (keys). Attribution is how much each source token's "
        "embedding mattered to the log-probability of the token that step writes, as |attribution| / row total so it "
        "reads on attention's 0–1 scale. Agreement with attribution on this sentence (Spearman ρ over the source "
        "tokens, averaged over steps; top-1: both weigh the same token most): this head ρ = {head_rho}, top-1 "
        "{head_top1}; layer average ρ = {layer_rho}, top-1 {layer_top1}; rollout ρ = {roll_rho}, top-1 {roll_top1}."
    ),
    "explain.gap": (
        "Integrated gradients ({points} points on the straight path from a zero token embedding — positions kept — "
        "to the real one): each step's attributions add up to the change in its log-probability along that path "
        "within {gap} (worst step, relative: the error divided by max(|change|, 1 nat)). That is the rule the path "
        "was built by — points are added until it is at most {bound}, or there are {most} — so a gap within {bound} "
        "is the construction, not evidence that the scores are right, and it holds only below that cap: a path "
        "that reaches {most} points stops where it is. {cap}What does show the scores are right is the tests, where "
        "this code (the "
        "project's own, forward-mode) agrees with Captum's integrated gradients. The baseline matters: a zero "
        "token embedding with positions kept is a sentence of the right length with no words, so a score says "
        "how much the word, not its place, mattered; another baseline gives other scores."
    ),
    "explain.gap.over": "This sentence's path reached the cap and ended above {bound}. ",
    "explain.gap.gold": "On the {pairs} hand-aligned gold pairs, {above} ended above {bound} (worst {worst}). ",
    "explain.heads.header": "Which heads agree with attribution?",
    "explain.heads.sentence": "This sentence ({method}): Spearman ρ of each cross head",
    "explain.heads.dev": "{n} unseen dev sentences: mean ρ",
    "explain.heads.rows": "layer",
    "explain.heads.cols": "head",
    "explain.heads.value": "ρ",
    "explain.heads.dev_missing": (
        "This checkpoint has no dev-set agreement yet: python -m evaluation.agreement --checkpoint "
        "checkpoints/{checkpoint} --dev DEV.tsv --train TRAIN.tsv measures it."
    ),
    "explain.heads.dev_summary": (
        "On {n} unseen dev sentences, with integrated gradients. **Heads one by one** (each head's own ρ, then the "
        "mean over the layer's heads): layer 1 ρ = {first_heads}, layer {last} ρ = {last_heads}; {best}. **One map "
        "per layer** (the "
        "heads' weights averaged first, then that single map's ρ): layer 1 ρ = {first_map} (top-1 {first_map_top1}), "
        "layer {last} ρ = {last_map} (top-1 {last_map_top1}); rollout ρ = {roll_rho} (top-1 {roll_top1}). Compare "
        "within a kind: a map averaged over heads is a different object from the average of the heads' agreements."
    ),
    "explain.heads.best_one": "the best head is {named} (ρ = {rho}, top-1 {top1})",
    "explain.heads.best_tied": "the best heads tie at ρ = {rho}: {named} (top-1 {top1})",
    "explain.knock.header": "Knock heads out and re-translate",
    "explain.knock.pick": "Heads to knock out",
    "explain.knock.all_cross": "All cross-attention heads",
    "explain.knock.head": "{kind} · layer {layer} · head {head}",
    "explain.knock.placeholder": "Choose heads",
    "explain.knock.none": "Pick heads above: the sentence is translated again with their output set to zero.",
    "explain.knock.result": "Whole model: **{plain}** — with {n} head(s) knocked out: **{knocked}**",
    "explain.knock.same": "The translation did not change: these heads were not needed for it.",
    "explain.knock.map_title": (
        "With those heads knocked out: cross-attention, layer {layer}, average of the {kept} of {heads} heads still in "
        "use"
    ),
    "explain.knock.map_title_none": "With those heads knocked out: cross-attention, layer {layer}",
    "explain.knock.map_none": (
        "Every cross-attention head of layer {layer} is knocked out: their weights are still computed, but their "
        "output is set to zero, so the decoder read nothing through them and no map of that layer describes the run."
    ),
    "explain.knock.map_plain_title": "Whole model: cross-attention, layer {layer}, average of heads",
    "explain.knock.changed": "Changed output tokens are marked ✱ ({changed} of {total}).",
    "explain.importance.header": "How much each head matters on the dev set",
    "explain.importance.intro": (
        "Each head knocked out alone, on {pairs} dev pairs of the selection half (greedy): BLEU {bleu} for the whole "
        "model. A knock-out is a paired comparison — the same sentences translated with and without the head — so its "
        "noise is measured on the difference: {resamples} bootstrap resamples of the sentences, both systems scored on "
        "the same draw (Koehn 2004). The 95 % interval of a head's drop is ±{narrow} to ±{wide} BLEU wide; "
        "{significant} of {total} heads' intervals exclude 0, where chance alone would put about {expected} of {total} "
        "outside (5 % each). {largest}"
    ),
    "explain.importance.largest_one": (
        "The largest drop is {drop} ({named}; interval {intervals}): the largest of {total} drops measured on the "
        "same pairs, so partly their luck, and one interval of {total} excluding 0 is what chance gives."
    ),
    "explain.importance.largest_tied": (
        "The largest drop, {drop}, is shared by {named} (intervals {intervals}): the largest of {total} drops "
        "measured on the same pairs, so partly their luck, and one interval of {total} excluding 0 is what chance "
        "gives."
    ),
    "explain.importance.largest_test": "On the {pairs} test-half pairs, which picked nothing, {drops}.",
    "explain.importance.largest_drop": "{named} drops {drop} (interval {low} to {high})",
    "explain.importance.largest_untested": (
        "Its drop on the test half is not measured yet: python -m evaluation.heads --checkpoint "
        "checkpoints/{checkpoint} --dev DEV.tsv --largest-only measures it."
    ),
    "explain.importance.pruning": (
        "Then heads removed one after another, least important first. The order was chosen on those pairs; the "
        "BLEU after each removal is measured on the {held_out} pairs of the test half, which chose nothing (BLEU "
        "{held_out_bleu} for the whole model), each with the paired interval of its drop. Heads that can go before the "
        "first drop whose interval lies above 0 — where an interval holds 0, {held_out} pairs cannot tell the drop "
        "from zero, which does not show that those heads cost nothing:"
    ),
    "explain.importance.kind": (
        "{kind}: with {n} of {total} heads removed, BLEU {kept}, {drop} below the whole model (interval {low} to "
        "{high}); {none} with all removed."
    ),
    "explain.importance.kind_first": "{kind}: none of its {total} heads goes free; {none} with all removed.",
    "explain.importance.next": "Removing {n} costs {drop} BLEU (interval {low} to {high}).",
    "explain.weights_touched": (
        "(The shipped weights themselves were chosen on all of the dev set, test half included, which flatters "
        "these test-half figures a little.)"
    ),
    "explain.importance.drop": "BLEU drop when this head alone is knocked out · {kind}",
    "explain.importance.missing": (
        "This checkpoint has no head importance yet: python -m evaluation.heads --checkpoint checkpoints/{checkpoint} "
        "--dev DEV.tsv measures it."
    ),
    "explain.pruning.drop": "BLEU drop (95 % interval)",
    "explain.importance.interval": "95 % interval (paired)",
    "explain.pruning.title": "BLEU as heads are knocked out, least important first",
    "explain.pruning.removed": "heads knocked out",
    "explain.pruning.bleu": "test-half BLEU",
    "explain.align.header": "Does attention line up with a human word alignment?",
    "explain.align.intro": (
        "{pairs} pairs of short sentences from the dev set's test half ({words} English words on average), unseen "
        "in training and aligned by hand (English words × Chinese characters, *sure* and *possible* links; "
        "evaluation/alignment/GUIDELINE.md). Each pair is fed to the model with its reference (teacher forcing), "
        "{how}, and the links are scored by alignment error rate, pooled over the pairs (AER: 0 when every link read off is a gold link, sure "
        "or possible, and every sure link is read off; 1 when nothing is in common), with 95 % bootstrap intervals "
        "over the pairs. The best head is chosen on one half of the gold and scored on the other, each half in turn "
        "({picked}): AER {chosen_aer} ({chosen_low}–{chosen_high}). Integrated gradients, each {target_unit} linked "
        "to the {source_unit} with the largest |attribution|: {ig_aer} ({ig_low}–{ig_high}). IBM Model 1, word statistics with "
        "no attention at all: {ibm_aer} ({ibm_low}–{ibm_high}). {verdict} {layers} {longer}"
    ),
    "explain.align.how.en": (
        "each Chinese character is linked to the English word a head weighs most (tokens summed into words)"
    ),
    "explain.align.how.zh": (
        "each English word it writes (a word of several pieces: their steps averaged) is linked to the Chinese "
        "character a head weighs most: the same gold links, turned round, since this model reads the Chinese side"
    ),
    "explain.align.unit.en": "English word",
    "explain.align.unit.zh": "Chinese character",
    "explain.align.units.en": "English words",
    "explain.align.units.zh": "Chinese characters",
    "explain.align.intro_live": (
        "{gold} pairs of short sentences from the dev set's test half ({words} English words on average), unseen in "
        "training and aligned by hand (English words × Chinese characters, *sure* and *possible* links; "
        "evaluation/alignment/GUIDELINE.md). This model ({source} → {target}) has no stored alignment scores, so "
        "they were measured just now on its attention ({pairs} of the {gold} pairs fit its tokens). Each pair is fed "
        "with its reference (teacher forcing) and {how}. The links are scored by alignment error rate pooled over the "
        "pairs (AER: 0 when every link read off is a gold link and every sure link is read off; 1 when nothing is in "
        "common). The "
        "best head, chosen on one half of the gold and scored on the other, each half in turn ({picked}): AER {aer} "
        "({low}–{high}, 95 % bootstrap interval over the pairs). {layers} {longer} Attribution and IBM Model 1 need "
        "gradients through "
        "every pair and the training set, so they are not measured here: python -m evaluation.alignment "
        "--checkpoint checkpoints/{checkpoint} --dev DEV.tsv --train TRAIN.tsv stores them all."
    ),
    "explain.align.layer_better": (
        "Averaging a layer's heads does better: layer {layer}'s average{shifted} reaches {aer} (the layer picked on "
        "the gold it is scored on)."
    ),
    "explain.align.layer_worse": (
        "No layer's head average does better: the best, layer {layer}'s{shifted}, reaches {aer}."
    ),
    "explain.align.shifted": " (shifted)",
    "explain.align.measuring": "Measuring attention on the {pairs} hand-aligned pairs (once per model)…",
    "explain.align.none_fit": (
        "None of the hand-aligned pairs fits this model's tokens (a character outside its vocabulary, a token "
        "across two words), so there is nothing to score."
    ),
    "explain.align.map_units.en": (
        "Rows are the steps that wrote each Chinese character, columns the English words (a word's weight is the sum "
        "over its tokens)."
    ),
    "explain.align.map_units.zh": (
        "Rows are the English words written (a word of several pieces: the average of its steps), columns the Chinese "
        "characters read, one token each; the gold links are turned round, since this model reads the Chinese side."
    ),
    "explain.align.head_beats_ig": "The chosen head aligns better than integrated gradients (paired interval).",
    "explain.align.ig_beats_head": (
        "Integrated gradients align better than the chosen head (the paired interval of the difference excludes 0)."
    ),
    "explain.align.head_ties_ig": (
        "The chosen head and integrated gradients cannot be told apart on this gold (the paired interval holds 0)."
    ),
    "explain.align.ig_beats_ibm": "Integrated gradients beat IBM Model 1 too.",
    "explain.align.ibm_beats_ig": (
        "IBM Model 1 aligns better than both: attention, and even attribution through the whole model, are not "
        "the best word aligner here."
    ),
    "explain.align.ig_ties_ibm": "Integrated gradients and IBM Model 1 cannot be told apart on this gold.",
    "explain.align.pick_plain": "layer {layer} · head {head}",
    "explain.align.pick_shifted": "layer {layer} · head {head}, shifted",
    "explain.align.col.aligner": "links read off",
    "explain.align.col.interval": "95 % interval",
    "explain.align.table_caption": (
        "Intervals: {resamples} bootstrap resamples of the gold pairs, the same resamples for every row. The heads "
        "in the rows below them were picked on the same gold they are scored on, which flatters their AER; the "
        "layer averages pick nothing."
    ),
    "explain.align.row.chosen": "best head, chosen on the other half of the gold ({picked})",
    "explain.align.row.integrated_gradients": "attribution (integrated gradients)",
    "explain.align.row.head_plain": "cross · layer {layer} · head {head} (picked on all the gold)",
    "explain.align.row.head_shifted": (
        "cross · layer {layer} · head {head}, shifted (the step that reads the written token; picked on all the gold)"
    ),
    "explain.align.row.layer_plain": "cross · layer {layer} · average of heads",
    "explain.align.row.layer_shifted": "cross · layer {layer} · average of heads, shifted",
    "explain.align.row.attribution": "attribution ({method})",
    "explain.align.row.baseline": "IBM Model 1 (5 EM iterations on the training split; no attention)",
    "explain.align.missing": (
        "This checkpoint has no alignment scores yet: python -m evaluation.alignment --checkpoint "
        "checkpoints/{checkpoint} --dev DEV.tsv --train TRAIN.tsv measures them."
    ),
    "explain.align.no_dev": (
        "The hand-aligned sentences the figures above were measured on (from Tatoeba, tatoeba.org, CC-BY 2.0 FR) "
        "ship with the app, but this copy of them could not be read. The map below shows sentences written for this "
        "app instead, aligned by the same rules."
    ),
    "explain.align.bad_dev": (
        "The hand-aligned sentences that ship with the app no longer match their alignments (a changed copy). The "
        "map below shows sentences written for this app instead, aligned by the same rules."
    ),
    "explain.align.pick_dev": "Gold sentence (Tatoeba, tatoeba.org, CC-BY 2.0 FR)",
    "explain.align.pick_example": "Example sentence (written for this app)",
    "explain.align.source_dev": "Dev line {line}.",
    "explain.align.source_example": "Example {line}, written for this app: not one of the {pairs} pairs scored above.",
    "explain.align.rows": "queries: the {target_units} written (reference)",
    "explain.align.cols": "keys: {source_units}",
    "explain.align.not_characters": (
        "This model's tokens do not line up with this pair's words and characters (a token across two of them, or one "
        "outside its vocabulary), so its map cannot be laid over the gold."
    ),
    "explain.align.caption": (
        "Square outline: a sure gold link ({sure}); thin circle: a possible one ({possible}). {units} "
        "This head's darkest column in a row lands on a gold link in {hits} of {rows} rows: AER {aer} on this "
        "sentence."
    ),
    "explain.roles.header": "Head roles on the gold pairs",
    "explain.roles.missing": (
        "This checkpoint has no head roles yet: python -m evaluation.alignment --checkpoint checkpoints/{checkpoint} "
        "--dev DEV.tsv --train TRAIN.tsv measures them."
    ),
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
        "sentence's least frequent source token (counted in the training set's {source} sentences) in at least "
        "{threshold} of rows. "
        "*alignment*: a cross head whose AER (plain or shifted, the number shown) is within {margin} of the best. "
        "*mixed*: none of these; the number is its largest share. Here: {previous} previous, {next} next, {sink} "
        "sink, {rare} rare word, {alignment} alignment, {mixed} mixed."
    ),
    # Attention is not explanation: the caveat
    "explain.caveat.header": "Attention is not explanation (the caveat)",
    "explain.caveat.sinks": (
        "**Sinks.** Much of a head's attention can go to tokens that carry no word at all: the start <s>, the end "
        "</s>, full stops. A head with nothing useful to read parks its weight there (the weights must sum "
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
