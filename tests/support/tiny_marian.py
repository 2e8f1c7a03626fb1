"""A tiny Marian model and tokenizer, built offline: random weights, SentencePiece trained on a few lines.

save_pretrained() writes them as a Hugging Face folder, exactly the kind a user
downloads (Helsinki-NLP/opus-mt-*), so the app reads it the way it reads a real one.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

ENGLISH = [
    "I have a dream.", "Who are you?", "The dog saw the cat and the cat saw the dog.", "I love you.",
    "She didn't go to school because she was sick.", "How many languages do you speak?", "The weather is nice today.",
    "We are students.", "He reads a book every night.", "Where is the station?",
]
CHINESE = [
    "我有一个梦想。", "你是谁？", "狗看见了猫，猫也看见了狗。", "我爱你。", "她因为生病没去上学。", "你会说几种语言？",
    "今天天气很好。", "我们是学生。", "他每天晚上读一本书。", "车站在哪里？",
]
LANGUAGE = ">>cmn_Hans<<"


def _sentencepiece(lines: list[str], vocab_size: int) -> bytes:
    import sentencepiece as spm

    model = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(lines * 20), model_writer=model, vocab_size=vocab_size, model_type="unigram",
        character_coverage=1.0, hard_vocab_limit=False, minloglevel=2, num_threads=1,
        # Marian's ids come from vocab.json; these SentencePiece ids are never used
        unk_id=0, bos_id=-1, eos_id=-1, pad_id=-1,
    )
    return model.getvalue()


def save_tiny_marian(folder: Path, seed: int = 0, languages: bool = False, max_length: int = 24) -> Path:
    """A tiny random MarianMTModel (+ tokenizer) saved in `folder`; with `languages`, a multi-target vocabulary."""
    import sentencepiece as spm
    import torch
    from transformers import MarianConfig, MarianMTModel, MarianTokenizer

    folder.mkdir(parents=True, exist_ok=True)
    (folder / "source.spm").write_bytes(_sentencepiece(ENGLISH, 60))
    (folder / "target.spm").write_bytes(_sentencepiece(CHINESE, 60))
    pieces: list[str] = []
    for name in ("source.spm", "target.spm"):
        proc = spm.SentencePieceProcessor(model_file=str(folder / name))
        pieces += [proc.id_to_piece(i) for i in range(proc.get_piece_size()) if not proc.is_unknown(i)]
    codes = [LANGUAGE, ">>yue_Hant<<"] if languages else []
    vocab = ["</s>", "<unk>", *codes, *dict.fromkeys(pieces), "<pad>"]
    (folder / "vocab.json").write_text(json.dumps({p: i for i, p in enumerate(vocab)}, ensure_ascii=False))
    tokenizer = MarianTokenizer(str(folder / "source.spm"), str(folder / "target.spm"), str(folder / "vocab.json"))
    pad = len(vocab) - 1
    config = MarianConfig(
        vocab_size=len(vocab), d_model=32, encoder_layers=2, decoder_layers=2, encoder_attention_heads=4,
        decoder_attention_heads=4, encoder_ffn_dim=64, decoder_ffn_dim=64, max_position_embeddings=64,
        activation_function="swish", scale_embedding=True, pad_token_id=pad, decoder_start_token_id=pad,
        eos_token_id=0, forced_eos_token_id=0, init_std=0.3, dropout=0.1,
    )
    torch.manual_seed(seed)
    model = MarianMTModel(config)
    with torch.no_grad():
        model.final_logits_bias.normal_(0.0, 1.0)  # a trained model's bias is not zero
        # Random weights repeat one token; this </s> bias makes seed 0 end its outputs at many lengths (0 to the limit).
        model.final_logits_bias[0, 0] = 6.5
    g = model.generation_config
    g.bad_words_ids, g.max_length, g.num_beams, g.renormalize_logits = [[pad]], max_length, 4, True
    g.forced_eos_token_id, g.decoder_start_token_id, g.pad_token_id, g.eos_token_id = 0, pad, pad, 0
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder
