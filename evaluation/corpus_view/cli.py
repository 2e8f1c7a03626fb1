"""python -m evaluation.corpus_view: one head's queries and keys over the corpus, projected, from the command line.

python -m evaluation.corpus_view --checkpoint checkpoints/en-zh --kind encoder_self --layer 1 --head 1
    [--method pca|tsne|umap] [--seed 0] [--search TEXT] [--top 3] [--sentences FILE] [--cache DIR | --no-cache] [--json]
python -m evaluation.corpus_view --checkpoint checkpoints/en-zh --kind encoder_self --matrix [--json]

Layers and heads are 1-based, as on screen. --json prints one JSON object: points [{x, y, role, token, sentence,
position, normalised_position}] (queries first), sentences (the corpus in order: source, reference, origin,
credit), correlation {raw, adjusted} (Pearson between q·k and projected distance over every same-sentence pair the
query may attend to), adjustment {scale, shift_norm}, and with --search the token's occurrences and counts. Without
--json, a readable account. --matrix gives every head of the kind instead: its PCA picture's correlations and the
share of its queries whose top key is the same token, its own position, the next, the previous, the full stop or </s>
(JSON: heads [{layer, head, correlation, top_key}]). Bad input exits 2 with one line on stderr.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

import numpy as np

from model.architecture.transformer import HeadMask
from model.loading.checkpoint import CheckpointError
from model.translation.threads import configure_torch_threads
from model.translation.translator import DEFAULT_CHECKPOINT, Translator

from .cache import ProjectionCache
from .corpus import Corpus, shipped_corpus, user_sentences
from .project import METHODS, HeadProjection, ProjectionUnavailable, points
from .search import TOP_KEYS, TokenSearch, bare, search, top_key_shares, typed_tokens
from .vectors import WORD_START, CorpusRun, check_head, run_corpus
from .view import head_view, matrix_view

SHOWN_POINTS = 12  # the readable account's sample of points; --json gives them all
COUNT_NAMES = {"same_token": "the same token", "itself": "its own position", "next": "the next",
               "previous": "the previous", "full_stop": "the full stop", "end": "</s>"}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # main says it in one line, not argparse's usage block
        raise ValueError(message)


def _number(value: float) -> float | None:
    return None if math.isnan(value) else round(float(value), 4) + 0.0  # + 0.0: no "-0.0"


def _target(run: CorpusRun, sentence: int) -> str:
    """The target a sentence's decoder was forced on, from its input tokens (after <s>), word marks as spaces."""
    return "".join(run.traces[sentence].target_tokens[1:]).replace(WORD_START, " ").strip()


def _search_json(found: TokenSearch, run: CorpusRun) -> dict:
    return {"tokens": list(found.tokens), "counts": found.counts, "occurrences": [
        {"sentence": o.sentence, "position": o.position, "token": bare(o.token),
         "text": run.corpus.sentences[o.sentence].source,
         "target": _target(run, o.sentence),
         "top": [{"position": p, "token": bare(t), "weight": _number(w)} for p, t, w in o.top]}
        for o in found.occurrences]}


def as_json(run: CorpusRun, projection: HeadProjection, found: TokenSearch | None) -> dict:
    p = projection
    vectors = run.head(p.kind, p.layer, p.head)
    out = {
        "checkpoint": run.checkpoint, "weights_sha256": run.weights_sha256, "corpus": run.corpus.counts(),
        "source_language": run.corpus.source_language, "kind": p.kind, "layer": p.layer + 1, "head": p.head + 1,
        "method": p.method, "seed": p.seed,
        "points": [{**point, "x": _number(point["x"]), "y": _number(point["y"]),
                    "normalised_position": _number(point["normalised_position"])} for point in points(vectors, p)],
        "sentences": [{"source": s.source, "reference": s.reference, "origin": s.origin, "credit": s.credit}
                      for s in run.corpus.sentences],
        "correlation": {name: _number(value) for name, value in p.correlation.items()},
        "adjustment": {"scale": _number(p.adjustment.scale),
                       "shift_norm": _number(float(np.linalg.norm(p.adjustment.shift)))},
    }
    return out | ({"search": _search_json(found, run)} if found is not None else {})


def _search_lines(found: TokenSearch, run: CorpusRun) -> list[str]:
    counts = ", ".join(f"{COUNT_NAMES[name]} {n}" for name, n in found.counts.items())
    lines = [f"search {', '.join(found.tokens) or '(nothing)'} among {found.kind}'s queries: {len(found.occurrences)} "
             f"occurrences; "
             f"the top key is: {counts}"]
    for o in found.occurrences:
        keys = ", ".join(f"{bare(t)} {w:.2f}" for _, t, w in o.top)
        sentence = run.corpus.sentences[o.sentence].source
        if found.kind != "encoder_self":  # the query is a decoder input: the target it was forced on too
            sentence += " → " + _target(run, o.sentence)
        lines.append(f"  {o.top_weight:5.2f}  #{o.sentence:<4} {o.position:>3} {bare(o.token):<10} → {keys}"
                     f"   | {sentence}")
    return lines


def table(run: CorpusRun, projection: HeadProjection, found: TokenSearch | None) -> str:
    p, counts = projection, run.corpus.counts()
    vectors = run.head(p.kind, p.layer, p.head)
    shown = points(vectors, p)
    lines = [
        f"checkpoint {run.checkpoint} (reads {run.corpus.source_language}), weights sha256 {run.weights_sha256[:12]}…",
        f"corpus: {len(run.corpus.sentences)} sentences: {counts['gold']} gold pairs (Tatoeba, CC-BY 2.0 FR; "
        f"credited in evaluation/alignment/pairs.tsv), {counts['example']} examples written for the app, "
        f"{counts['user']} added",
        f"{p.kind} layer {p.layer + 1} head {p.head + 1}, {p.method} (seed {p.seed}): {len(vectors.queries)} queries, "
        f"{len(vectors.keys)} keys, d_k {vectors.queries.shape[1]}",
        f"adjusted: keys shifted by {np.linalg.norm(p.adjustment.shift):.3f} onto the query centroid, queries × "
        f"{p.adjustment.scale:.3f} and keys ÷ {p.adjustment.scale:.3f} (no softmax row changes)",
        f"correlation of q·k with projected distance over {len(vectors.pairs()[0])} same-sentence pairs: "
        f"raw {p.correlation['raw']:.3f}, adjusted {p.correlation['adjusted']:.3f}",
        f"points (first {min(SHOWN_POINTS, len(shown))} of {len(shown)}; --json for all):",
        f"  {'role':<5} {'sentence':>8} {'pos':>3} {'token':<12} {'x':>8} {'y':>8}",
    ]
    lines += [f"  {q['role']:<5} {q['sentence']:>8} {q['position']:>3} {q['token']:<12} {q['x']:8.3f} {q['y']:8.3f}"
              for q in shown[:SHOWN_POINTS]]
    return "\n".join(lines + (_search_lines(found, run) if found is not None else []))


def matrix_rows(run: CorpusRun, kind: str, seed: int, cache: ProjectionCache | None) -> list[dict]:
    """Per head of `kind` (1-based): its PCA picture's correlations and the shares of where its top keys lie."""
    return [{"layer": p.layer + 1, "head": p.head + 1,
             "correlation": {name: _number(value) for name, value in p.correlation.items()},
             "top_key": {name: _number(share) for name, share in top_key_shares(run, kind, p.layer, p.head).items()}}
            for row in matrix_view(run, kind, seed, cache) for p in row]


def matrix_table(run: CorpusRun, kind: str, rows: list[dict]) -> str:
    names = list(rows[0]["top_key"])
    lines = [f"{kind} of {run.checkpoint} over {len(run.corpus.sentences)} sentences, every head by PCA: r(q·k, "
             f"distance) raw and adjusted, and the share of queries whose top key is …",
             "  head     raw  adjusted  " + "  ".join(f"{COUNT_NAMES[name]:>16}" for name in names)]
    lines += [f"  L{r['layer']}.H{r['head']}  {r['correlation']['raw']:6.2f}  {r['correlation']['adjusted']:8.2f}  "
              + "  ".join(f"{r['top_key'][name]:16.2f}" for name in names) for r in rows]
    return "\n".join(lines)


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="python -m evaluation.corpus_view", description=__doc__.split("\n")[0])
    p.add_argument("--checkpoint", default=str(DEFAULT_CHECKPOINT))
    p.add_argument("--kind", default="encoder_self", help="encoder_self, decoder_self or cross")
    p.add_argument("--layer", type=int, help="1-based")
    p.add_argument("--head", type=int, help="1-based")
    p.add_argument("--matrix", action="store_true",
                   help="every head of --kind by PCA: correlations and where top keys lie (no --layer, --head)")
    p.add_argument("--method", default="pca", help=", ".join(METHODS))
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--search", help="a token or a word, tokenised as the head's queries read it")
    p.add_argument("--top", type=int, default=TOP_KEYS, help="keys shown per occurrence")
    p.add_argument("--sentences", help="a file of your own sentences, one a line, added to the corpus")
    p.add_argument("--cache", help="the projections' folder (default: ATTENTION_CORPUS_CACHE or runs/corpus_view)")
    p.add_argument("--no-cache", action="store_true", help="compute, and store nothing")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--device", default="cpu")
    return p


def _corpus(args: argparse.Namespace, source_language: str) -> Corpus:
    """The shipped corpus, with --sentences' accepted lines after it (refused lines said on stderr)."""
    corpus = shipped_corpus(source_language)
    if not args.sentences:
        return corpus
    lines = user_sentences(Path(args.sentences).read_text(encoding="utf-8"), source_language)
    for kind, numbers in lines.problems.items():
        print(f"note: {args.sentences}: lines {', '.join(map(str, numbers))} left out ({kind})", file=sys.stderr)
    return corpus.with_user(lines.sentences)


def main(argv: list[str] | None = None) -> int:
    configure_torch_threads()
    try:
        args = _parser().parse_args(argv)
        if args.method not in METHODS:
            raise ValueError(f"--method must be one of {', '.join(METHODS)}, got {args.method!r}")
        if args.top < 1:
            raise ValueError(f"--top must be at least 1, got {args.top}")
        if (args.layer is None or args.head is None) != args.matrix:
            raise ValueError("give --layer and --head, or --matrix")
        tr = Translator.from_checkpoint(args.checkpoint, device=args.device)
        layer, head = (0, 0) if args.matrix else (args.layer - 1, args.head - 1)
        check_head(HeadMask.layer_counts(tr.config), tr.config.n_heads, args.kind, layer, head)
        run = run_corpus(tr, _corpus(args, tr.config.source_language))
        cache = None if args.no_cache else ProjectionCache(args.cache)
        if args.matrix:
            rows = matrix_rows(run, args.kind, args.seed, cache)
            print(json.dumps({"checkpoint": run.checkpoint, "kind": args.kind, "heads": rows}, ensure_ascii=False)
                  if args.json else matrix_table(run, args.kind, rows))
            return 0
        projection = head_view(run, args.kind, layer, head, args.method, args.seed, cache)
        found = None if args.search is None else search(run, args.kind, layer, head,
                                                        typed_tokens(tr, args.search, args.kind), args.top)
    except (CheckpointError, ValueError, ProjectionUnavailable, OSError) as exc:  # HeadError, InputError: ValueErrors
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(as_json(run, projection, found), ensure_ascii=False) if args.json
          else table(run, projection, found))
    return 0
