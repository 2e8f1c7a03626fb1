"""A training file of real and synthetic pairs, the synthetic sources marked by a tag (Caswell et al. 2019,
"Tagged Back-Translation") when asked. Forward (self-training, He et al. 2020, "Revisiting Self-Training for Neural
Machine Translation"): the pool's real sentences are the sources of the model that translated them, its own
translations the targets; the real sources get the noise that makes self-training help (words dropped, blanked and
moved, as beam-noise adds to back-translated ones) and, when asked, the tag.

The tag is a plain character, TAG, put before the synthetic side: the tokenizers hold no token a text could spell
(TextTokenizer encodes "<s>" typed in a sentence as characters, so a "<BT>" could never be one token), and a tag must
reach the model through train.py's own reading of the TSV (read_pairs, then NFKC and OpenCC for a Chinese source).
"◆" passes all of these unchanged, is in neither the corpus nor the test sets, and the tokenizers train.py builds
from the mixed file learn it as one token (a Chinese source: "◆"; an English one: "▁◆"; tests/test_backtranslate.py).
The tag is added here and not while translating, so one translation run serves the tagged arm and the untagged one.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from .resumable import write_log
from .synthesis import Settings, noised

TAG = "◆"


def tagged(text: str, language: str) -> str:
    """`text` marked as synthetic: "◆ I see." in English (its own word), "◆我看见了。" in Chinese."""
    return f"{TAG} {text}" if language == "en" else f"{TAG}{text}"


def mix(real: Path, synthetic: Path, out: Path, tag: bool, real_copies: int = 1, synthetic_limit: int | None = None,
        seed: int = 1, forward: bool = False) -> dict:
    """Write `real_copies` times the real TSV's lines, then the synthetic ones (a seeded sample of `synthetic_limit`
    when given; their sources tagged when `tag`) to `out`, and the counts to its log beside it (out.json); returns
    the counts. The synthetic side is read from the synthetic file's log (X.json beside X.tsv): it is the source
    (back-translation), or with `forward` the target, the real side then the source, noised (seeded by `seed`)."""
    language = json.loads(synthetic.with_suffix(".json").read_text(encoding="utf-8"))["synthetic_language"]
    source = ({"en": "zh", "zh": "en"}[language]) if forward else language
    column = 0 if source == "en" else 1
    real_lines = real.read_text(encoding="utf-8").splitlines()
    lines = synthetic.read_text(encoding="utf-8").splitlines()
    if synthetic_limit is not None and synthetic_limit < len(lines):
        lines = [lines[i] for i in sorted(random.Random(seed).sample(range(len(lines)), synthetic_limit))]
    noise, rng = Settings(), random.Random(seed)
    if forward or tag:
        lines = ["\t".join(_marked(col, source, tag, noise if forward else None, rng) if i == column else col
                           for i, col in enumerate(line.split("\t"))) for line in lines]
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("".join(f"{line}\n" for line in real_lines * real_copies + lines), encoding="utf-8")
    counts = {"real": len(real_lines), "real_copies": real_copies, "synthetic": len(lines), "tag": TAG if tag else None,
              "synthetic_language": language, "seed": seed, "synthetic_file": synthetic.name}
    if forward:  # what record refuses: the card's section describes back-translated pairs
        counts["forward"] = {"source": source, "delete": noise.delete, "blank": noise.blank, "swap": noise.swap}
    write_log(out.with_suffix(".json"), counts)  # beside the TSV, as translate's: what record reads for the card
    return counts


def _marked(text: str, language: str, tag: bool, noise: Settings | None, rng: random.Random) -> str:
    """A synthetic pair's source: noised when `noise` is given, then tagged when `tag`."""
    text = noised(text, language, rng, noise) if noise is not None else text
    return tagged(text, language) if tag else text
