"""Back-translation of Tatoeba's other test sets: monolingual English and Chinese sentences of the same
domain as the corpus, kept apart from every English–Chinese test set, the dev set and the gold pairs, then translated
by the other direction's model into synthetic training pairs.

    python -m model.training.backtranslation extract --testsets /path/to/OPUS-MT-testsets
    python -m model.training.backtranslation translate --language en --method sample --seed 1
    python -m model.training.backtranslation mix --synthetic /work/bt/synthetic/en.sample.seed1.tsv --tag

Offline tooling: the app, the tests and CI never need the fetched repository; what it writes is derived from the
corpus and goes outside the repository (default /work/bt/). model/training/README.md says how to run it.
"""
