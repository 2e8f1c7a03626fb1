"""The baseline aligner: IBM Model 1 (Brown et al. 1993), English words × Chinese characters, with a NULL word.

t(c | e) by EM from uniform: the E-step shares each Chinese character among the English words of its sentence
(and NULL) in proportion to t, the M-step renormalises the shared counts per English word. Vectorised over the
whole corpus: every (character position, word) cell of every pair is one entry of flat arrays.
A Chinese character is then linked to the word with the highest t(c | e), or to nothing when NULL wins.
"""

from __future__ import annotations

import numpy as np

NULL = "<null>"


class Model1:
    def __init__(self, pairs: list[tuple[list[str], list[str]]], iterations: int = 5):
        """`pairs`: (English words, Chinese characters) of the training split; words are lower-cased here."""
        self.words, self.chars, self.pair_index = {NULL: 0}, {}, {}
        cells_k, cells_row = [], []
        row = 0
        for words, chars in pairs:
            e = [0] + [self.words.setdefault(w.lower(), len(self.words)) for w in words]
            for ch in chars:
                c = self.chars.setdefault(ch, len(self.chars))
                cells_k += [self.pair_index.setdefault((ei, c), len(self.pair_index)) for ei in e]
                cells_row += [row] * len(e)
                row += 1
        k, rows = np.array(cells_k), np.array(cells_row)
        word_of_k = np.zeros(len(self.pair_index), dtype=int)
        for (ei, _), idx in self.pair_index.items():
            word_of_k[idx] = ei
        self.t = np.ones(len(self.pair_index))
        for _ in range(iterations):
            share = self.t[k] / np.bincount(rows, weights=self.t[k])[rows]  # E-step
            counts = np.bincount(k, weights=share, minlength=len(self.t))
            self.t = counts / np.bincount(word_of_k, weights=counts)[word_of_k]  # M-step: Σ_c t(c|e) = 1

    def prob(self, word: str, char: str) -> float:
        e, c = self.words.get(word.lower() if word != NULL else NULL), self.chars.get(char)
        idx = self.pair_index.get((e, c))
        return float(self.t[idx]) if idx is not None else 0.0

    def links(self, words: list[str], chars: list[str]) -> set[tuple[int, int]]:
        """(word, character) links: each character to its most probable word, none where NULL is more probable."""
        out = set()
        for j, ch in enumerate(chars):
            scores = [self.prob(NULL, ch)] + [self.prob(w, ch) for w in words]
            best = int(np.argmax(scores))
            if best > 0 and scores[best] > 0:
                out.add((best - 1, j))
        return out
