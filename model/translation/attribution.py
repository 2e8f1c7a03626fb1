"""How much each source token mattered to each output token: gradient attribution beside attention.

Attention says where a head looked; attribution asks what the output depends on. Both methods here
attribute the log-probability of each produced token (one teacher-forced pass over the chosen
output, the distribution the search chose from) to the source token embeddings (the table's rows,
before ×√d_model and the positional encoding), summed over d_model: one signed number per
(output step, source token), the [target step][source token] shape of a cross-attention map.

- input × gradient: the embedding times the gradient of the log-probability with respect to it.
- integrated gradients (Sundararajan et al. 2017): the gradient averaged along the straight path
  from a zero embedding (positions kept) to the input, times the input. Its attributions sum to
  f(input) − f(baseline) up to the integral's numerical error; `gap` reports that error (Captum's
  convergence delta, relative; the tests check it against Captum's own). The integral is refined
  until that error is within GAP_BOUND, as the paper advises: the trapezoid rule (written out:
  Captum's riemann_trapezoid widths add up to 1 − 1/n) on points added where completeness fails
  interval by interval (IG_START), multiplied in bfloat16 where the hardware does so natively; the
  gap is always measured in float32, so it reports the rounding too.

Both are directional derivatives: score[t, s] = x_s · ∂f_t/∂x_s is the change of every step's
log-probability when token s's embedding moves along itself. So they are computed forward-mode
(torch.func.jvp), one pass per source token that yields all T steps at once, batched over the
source tokens and the path's points; reverse mode (Captum's own loop) needs one backward per
output step and point, each after a forward over the whole sentence again (benchmarks/HISTORY.md: before and after).
The passes stop at the decoder's last hidden state: the log-probability's gradient there is computed once
per point, not carried through the output projection by every source token's pass.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import torch
from torch.func import jvp, vmap
from torch.nn.attention import SDPBackend, sdpa_kernel

from ..architecture.config import GenerationConfig
from ..architecture.transformer import HeadMask, Transformer
from .threads import native_bf16

METHODS = ("input_x_gradient", "integrated_gradients")
# Points on the path, by the trapezoid rule, placed where the integral needs them. The path starts with IG_START
# evenly spaced points. Completeness holds interval by interval: between two points a and b, the trapezoid's share
# of step t's attributions (Σ over source tokens) should equal f_t(b·x) − f_t(a·x), and a forward pass gives the
# latter. An interval that misses it by more than its share of GAP_BOUND is halved, for the steps still over the
# bound, until every step is within it or the path has IG_MAX_POINTS. Most steps' integrands are smooth; a step
# whose log-probability turns sharply (its integrand climbs from 2 to 59 and back between α 0.4 and 0.6) gets its
# points there, instead of every interval being halved for it (benchmarks/README.md: points and seconds).
IG_START = 13
IG_MAX_POINTS = 97
GAP_BOUND = 0.05  # the completeness error (worst step, relative) below which the path is good enough
# Floats one pass's widest activation may hold (d_ff per position, source and target, for every tangent and point
# in the pass); a pass's peak is about ten such tensors. 4M floats keep an attribution of the longest input (128
# source tokens) within about 0.3 GB above the model; 16M without a split over tangents takes 2.6 GB there.
TANGENT_BUDGET = 4_000_000
# One forward-mode pass at a time in the process. Torch keeps forward-AD levels in one table shared by every thread
# (jvp makes one and deletes it), so two threads' passes at once fail with "Trying to access a forward AD level with
# an invalid index" (three students opening the explanation page together do it); torch offers no per-thread
# level. And sdpa_kernel sets the attention backend for the whole process and restores what it found on leaving,
# which interleaved passes would restore out of order. Only attribution's passes wait here: translations still
# run side by side within the model-work gate (while a pass holds the math kernel, theirs use it too: same numbers
# to float32 rounding).
_FORWARD_AD = threading.Lock()


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
    points: int | None = None,  # integrated gradients: exactly this many evenly spaced points, none added
) -> Attribution:
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    device = next(model.parameters()).device
    src = torch.tensor([src_ids], device=device)  # (1, S)
    tgt = torch.tensor([tgt_in], device=device)  # (1, T)
    chosen = torch.tensor(predicted, device=device)  # (T,)

    def hidden(token: torch.Tensor) -> torch.Tensor:
        """(batch, S, d_model) source token embeddings → (batch, T, d_model) decoder output, before the projection."""
        n = token.size(0)
        enc = model.encode(src.expand(n, -1), heads=heads, token_embeddings=token)
        return model.decode(tgt.expand(n, -1), enc, project=False).hidden

    def read_out(h: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(batch, T, d_model) → log-probability of each produced token (batch, T), and its gradient in h."""
        logits = generation.never_next(model.project(h.float()), model.config)  # (batch, T, vocab)
        logp = torch.log_softmax(logits, dim=-1)
        weight = model.tgt_embed.weight.float()  # (vocab, d_model): the projection, tied (§3.4)
        # ∂ log p(y_t)/∂h_t = W[y_t] − Σ_v p_v W[v]: the tangent passes stop at h, not at 3,000-odd logits each
        grad = weight[chosen] - logp.exp() @ weight  # (batch, T, d_model)
        return logp.gather(-1, chosen.view(1, -1, 1).expand(h.size(0), -1, 1)).squeeze(-1), grad

    with torch.no_grad():
        token = model.src_embed(src)[0]  # (S, d_model)
        if method == "input_x_gradient":
            path = _Path(hidden, read_out, token, model.config.d_ff, low_precision=False)
            return Attribution(method, path.at(torch.ones(1, dtype=torch.float64))[0][0].float().cpu().numpy(), None)
        return _integrated(_Path(hidden, read_out, token, model.config.d_ff, native_bf16(device)), points)


@dataclass(frozen=True)
class _Path:
    """The straight path from a zero embedding to `token` (S, d_model): x_s · ∂f_t/∂x_s and f_t at its points."""

    hidden: Callable  # (batch, S, d_model) → (batch, T, d_model)
    read_out: Callable  # (batch, T, d_model) → f (batch, T), ∂f_t/∂h_t (batch, T, d_model)
    token: torch.Tensor
    width: int  # the widest activation per position (d_ff): with S and T, a pass's memory per point
    low_precision: bool  # the tangent passes multiply in bfloat16 (torch.autocast); sums stay in float64

    def at(self, alphas: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(changes (n, T, S), values (n, T)) float64 at the n points alpha · x.

        changes[k, t, s] = x_s · ∂f_t/∂x_s by forward mode: one pass per source token, every step at once.
        values (f in float32) let the path check completeness interval by interval.
        """
        s, d = self.token.shape
        points = alphas.to(self.token)[:, None, None] * self.token  # (n, S, d)
        eye = torch.eye(s, dtype=self.token.dtype, device=self.token.device)
        along_itself = eye[:, :, None] * self.token  # (S, S, d): tangent s holds x_s in row s, zeros elsewhere
        found = []
        # Torch's fused attention kernel has no forward-mode derivative; the math kernel computes the same. The
        # values are computed by it too, so that they do not depend on whether another attribution holds it.
        with _FORWARD_AD, sdpa_kernel(SDPBackend.MATH):
            values, grads = self.read_out(self.hidden(points))  # (n, T), (n, T, d): float32, once per point
            per_tangent = (s + values.size(1)) * self.width  # a tangent's widest activation at one point
            per_pass = max(1, TANGENT_BUDGET // (s * per_tangent))  # points a pass takes, all S tangents each
            tangents_at_once = min(s, max(1, TANGENT_BUDGET // per_tangent))  # fewer when one point is too wide
            with torch.autocast(self.token.device.type, torch.bfloat16, enabled=self.low_precision):
                for start in range(0, len(points), per_pass):
                    chunk = points[start:start + per_pass]
                    tangents = along_itself[:, None].expand(s, len(chunk), s, d)  # (S, n, S, d): tangent s moves row s
                    moved = vmap(lambda tangent: jvp(self.hidden, (chunk,), (tangent,))[1],
                                 chunk_size=tangents_at_once)(tangents)  # (S, n, T, d)
                    found.append(torch.einsum("kntd,ntd->ntk", moved.float(), grads[start:start + per_pass]).double())
        return torch.cat(found), values.double()


def _integrated(path: _Path, points: int | None) -> Attribution:
    """Integrated gradients by the trapezoid rule on points added where completeness fails (IG_START, IG_MAX_POINTS).

    `points`: exactly that many evenly spaced points instead. The gap: each step's errors add up to its
    Σ attributions − (f(x) − f(0)), Captum's convergence delta; relative to |f(x) − f(0)|, at least 1 nat (a step
    the zero baseline already predicts almost as well, often "。" and </s>, has a few hundredths of a nat to
    attribute: a 0.004-nat error would read as 30 %). Worst step.
    """
    alphas = torch.linspace(0, 1, points or IG_START, dtype=torch.float64)
    changes, values = path.at(alphas)
    widths, errors = _trapezoid(alphas, changes, values)
    while not points and len(middles := _to_halve(alphas, errors)):
        more_changes, more_values = path.at(middles)
        alphas, order = torch.cat([alphas, middles]).sort()
        changes, values = torch.cat([changes, more_changes])[order], torch.cat([values, more_values])[order]
        widths, errors = _trapezoid(alphas, changes, values)
    scores = torch.einsum("nts,n->ts", changes, widths.to(changes.device))  # (T, S)
    gap = float(errors.sum(0).abs().max())  # = Captum's convergence delta, relative (tests compare the two)
    return Attribution("integrated_gradients", scores.float().cpu().numpy(), gap, len(alphas))


def _trapezoid(alphas: torch.Tensor, changes: torch.Tensor, values: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """The trapezoid rule on these points: (widths (n,), errors (n − 1, T)) relative as the gap.

    Interval i's error for step t is its trapezoid's share of step t's attributions minus f_t's change across it;
    the errors of a step add up to its completeness error (Captum's delta), so they say where points are missing.
    """
    h = alphas.diff()  # (n − 1,)
    widths = torch.zeros_like(alphas)
    widths[:-1] += h / 2
    widths[1:] += h / 2
    along = changes.sum(-1)  # (n, T): Σ_s x_s · ∂f_t/∂x_s = d f_t(αx)/dα
    errors = h[:, None].to(along) / 2 * (along[:-1] + along[1:]) - values.diff(dim=0)
    return widths, errors / (values[-1] - values[0]).abs().clamp_min(1.0)


def _to_halve(alphas: torch.Tensor, errors: torch.Tensor) -> torch.Tensor:
    """The middles of the intervals to halve next: none once every step is within GAP_BOUND or the path is full.

    An interval is halved when, for a step over the bound, its error exceeds its share of the bound (GAP_BOUND × its
    width). If none did, that step's errors would add up to at most GAP_BOUND: so a step over it always halves one.
    """
    over = errors.sum(0).abs() > GAP_BOUND  # (T,)
    room = IG_MAX_POINTS - len(alphas)
    if not bool(over.any()) or room <= 0:
        return alphas.new_empty(0)
    h = alphas.diff()
    share = (errors[:, over].abs().cpu() / h[:, None]).amax(-1) / GAP_BOUND  # (n − 1,): > 1 is more than its share
    worst = share.argsort(descending=True)[:room]
    worst = worst[share[worst] > 1]
    return ((alphas[:-1] + alphas[1:]) / 2)[worst]
