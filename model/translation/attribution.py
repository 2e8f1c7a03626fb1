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
  Captum's own convergence delta.

Both are directional derivatives: score[t, s] = x_s · ∂f_t/∂x_s is the change of every step's
log-probability when token s's embedding moves along itself. So they are computed forward-mode
(torch.func.jvp), one pass per source token that yields all T steps at once, batched over the
source tokens and the path's points; reverse mode (Captum's own loop) needs one backward per
output step and point, each after a forward over the whole sentence again (README: before and after).
The path's points and weights are Captum's (approximation_parameters).
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

METHODS = ("input_x_gradient", "integrated_gradients")
# Points on the path, by Captum's trapezoid rule. The ReLU network's gradient jumps along the path, so
# Gauss–Legendre converges no faster here: benchmarks/attribution_steps.py measured the worst completeness gap
# at 8–50 points of both rules; only 50 trapezoid points kept it ≤ 0.05 on every sentence (README).
IG_STEPS = 50
IG_RULE = "riemann_trapezoid"
TANGENT_BUDGET = 50_000_000  # floats of logit tangents one batched pass may hold (200 MB): bounds the points per pass


@dataclass(frozen=True)
class Attribution:
    method: str  # one of METHODS
    scores: np.ndarray  # (T, S) signed: output step × source token, as the cross-attention maps
    gap: float | None  # integrated gradients: worst step's |Σ scores − (f(x) − f(0))| / max(|f(x) − f(0)|, 1 nat)


def attribute(
    model: Transformer,
    generation: GenerationConfig,
    src_ids: list[int],  # S source ids, </s> included
    tgt_in: list[int],  # T decoder inputs: <s> y1 … yn
    predicted: list[int],  # T produced tokens: y1 … yn </s>
    method: str,
    heads: HeadMask | None = None,
    points: int = IG_STEPS,  # integrated gradients' points on the path
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
            return Attribution(method, _path_integral(log_probs, token, [1.0], [1.0], len(predicted), vocab), None)
        widths, alphas = (rule(points) for rule in approximation_parameters(IG_RULE))
        scores = _path_integral(log_probs, token, alphas, widths, len(predicted), vocab)
        return Attribution(method, scores, _completeness_gap(log_probs, token, scores))


def _path_integral(log_probs: Callable, token: torch.Tensor, alphas: list[float], widths: list[float],
                   steps: int, vocab: int) -> np.ndarray:
    """(T, S): Σ_k width_k · x_s · ∂f_t/∂x_s at alpha_k · x, by one forward-mode pass per (point, source token).

    `token` (S, d) is x. Points go in chunks so that one pass's logit tangents stay under TANGENT_BUDGET.
    """
    s, d = token.shape
    along_itself = torch.eye(s, dtype=token.dtype, device=token.device)[:, :, None] * token  # (S, S, d): tangent s moves row s
    per_pass = max(1, TANGENT_BUDGET // (s * steps * vocab))  # each point carries S tangents of (T, vocab) logits
    total = torch.zeros(steps, s, dtype=torch.float64, device=token.device)
    # Torch's fused attention kernel has no forward-mode derivative; the math kernel computes the same.
    with sdpa_kernel(SDPBackend.MATH):
        for start in range(0, len(alphas), per_pass):
            chunk = torch.tensor(alphas[start:start + per_pass], dtype=token.dtype, device=token.device)
            weights = torch.tensor(widths[start:start + per_pass], dtype=torch.float64, device=token.device)
            points = chunk[:, None, None] * token  # (n, S, d)
            tangents = along_itself[:, None].expand(s, len(chunk), s, d)  # (S, n, S, d)
            changes = vmap(lambda tangent: jvp(log_probs, (points,), (tangent,))[1])(tangents)  # (S, n, T)
            total += torch.einsum("snt,n->ts", changes.double(), weights)
    return total.float().cpu().numpy()


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
