"""How much each source token mattered to each output token: gradient attribution beside attention.

Attention says where a head looked; attribution asks what the output depends on. Both methods here
attribute the log-probability of each produced token (one teacher-forced pass over the chosen
output, the distribution the search chose from) to the source token embeddings (the table's rows,
before ×√d_model and the positional encoding), summed over d_model: one signed number per
(output step, source token), the [target step][source token] shape of a cross-attention map.

- input × gradient: the embedding times the gradient of the log-probability with respect to it.
- integrated gradients (Sundararajan et al. 2017): the gradient averaged along the straight path
  from a zero embedding (positions kept) to the input, times the input. Its attributions sum to
  f(input) − f(baseline) up to the integral's numerical error; `gap` reports that error, from
  Captum's own convergence delta. The integral is refined until that error is within GAP_BOUND, as
  the paper advises (25 trapezoid points, then the midpoints between them: 49, then 97, the points
  already evaluated reused), and multiplied in bfloat16 where the hardware does so natively (twice
  as fast here); the gap is always measured in float32, so it reports the rounding too.

Both are directional derivatives: score[t, s] = x_s · ∂f_t/∂x_s is the change of every step's
log-probability when token s's embedding moves along itself. So they are computed forward-mode
(torch.func.jvp), one pass per source token that yields all T steps at once, batched over the
source tokens and the path's points; reverse mode (Captum's own loop) needs one backward per
output step and point, each after a forward over the whole sentence again (README: before and after).
The trapezoid rule is written out (_rule: Captum's own widths add up to 1 − 1/n); other rules are Captum's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import torch
from captum.attr import IntegratedGradients
from captum.attr._utils.approximation_methods import approximation_parameters
from torch.func import jvp, vmap
from torch.nn.attention import SDPBackend, sdpa_kernel

from ..architecture.config import GenerationConfig
from ..architecture.transformer import HeadMask, Transformer
from .threads import native_bf16

METHODS = ("input_x_gradient", "integrated_gradients")
# Points on the path, by the trapezoid rule. The ReLU network's gradient jumps along the path, so Gauss–Legendre
# converges no faster here: benchmarks/attribution_steps.py measured the worst completeness gap at 13, 25 and 49
# points of both rules (README). Trapezoid points nest: the 25 points of the first try are 25 of the 49 of the
# second, so a sentence that needs the second pays for 49 points, not 74. Most sentences need 25 or 49; a few have a
# step whose log-probability turns sharply somewhere on the path and need 97 ("He likes mathematics, but I don't.":
# gap 0.33 at 49 points, 0.03 at 97).
IG_RULE = "riemann_trapezoid"  # more than one try of _refined needs its nested points
IG_POINTS = (25, 49, 97)  # the tries, each 2 × (previous − 1) + 1 points
GAP_BOUND = 0.05  # the completeness error (worst step, relative) below which a try is good enough
TANGENT_BUDGET = 50_000_000  # floats of logit tangents one batched pass may hold (200 MB): bounds the points per pass


@dataclass(frozen=True)
class Attribution:
    method: str  # one of METHODS
    scores: np.ndarray  # (T, S) signed: output step × source token, as the cross-attention maps
    gap: float | None  # integrated gradients: worst step's |Σ scores − (f(x) − f(0))| / max(|f(x) − f(0)|, 1 nat)
    points: int | None = None  # integrated gradients: the points on the path the integral used


def attribute(
    model: Transformer,
    generation: GenerationConfig,
    src_ids: list[int],  # S source ids, </s> included
    tgt_in: list[int],  # T decoder inputs: <s> y1 … yn
    predicted: list[int],  # T produced tokens: y1 … yn </s>
    method: str,
    heads: HeadMask | None = None,
    points: int | None = None,  # integrated gradients: exactly this many points (IG_RULE), not the tries of IG_POINTS
) -> Attribution:
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    device = next(model.parameters()).device
    src = torch.tensor([src_ids], device=device)  # (1, S)
    tgt = torch.tensor([tgt_in], device=device)  # (1, T)
    chosen = torch.tensor(predicted, device=device)  # (T,)
    vocab = model.config.tgt_vocab_size

    def log_probs(token: torch.Tensor) -> torch.Tensor:
        """(batch, S, d_model) source token embeddings → (batch, T) log-probability of each produced token."""
        n = token.size(0)
        enc = model.encode(src.expand(n, -1), heads=heads, token_embeddings=token)
        logits = model.decode(tgt.expand(n, -1), enc).logits.float()  # (batch, T, vocab)
        logp = torch.log_softmax(generation.never_next(logits, model.config), dim=-1)
        return logp.gather(-1, chosen.view(1, -1, 1).expand(n, -1, 1)).squeeze(-1)

    with torch.no_grad():
        token = model.src_embed(src)[0]  # (S, d_model)
        if method == "input_x_gradient":
            changes = _path_changes(log_probs, token, [1.0], len(predicted), vocab, low_precision=False)
            return Attribution(method, changes[0].float().cpu().numpy(), None)
        tries = IG_POINTS if points is None else (points,)
        return _refined(log_probs, token, len(predicted), vocab, native_bf16(device), tries)


def _rule(points: int) -> tuple[torch.Tensor, torch.Tensor]:
    """(alphas, widths) of IG_RULE with `points` points, float64.

    The trapezoid rule is written out: Captum's riemann_trapezoid gives every point 1/points (ends halved), so its
    widths sum to 1 − 1/points and every attribution came out that much too small (2 % at 50 points).
    """
    if IG_RULE == "riemann_trapezoid":
        widths = torch.full((points,), 1 / (points - 1), dtype=torch.float64)
        widths[[0, -1]] /= 2
        return torch.linspace(0, 1, points, dtype=torch.float64), widths
    widths, alphas = (torch.tensor(rule(points), dtype=torch.float64) for rule in approximation_parameters(IG_RULE))
    return alphas, widths


def _weighted(changes: torch.Tensor, widths: torch.Tensor) -> np.ndarray:
    """(T, S) float32: Σ_k width_k · changes_k, changes (n, T, S) at the n points."""
    return torch.einsum("nts,n->ts", changes, widths.to(changes.device)).float().cpu().numpy()


def _refined(log_probs: Callable, token: torch.Tensor, steps: int, vocab: int, low_precision: bool,
             tries: tuple[int, ...]) -> Attribution:
    """Integrated gradients by IG_RULE on `tries` points in turn: the first whose gap ≤ GAP_BOUND, else the last.

    Each try after the first evaluates only the midpoints between the previous try's points (trapezoid points nest).
    """
    done = None  # (points so far, T, S): each point's changes, in the order of the path
    for points in tries:
        alphas, widths = _rule(points)
        if done is None:
            done = _path_changes(log_probs, token, alphas.tolist(), steps, vocab, low_precision)
        else:
            merged = done.new_empty(points, steps, token.size(0))
            merged[0::2] = done  # the previous try's points sit at the even places
            merged[1::2] = _path_changes(log_probs, token, alphas[1::2].tolist(), steps, vocab, low_precision)
            done = merged
        scores = _weighted(done, widths)
        gap = _completeness_gap(log_probs, token, scores)
        if gap <= GAP_BOUND:
            break
    return Attribution("integrated_gradients", scores, gap, points)


def _path_changes(log_probs: Callable, token: torch.Tensor, alphas: list[float], steps: int, vocab: int,
                  low_precision: bool) -> torch.Tensor:
    """(n, T, S) float64: x_s · ∂f_t/∂x_s at each alpha · x, by one forward-mode pass per (point, source token).

    `token` (S, d) is x. Points go in chunks so that one pass's logit tangents stay under TANGENT_BUDGET. With
    `low_precision` the passes multiply in bfloat16 (torch.autocast), the sums stay in float64.
    """
    s, d = token.shape
    along_itself = torch.eye(s, dtype=token.dtype, device=token.device)[:, :, None] * token  # (S, S, d): tangent s moves row s
    per_pass = max(1, TANGENT_BUDGET // (s * steps * vocab))  # each point carries S tangents of (T, vocab) logits
    found = []
    # Torch's fused attention kernel has no forward-mode derivative; the math kernel computes the same.
    with sdpa_kernel(SDPBackend.MATH), torch.autocast(token.device.type, torch.bfloat16, enabled=low_precision):
        for start in range(0, len(alphas), per_pass):
            chunk = torch.tensor(alphas[start:start + per_pass], dtype=token.dtype, device=token.device)
            points = chunk[:, None, None] * token  # (n, S, d)
            tangents = along_itself[:, None].expand(s, len(chunk), s, d)  # (S, n, S, d)
            changes = vmap(lambda tangent: jvp(log_probs, (points,), (tangent,))[1])(tangents)  # (S, n, T)
            found.append(changes.double().permute(1, 2, 0))  # (n, T, S)
    return torch.cat(found)


def _completeness_gap(log_probs: Callable, token: torch.Tensor, scores: np.ndarray) -> float:
    """Worst step's |Σ attributions − (f(x) − f(0))| relative to |f(x) − f(0)|: how far the integral is off.

    The difference is Captum's convergence delta (row t: step t's log-probability). A step the zero baseline
    already predicts almost as well (often "。" and </s>: |f(x) − f(0)| of a few hundredths of a nat) has next
    to nothing to attribute; its error is measured against 1 nat instead, or a 0.004-nat error would read as
    30 % of a 0.015-nat change.
    """
    steps = scores.shape[0]
    end = token.expand(steps, -1, -1)  # row t attributes step t
    delta = IntegratedGradients(log_probs).compute_convergence_delta(
        torch.from_numpy(scores).to(token.device), torch.zeros_like(end), end, target=list(range(steps)))
    change = log_probs(token[None])[0] - log_probs(torch.zeros_like(token)[None])[0]  # (T,)
    return float((delta.abs() / change.abs().clamp_min(1.0)).max())
