"""Gold word alignments of unseen dev pairs (gold.tsv, GUIDELINE.md) and attention's AER against them.

gold.py loads the set (line numbers and hashes joined with dev.tsv at run time), candidates.py prints pairs to
annotate, ibm1.py the baseline, score.py the scoring run (python -m evaluation.alignment).
"""
