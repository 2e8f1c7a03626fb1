"""The shipped checkpoint as tests take it apart: its tokenizers read from their files, and a copy of it without
sha256sums.txt whose weights a test may damage first."""

from __future__ import annotations

from model.loading.checkpoint import SOURCE_TOKENIZER, TARGET_TOKENIZER, WEIGHTS
from model.text.tokenizer import TextTokenizer
from tests.support.paths import CHECKPOINT


def checkpoint_tokenizers(folder=CHECKPOINT) -> tuple[TextTokenizer, TextTokenizer]:
    """(source, target): the tokenizers of the checkpoint in `folder`, read from its files."""
    return tuple(TextTokenizer.from_str((folder / name).read_text(encoding="utf-8"))
                 for name in (SOURCE_TOKENIZER, TARGET_TOKENIZER))


def unchecked_copy(tmp_path, damage=None, name="teachers-own"):
    """The shipped checkpoint copied to tmp_path/name without sha256sums.txt, its weights passed through
    damage(tensors) first."""
    import shutil

    from safetensors.torch import load_file as read, save_file as write

    from model.loading.checkpoint import CHECKSUMS

    folder = tmp_path / name
    shutil.copytree(CHECKPOINT, folder)
    (folder / CHECKSUMS).unlink()
    if damage:
        tensors = read(folder / WEIGHTS)
        damage(tensors)
        write(tensors, folder / WEIGHTS, metadata={"format": "pt"})
    return folder


def flipped_exponents(tensors):
    """What flipped high bits do to float16 weights: thousands, where trained ones stay within a few units."""
    w = tensors["decoder_layers.1.ffn.linear2.weight"].view(-1)
    w[::997] = 30000.0
