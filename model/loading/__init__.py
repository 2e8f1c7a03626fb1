"""Loading a model to serve: our checkpoint folder (checkpoint.py) or a converted Marian model (marian.py).

load(name) is the one door: it returns the network, its tokenizers and everything the
pages may show about it, whichever family it comes from, so translation code never
asks which family a model is; it reads the explicit Capabilities instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import torch

from ..architecture.config import GenerationConfig
from ..architecture.transformer import Transformer
from ..text.tokenizer import TextTokenizer
from .checkpoint import CARDS, load_checkpoint, read_training_log
from .marian import default_language, is_marian, load_marian


@dataclass(frozen=True)
class Capabilities:
    """What differs between model families, as facts the pages can branch on."""

    # Trained by model/training/train.py: its training log and card describe this project's data and run.
    trained_here: bool = True
    # Its authors' code multiplies q by 1/√d_head right after the projection instead of dividing the scores
    # (Marian); the weights come out the same, but the lesson says which arithmetic the original runs.
    scales_queries_first: bool = False
    # Reads a name its vocabulary lacks as one it knows and writes the name back (model/translation/names.py):
    # ours, trained on Tatoeba's few names; a Marian model learned names from millions of pairs.
    copies_unseen_names: bool = True


MARIAN = Capabilities(trained_here=False, scales_queries_first=True, copies_unseen_names=False)


@dataclass(frozen=True)
class LoadedModel:
    model: Transformer
    source_tokenizer: TextTokenizer
    target_tokenizer: TextTokenizer
    generation: GenerationConfig
    capabilities: Capabilities
    cards: dict[str, str]  # the model card (Markdown) per language it was written in ("en", "zh"); {} when none
    training_log: dict | None  # training_log.json: what training and calibration measured, None when absent
    languages: tuple[str, ...] = ()  # target-language tokens a multi-target model needs first in the source
    default_language: str | None = None

    @property
    def card(self) -> str | None:
        """The English model card, None when there is none."""
        return self.cards.get("en")


def load(name: str | Path, device: str | torch.device | None = None) -> LoadedModel:
    """Our checkpoint folder, or a Marian model: a folder saved by save_pretrained, or a Hugging Face id."""
    # A local folder's log holds what evaluation.calibrate measured for it; a hub id has none.
    log = read_training_log(name)
    if is_marian(name):
        model, src_tok, tgt_tok, generation, languages, card = load_marian(name, device)
        return LoadedModel(model, src_tok, tgt_tok, generation, MARIAN, {"en": card} if card else {}, log, languages,
                           default_language(languages))
    model, src_tok, tgt_tok = load_checkpoint(name, device)
    return LoadedModel(model, src_tok, tgt_tok, GenerationConfig(), Capabilities(), _read_cards(name), log)


def _read_cards(folder: str | Path) -> dict[str, str]:
    """The checkpoint's model card in each language it has one in (README.md, README.zh.md)."""
    cards = {}
    for language, filename in CARDS.items():
        try:
            cards[language] = (Path(folder) / filename).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            pass
    return cards
