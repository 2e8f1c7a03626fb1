"""Text in, ids out: tokenizer.py (BPE / per-character vocabularies), normalize.py (what the
tokenizer sees), pairs.py (sentence pairs as ids, as the trainer and translator encode them)."""
