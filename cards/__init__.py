"""The model card: a checkpoint's README.md and README.zh.md, written from its config and training log.

writer.py builds both from one generator (model_card) and writes them (write_cards: `python -m cards CHECKPOINT`
after training, evaluation/study.py after a study); phrasebooks.py holds the prose in each language. It reads the
log through model.loading.training_log; model/ never imports it (the trainer writes only the log).
"""

from .writer import model_card, write_cards

__all__ = ["model_card", "write_cards"]
