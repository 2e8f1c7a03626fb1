"""Is attention an explanation? The arithmetic that compares attention with what the output depended on.

All maps are [output step][source token] as a TranslationResult's cross-attention: row t is the step
that wrote output token t. Attribution (model/translation/attribution.py) is signed; "how much a
source token mattered" is its magnitude, so agreement compares attention with |attribution|.

- rollout (Abnar & Zuidema 2020): raw attention in a deep layer mixes positions that earlier layers
  already mixed; rollout multiplies the layers' maps (each averaged over heads, with the residual
  connection as ½·identity) to trace a layer's attention back to the input tokens.
- agreement: per output step, Spearman's rank correlation between a head's weights and |attribution|
  over the source tokens, and whether both put their maximum on the same token (top-1).
- alignment error rate (Och & Ney 2003) of links read off attention: AER = 1 − (|A∩S| + |A∩P|)/(|A| + |S|),
  with sure links S inside possible links P.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np


def rollout(encoder_self) -> np.ndarray:
    """(layers, heads, S, S) encoder self-attention → (S, S): how much each position's top-layer output draws
    on each input token, with each layer as ½·(head average) + ½·I, rows renormalised (Abnar & Zuidema 2020)."""
    maps = np.asarray(encoder_self, dtype=np.float64)
    n = maps.shape[-1]
    total = np.eye(n)
    for layer in maps:
        mixed = 0.5 * layer.mean(axis=0) + 0.5 * np.eye(n)
        total = (mixed / mixed.sum(axis=-1, keepdims=True)) @ total
    return total


def cross_rollout(cross, encoder_self, layer: int = -1) -> np.ndarray:
    """(T, S): one decoder layer's cross-attention (head average) traced through the encoder's mixing to the
    input tokens: the encoder outputs it reads are themselves mixtures of the input (rollout)."""
    return np.asarray(cross, dtype=np.float64)[layer].mean(axis=0) @ rollout(encoder_self)


def kept_average(maps, knocked) -> np.ndarray | None:
    """(heads, T, S) one layer's maps → (T, S) the average of the heads not in `knocked` (head indices): a
    knocked-out head's weights are computed but its output is zeroed, so the decoder never used them. None when
    every head is knocked out: no map describes what that layer read."""
    maps = np.asarray(maps, dtype=np.float64)
    kept = [h for h in range(maps.shape[0]) if h not in set(knocked)]
    return maps[kept].mean(axis=0) if kept else None


def ranks(values) -> np.ndarray:
    """Ranks 1 … n along the last axis, ties sharing their average rank (as Spearman's correlation ranks)."""
    v = np.asarray(values, dtype=np.float64)
    rows = v.reshape(-1, v.shape[-1])  # (rows, n)
    order = np.argsort(rows, axis=-1, kind="stable")
    ordered = np.take_along_axis(rows, order, axis=-1)
    starts = np.ones(ordered.shape, dtype=bool)  # where a run of equal values begins; a row always begins one
    starts[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
    run = np.cumsum(starts.ravel()) - 1  # each sorted value's run, numbered across all rows
    length = np.bincount(run)
    last = np.cumsum(length)  # a run's last place (1-based) in all rows' sorted values one after another
    mean_place = (last - (length - 1) / 2)[run].reshape(rows.shape)  # the average of a run's places
    ranked = np.empty_like(rows)
    np.put_along_axis(ranked, order, mean_place - rows.shape[1] * np.arange(len(rows))[:, None], axis=-1)
    return ranked.reshape(v.shape)


def spearman(a, b) -> np.ndarray | float:
    """Spearman's rank correlation of two vectors (a float), or of each pair of rows along the last axis of two
    arrays; 0 where either is constant (no order to agree with)."""
    ra, rb = ranks(a), ranks(b)
    ra, rb = ra - ra.mean(axis=-1, keepdims=True), rb - rb.mean(axis=-1, keepdims=True)
    spread = np.sqrt((ra * ra).sum(axis=-1) * (rb * rb).sum(axis=-1))
    rho = np.where(spread > 0, (ra * rb).sum(axis=-1) / np.where(spread > 0, spread, 1.0), 0.0)
    return float(rho) if rho.ndim == 0 else rho


def agreement(weights, attribution) -> tuple[float, float]:
    """(mean Spearman over output steps, share of steps whose top source token is the same) of one (T, S)
    attention map against (T, S) attribution magnitudes."""
    rho, top1 = head_agreement(np.asarray(weights)[None, None], attribution)
    return float(rho[0, 0]), float(top1[0, 0])


def head_agreement(cross, attribution) -> tuple[np.ndarray, np.ndarray]:
    """(layers, heads) mean Spearman and top-1 agreement of every cross-attention head with attribution: every
    head's rows at once (a loop over heads and steps would take a fifth of the explanation page's run)."""
    maps = np.asarray(cross, dtype=np.float64)  # (layers, heads, T, S)
    a = np.broadcast_to(np.abs(np.asarray(attribution, dtype=np.float64)), maps.shape)
    top1 = maps.argmax(axis=-1) == a.argmax(axis=-1)  # (layers, heads, T)
    return spearman(maps, a).mean(axis=-1), top1.mean(axis=-1)


def argmax_links(weights, shift: bool = False) -> set[tuple[int, int]]:
    """Alignment links (source token, output token) read off a (T, S) map: each output token linked to the source
    token its row weighs most. With `shift`, output token t takes row t+1 — the step that reads t as its input,
    which aligns better (Chen et al. 2020); the last output token (</s>) then has no row and no link."""
    w = np.asarray(weights)
    rows = range(len(w) - 1) if shift else range(len(w))
    return {(int(w[t + 1 if shift else t].argmax()), t) for t in rows}


def alignment_error_rate(links, sure, possible) -> float:
    """AER = 1 − (|A∩S| + |A∩P|) / (|A| + |S|); sure links count as possible too. 0 is perfect."""
    a, s = set(links), set(sure)
    p = set(possible) | s
    if not a and not s:
        return 0.0
    return 1.0 - (len(a & s) + len(a & p)) / (len(a) + len(s))


WORD_START = "▁"  # the source tokenizer's word-start mark (model.WORD_START; lessons do not import the model)


def token_words(tokens, words) -> list[int]:
    """For each source token, the index of the word its first character falls in; -1 for tokens with no text
    (</s>, a language tag). Words and tokens must spell the same text once spaces and ▁ are dropped."""
    ends, pos = [], 0
    for word in words:
        pos += len(word)
        ends.append(pos)
    out, pos = [], 0
    for token in tokens:
        text = "" if token.startswith("<") and token.endswith(">") else token.replace(WORD_START, "").replace(" ", "")
        out.append(int(np.searchsorted(ends, pos, side="right")) if text else -1)
        pos += len(text)
    if pos != (ends[-1] if ends else 0):
        raise ValueError(f"tokens spell {pos} characters, words {ends[-1] if ends else 0}: not the same text")
    return out


def word_weights(weights, token_word, n_words: int) -> np.ndarray:
    """(T, S) token weights → (T, n_words): a word's weight is the sum over its tokens; tokens at -1 are dropped."""
    w = np.asarray(weights, dtype=float)
    out = np.zeros((w.shape[0], n_words))
    for s, word in enumerate(token_word):
        if word >= 0:
            out[:, word] += w[:, s]
    return out


def corpus_aer(links_per_pair, sure_per_pair, possible_per_pair) -> float:
    """AER over a whole set, as Och & Ney count it: the links of every pair pooled (tagged by pair) before dividing."""
    tag = lambda k, links: {(k, i, j) for i, j in links}  # noqa: E731
    a = set().union(*(tag(k, x) for k, x in enumerate(links_per_pair)))
    s = set().union(*(tag(k, x) for k, x in enumerate(sure_per_pair)))
    p = set().union(*(tag(k, x) for k, x in enumerate(possible_per_pair)))
    return alignment_error_rate(a, s, p)


def aer_counts(links_per_pair, sure_per_pair, possible_per_pair) -> np.ndarray:
    """(pairs, 4): each pair's |A∩S|, |A∩P|, |A| and |S| (sure links count as possible). Pooled AER over any set of
    pairs, resampled ones too, is 1 − (Σ|A∩S| + Σ|A∩P|) / (Σ|A| + Σ|S|) of their rows: corpus_aer without the sets."""
    rows = []
    for links, sure, possible in zip(links_per_pair, sure_per_pair, possible_per_pair):
        a, s = set(links), set(sure)
        rows.append((len(a & s), len(a & (set(possible) | s)), len(a), len(s)))
    return np.asarray(rows, dtype=np.float64).reshape(-1, 4)


def pooled_aer(counts) -> np.ndarray | float:
    """AER of aer_counts rows summed over the second-to-last axis: (pairs, 4) → a float, (resamples, pairs, 4) → one
    AER per resample. 0 when there are neither links nor sure links."""
    total = np.asarray(counts, dtype=np.float64).sum(axis=-2)
    denominator = total[..., 2] + total[..., 3]
    aer = 1.0 - (total[..., 0] + total[..., 1]) / np.where(denominator > 0, denominator, 1.0)
    aer = np.where(denominator > 0, aer, 0.0)
    return float(aer) if aer.ndim == 0 else aer


def aer_interval(counts, picks) -> tuple[float, float]:
    """The 95 % bootstrap interval of pooled AER: `picks` (resamples, pairs) are the pairs each resample draws."""
    low, high = np.percentile(pooled_aer(np.asarray(counts)[np.asarray(picks)]), [2.5, 97.5])
    return float(low), float(high)


def cross_validated_choice(candidates: dict, folds) -> tuple[list, list]:
    """Pick the aligner with the lowest pooled AER on every fold but one and score it on that one, for each fold:
    a choice never sees the pairs it is scored on. candidates: {name: aer_counts (pairs, 4)}; folds: each pair's
    fold number. Returns (per pair, the counts of the aligner chosen without its fold; per fold, the name chosen)."""
    folds = np.asarray(folds)
    names = list(candidates)
    rows = np.zeros_like(np.asarray(candidates[names[0]], dtype=np.float64))
    chosen = []
    for fold in np.unique(folds):
        other = folds != fold
        name = min(names, key=lambda n: (pooled_aer(np.asarray(candidates[n])[other]), names.index(n)))
        rows[~other] = np.asarray(candidates[name])[~other]
        chosen.append(name)
    return rows.tolist(), chosen


@dataclass(frozen=True)
class AerRow:
    """A row of the AER table (alignment_rows): which aligner ("chosen", "integrated_gradients", "attribution",
    "baseline", "head_plain", "head_shifted", "layer_plain", "layer_shifted"), its layer and head where it has them
    (0-based), its AER and, where measured, the 95 % bootstrap interval (low, high)."""

    kind: str
    aer: float
    layer: int | None = None
    head: int | None = None
    low: float | None = None
    high: float | None = None


def alignment_rows(found, best: int = 3) -> list[AerRow]:
    """The rows of the AER table from a checkpoint's alignment figures (a model.loading.training_log.Alignment),
    those with a bootstrap interval first: the best head chosen on the other half of the gold ("chosen"),
    integrated gradients, |input × gradient| ("attribution") and IBM Model 1 ("baseline"); then the `best` heads
    (plain) and the best shifted head as picked on all the gold, each layer's head average (plain and shifted).
    A log from before the intervals, or figures measured on the page, lack some of the first four rows."""
    aligners = (("chosen", found.chosen), ("integrated_gradients", found.integrated_gradients),
                ("attribution", found.attribution), ("baseline", found.baseline))
    rows = [AerRow(kind, float(aligner.aer), low=aligner.low, high=aligner.high)
            for kind, aligner in aligners if aligner is not None]
    for key, heads in (("plain", found.heads_plain), ("shifted", found.heads_shifted)):
        grid = np.asarray(heads)
        order = np.argsort(grid, axis=None, kind="stable")[: best if key == "plain" else 1]
        rows += [AerRow(f"head_{key}", float(grid.flat[i]), int(i // grid.shape[1]), int(i % grid.shape[1]))
                 for i in order]
    for key, layers in (("plain", found.layers_plain), ("shifted", found.layers_shifted)):
        rows += [AerRow(f"layer_{key}", float(aer), layer) for layer, aer in enumerate(layers)]
    return rows


def completeness(gaps, points, bound: float, most: int) -> dict:
    """Integrated gradients' completeness over a set of sentences: each one's gap (worst step, relative) and the
    points its path took. The path adds points until the gap is within `bound` or it has `most`, so a gap above the
    bound is a path that hit the cap. Returns {"pairs", "bound", "most", "above" (how many ended above the bound),
    "worst" (the largest gap), "at_cap" (how many took `most` points)}."""
    gaps, points = np.asarray(gaps, dtype=float), np.asarray(points)
    return {"pairs": int(gaps.size), "bound": bound, "most": most, "above": int((gaps > bound).sum()),
            "worst": round(float(gaps.max()), 4) if gaps.size else 0.0, "at_cap": int((points >= most).sum())}


def free_pruning(curve):
    """The point of a pruning curve (model.loading.training_log.PruningPoint: removed, bleu and, after the first, the
    paired interval of the drop from the whole model) with the most heads removed before the first removal whose drop
    is significant (its interval above 0). Read as "this many could go at no cost we can detect"."""
    kept = curve[0]
    for point in curve[1:]:
        if point.low > 0:
            break
        kept = point
    return kept


def tied_best(values, digits: int = 2) -> list[tuple[int, ...]]:
    """The indices of the largest of `values` as the page shows them (rounded to `digits`): heads a reader cannot
    tell apart on screen are all named, not the first of them."""
    shown = np.round(np.asarray(values, dtype=float), digits)
    return [tuple(int(i) for i in index) for index in np.argwhere(shown == shown.max())]


def largest_drops(single):
    """The single-head knock-outs (HeadDrop) tied for the largest BLEU drop (the log keeps drops to 2 decimals, as
    shown)."""
    top = max(s.bleu_drop for s in single)
    return [s for s in single if s.bleu_drop == top]


@dataclass(frozen=True)
class PruningStep:
    """One kind's pruning curve read (pruning_steps): the kind, its heads, the free_pruning point (`kept`), the next
    point (None when every removal stayed within noise) and the point with every head out (`none`)."""

    kind: str
    total: int
    kept: Any
    after: Any
    none: Any


def pruning_steps(curves: Mapping) -> list[PruningStep]:
    """Per kind of a log's pruning curves (kind → its PruningPoints), in their order, the curve read."""
    steps = []
    for kind, curve in curves.items():
        kept = free_pruning(curve)
        after = curve[kept.removed + 1] if kept.removed + 1 < len(curve) else None
        steps.append(PruningStep(kind, len(curve) - 1, kept, after, curve[-1]))
    return steps


@dataclass(frozen=True)
class LayerAverage:
    """The layer (0-based) whose head average has the lowest AER, how it was read (plain or shifted), and the AER."""

    layer: int
    reading: str
    aer: float


def best_layer_average(found) -> LayerAverage:
    """The layer whose head average (plain or shifted) has the lowest AER in a log's alignment figures. The layer is
    picked on the gold it is scored on, among few: a milder choice than a head's."""
    readings = [(aer, reading, layer) for reading, layers in (("plain", found.layers_plain),
                                                             ("shifted", found.layers_shifted))
                for layer, aer in enumerate(layers)]
    aer, reading, layer = min(readings)
    return LayerAverage(layer, reading, float(aer))


@dataclass(frozen=True)
class AgreementFigures:
    """Dev sentences, the cross heads' count and mean ρ with integrated gradients, the heads tied for the highest ρ
    as shown (layer, head, 0-based) and that ρ, and the last layer's head-averaged map's ρ."""

    sentences: int
    heads: int
    mean: float
    best: list[tuple[int, ...]]
    rho: float
    last_map: float


@dataclass(frozen=True)
class PruningFigures:
    """The test pairs, the whole model's BLEU on them and every kind's pruning_steps."""

    pairs: int
    whole: float
    kinds: list[PruningStep]


@dataclass(frozen=True)
class AlignmentFigures:
    """The gold pairs and the (aer, low, high) of the head chosen on the other half, integrated gradients and IBM
    Model 1."""

    pairs: int
    chosen: tuple[float, float, float]
    integrated_gradients: tuple[float, float, float]
    baseline: tuple[float, float, float]


@dataclass(frozen=True)
class Opening:
    """The figures the page opens with (opening_figures); a part the log lacks is None."""

    agreement: AgreementFigures | None = None
    pruning: PruningFigures | None = None
    alignment: AlignmentFigures | None = None


def opening_figures(agreement, heads, alignment) -> Opening:
    """The figures the page opens with, from the training log's agreement, heads and alignment entries (Agreement,
    Heads, Alignment of model.loading.training_log); each None where not measured."""
    agreed = pruned = aligned = None
    if agreement:
        ig = agreement.integrated_gradients
        rho = np.asarray(ig.rho)
        best = tied_best(rho)
        agreed = AgreementFigures(agreement.sentences, int(rho.size), float(rho.mean()), best, float(rho[best[0]]),
                                  float(ig.layer_mean[-1][0]))
    if heads is not None:
        pruned = PruningFigures(heads.test_pairs, heads.test_bleu, pruning_steps(heads.pruning))
    if alignment is not None:
        aligners = (alignment.chosen, alignment.integrated_gradients, alignment.baseline)
        if None not in aligners:  # a log from before the intervals lacks them
            aligned = AlignmentFigures(alignment.pairs, *((a.aer, a.low, a.high) for a in aligners))
    return Opening(agreed, pruned, aligned)


def significant(drops: list) -> list:
    """The drops (each with a paired interval: low, high) whose interval excludes 0, in either direction."""
    return [d for d in drops if d.low > 0 or d.high < 0]


ROLE_THRESHOLD = 0.5  # a head earns a role when its statistic reaches this (share of rows, or of weight)
ALIGN_MARGIN = 0.05  # a cross head is alignment-like when its AER is within this of the best head's


def role_counts(weights, sink, rare: int, self_attention: bool) -> np.ndarray:
    """One sentence, one kind: per head, [rows, rows argmax on q−1, rows argmax on q+1, summed weight on sink
    columns, rows argmax on the rarest source token]. weights: (layers, heads, T, S); sink: (S,) bool; rare: a
    column. q±1 only for self-attention (T = S); a decoder's causal row can never reach q+1, so it counts 0."""
    w = np.asarray(weights, dtype=float)
    top = w.argmax(axis=-1)  # (layers, heads, T)
    q = np.arange(w.shape[2])
    prev = (top == q - 1).sum(-1) if self_attention else np.zeros(top.shape[:2])
    nxt = (top == q + 1).sum(-1) if self_attention else np.zeros(top.shape[:2])
    sink_weight = w[..., np.asarray(sink, bool)].sum(axis=(-1, -2))
    on_rare = (top == rare).sum(-1)
    rows = np.full(top.shape[:2], w.shape[2], dtype=float)
    return np.stack([rows, prev, nxt, sink_weight, on_rare], axis=-1)


def role_statistics(counts) -> dict[str, np.ndarray]:
    """Summed role_counts over sentences → shares per head (layers, heads): previous, next, sink, rare."""
    c = np.asarray(counts, dtype=float)
    rows = np.maximum(c[..., 0], 1)
    return {"previous": c[..., 1] / rows, "next": c[..., 2] / rows, "sink": c[..., 3] / rows, "rare": c[..., 4] / rows}


def head_roles(stats: dict, aer=None) -> tuple[np.ndarray, np.ndarray]:
    """Each head's role and the statistic that earned it: the largest of previous / next / sink / rare at or above
    ROLE_THRESHOLD, or "alignment" for a cross head (aer given, lower is better) within ALIGN_MARGIN of the best;
    otherwise "mixed" with its largest share. Returns (labels, values), both (layers, heads)."""
    names = ("previous", "next", "sink", "rare")
    shares = np.stack([np.asarray(stats[n], dtype=float) for n in names], axis=-1)
    best = shares.argmax(axis=-1)
    values = shares.max(axis=-1)
    labels = np.where(values >= ROLE_THRESHOLD, np.array(names, dtype=object)[best], "mixed").astype(object)
    if aer is not None:
        aer = np.asarray(aer, dtype=float)
        aligned = (aer <= aer.min() + ALIGN_MARGIN) & (labels == "mixed")
        labels[aligned] = "alignment"
        values = np.where(aligned, aer, values)
    return labels, values
# Tokens that often collect attention whatever the sentence says (attention "sinks"): sentence boundaries and every
# full stop (not only the last), in both languages' spellings.
SINK_TOKENS = ("<s>", "</s>", "。", ".")


def sink_shares(weights, key_tokens, sinks=SINK_TOKENS, mask=None) -> tuple[list[str], np.ndarray, np.ndarray]:
    """Per layer, the share of attention mass on each sink token among the keys, averaged over heads and queries.

    weights: (layers, heads, Tq, Tk); mask: (Tq, Tk) of the keys each query may see (None: all). Returns the sinks
    present among the keys, their shares (layers, sinks) and what uniform attention over the visible keys would
    give them (sinks,): a share far above that baseline is mass the heatmap shows on a token that carries no word.
    """
    weights = np.asarray(weights, dtype=np.float64)
    if weights.ndim != 4 or weights.shape[-1] != len(key_tokens):
        raise ValueError(f"weights (layers, heads, Tq, Tk) with Tk = {len(key_tokens)} key tokens, got {weights.shape}")
    visible = np.ones(weights.shape[-2:], dtype=bool) if mask is None else np.asarray(mask, dtype=bool)
    uniform = visible / visible.sum(axis=-1, keepdims=True)  # (Tq, Tk)
    present = [s for s in sinks if s in key_tokens]
    columns = [np.array([tok == s for tok in key_tokens]) for s in present]  # (Tk,) each
    shares = np.stack([weights[..., c].sum(-1).mean(axis=(1, 2)) for c in columns], axis=1) if present else \
        np.zeros((weights.shape[0], 0))
    baseline = np.array([uniform[:, c].sum(-1).mean() for c in columns])
    return present, shares, baseline


def residual_ratio(residual, sublayer) -> np.ndarray:
    """Per layer, the mean over tokens of ‖sublayer output‖ / ‖residual input‖: (layers, T, d) twice → (layers,).

    A post-norm layer computes LayerNorm(x + Attention(x)): x, the token's own vector, goes round attention
    untouched, and the attention weights describe only how the second term was mixed.
    """
    residual, sublayer = np.asarray(residual, dtype=np.float64), np.asarray(sublayer, dtype=np.float64)
    if residual.shape != sublayer.shape or residual.ndim != 3:
        raise ValueError(f"residual and sublayer output, both (layers, T, d_model): got {residual.shape}, {sublayer.shape}")
    return (np.linalg.norm(sublayer, axis=-1) / np.linalg.norm(residual, axis=-1)).mean(axis=-1)
