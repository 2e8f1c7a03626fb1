"""translate(): sentence in, one TranslationResult out (tokens, every attention map, per-step candidates).

A Translator holds a loaded model read-only; every call keeps its state in
local variables and its result, so one Translator serves many threads.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import torch

from ..architecture.config import GenerationConfig, ModelConfig
from ..architecture.positional import embedding_scale
from ..architecture.transformer import DecoderOutput, EmbeddingTrace, EncoderOutput, HeadMask, Transformer
from ..loading import Capabilities, load
from ..loading.checkpoint import checks_checksums
from ..text.normalize import clean_text, normalize_source
from ..text.pairs import Example, encode_pairs, pad
from ..text.tokenizer import TextTokenizer
from .attribution import METHODS, Attribution, attribute
from .decoding import BeamStep, SearchOutput, search
from .messages import InputError, Notice
from .names import NameReader, write_back
from .result import BeamHypothesis, BeamRecord, Candidate, Embeddings, StepCandidates, TranslationResult
from .sanity import weight_doubts
from .scripts import script_notices
from .threads import CallGate

DEFAULT_CHECKPOINT = Path(__file__).resolve().parents[2] / "checkpoints" / "en-zh"
MAX_CHARS = 1000  # longer input is cut before tokenising (a 100,000-character paste must not stall the server)
MAX_BEAM = 16  # each beam multiplies the decoding work; the app offers up to 8
# One default everywhere (the app, the CLI, calibration): beam 4 is the better translation (dev BLEU 38.21 against
# 36.87 greedy) and costs a classroom little (tens of ms; benchmarks/run.py).
DEFAULT_BEAM = 4


def _np(x: torch.Tensor) -> np.ndarray:
    return x.float().cpu().numpy()


class Translator:
    def __init__(
        self,
        model: Transformer,
        source_tokenizer: TextTokenizer,
        target_tokenizer: TextTokenizer,
        checkpoint: str = "",
        max_concurrent: int | None = None,
        gate: CallGate | None = None,
        training_log: dict | None = None,
        cards: dict[str, str] | None = None,
        generation: GenerationConfig = GenerationConfig(),
        languages: tuple[str, ...] = (),
        default_language: str | None = None,
        capabilities: Capabilities = Capabilities(),
    ) -> None:
        self.model = model.eval()
        self.src_tok = source_tokenizer
        self.tgt_tok = target_tokenizer
        self.checkpoint = checkpoint
        self.config: ModelConfig = model.config
        self.training_log = training_log  # the checkpoint's training_log.json, None when it has none
        # The checkpoint's model card (Markdown) per language it was written in: README.md ("en"), README.zh.md ("zh").
        self.cards: dict[str, str] = dict(cards or {})
        self.generation_config = generation  # how outputs are chosen: ours, or a converted model's own settings
        # Target-language tokens a multi-target Marian model needs first in the source, e.g. ">>cmn_Hans<<".
        self.languages = languages
        self.default_language = default_language or (languages[0] if languages else None)
        self.capabilities = capabilities  # what the pages may say about this model's family
        # Names its vocabulary lacks are read as one it knows and written back (names.py); None where it reads as typed.
        # (The carriers are English names: only an English source is read this way.)
        self.names = NameReader(lambda word: len(source_tokenizer.encode(word)) == 1) \
            if capabilities.copies_unseen_names and self.config.source_language == "en" else None
        # Parameter names and sizes as data, for the pages that count them (they never touch the model).
        self.parameter_counts = {name: p.numel() for name, p in model.named_parameters()}
        self.max_source_tokens = self.config.max_len - 1  # room for </s>
        # Bursts queue here instead of oversubscribing the CPU's cores (see model/translation/threads.py): in a gate
        # of its own, or in one the caller shares with its other work (the app: every model and the lab's runs).
        self.gate = gate or CallGate(max_concurrent)
        self.max_concurrent = self.gate.size
        # Warnings (Notice) that the weights look damaged: from_checkpoint checks a folder no checksum vouches for.
        self.doubts: tuple[Notice, ...] = ()

    @classmethod
    def from_checkpoint(cls, folder: str | Path = DEFAULT_CHECKPOINT, device: str | None = None, **kw) -> "Translator":
        """Our checkpoint folder, or a Marian model: a folder saved by save_pretrained, or a Hugging Face id."""
        m = load(folder, device)
        translator = cls(m.model, m.source_tokenizer, m.target_tokenizer, checkpoint=str(folder),
                         training_log=m.training_log, cards=m.cards, generation=m.generation, languages=m.languages,
                         default_language=m.default_language, capabilities=m.capabilities, **kw)
        if m.capabilities.trained_here and not checks_checksums(folder):
            translator.doubts = weight_doubts(m.model, lambda text: translator.translate(text, beam=1), str(folder),
                                              m.model.config.source_language)
        return translator

    def card_in(self, language: str) -> str | None:
        """The model card in `language` ("en", "zh"); the English one where it has none in that language (a Marian
        model, a checkpoint with an English card only); None when it has no card at all."""
        return self.cards.get(language) or self.cards.get("en")

    @property
    def device(self) -> torch.device:
        return next(self.model.parameters()).device

    def weight(self, name: str) -> np.ndarray:
        """A copy of one named parameter (a name from `parameter_counts`), for pages that show learned values."""
        params = dict(self.model.named_parameters(remove_duplicate=False))  # a shared table answers to both names
        if name not in params:
            raise KeyError(f"no parameter {name!r}; the names are the keys of parameter_counts")
        return _np(params[name].detach())

    def encode_pairs(self, pairs: list[tuple[str, str]]) -> list[Example]:
        """Sentence pairs tokenised as the trainer tokenises them (model/text/pairs.py), with this model's tokenizers."""
        return encode_pairs(pairs, self.src_tok, self.tgt_tok, self.config)

    def prepare(self, text: str, language: str | None = None) -> tuple[str, list[int], list[Notice]]:
        """Normalise and tokenise; returns (text used, source ids with </s>, notices). Raises InputError.

        The limits hold here, on the server, whatever a browser lets through:
        MAX_CHARS characters, then the model's source tokens. `language` is the
        target-language token of a multi-target model (default: the loaded model's default_language).
        """
        if not isinstance(text, str):
            raise InputError("not_string", type=type(text).__name__)
        prefix = self._language_prefix(language)
        notices = []
        too_long = len(text) > MAX_CHARS * 4
        if too_long:
            text = text[: MAX_CHARS * 4]  # bound the cost of normalising itself
        typed, text = text, normalize_source(text, self.config.source_language)
        if not text:
            raise InputError("empty")
        notices += script_notices(typed, text, self.config.source_language)
        if too_long or len(text) > MAX_CHARS:
            text = text[:MAX_CHARS].rstrip()
            notices.append(Notice("chars_cut", {"limit": MAX_CHARS}))
        ids = self.src_tok.encode(text)
        room = self.max_source_tokens - len(prefix)
        if len(ids) > room:
            ids = ids[:room]
            text = self.src_tok.decode(ids)
            notices.append(Notice("tokens_cut", {"limit": room, "text": text[:80]}))
        return text, prefix + ids + [self.config.eos_id], notices

    def _language_prefix(self, language: str | None) -> list[int]:
        if not self.languages:
            if language is not None:
                raise InputError("language_unsupported", language=language)
            return []
        language = language or self.default_language
        if language not in self.languages:
            raise InputError("language", language=language, languages=", ".join(self.languages[:8]))
        return [self.src_tok.id_of(language)]

    def translate(self, text: str, beam: int = DEFAULT_BEAM, top_k: int = 5, language: str | None = None,
                  knock_out: tuple[tuple[str, int, int], ...] = (), forced_prefix: tuple[int, ...] = ()) -> TranslationResult:
        """One sentence: encode it (traced), search, then one teacher-forced traced pass over the chosen output.

        `knock_out` lists heads as (kind, layer, head), 0-based, whose output is zeroed for this sentence.
        `forced_prefix`: target ids the output must start with ("what if it had written 猫 here?"); the search
        continues after them (result.forced says how many; its beam_steps start after them). A name the model never
        learned is read as one it knows and written back into the translation (names.py; result.names). Raises
        InputError.
        """
        self._check_settings(beam, top_k)
        self._head_mask(knock_out)  # a wrong head is refused before anything is computed
        text, src_ids, notices = self.prepare(text, language)
        read, copies = self.read_names(text)
        if copies:
            read_ids = self.prepare(read, language)[1]
            result = self._search_one(text, read_ids, notices, beam, top_k, knock_out, forced_prefix)
            written = write_back(result.translation, copies, read)
            # An experiment on the model (heads knocked out, a forced start) keeps the reading of the plain run it is
            # compared with, even where its output lost the carrier: the same input, whatever it wrote.
            if written is not None or knock_out or forced_prefix:
                swaps = ", ".join(f"{c.name} → {c.carrier}" for c in copies)
                said = Notice("names_read_as", {"swaps": swaps})
                translation = result.translation if written is None else written
                return dataclasses.replace(result, translation=translation, names=copies, notices=[*notices, said])
        return self._search_one(text, src_ids, notices, beam, top_k, knock_out, forced_prefix)

    def _search_one(self, text: str, src_ids: list[int], notices: list[Notice], beam: int, top_k: int,
                    knock_out: tuple, forced_prefix: tuple[int, ...]) -> TranslationResult:
        """translate() once the source ids are known: encode (traced), search, one traced pass over the output."""
        heads = self._head_mask(knock_out)
        prefix = self._check_prefix(forced_prefix, len(src_ids))
        with self.gate, torch.inference_mode():
            enc = self.model.encode(torch.tensor([src_ids], device=self.device), trace=True, heads=heads)
            (found,) = search(self.model, enc, [len(src_ids)], beam, self.generation_config, prefix)
            result = self._result(text, src_ids, notices, enc, found, beam, top_k)
        return dataclasses.replace(result, knocked_out=tuple(knock_out), forced=len(prefix))

    def read_names(self, text: str) -> tuple[str, tuple]:
        """(the text the model reads, the names swapped for carriers): `text` and () where nothing is swapped."""
        return (text, ()) if self.names is None else self.names.read_as(text)

    def target_token_id(self, token: str) -> int | None:
        """The target-vocabulary id of `token` (e.g. one Chinese character) when it is one known token of the
        vocabulary, else None: what a forced prefix may be built from."""
        ids = self.tgt_tok.encode(clean_text(token)) if isinstance(token, str) else []
        special = {self.config.pad_id, self.config.unk_id, self.config.bos_id, self.config.eos_id}
        return ids[0] if len(ids) == 1 and ids[0] not in special else None

    def _check_prefix(self, prefix, source_length: int) -> tuple[int, ...]:
        """A forced prefix as a tuple of ordinary target ids, shorter than the output limit. Raises InputError."""
        prefix = tuple(int(i) for i in prefix)
        special = {self.config.pad_id, self.config.bos_id, self.config.eos_id}
        limit = self.generation_config.limit(source_length, self.config)
        if any(i in special or not 0 <= i < self.config.tgt_vocab_size for i in prefix) or len(prefix) >= limit:
            raise InputError("forced_prefix", limit=limit - 1, vocab=self.config.tgt_vocab_size)
        return prefix

    def ffn_activations(self, text: str, language: str | None = None) -> np.ndarray:
        """Each encoder layer's FFN hidden units for `text`: (layers, S, d_ff), activation(norm1 · W1 + b1).

        The numbers the FFN's second matrix reads (ReLU for our model: 0 where a unit does not fire). Computed from
        the encoder's trace, as the layer itself computes them; nothing is stored on the model. Raises InputError.
        """
        _, src_ids, _ = self.prepare(text, language)
        with self.gate, torch.inference_mode():
            enc = self.model.encode(torch.tensor([src_ids], device=self.device), trace=True)
            hidden = [layer.ffn.activation(layer.ffn.linear1(trace.norm1))[0]  # (S, d_ff)
                      for layer, trace in zip(self.model.encoder_layers, enc.layers)]
        return _np(torch.stack(hidden))

    def attribute(self, result: TranslationResult, method: str = "integrated_gradients") -> Attribution:
        """How much each source token mattered to each output token of `result` (model/translation/attribution.py).

        Computed on demand (it costs dozens of passes), with the same heads knocked out as `result`.
        """
        if method not in METHODS:
            raise InputError("attribution_method", methods=", ".join(METHODS), method=method)
        predicted = [step.chosen.token_id for step in result.steps]
        with self.gate:
            return attribute(self.model, self.generation_config, result.source_embeddings.ids.tolist(),
                             result.target_embeddings.ids.tolist(), predicted, method,
                             self._head_mask(result.knocked_out))

    def _head_mask(self, knock_out) -> HeadMask | None:
        """The HeadMask of `knock_out` ((kind, layer, head), 0-based) on this model's device; None for none."""
        if not knock_out:
            return None
        c = self.config
        layers = HeadMask.layer_counts(c)
        for kind, layer, head in knock_out:
            if kind not in layers or not (0 <= layer < layers[kind] and 0 <= head < c.n_heads):
                raise InputError("head", kind=kind, layer=layer + 1, head=head + 1, layers=layers.get(kind, 0),
                                 heads=c.n_heads)
        return HeadMask.knocking_out(c, list(knock_out)).to(self.device)

    def teacher_forced(self, text: str, reference: str, top_k: int = 5) -> TranslationResult:
        """`text` with `reference` fed to the decoder as training feeds it (teacher forcing), not searched.

        Each step reads the reference's prefix, so `steps[i].chosen` is the reference token with its probability
        and `steps[i].candidates` what the model would write after the right prefix. Raises InputError.
        """
        self._check_settings(1, top_k)
        text, src_ids, notices = self.prepare(text)
        ids = self.tgt_tok.encode(clean_text(reference))[: self.generation_config.limit(len(src_ids), self.config)]
        with self.gate, torch.inference_mode():
            enc = self.model.encode(torch.tensor([src_ids], device=self.device), trace=True)
            return self._result(text, src_ids, notices, enc, SearchOutput(ids, None), 1, top_k)

    def translations(self, texts: list[str], beam: int = 1, batch_size: int = 64,
                     knock_out: tuple[tuple[str, int, int], ...] = ()) -> list[str]:
        """The translated text of many sentences in padded batches: the same search, limits and names as translate()."""
        self._check_settings(beam, 1)
        heads = self._head_mask(knock_out)
        reads = [self.read_names(text) for text in texts]
        out = self._search_texts([read for read, _ in reads], beam, batch_size, heads)
        for i, (read, copies) in enumerate(reads):
            written = write_back(out[i], copies, read) if copies else out[i]
            if written is not None:
                out[i] = written
            elif not knock_out:  # the carrier lost: as typed (heads knocked out keep the plain run's reading)
                out[i] = self._search_texts([texts[i]], beam, 1, heads)[0]
        return out

    def _search_texts(self, texts: list[str], beam: int, batch_size: int, heads: HeadMask | None) -> list[str]:
        out = []
        for i in range(0, len(texts), batch_size):
            prepared = [self.prepare(t) for t in texts[i : i + batch_size]]
            lengths = [len(ids) for _, ids, _ in prepared]
            with self.gate, torch.inference_mode():
                src = pad([ids for _, ids, _ in prepared], self.config.pad_id).to(self.device)
                enc = self.model.encode(src, heads=heads)
                found = search(self.model, enc, lengths, beam, self.generation_config)
            out += [clean_text(self.tgt_tok.decode(f.ids)) for f in found]
        return out

    @staticmethod
    def _check_settings(beam: int, top_k: int) -> None:
        if not 1 <= beam <= MAX_BEAM:
            raise InputError("beam", max=MAX_BEAM, beam=beam)
        if top_k < 1:
            raise InputError("top_k", top_k=top_k)

    def _result(
        self, text: str, src_ids: list[int], notices: list[Notice], enc: EncoderOutput, found: SearchOutput, beam: int,
        top_k: int,
    ) -> TranslationResult:
        """Every map and candidate list of the chosen output, from one teacher-forced traced pass over it.

        `enc` is the traced encoder output the search decoded from; `found` is what the search chose.
        """
        c = self.config
        device = self.device
        out_ids = found.ids
        tgt_in = [c.bos_id, *out_ids]
        dec = self.model.decode(torch.tensor([tgt_in], device=device), enc, trace=True)
        if len(out_ids) >= self.generation_config.limit(len(src_ids), c):
            notices = [*notices, Notice("output_cut", {"n": len(out_ids)})]
        tok = self.tgt_tok.tokens
        predicted = [*out_ids, c.eos_id]
        return TranslationResult(
            source_text=text,
            source_tokens=self.src_tok.tokens(src_ids),
            target_tokens=tok(tgt_in),
            output_tokens=tok(predicted),
            translation=clean_text(self.tgt_tok.decode(out_ids)),  # byte tokens could spell control characters
            **attention_maps(enc, dec),
            source_embeddings=_embeddings(src_ids, enc.embedding, c.d_model),
            target_embeddings=_embeddings(tgt_in, dec.embedding, c.d_model),
            encoder_sublayers=_sublayers(enc.layers, ("input", "self_attn_out", "norm1", "ffn_out", "output")),
            decoder_sublayers=_sublayers(
                dec.layers, ("input", "self_attn_out", "norm1", "cross_attn_out", "norm2", "ffn_out", "output")
            ),
            steps=self._candidates(dec.logits[0], predicted, top_k),
            beam_size=beam,
            beam_steps=None if found.beam_steps is None else [self._beam_record(s) for s in found.beam_steps],
            notices=notices,
            device=str(device),
            checkpoint=self.checkpoint,
        )

    def _candidates(self, logits: torch.Tensor, predicted: list[int], top_k: int) -> list[StepCandidates]:
        """Per output position (logits (T, vocab)): the chosen token's probability and the top-k alternatives."""
        # The distribution the search chose from, so the chosen token is the top candidate under greedy.
        probs = torch.softmax(self.generation_config.never_next(logits.float(), self.config), dim=-1)  # (T, vocab)
        top_p, top_i = probs.topk(min(top_k, probs.size(-1)), dim=-1)
        tok = self.tgt_tok.tokens
        steps = []
        for t, chosen in enumerate(predicted):
            ids = top_i[t].tolist()
            cands = tuple(Candidate(s, i, p) for s, i, p in zip(tok(ids), ids, top_p[t].tolist()))
            steps.append(StepCandidates(t, Candidate(tok([chosen])[0], chosen, float(probs[t, chosen])), cands))
        return steps

    def _beam_record(self, step: BeamStep) -> BeamRecord:
        def conv(hyps):
            return tuple(BeamHypothesis(tuple(self.tgt_tok.tokens(h.ids)), h.logprob) for h in hyps)

        return BeamRecord(conv(step.kept), conv(step.dropped), conv(step.finished))


def attention_maps(enc: EncoderOutput, dec: DecoderOutput) -> dict:
    """Weights and per-head q, k, v of all three attention kinds, batch row 0, stacked over layers."""
    traces = {
        "encoder_self": [layer.self_attn for layer in enc.layers],
        "decoder_self": [layer.self_attn for layer in dec.layers],
        "cross": [layer.cross_attn for layer in dec.layers],
    }

    def stacked(kind: str, name: str) -> np.ndarray:  # (layers, heads, T, ·)
        return _np(torch.stack([getattr(trace, name)[0] for trace in traces[kind]]))

    return {
        **{kind: stacked(kind, "weights") for kind in traces},
        "queries": {kind: stacked(kind, "q") for kind in traces},
        "keys": {kind: stacked(kind, "k") for kind in traces},
        "values": {kind: stacked(kind, "v") for kind in traces},
    }


def _embeddings(ids: list[int], trace: EmbeddingTrace, d_model: int) -> Embeddings:
    return Embeddings(np.asarray(ids, dtype=np.int64), _np(trace.token[0]), _np(trace.positional),
                      embedding_scale(d_model))


def _sublayers(layers: list, names: tuple[str, ...]) -> dict[str, np.ndarray]:
    return {name: _np(torch.stack([getattr(layer, name)[0] for layer in layers])) for name in names}
