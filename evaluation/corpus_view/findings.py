"""python -m evaluation.corpus_view.findings [--checkpoint checkpoints/en-zh --checkpoint checkpoints/zh-en]

The corpus view's lines for docs/findings.md, written from the numbers (roles.py) over each checkpoint's shipped
corpus: per direction and attention kind, which heads are positional (with the offset and share), which match tokens
(with the share and its chance level) and which do neither; and the PCA pictures' q·k–distance correlations of the
clearest positional and matching head. The passes are read from the disk cache where it holds them.
"""

from __future__ import annotations

import argparse
import sys

from model.translation.threads import configure_torch_threads
from model.translation.translator import Translator

from .cache import ProjectionCache
from .corpus import shipped_corpus
from .roles import MATCHING, POSITIONAL, HeadRole, clearest, every_role
from .vectors import run_corpus, weights_sha256
from .view import head_view

KIND_NAMES = {"encoder_self": "encoder self", "decoder_self": "decoder self", "cross": "cross"}
DIRECTIONS = {"en": "en→zh", "zh": "zh→en"}


def _name(role: HeadRole) -> str:
    return f"L{role.layer + 1} H{role.head + 1}"


def _kind_line(kind: str, roles: list[HeadRole]) -> str:
    positional = [f"{_name(r)} ({r.offset[0]} {100 * r.offset[1]:.0f} %)" for r in roles if r.role == "positional"]
    matching = [f"{_name(r)} ({100 * r.matching:.0f} %, chance {100 * r.chance:.0f} %)" for r in roles
                if r.role == "matching"]
    neither = [_name(r) for r in roles if r.role == "neither"]
    best_offset = max(roles, key=lambda r: r.offset[1])
    best_match = max(roles, key=lambda r: r.matching)
    return (f"{KIND_NAMES[kind]}: positional {', '.join(positional) or 'none'}; matching {', '.join(matching) or 'none'};"
            f" neither {len(neither)} of {len(roles)}"
            + (f" (largest share at one offset {_name(best_offset)} {best_offset.offset[0]} "
               f"{100 * best_offset.offset[1]:.0f} %; " if kind != "cross" else " (")
            + f"largest matching share {_name(best_match)} {100 * best_match.matching:.0f} %, chance "
              f"{100 * best_match.chance:.0f} %)")


def lines(checkpoint: str, cache: ProjectionCache) -> list[str]:
    """The direction's lines: which corpus, then one line per kind, then the two worked readings' correlations."""
    tr = Translator.from_checkpoint(checkpoint, device="cpu")
    corpus = shipped_corpus(tr.config.source_language)
    sha = weights_sha256(checkpoint)
    run = cache.get_run(corpus, sha, str(checkpoint))
    if run is None:
        run = run_corpus(tr, corpus, sha256=sha)
        cache.put_run(run)
    roles = every_role(run)
    counts = corpus.counts()
    out = [f"- {DIRECTIONS[corpus.source_language]} ({counts['gold']} gold pairs and {counts['example']} examples, "
           f"{sum(r.queries for r in roles if r.kind == 'encoder_self') // run.heads // run.layers['encoder_self']} "
           f"source tokens):"]
    out += [f"  - {_kind_line(kind, [r for r in roles if r.kind == kind])}." for kind in run.layers]
    for role in ("positional", "matching"):
        head = clearest(roles, role) or max(roles, key=lambda r: r.offset[1] if role == "positional" else r.matching)
        if head is not None:
            p = head_view(run, head.kind, head.layer, head.head, "pca", 0, cache)
            out.append(f"  - The page's worked {role} reading ({'a ' + role + ' head' if head.role == role else 'no head qualifies: the closest'}): {KIND_NAMES[head.kind]} {_name(head)}; its PCA "
                       f"picture's correlation of q·k with distance {p.correlation['raw']:.2f} raw, "
                       f"{p.correlation['adjusted']:.2f} adjusted.")
    return out


def main(argv: list[str] | None = None) -> int:
    configure_torch_threads()
    p = argparse.ArgumentParser(prog="python -m evaluation.corpus_view.findings", description=__doc__.split("\n")[0])
    p.add_argument("--checkpoint", action="append", help="repeatable; default both shipped checkpoints")
    p.add_argument("--cache", help="the projections' folder (default: ATTENTION_CORPUS_CACHE or runs/corpus_view)")
    args = p.parse_args(argv)
    cache = ProjectionCache(args.cache)
    print(f"Positional: at least {100 * POSITIONAL:.0f} % of a head's queries put their heaviest weight at one offset "
          f"(itself, the previous or the next token). Matching: for at least {100 * MATCHING:.0f} % of its queries "
          f"the key with the highest q·k over the whole corpus (its own left out) carries the query's own token.")
    for checkpoint in args.checkpoint or ["checkpoints/en-zh", "checkpoints/zh-en"]:
        print("\n".join(lines(checkpoint, cache)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
