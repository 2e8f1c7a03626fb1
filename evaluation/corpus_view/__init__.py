"""Attention across a corpus: every query and key of a head over hundreds of sentences in one picture (AttentionViz,
Yeh et al. 2023), and a token's attention searched across them (exBERT, Hoover et al. 2020).

Read in order: corpus.py (which sentences: the gold pairs, the app's examples, a user's lines checked), vectors.py
(one traced teacher-forced pass per sentence: every head's queries and keys), project.py (AttentionViz's key shift
and norm-matching scale, PCA / t-SNE / UMAP, the q·k-to-distance correlation), cache.py (projections on disk keyed
on the weights' SHA-256), view.py (a head's projection through the cache; a kind's every head, the matrix view),
search.py (a token's occurrences and their top keys), cli.py (python -m evaluation.corpus_view); for the page
(app_pages/pages/corpus.py): jobs.py (passes and projections on a background worker), roles.py (which heads are
positional, which match tokens) and findings.py (docs/findings.md's lines from those numbers).
"""

from .cache import ProjectionCache
from .corpus import (MAX_USER_CHARS, MAX_USER_SENTENCES, PROBLEMS, Corpus, CorpusError, Sentence, UserLines,
                     shipped_corpus, user_sentences)
from .project import METHODS, Adjustment, HeadProjection, ProjectionUnavailable, adjustment, available, points
from .search import Occurrence, TokenSearch, query_tokens, search, typed_tokens
from .vectors import CorpusRun, HeadError, HeadVectors, run_corpus, weights_sha256
from .view import head_view, matrix_view

__all__ = [
    "MAX_USER_CHARS", "MAX_USER_SENTENCES", "METHODS", "PROBLEMS", "Adjustment", "Corpus", "CorpusError",
    "CorpusRun", "HeadError", "HeadProjection", "HeadVectors", "Occurrence", "ProjectionCache",
    "ProjectionUnavailable", "Sentence", "TokenSearch", "UserLines", "adjustment", "available", "head_view",
    "matrix_view", "points", "query_tokens", "run_corpus", "search", "shipped_corpus", "typed_tokens",
    "user_sentences", "weights_sha256",
]
