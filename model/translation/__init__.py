"""Sentence in, TranslationResult out: translator.py (translate()), decoding.py (greedy and beam search),
result.py (what a translation returns), messages.py (input errors and notices), alignment.py and
confidence.py (what the pages read from a result), threads.py (CPU threads), cli.py (python -m model.translate)."""
