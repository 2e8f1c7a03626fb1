"""Does source coverage catch an omission? Measured on omissions made on purpose in the gold-aligned dev pairs.

python -m evaluation.omissions --dev DEV.tsv [--checkpoint checkpoints/en-zh]

Decoding's what-if flags a source token as a possible omission when the cross-attention it received over the whole
output, averaged over every layer and head, is under a quarter of an even share (lessons.classroom.coverage). To
see whether that flag means anything, each gold pair (evaluation/alignment) is run teacher-forced twice: on its
reference, and, for each content word, on the reference with that word's characters deleted (the characters its
sure links reach and no other word's do; for a model that reads Chinese, the gold is turned round: a content
character of the source, and the English words only it links to deleted from the reference). The deleted word is an
omission; the content words of the intact
reference are not. A word counts as flagged when any of its tokens is. Printed: recall (omissions flagged) and
false alarms (kept words flagged) of the page's flag, and of each single head's coverage with the same rule, the
head picked on the even-numbered pairs and scored on the odd ones. The page's figures (how many omissions, how
many the flag caught, the median shares) go into RESULTS, under the SHA-256 of the weights measured, for Decoding's
what-if to state (a small committed file, not the training log: the measurement is of the weights, and a training log
may be rewritten by another measurement while this one runs); --no-store prints only.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

import numpy as np

from lessons.classroom import OMISSION_SHARE
from lessons.explanation import token_words
from model import Translator, configure_torch_threads
from model.loading.checkpoint import CHECKSUMS, WEIGHTS

from .alignment.directions import DirectedPair, directed
from .alignment.gold import GoldPair, load_gold

# Words whose characters are not a content word's: deleting them is not the omission a reader would notice. For a
# Chinese source, the characters that mostly carry grammar or pronouns.
FUNCTION_WORDS = frozenset(
    "the a an to of is are was were be been am do does did i you he she it we they me him her them my your his its "
    "our their this that these those and or but not in on at for with by as".split())
FUNCTION_CHARS = frozenset("的了是在我你他她它们这那和也都不吗呢吧个把被一有就很")
RESULTS = Path(__file__).with_name("omissions.json")  # {weights SHA-256: summary()} of each checkpoint measured


def as_directed(pair: GoldPair | DirectedPair) -> DirectedPair:
    """A gold pair as an English-reading model sees it, or a pair already turned to a model's direction."""
    return pair if isinstance(pair, DirectedPair) else directed(pair, "en")


def content_words(pair: GoldPair | DirectedPair) -> list[int]:
    """Source units (English words, or Chinese characters) of letters, not function words, with a sure link."""
    pair = as_directed(pair)
    linked = {i for i, _ in pair.sure}
    return [i for i, w in enumerate(pair.source_units) if w.isalpha() and w.lower() not in FUNCTION_WORDS
            and w not in FUNCTION_CHARS and i in linked]


def joined(units, language: str) -> str:
    """Units back into a sentence: Chinese characters run together, English words spaced, punctuation attached."""
    if language == "zh":
        return "".join(units)
    return re.sub(r" ([^\w\s])", r"\1", " ".join(units))


def without_word(pair: GoldPair | DirectedPair, word: int) -> str | None:
    """The reference with the target units only source unit `word` links to (sure) deleted; None if none, or all of
    them."""
    pair = as_directed(pair)
    own = {j for i, j in pair.sure if i == word} - {j for i, j in pair.sure if i != word}
    if not own or len(own) == len(pair.target_units):
        return None
    target = "zh" if pair.source_language == "en" else "en"
    return joined([c for j, c in enumerate(pair.target_units) if j not in own], target)


def word_shares(cross, source_tokens, words) -> np.ndarray:
    """(layers + 1, heads, words): per head, and (as the last "layer", repeated over heads) for the average of every
    head, the lowest ratio of received attention to an even share among each word's tokens."""
    w = np.asarray(cross, dtype=np.float64)  # (layers, heads, T, S)
    even = w.shape[2] / w.shape[3]
    per_head = w.sum(axis=2) / even  # (layers, heads, S)
    mean = np.broadcast_to(w.mean(axis=(0, 1)).sum(axis=0) / even, per_head.shape[1:])[None]
    ratios = np.concatenate([per_head, mean])  # (layers + 1, heads, S)
    out = np.full(ratios.shape[:2] + (len(words),), np.inf)
    for s, word in enumerate(token_words(source_tokens, words)):
        if word >= 0:
            out[..., word] = np.minimum(out[..., word], ratios[..., s])
    return out


def labelled_shares(translator: Translator, gold: list[GoldPair]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(shares (n, layers + 1, heads), omitted (n,) bool, pair index (n,)) over every kept and deleted content word
    (or character, for a model that reads Chinese: the gold turned to the model's direction)."""
    shares, omitted, pairs = [], [], []
    for k, pair in enumerate(directed(p, translator.config.source_language) for p in gold):
        words = content_words(pair)
        full = translator.teacher_forced(pair.source, pair.target)
        intact = word_shares(full.cross, full.source_tokens, pair.source_units)
        for i in words:
            shares.append(intact[..., i]), omitted.append(False), pairs.append(k)
            if (reference := without_word(pair, i)) is not None:
                cut = translator.teacher_forced(pair.source, reference)
                shares.append(word_shares(cut.cross, cut.source_tokens, pair.source_units)[..., i])
                omitted.append(True), pairs.append(k)
    return np.stack(shares), np.array(omitted), np.array(pairs)


def rates(flagged: np.ndarray, omitted: np.ndarray) -> tuple[float, float]:
    """(recall, false-alarm rate) of a flag over labelled words."""
    return float(flagged[omitted].mean()), float(flagged[~omitted].mean())


def summary(shares: np.ndarray, omitted: np.ndarray, pairs: np.ndarray, source_language: str) -> dict:
    """What the page states of the averaged flag: words deleted and kept, how many of each it flagged, and the median
    share of an even share each received."""
    averaged, flagged = shares[:, -1, 0], shares[:, -1, 0] < OMISSION_SHARE
    return {"source_language": source_language, "pairs": len(set(pairs.tolist())), "threshold": OMISSION_SHARE,
            "deleted": int(omitted.sum()), "kept": int((~omitted).sum()),
            "deleted_flagged": int(flagged[omitted].sum()), "kept_flagged": int(flagged[~omitted].sum()),
            "median_deleted": round(float(np.median(averaged[omitted])), 4),
            "median_kept": round(float(np.median(averaged[~omitted])), 4)}


def weights_digest(checkpoint: str | Path) -> str | None:
    """The SHA-256 its checksum file records for a checkpoint's weights (None without one): what RESULTS is keyed by."""
    path = Path(checkpoint) / CHECKSUMS
    if not path.is_file():
        return None
    found = (line.split("  ", 1) for line in path.read_text(encoding="utf-8").splitlines())
    return next((digest for digest, name in found if name == WEIGHTS), None)


def stored(checkpoint: str | Path, results: Path = RESULTS) -> dict | None:
    """The measurement of this checkpoint's weights in RESULTS, or None (not measured, or the weights changed)."""
    digest = weights_digest(checkpoint)
    if digest is None or not results.is_file():
        return None
    return json.loads(results.read_text(encoding="utf-8")).get(digest)


def store(checkpoint: str | Path, result: dict, results: Path = RESULTS) -> None:
    digest = weights_digest(checkpoint)
    if digest is None:
        print(f"not stored: {checkpoint} has no {CHECKSUMS} to name its weights by", file=sys.stderr)
        return
    known = json.loads(results.read_text(encoding="utf-8")) if results.is_file() else {}
    known[digest] = {"checkpoint": Path(checkpoint).name, **result}
    results.write_text(json.dumps(known, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"written to {results} under {digest[:12]}…")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m evaluation.omissions", description=__doc__.split("\n\n")[0])
    p.add_argument("--checkpoint", default="checkpoints/en-zh")
    p.add_argument("--dev", help="the dev pairs the gold aligns (default: the shipped evaluation/alignment/pairs.tsv)")
    p.add_argument("--no-store", action="store_true", help=f"print only, do not write {RESULTS.name}")
    args = p.parse_args(argv)
    configure_torch_threads()
    try:
        gold = load_gold(args.dev)
    except OSError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    translator = Translator.from_checkpoint(args.checkpoint)
    shares, omitted, pairs = labelled_shares(translator, gold)
    print(f"{omitted.sum()} deleted and {(~omitted).sum()} kept content words in {len(set(pairs))} gold pairs")
    recall, alarms = rates(shares[:, -1, 0] < OMISSION_SHARE, omitted)
    print(f"the page's flag (average of every head, under {OMISSION_SHARE} of an even share): "
          f"recall {recall:.1%}, false alarms {alarms:.1%}")
    print(f"median share received: deleted words {np.median(shares[omitted, -1, 0]):.2f}, "
          f"kept words {np.median(shares[~omitted, -1, 0]):.2f} (1 = an even share)")
    pick, score = pairs % 2 == 0, pairs % 2 == 1
    for share in (OMISSION_SHARE, 2 * OMISSION_SHARE):
        flags = shares[:, :-1] < share  # (n, layers, heads)
        gain = np.array([[np.subtract(*rates(flags[pick, l, h], omitted[pick])) for h in range(flags.shape[2])]
                         for l in range(flags.shape[1])])
        layer, head = np.unravel_index(int(gain.argmax()), gain.shape)
        recall, alarms = rates(flags[score, layer, head], omitted[score])
        print(f"best single head under {share} (picked on even pairs): layer {layer + 1} head {head + 1}; "
              f"on odd pairs recall {recall:.1%}, false alarms {alarms:.1%}")
    if not args.no_store:
        store(args.checkpoint, summary(shares, omitted, pairs, translator.config.source_language))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
