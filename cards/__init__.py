"""The model card: a checkpoint's README.md and README.zh.md, written from its config and training log.

writer.py builds both from one generator (model_card) and writes them (write_cards: the trainer at the end of a
run, evaluation/study.py after a study, `python -m cards CHECKPOINT` by hand); phrasebooks.py holds the prose in
each language. It reads the log through model.loading.training_log; the trainer (model/training/train.py) is the
one module of model/ that imports it, so that a run leaves a complete checkpoint folder.
"""

from .writer import model_card, write_cards

__all__ = ["model_card", "write_cards"]
