"""The "Is attention an explanation?" page."""

STRINGS: dict[str, str] = {
    "nav.explanation": "Is attention an explanation?",
    "explain.title": "Is attention an explanation?",
    "explain.intro": (
        "Attention shows where the decoder looked; attribution, what the output depended on. Do they agree?"
    ),
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
        "Integrated gradients' completeness check: its attributions add up to the change in log-probability from a "
        "zero embedding to the real one within {gap} (worst step, relative)."
    ),
    "explain.heads.header": "Which heads agree with attribution?",
    "explain.heads.sentence": "This sentence: Spearman ρ of each cross head",
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
    "explain.knock.changed": "Changed output tokens are marked ✱ ({changed} of {total}).",
    "explain.importance.header": "How much each head matters on the dev set",
    "explain.importance.intro": (
        "Each head knocked out alone, on {pairs} dev pairs (greedy): BLEU {bleu} for the whole model. No single head "
        "costs more than {worst} BLEU ({worst_head}); BLEU on this many pairs moves by about half a point by chance, "
        "so most single heads are within noise. Removing heads one after another, least important first:"
    ),
    "explain.importance.kind": "{kind}: {kept} BLEU with {n} of {total} heads removed; {none} with all removed.",
    "explain.importance.drop": "BLEU drop when this head alone is knocked out · {kind}",
    "explain.importance.missing": (
        "This checkpoint has no head importance yet: python -m model.training.heads --dev DEV.tsv measures it."
    ),
    "explain.pruning.title": "BLEU as heads are knocked out, least important first",
    "explain.pruning.removed": "heads knocked out",
    "explain.pruning.bleu": "dev BLEU",
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
