"""Print dev pairs to annotate: the test half of dev, unlike any training pair, each Chinese character one target token.

python -m evaluation.alignment.candidates --dev DEV.tsv --train TRAIN.tsv [--max-words 10] > /tmp/candidates.txt

Each pair prints as: line number and hash, English words with indices, Chinese characters with indices. The output
holds corpus sentences: write it under /tmp, never into the repository.
"""

from __future__ import annotations

import argparse

from model import Translator
from model.training.data import split_dev, unlike_training

from .gold import chinese_chars, english_words, normalised_pair, pair_hash, read_dev_lines


def candidates(dev_path: str, train_path: str, max_words: int) -> list[int]:
    from model.training.data import read_pairs

    lines = read_dev_lines(dev_path)
    numbered = [(n, normalised_pair(*pair)) for n, pair in lines.items()]
    test_half = set(split_dev([pair for _, pair in numbered])[1])
    kept = [(n, pair) for n, pair in numbered if pair in test_half and 0 < len(english_words(pair[0])) <= max_words]
    unseen = unlike_training([pair for _, pair in kept], read_pairs(train_path))
    return [kept[i][0] for i in unseen]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m evaluation.alignment.candidates")
    p.add_argument("--checkpoint", default="checkpoints/en-zh")
    p.add_argument("--dev", required=True)
    p.add_argument("--train", required=True)
    p.add_argument("--max-words", type=int, default=10)
    args = p.parse_args(argv)
    tokenizer = Translator.from_checkpoint(args.checkpoint).tgt_tok
    lines = read_dev_lines(args.dev)
    for n in candidates(args.dev, args.train, args.max_words):
        en, zh = lines[n]
        chars = chinese_chars(zh)
        if [tokenizer.decode([i]) for i in tokenizer.encode("".join(chars))] != chars:
            continue  # a Latin run or an unknown character is not one target token per character
        print(f"{n}\t{pair_hash(en, zh)}")
        print("  " + " ".join(f"{i}:{w}" for i, w in enumerate(english_words(en))))
        print("  " + " ".join(f"{j}:{c}" for j, c in enumerate(chars)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
