"""Production models in the same explorer: a Marian (opus-mt) checkpoint converted into our Transformer.

Helsinki-NLP's opus-mt models are the paper's Transformer-base (post-norm,
sinusoidal positions, tied output layer) trained on millions of pairs. Marian
differs from our model only in choices model/architecture/config.py already names: a swish
FFN, PE as all sines then all cosines, one embedding table, a bias on the logits,
and its generation settings (model/architecture/config.py's GenerationConfig). So its weights
load into model/architecture/transformer.py unchanged in meaning, and every page, trace and
search runs on it as on ours; tests/test_marian.py checks the result against
transformers' own forward pass and generate().

transformers and sentencepiece are optional (requirements-marian.txt): this
module imports them only when a Marian model is loaded.
"""

from __future__ import annotations

import json
from pathlib import Path

import torch

from ..architecture.config import GenerationConfig, ModelConfig
from ..architecture.transformer import Transformer
from ..text.tokenizer import WORD_START
from .checkpoint import CheckpointError, resolve_device
from .cpu_layout import lay_out_for_cpu_decoding

INSTALL_HINT = "pip install -r requirements-marian.txt"
# en→zh is the app's default direction; multi-target models need a target-language token first.
PREFERRED_LANGUAGES = (">>cmn_Hans<<", ">>zho_Hans<<", ">>cmn<<", ">>zho<<")


def is_marian(name: str | Path) -> bool:
    """Whether `name` names a Marian model: a folder whose config.json says so, or a Hugging Face hub id."""
    path = Path(name)
    if path.is_dir():
        try:
            return json.loads((path / "config.json").read_text(encoding="utf-8")).get("model_type") == "marian"
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, AttributeError):
            return False
    # "Helsinki-NLP/opus-mt-en-zh": owner/name, not a path on this machine
    return not path.exists() and str(name).count("/") == 1 and not str(name).startswith((".", "/"))


def marian_available() -> bool:
    try:
        import sentencepiece  # noqa: F401
        import transformers  # noqa: F401
    except ImportError:
        return False
    return True


class MarianTextTokenizer:
    """The same interface as model/text/tokenizer.py's TextTokenizer, over Marian's SentencePiece models and vocabulary.

    Thread-safe: it calls SentencePiece's encode and reads dictionaries, never the
    stateful MarianTokenizer.decode. Typed text is only ever text: it goes straight
    to SentencePiece, so a typed ">>fra<<" or "<pad>" never becomes a control token.
    """

    def __init__(self, spm, encoder: dict[str, int], unk: str, specials: set[int]) -> None:
        self._spm = spm
        self._encoder = encoder
        self._decoder = {i: piece for piece, i in encoder.items()}
        self._unk_id = encoder[unk]
        self._unk = unk
        self._specials = specials  # ids decode() drops: padding, </s>, <unk>, language tokens

    @property
    def vocab_size(self) -> int:
        return len(self._encoder)

    def encode(self, text: str) -> list[int]:
        return [self._encoder.get(piece, self._unk_id) for piece in self._spm.encode(text, out_type=str)]

    def decode(self, ids) -> str:
        pieces = [self._decoder.get(i, "") for i in ids if i not in self._specials]
        return "".join(pieces).replace(WORD_START, " ").strip()

    def tokens(self, ids) -> list[str]:
        return [self._decoder.get(i, self._unk) for i in ids]

    def id_of(self, piece: str) -> int:
        return self._encoder[piece]


def load_marian(name: str | Path, device: str | torch.device | None = None, cpu_layout: bool = True):
    """(model, source tokenizer, target tokenizer, generation config, languages, card) of a Marian folder or hub id.

    Raises CheckpointError with what to do when transformers is missing, the model
    cannot be found or downloaded, or it uses a variant the converted model cannot
    compute exactly.
    """
    if not marian_available():
        raise CheckpointError(f"{name} is a Marian model; reading it needs transformers and sentencepiece: {INSTALL_HINT}")
    from transformers import MarianMTModel, MarianTokenizer

    try:
        hf = MarianMTModel.from_pretrained(str(name)).eval()
        hf_tok = MarianTokenizer.from_pretrained(str(name))
    except (OSError, ValueError, EnvironmentError) as exc:
        raise CheckpointError(
            f"cannot load the Marian model {name}: {str(exc).splitlines()[0]} It must be a folder saved by "
            "save_pretrained (model and tokenizer), or a Hugging Face id such as Helsinki-NLP/opus-mt-en-zh on a "
            "machine with internet (it is then cached for offline use)."
        ) from None
    config = converted_config(hf.config)
    model = Transformer(config)
    model.load_state_dict(converted_weights(hf, config))
    device = resolve_device(device)
    model = model.eval().to(device)
    if device.type == "cpu" and cpu_layout:
        lay_out_for_cpu_decoding(model)
    src_tok, tgt_tok, languages = _tokenizers(hf_tok, hf.config)
    return model, src_tok, tgt_tok, generation_config_of(hf.generation_config, config), languages, _card(name, hf.config, model)


def converted_config(hf_config) -> ModelConfig:
    """Our ModelConfig for a MarianConfig; variants our model does not compute raise CheckpointError."""
    c = hf_config
    activation = {"relu": "relu", "swish": "swish", "silu": "swish"}.get(c.activation_function)
    unsupported = [
        (activation is None, f"activation {c.activation_function!r} (supported: relu, swish)"),
        (not c.scale_embedding, "embeddings not scaled by √d_model"),
        (not c.tie_word_embeddings, "an output layer not tied to the target embedding"),
        (c.encoder_attention_heads != c.decoder_attention_heads, "different head counts in encoder and decoder"),
        (c.encoder_ffn_dim != c.decoder_ffn_dim, "different FFN widths in encoder and decoder"),
        (c.d_model % 2, "an odd d_model"),
    ]
    problems = [why for bad, why in unsupported if bad]
    if problems:
        raise CheckpointError(f"this Marian model uses {'; '.join(problems)}, which the app's Transformer does not compute")
    shared = bool(c.share_encoder_decoder_embeddings)
    return ModelConfig(
        src_vocab_size=c.vocab_size,
        tgt_vocab_size=c.vocab_size if shared else c.decoder_vocab_size,
        d_model=c.d_model,
        n_heads=c.encoder_attention_heads,
        n_encoder_layers=c.encoder_layers,
        n_decoder_layers=c.decoder_layers,
        d_ff=c.encoder_ffn_dim,
        dropout=c.dropout,
        attention_dropout=c.attention_dropout,
        activation_dropout=c.activation_dropout,
        max_len=c.max_position_embeddings,
        pad_id=c.pad_token_id,
        unk_id=_unk_id(c),
        bos_id=c.decoder_start_token_id,  # Marian starts decoding with the padding token
        eos_id=c.eos_token_id,
        activation=activation,
        positional_layout="halves",
        shared_embeddings=shared,
        output_bias=True,
    )


def _unk_id(hf_config) -> int:
    # MarianConfig has no unk id; Marian vocabularies put <unk> at 1 (checked against the tokenizer in _tokenizers).
    return getattr(hf_config, "unk_token_id", None) or 1


# Our parameter name → Marian's, per layer; {i} is the layer index.
_ATTENTION = ("q_proj", "k_proj", "v_proj", "out_proj")
_ENCODER = {
    **{f"self_attn.{p}": f"self_attn.{p}" for p in _ATTENTION},
    "norm1": "self_attn_layer_norm", "ffn.linear1": "fc1", "ffn.linear2": "fc2", "norm2": "final_layer_norm",
}
_DECODER = {
    **{f"self_attn.{p}": f"self_attn.{p}" for p in _ATTENTION},
    **{f"cross_attn.{p}": f"encoder_attn.{p}" for p in _ATTENTION},
    "norm1": "self_attn_layer_norm", "norm2": "encoder_attn_layer_norm", "ffn.linear1": "fc1", "ffn.linear2": "fc2",
    "norm3": "final_layer_norm",
}


def converted_weights(hf, config: ModelConfig) -> dict[str, torch.Tensor]:
    """Our state_dict from a MarianMTModel's parameters (same numbers, our names)."""
    theirs = dict(hf.named_parameters(remove_duplicate=False))
    theirs.update(dict(hf.named_buffers()))
    ours = {
        "src_embed.weight": theirs["model.encoder.embed_tokens.weight"],
        "tgt_embed.weight": theirs["model.decoder.embed_tokens.weight"],
        "output_bias": theirs["final_logits_bias"][0],
    }
    for stack, names, count in (("encoder", _ENCODER, config.n_encoder_layers),
                                ("decoder", _DECODER, config.n_decoder_layers)):
        for i in range(count):
            for our, their in names.items():
                for kind in ("weight", "bias"):
                    ours[f"{stack}_layers.{i}.{our}.{kind}"] = theirs[f"model.{stack}.layers.{i}.{their}.{kind}"]
    if not torch.equal(theirs["lm_head.weight"], ours["tgt_embed.weight"]):
        raise CheckpointError("this Marian model's output layer differs from its target embedding; the app ties them")
    return {k: v.detach().float() for k, v in ours.items()}


def generation_config_of(generation_config, config: ModelConfig) -> GenerationConfig:
    """The model authors' generation settings as our GenerationConfig (what generate() would do by default)."""
    # Unset fields mean generate()'s own defaults (max_length 20, length_penalty 1.0, …).
    defaults = type(generation_config)._get_default_generation_params()
    g = {name: getattr(generation_config, name, None) for name in
         ("bad_words_ids", "early_stopping", "max_length", "length_penalty", "renormalize_logits")}
    g = {name: defaults.get(name) if value is None else value for name, value in g.items()}
    banned = {tuple(ids) for ids in (g["bad_words_ids"] or [])}
    if banned - {(config.pad_id,)}:
        raise CheckpointError(f"generation bans {sorted(banned)}; the app's search bans only padding for Marian models")
    if g["early_stopping"] == "never":
        raise CheckpointError('this Marian model\'s generation settings say early_stopping="never", which the app\'s '
                              "beam search does not compute")
    # generate() counts the start token and forces </s> as the last of max_length positions.
    return GenerationConfig(ban_unk=False, length_penalty=float(g["length_penalty"]), max_output=g["max_length"] - 2,
                       renormalize=bool(g["renormalize_logits"]), early_stopping=bool(g["early_stopping"]))


def _tokenizers(hf_tok, hf_config) -> tuple[MarianTextTokenizer, MarianTextTokenizer, tuple[str, ...]]:
    unk, pad, eos = hf_tok.unk_token, hf_tok.pad_token, hf_tok.eos_token
    src_vocab = hf_tok.encoder
    tgt_vocab = hf_tok.target_encoder if hf_tok.separate_vocabs else hf_tok.encoder
    if src_vocab.get(unk) != _unk_id(hf_config) or src_vocab.get(pad) != hf_config.pad_token_id:
        raise CheckpointError("this Marian tokenizer's <unk> or <pad> id differs from the model's config")
    languages = tuple(hf_tok.supported_language_codes)
    specials = {tgt_vocab[t] for t in (unk, pad, eos) if t in tgt_vocab} | {tgt_vocab[code] for code in languages}
    source = MarianTextTokenizer(hf_tok.spm_source, src_vocab, unk, {src_vocab[t] for t in (pad, eos)})
    target = MarianTextTokenizer(hf_tok.spm_target, tgt_vocab, unk, specials)
    return source, target, languages


def default_language(languages: tuple[str, ...]) -> str | None:
    """The target-language token to put first, for a multi-target model: Chinese when it offers it."""
    if not languages:
        return None
    return next((code for code in PREFERRED_LANGUAGES if code in languages), languages[0])


def _card(name, hf_config, model: Transformer) -> str:
    """The folder's own model card when it has one, else what its config says."""
    readme = Path(name) / "README.md"
    if readme.is_file():
        try:
            return readme.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            pass
    c = hf_config
    params = sum(p.numel() for p in model.parameters())
    return (
        f"# {name}\n\nA Marian (opus-mt) translation model read with Hugging Face transformers and converted into "
        f"the app's Transformer: {c.encoder_layers} encoder and {c.decoder_layers} decoder layers, "
        f"{c.encoder_attention_heads} heads, d_model {c.d_model}, FFN {c.encoder_ffn_dim}, "
        f"{c.activation_function} activation, vocabulary {c.vocab_size:,}, {params:,} parameters.\n\n"
        "Opus-MT models by Helsinki-NLP are released under CC-BY 4.0; see the model's own page for its training data "
        "and scores."
    )
