"""The arithmetic of the "How it was trained" page: Adam on a toy loss, inverted dropout, the padding of
batches, and BLEU taken apart step by step (with sacrebleu, configured from the training log's signature).

NumPy and sacrebleu only: model/training/data.py batches the sentences as the trainer does (batch_lengths) and
the page hands the lengths of those batches here.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from sacrebleu.metrics import BLEU, CHRF

PYTORCH_DEFAULT_BETA2, PYTORCH_DEFAULT_EPS = 0.999, 1e-8  # torch.optim.Adam's own defaults, which the trainer overrides


# ---------------------------------------------------------------- Adam against SGD on a toy loss
TOY_CURVATURES = np.array([0.05, 5.0])  # a long, narrow valley: w1's gradient is 100 times weaker than w2's
TOY_START = np.array([-4.0, 1.0])
TOY_STEPS, TOY_ADAM_LR = 40, 0.2
TOY_SGD_SHARE = 0.75  # plain SGD at this share of its largest stable rate (faster would bounce out of the valley)


def toy_loss(w) -> np.ndarray:
    """½·(a·w1² + b·w2²) with (a, b) = TOY_CURVATURES; w: (..., 2)."""
    w = np.asarray(w, dtype=np.float64)
    return 0.5 * (w**2 * TOY_CURVATURES).sum(axis=-1)


def toy_gradient(w) -> np.ndarray:
    return np.asarray(w, dtype=np.float64) * TOY_CURVATURES


def window(beta: float) -> float:
    """How many recent steps an exponential moving average with decay β mostly remembers: 1 / (1 − β)."""
    return 1.0 / (1.0 - beta)


@dataclass(frozen=True)
class AdamStep:
    """One Adam update of every parameter (arrays of shape (parameters,))."""

    step: int  # t, from 1
    grad: np.ndarray  # g_t
    m: np.ndarray  # first moment: β1·m + (1 − β1)·g
    v: np.ndarray  # second moment: β2·v + (1 − β2)·g²
    m_hat: np.ndarray  # m / (1 − β1^t): bias-corrected
    v_hat: np.ndarray  # v / (1 − β2^t)
    update: np.ndarray  # lr · m̂ / (√v̂ + ε), subtracted from the parameters
    params: np.ndarray  # after the update

    @property
    def change(self) -> np.ndarray:
        """How far each parameter moved: −update, so against the sign of its gradient."""
        return -self.update


def adam_steps(start, lr: float, steps: int, betas: tuple[float, float], eps: float,
               gradient=toy_gradient) -> list[AdamStep]:
    """Adam (Kingma & Ba 2015) as torch.optim.Adam computes it, on `gradient` from `start`, with a constant lr."""
    if steps < 1 or lr <= 0:
        raise ValueError(f"need steps ≥ 1 and lr > 0, got steps={steps}, lr={lr}")
    beta1, beta2 = betas
    w = np.asarray(start, dtype=np.float64).copy()
    m, v = np.zeros_like(w), np.zeros_like(w)
    out = []
    for t in range(1, steps + 1):
        g = gradient(w)
        m = beta1 * m + (1 - beta1) * g
        v = beta2 * v + (1 - beta2) * g * g
        m_hat, v_hat = m / (1 - beta1**t), v / (1 - beta2**t)
        update = lr * m_hat / (np.sqrt(v_hat) + eps)
        w = w - update
        out.append(AdamStep(t, g, m, v, m_hat, v_hat, update, w))
    return out


def sgd_path(start, lr: float, steps: int, gradient=toy_gradient) -> np.ndarray:
    """Plain gradient descent w ← w − lr·g: the parameters before each step and after the last, (steps + 1, parameters)."""
    path = [np.asarray(start, dtype=np.float64)]
    for _ in range(steps):
        path.append(path[-1] - lr * gradient(path[-1]))
    return np.stack(path)


def adam_path(start, steps: list[AdamStep]) -> np.ndarray:
    """(len(steps) + 1, parameters): the start, then the parameters after each Adam step."""
    return np.stack([np.asarray(start, dtype=np.float64), *(s.params for s in steps)])


def largest_stable_sgd_lr(curvatures=TOY_CURVATURES) -> float:
    """Gradient descent on ½·c·w² multiplies w by (1 − lr·c) each step: for the steepest c it converges below
    lr = 2 / c (the bound returned), swings between ±w forever at it and diverges above it."""
    return 2.0 / float(np.max(curvatures))


# ---------------------------------------------------------------- dropout
def inverted_dropout(x, p: float, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """(keep mask, output) of nn.Dropout in training mode: each value is zeroed with probability p and the kept
    ones are divided by 1 − p, so that the expected output equals x and evaluation (no dropout) needs no rescaling."""
    if not 0 <= p < 1:
        raise ValueError(f"p must be in [0, 1), got {p}")
    x = np.asarray(x, dtype=np.float64)
    keep = rng.random(x.shape) >= p
    return keep, np.where(keep, x / (1 - p), 0.0)


def mean_over_draws(x, p: float, draws: int, seed: int = 0) -> np.ndarray:
    """The average of `draws` dropout outputs of x: it approaches x itself, which is why inference can skip dropout."""
    rng = np.random.default_rng(seed)
    return np.mean([inverted_dropout(x, p, rng)[1] for _ in range(draws)], axis=0)


# ---------------------------------------------------------------- padding in batches
@dataclass(frozen=True)
class Padding:
    """Real tokens and tensor positions of a set of batches, as model.data.collate pads them."""

    batches: int
    sentences: int
    source_real: int
    source_slots: int  # batch size × longest source, summed over batches
    target_real: int  # decoder inputs: <s> + target (collate drops the last position)
    target_slots: int

    @property
    def slots(self) -> int:
        return self.source_slots + self.target_slots

    @property
    def real(self) -> int:
        return self.source_real + self.target_real

    @property
    def pads(self) -> int:
        return self.slots - self.real

    @property
    def source_fraction(self) -> float:
        return 1 - self.source_real / self.source_slots if self.source_slots else 0.0

    @property
    def target_fraction(self) -> float:
        return 1 - self.target_real / self.target_slots if self.target_slots else 0.0

    @property
    def fraction(self) -> float:
        return 1 - self.real / self.slots if self.slots else 0.0


def padding(batches: Sequence[Sequence[tuple[int, int]]]) -> Padding:
    """Padding of batches given as (source length, target length) per sentence, lengths as model.data.Example
    holds them (source + </s>; <s> + target + </s>). The decoder reads target[:-1], so its rows are one shorter."""
    src_real = src_slots = tgt_real = tgt_slots = sentences = 0
    for batch in batches:
        if not batch:
            raise ValueError("a batch needs at least one sentence")
        src = [s for s, _ in batch]
        tgt = [t - 1 for _, t in batch]
        src_real, src_slots = src_real + sum(src), src_slots + len(src) * max(src)
        tgt_real, tgt_slots = tgt_real + sum(tgt), tgt_slots + len(tgt) * max(tgt)
        sentences += len(batch)
    return Padding(len(batches), sentences, src_real, src_slots, tgt_real, tgt_slots)


def dev_file(name: str | None, root: Path) -> Path | None:
    """The dev TSV the training run scored (its --dev `name`, relative to where it ran: the repository root), if it is
    here."""
    if not name:
        return None
    path = Path(name) if Path(name).is_absolute() else root / name
    return path if path.is_file() else None


# ---------------------------------------------------------------- the training loss against the dev loss
@dataclass(frozen=True)
class EpochLoss:
    """The batch losses a training log kept of one epoch (one every 50 steps), averaged."""

    epoch: int  # from 1, as the log counts
    mean: float
    batches: int


def last_full_epoch_loss(log) -> EpochLoss | None:
    """The mean of the batch losses logged in the run's last complete epoch: what the dev loss at the end is set
    against (a whole epoch's batches, not the lowest single one, which is the luckiest batch). A run that stopped
    before the epochs it was given stopped on its clock, inside its last epoch: the epoch before is the last complete
    one. None when the log keeps no batch loss of that epoch. `log`: a model.TrainingLog (its train batches, epochs
    and args; lessons/ does not import the model)."""
    if not log.train:
        return None
    last = log.train[-1].epoch
    done = last if log.epochs is None else log.epochs
    given = last if log.args is None or log.args.epochs is None else log.args.epochs
    if done < given:
        last -= 1
    losses = [entry.loss for entry in log.train if entry.epoch == last]
    return EpochLoss(last, float(np.mean(losses)), len(losses)) if losses else None


# ---------------------------------------------------------------- BLEU, step by step
ORDERS = 4  # BLEU's n-gram orders 1…4
SMOOTHINGS = ("exp", "none")  # those bleu_breakdown recomputes


def metric_from_signature(signature: str) -> BLEU:
    """sacrebleu's BLEU configured as a signature such as "nrefs:1|case:mixed|eff:no|tok:zh|smooth:exp|version:2.6.0"
    says (the training log's best.bleu_signature), so the page scores a sentence as the trainer scored dev."""
    fields = dict(part.split(":", 1) for part in signature.split("|") if ":" in part)
    missing = {"case", "eff", "tok", "smooth"} - set(fields)
    if missing:
        raise ValueError(f"BLEU signature {signature!r} lacks {sorted(missing)}")
    if fields["smooth"] not in SMOOTHINGS:
        raise ValueError(f"smoothing {fields['smooth']!r}: the step-by-step recomputation knows {SMOOTHINGS}")
    return BLEU(tokenize=fields["tok"], lowercase=fields["case"] == "lc", effective_order=fields["eff"] == "yes",
                smooth_method=fields["smooth"])


@dataclass(frozen=True)
class Order:
    """One n-gram order of a hypothesis against its reference."""

    n: int
    matches: int  # hypothesis n-grams found in the reference, each counted at most as often as the reference has it
    total: int  # hypothesis n-grams
    matched: tuple[str, ...]  # the matched n-grams, tokens joined by spaces
    precision: float  # percent, after smoothing
    smoothed: bool  # no match: the precision is the smoothing's, not matches/total


@dataclass(frozen=True)
class BleuBreakdown:
    hypothesis_tokens: tuple[str, ...]
    reference_tokens: tuple[str, ...]
    orders: tuple[Order, ...]
    used_orders: int  # orders in the geometric mean (4, or fewer with effective order)
    brevity_penalty: float  # exp(1 − r/c) when the hypothesis (c tokens) is shorter than the reference (r), else 1
    geometric_mean: float  # percent: exp(mean of log precisions)
    score: float  # brevity_penalty × geometric_mean, computed here
    sacrebleu_score: float  # what sacrebleu says for the same pair
    sacrebleu_counts: tuple[tuple[int, ...], tuple[int, ...]]  # sacrebleu's (matches, totals) per order


def ngrams(tokens: Sequence[str], n: int) -> Counter:
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def in_order(tokens: Sequence[str], n: int, clipped: Counter) -> tuple[str, ...]:
    """The matched n-grams in the order the hypothesis has them (a repeat only as often as it was matched)."""
    left, out = Counter(clipped), []
    for i in range(len(tokens) - n + 1):
        gram = tuple(tokens[i : i + n])
        if left[gram] > 0:
            left[gram] -= 1
            out.append(" ".join(gram))
    return tuple(out)


def bleu_breakdown(hypothesis: str, reference: str, signature: str) -> BleuBreakdown:
    """BLEU of one hypothesis against one reference, every step computed here, next to sacrebleu's own score.

    Precision p_n = clipped matches / hypothesis n-grams; with "exp" smoothing an order without a match counts
    as 1 / (2^k · total), k the number of match-less orders so far (sacrebleu's, after mteval-v13a).
    BLEU = BP · exp(Σ log p_n / N). An order of which the hypothesis has no n-gram at all, or no match at all
    anywhere, makes the score 0, as in sacrebleu.
    """
    metric = metric_from_signature(signature)
    prepare = (lambda s: s.lower()) if metric.lowercase else (lambda s: s)
    hyp = tuple(metric.tokenizer(prepare(hypothesis).rstrip()).split())
    ref = tuple(metric.tokenizer(prepare(reference).rstrip()).split())
    orders, halvings = [], 1
    for n in range(1, ORDERS + 1):
        found, wanted = ngrams(hyp, n), ngrams(ref, n)
        clipped = found & wanted
        matches, total = sum(clipped.values()), sum(found.values())
        smoothed = total > 0 and matches == 0 and metric.smooth_method == "exp"
        if smoothed:
            halvings *= 2
            precision = 100.0 / (halvings * total)
        else:
            precision = 100.0 * matches / total if total else 0.0
        orders.append(Order(n, matches, total, in_order(hyp, n, clipped), precision, smoothed))
    used = sum(o.total > 0 for o in orders) if metric.effective_order else ORDERS
    c, r = len(hyp), len(ref)
    bp = 1.0 if c >= r else (math.exp(1 - r / c) if c else 0.0)
    logs = [math.log(o.precision) for o in orders[:used] if o.precision > 0]
    anything = used > 0 and len(logs) == used and any(o.matches for o in orders)
    geometric = math.exp(sum(logs) / used) if anything else 0.0
    official = metric.corpus_score([hypothesis], [[reference]])  # a one-sentence corpus: sentence BLEU, as configured
    return BleuBreakdown(hyp, ref, tuple(orders), used, bp, geometric, bp * geometric, official.score,
                         (tuple(official.counts), tuple(official.totals)))


def zero_reason(parts: BleuBreakdown) -> tuple[str, int] | None:
    """Why a BLEU is 0, where it is: ("short", n) when the hypothesis has no n-gram of order n at all (fewer than n
    tokens: a precision of 0/0 counts as 0, and one zero factor makes the geometric mean 0, which smoothing cannot
    mend); ("nomatch", 0) when no n-gram of any order matched. None when the score is not 0."""
    if parts.score > 0:
        return None
    empty = next((o.n for o in parts.orders[: parts.used_orders] if o.total == 0), None)
    return ("short", empty) if empty is not None else ("nomatch", 0)


def sentence_chrf(hypothesis: str, reference: str) -> float:
    """chrF (sacrebleu's defaults, as the trainer's dev score): character n-grams, so a partial match still counts."""
    return CHRF().sentence_score(hypothesis, [reference]).score


@dataclass(frozen=True)
class BleuLimits:
    """One translation against its one reference, scored three ways: BLEU as the trainer scored dev (its signature:
    tokenize="zh", on characters, for a Chinese output; "13a" for an English one), BLEU with sacrebleu's default tokenizer (13a, which splits at spaces and punctuation: a
    Chinese sentence has no spaces), and chrF (character n-grams)."""

    tokens_zh: tuple[str, ...]  # the hypothesis as the signature's tokenizer cuts it ("zh": characters)
    tokens_13a: tuple[str, ...]  # the hypothesis as 13a cuts it
    bleu_zh: float
    bleu_13a: float
    chrf: float

    @property
    def gap(self) -> float:
        """chrF − BLEU: how much more credit character n-grams give the wording than BLEU's n-grams of tokens."""
        return self.chrf - self.bleu_zh


def bleu_limits(hypothesis: str, reference: str, signature: str) -> BleuLimits:
    """BLEU as the signature configures it (tokenize "zh"), the same BLEU with tokenize "13a", and chrF."""
    characters = metric_from_signature(signature)
    words = BLEU(tokenize="13a", lowercase=characters.lowercase, effective_order=characters.effective_order,
                 smooth_method=characters.smooth_method)
    return BleuLimits(tuple(characters.tokenizer(hypothesis).split()), tuple(words.tokenizer(hypothesis).split()),
                      characters.corpus_score([hypothesis], [[reference]]).score,
                      words.corpus_score([hypothesis], [[reference]]).score, sentence_chrf(hypothesis, reference))


def widest_gap(outputs: Sequence[str], references: Sequence[str], limits: Sequence[BleuLimits]) -> int | None:
    """The sentence whose output differs from its reference, is not shorter than it (BLEU's brevity penalty plays no
    part: a cut-off output is an error, not a paraphrase) and gains most from chrF over BLEU; failing that, any
    differing one. None when every output is its reference."""
    differing = [i for i, (out, ref) in enumerate(zip(outputs, references)) if out != ref]
    full = [i for i in differing if len(outputs[i]) >= len(references[i])]
    return max(full or differing, key=lambda i: limits[i].gap) if differing else None


@dataclass(frozen=True)
class Reliability:
    """A reliability curve's bins that hold positions, and what they add up to."""

    low: np.ndarray  # (bins,) each bin's lower bound
    high: np.ndarray  # (bins,) upper bound
    positions: np.ndarray  # (bins,)
    confidence: np.ndarray  # (bins,) mean confidence of its positions
    right: np.ndarray  # (bins,) share of them right
    ece: float  # expected calibration error: Σ (positions / all) · |right − confidence|
    over: int  # bins where the model is right less often than it is confident (below the diagonal)


def reliability(bins: Sequence[dict]) -> Reliability:
    """The training log's "reliability" bins ({low, high, positions, confidence, right}) as arrays, with the ECE."""
    kept = [b for b in bins if b["positions"]]
    if not kept:
        raise ValueError("no bin holds a position: nothing to draw")
    column = {k: np.array([float(b[k]) for b in kept]) for k in ("low", "high", "positions", "confidence", "right")}
    gap = np.abs(column["right"] - column["confidence"])
    ece = float((column["positions"] / column["positions"].sum() * gap).sum())
    return Reliability(**column, ece=ece, over=int((column["right"] < column["confidence"]).sum()))
