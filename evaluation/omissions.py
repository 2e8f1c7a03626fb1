"""Does source coverage catch an omission? Measured on omissions made on purpose in the gold-aligned dev pairs.

python -m evaluation.omissions --dev DEV.tsv [--checkpoint checkpoints/en-zh]

Decoding's what-if flags a source token as a possible omission when the cross-attention it received over the whole
output, averaged over every layer and head, is under a quarter of an even share (lessons.classroom.coverage). To
see whether that flag means anything, each gold pair (evaluation/alignment) is run teacher-forced twice: on its
reference, and, for each content word, on the reference with that word's characters deleted (the characters its
sure links reach and no other word's do). The deleted word is an omission; the content words of the intact
reference are not. A word counts as flagged when any of its tokens is. Printed: recall (omissions flagged) and
false alarms (kept words flagged) of the page's flag, and of each single head's coverage with the same rule, the
head picked on the even-numbered pairs and scored on the odd ones. It prints only; the pages state the finding.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from lessons.classroom import OMISSION_SHARE
from lessons.explanation import token_words
from model import Translator, configure_torch_threads

from .alignment.gold import GoldPair, load_gold

# Words whose characters are not a content word's: deleting them is not the omission a reader would notice.
FUNCTION_WORDS = frozenset(
    "the a an to of is are was were be been am do does did i you he she it we they me him her them my your his its "
    "our their this that these those and or but not in on at for with by as".split())


def content_words(pair: GoldPair) -> list[int]:
    """Words of letters, not function words, with at least one sure link."""
    linked = {i for i, _ in pair.sure}
    return [i for i, w in enumerate(pair.words) if w.isalpha() and w.lower() not in FUNCTION_WORDS and i in linked]


def without_word(pair: GoldPair, word: int) -> str | None:
    """The reference with the characters only `word` links to (sure) deleted; None if none, or all of them."""
    own = {j for i, j in pair.sure if i == word} - {j for i, j in pair.sure if i != word}
    if not own or len(own) == len(pair.chars):
        return None
    return "".join(c for j, c in enumerate(pair.chars) if j not in own)


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
    """(shares (n, layers + 1, heads), omitted (n,) bool, pair index (n,)) over every kept and deleted content word."""
    shares, omitted, pairs = [], [], []
    for k, pair in enumerate(gold):
        words = content_words(pair)
        full = translator.teacher_forced(pair.english, pair.chinese)
        intact = word_shares(full.cross, full.source_tokens, pair.words)
        for i in words:
            shares.append(intact[..., i]), omitted.append(False), pairs.append(k)
            if (reference := without_word(pair, i)) is not None:
                cut = translator.teacher_forced(pair.english, reference)
                shares.append(word_shares(cut.cross, cut.source_tokens, pair.words)[..., i])
                omitted.append(True), pairs.append(k)
    return np.stack(shares), np.array(omitted), np.array(pairs)


def rates(flagged: np.ndarray, omitted: np.ndarray) -> tuple[float, float]:
    """(recall, false-alarm rate) of a flag over labelled words."""
    return float(flagged[omitted].mean()), float(flagged[~omitted].mean())


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m evaluation.omissions", description=__doc__.split("\n\n")[0])
    p.add_argument("--checkpoint", default="checkpoints/en-zh")
    p.add_argument("--dev", required=True)
    args = p.parse_args(argv)
    configure_torch_threads()
    try:
        gold = load_gold(args.dev)
    except OSError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    shares, omitted, pairs = labelled_shares(Translator.from_checkpoint(args.checkpoint), gold)
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
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
