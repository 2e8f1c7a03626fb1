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


def ranks(values) -> np.ndarray:
    """Ranks 1 … n of a vector, ties sharing their average rank (as Spearman's correlation ranks)."""
    v = np.asarray(values, dtype=np.float64)
    order = np.argsort(v, kind="stable")
    r = np.empty(len(v))
    r[order] = np.arange(1, len(v) + 1)
    for value in np.unique(v):
        tied = v == value
        r[tied] = r[tied].mean()
    return r


def spearman(a, b) -> float:
    """Spearman's rank correlation of two vectors; 0 when either is constant (no order to agree with)."""
    ra, rb = ranks(a), ranks(b)
    if ra.std() == 0 or rb.std() == 0:
        return 0.0
    return float(np.corrcoef(ra, rb)[0, 1])


def agreement(weights, attribution) -> tuple[float, float]:
    """(mean Spearman over output steps, share of steps whose top source token is the same) of one (T, S)
    attention map against (T, S) attribution magnitudes."""
    w, a = np.asarray(weights), np.abs(np.asarray(attribution))
    rho = [spearman(w[t], a[t]) for t in range(len(w))]
    top1 = w.argmax(axis=-1) == a.argmax(axis=-1)
    return float(np.mean(rho)), float(top1.mean())


def head_agreement(cross, attribution) -> tuple[np.ndarray, np.ndarray]:
    """(layers, heads) mean Spearman and top-1 agreement of every cross-attention head with attribution."""
    maps = np.asarray(cross)
    pairs = [[agreement(head, attribution) for head in layer] for layer in maps]
    table = np.array(pairs)  # (layers, heads, 2)
    return table[..., 0], table[..., 1]


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


# Tokens that often collect attention whatever the sentence says (attention "sinks"): sentence boundaries and the
# final full stop, in both languages' spellings.
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
