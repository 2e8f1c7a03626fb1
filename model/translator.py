"""translate(): sentence in, one result object out (tokens, every attention map, per-step candidates).

A Translator holds a loaded model read-only; every call keeps its state in
local variables and its result, so one Translator serves many threads.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch

from .checkpoint import load_checkpoint
from .decoding import BeamStep, beam_decode, greedy_decode, greedy_trace, never_next
from .data import pad
from .messages import InputError, Notice
from .text import clean_text, normalize_source
from .threads import default_concurrency
from .tokenizer import TextTokenizer
from .transformer import DecoderOutput, EncoderOutput, Transformer

DEFAULT_CHECKPOINT = Path(__file__).resolve().parent.parent / "checkpoints" / "en-zh"
MAX_CHARS = 1000  # longer input is cut before tokenising (a 100,000-character paste must not stall the server)
MAX_BEAM = 16  # each beam multiplies the decoding work; the app offers up to 8
ATTENTION_KINDS = ("encoder_self", "decoder_self", "cross")


@dataclass(frozen=True)
class Candidate:
    token: str
    token_id: int
    prob: float


@dataclass(frozen=True)
class StepCandidates:
    """Output step t: the token the search chose and the model's top-k alternatives at that step."""

    step: int
    chosen: Candidate
    candidates: tuple[Candidate, ...]  # most probable first


@dataclass(frozen=True)
class BeamHypothesis:
    tokens: tuple[str, ...]
    logprob: float


@dataclass(frozen=True)
class BeamRecord:
    kept: tuple[BeamHypothesis, ...]
    dropped: tuple[BeamHypothesis, ...]
    finished: tuple[BeamHypothesis, ...]


@dataclass(frozen=True, eq=False)
class TranslationResult:
    """Everything the app shows for one sentence.

    Decoder position t reads target_tokens[t] (<s>, y1, …, yn) and predicts
    output_tokens[t] (y1, …, yn, </s>): decoder rows are queries at those positions.
    """

    source_text: str  # the cleaned (and possibly truncated) text that was translated
    source_tokens: list[str]  # S tokens, ending with </s>
    target_tokens: list[str]  # T decoder inputs: <s>, y1, …, yn
    output_tokens: list[str]  # T predictions: y1, …, yn, </s>
    translation: str
    encoder_self: np.ndarray  # (layers, heads, S, S) float32
    decoder_self: np.ndarray  # (layers, heads, T, T)
    cross: np.ndarray  # (layers, heads, T, S)
    steps: list[StepCandidates]  # one per output token, T of them
    beam_size: int
    beam_steps: list[BeamRecord] | None  # None for greedy
    notices: list[Notice] = field(default_factory=list)  # e.g. the input was cut to the model's 127 tokens
    device: str = "cpu"
    checkpoint: str = ""
    # What each attention layer projected its queries / keys and values from,
    # so a page can redo the arithmetic by hand (see Translator.head_qkv).
    encoder_inputs: np.ndarray | None = None  # (layers, S, d_model)
    decoder_self_inputs: np.ndarray | None = None  # (layers, T, d_model)
    decoder_cross_inputs: np.ndarray | None = None  # (layers, T, d_model)
    memory: np.ndarray | None = None  # (S, d_model) encoder output, keys/values of cross-attention

    def attention(self, kind: str) -> np.ndarray:
        if kind not in ATTENTION_KINDS:
            raise ValueError(f"kind must be one of {ATTENTION_KINDS}, got {kind!r}")
        return getattr(self, kind)

    def axis_tokens(self, kind: str) -> tuple[list[str], list[str]]:
        """(query tokens, key tokens) for an attention kind: rows, then columns."""
        return {
            "encoder_self": (self.source_tokens, self.source_tokens),
            "decoder_self": (self.target_tokens, self.target_tokens),
            "cross": (self.target_tokens, self.source_tokens),
        }[kind]


@dataclass(frozen=True)
class HeadQKV:
    """One head of one layer for one sentence, recomputed from the model's own weights."""

    q: np.ndarray  # (Tq, d_head)
    k: np.ndarray  # (Tk, d_head)
    v: np.ndarray  # (Tk, d_head)
    mask: np.ndarray  # (Tq, Tk) bool, True = may attend
    weights: np.ndarray  # (Tq, Tk) the attention the model returned for this head


class Translator:
    def __init__(
        self,
        model: Transformer,
        source_tokenizer: TextTokenizer,
        target_tokenizer: TextTokenizer,
        checkpoint: str = "",
        max_concurrent: int | None = None,
    ) -> None:
        self.model = model.eval()
        self.src_tok = source_tokenizer
        self.tgt_tok = target_tokenizer
        self.checkpoint = checkpoint
        self.config = model.config
        self.max_source_tokens = self.config.max_len - 1  # room for </s>
        # Bursts queue here instead of oversubscribing the CPU's cores (see model/threads.py).
        self.max_concurrent = max_concurrent or default_concurrency()
        self._slots = threading.BoundedSemaphore(self.max_concurrent)

    @classmethod
    def from_checkpoint(cls, folder: str | Path = DEFAULT_CHECKPOINT, device: str | None = None, **kw) -> "Translator":
        model, src_tok, tgt_tok = load_checkpoint(folder, device)
        return cls(model, src_tok, tgt_tok, checkpoint=str(folder), **kw)

    @property
    def device(self) -> torch.device:
        return next(self.model.parameters()).device

    def prepare(self, text: str) -> tuple[str, list[int], list[str]]:
        """Normalise and tokenise; returns (text used, source ids with </s>, notices). Raises InputError.

        The limits hold here, on the server, whatever a browser lets through:
        MAX_CHARS characters, then the model's source tokens.
        """
        if not isinstance(text, str):
            raise InputError("not_string", type=type(text).__name__)
        notices = []
        too_long = len(text) > MAX_CHARS * 4
        if too_long:
            text = text[: MAX_CHARS * 4]  # bound the cost of normalising itself
        text = normalize_source(text)
        if not text:
            raise InputError("empty")
        if too_long or len(text) > MAX_CHARS:
            text = text[:MAX_CHARS].rstrip()
            notices.append(Notice("chars_cut", {"limit": MAX_CHARS}))
        ids = self.src_tok.encode(text)
        if len(ids) > self.max_source_tokens:
            ids = ids[: self.max_source_tokens]
            text = self.src_tok.decode(ids)
            notices.append(Notice("tokens_cut", {"limit": self.max_source_tokens, "text": text[:80]}))
        return text, ids + [self.config.eos_id], notices

    def translate(self, text: str, beam: int = 1, top_k: int = 5) -> TranslationResult:
        return self.translate_batch([text], beam=beam, top_k=top_k)[0]

    def translate_batch(self, texts: list[str], beam: int = 1, top_k: int = 5) -> list[TranslationResult]:
        """Translate several sentences; greedy runs them as one padded batch."""
        if not 1 <= beam <= MAX_BEAM:
            raise InputError("beam", max=MAX_BEAM, beam=beam)
        if top_k < 1:
            raise InputError("top_k", top_k=top_k)
        if not texts:
            return []
        prepared = [self.prepare(t) for t in texts]
        with self._slots, torch.inference_mode():
            c = self.config
            device = self.device
            src = pad([ids for _, ids, _ in prepared], c.pad_id).to(device)
            # A sentence encoded on its own is encoded once, traced: the search and the result share it.
            encoded: list[EncoderOutput | None] = []
            beams: list[list[BeamStep] | None] = []
            decoded: list[DecoderOutput | None] = [None] * len(texts)
            if beam == 1 and len(prepared) == 1:
                # One sentence, greedy (the app's default): the search's own steps give every map.
                enc = self.model.encode(src, trace=True)
                out, decoded[0] = greedy_trace(self.model, enc, self._max_new(len(prepared[0][1])))
                outputs, encoded, beams = [out], [enc], [None]
            elif beam == 1:
                enc = self.model.encode(src)
                outputs = greedy_decode(self.model, enc, [self._max_new(len(ids)) for _, ids, _ in prepared])
                encoded = [None] * len(texts)
                beams = [None] * len(texts)
            else:
                outputs = []
                for row, (_, ids, _) in enumerate(prepared):
                    one = self.model.encode(src[row : row + 1, : len(ids)], trace=True)
                    out, record = beam_decode(self.model, one, beam, self._max_new(len(ids)))
                    outputs.append(out)
                    beams.append(record)
                    encoded.append(one)
            return [
                self._result(text, ids, out, record, notices, beam, top_k, enc, dec)
                for (text, ids, notices), out, record, enc, dec in zip(prepared, outputs, beams, encoded, decoded)
            ]

    def _max_new(self, src_len: int) -> int:
        """Generated-token limit: twice the source plus some slack, within the positional table."""
        return min(self.config.max_len - 1, 2 * src_len + 10)

    def _result(self, text, src_ids, out_ids, beam_record, notices, beam, top_k, enc=None, dec=None) -> TranslationResult:
        """The result object: every attention map and candidate list of the chosen output.

        They come from the traced encoder and decoder outputs `enc` and `dec`: the search's own when it
        kept them (greedy_trace), otherwise one teacher-forced pass over the chosen output made here.
        """
        c = self.config
        device = self.device
        tgt_in = torch.tensor([[c.bos_id, *out_ids]], device=device)
        if enc is None:
            enc = self.model.encode(torch.tensor([src_ids], device=device), trace=True)
        if dec is None:
            dec = self.model.decode(tgt_in, enc, trace=True)
        if len(out_ids) >= self._max_new(len(src_ids)):
            notices = [*notices, Notice("output_cut", {"n": len(out_ids)})]
        # The distribution the search chose from, so the chosen token is the top candidate under greedy.
        probs = torch.softmax(never_next(dec.logits[0].float(), c), dim=-1)  # (T, vocab)
        predicted = [*out_ids, c.eos_id]
        top_p, top_i = probs.topk(min(top_k, probs.size(-1)), dim=-1)
        tok = self.tgt_tok.tokens
        steps = []
        for t, chosen in enumerate(predicted):
            cands = tuple(Candidate(s, i, p) for s, i, p in zip(tok(top_i[t].tolist()), top_i[t].tolist(), top_p[t].tolist()))
            steps.append(StepCandidates(t, Candidate(tok([chosen])[0], chosen, float(probs[t, chosen])), cands))

        def np32(x: torch.Tensor) -> np.ndarray:
            return x.float().cpu().numpy()

        return TranslationResult(
            source_text=text,
            source_tokens=self.src_tok.tokens(src_ids),
            target_tokens=tok(tgt_in[0].tolist()),
            output_tokens=tok(predicted),
            translation=clean_text(self.tgt_tok.decode(out_ids)),  # byte tokens could spell control characters
            encoder_self=np32(enc.self_attn[:, 0]),
            decoder_self=np32(dec.self_attn[:, 0]),
            cross=np32(dec.cross_attn[:, 0]),
            steps=steps,
            beam_size=beam,
            beam_steps=None if beam_record is None else [self._beam_record(s) for s in beam_record],
            notices=notices,
            device=str(device),
            checkpoint=self.checkpoint,
            encoder_inputs=np32(enc.layer_inputs[:, 0]),
            decoder_self_inputs=np32(dec.self_inputs[:, 0]),
            decoder_cross_inputs=np32(dec.cross_inputs[:, 0]),
            memory=np32(enc.memory[0]),
        )

    def _beam_record(self, step: BeamStep) -> BeamRecord:
        def conv(hyps):
            return tuple(BeamHypothesis(tuple(self.tgt_tok.tokens(h.ids)), h.logprob) for h in hyps)

        return BeamRecord(conv(step.kept), conv(step.dropped), conv(step.finished))

    def head_qkv(self, result: TranslationResult, kind: str, layer: int, head: int) -> HeadQKV:
        """Per-head q, k, v of one attention layer for `result`, from the stored layer inputs."""
        result.attention(kind)  # validates kind
        if kind == "encoder_self":
            module = self.model.encoder_layers[layer].self_attn
            query, memory = result.encoder_inputs[layer], result.encoder_inputs[layer]
        elif kind == "decoder_self":
            module = self.model.decoder_layers[layer].self_attn
            query, memory = result.decoder_self_inputs[layer], result.decoder_self_inputs[layer]
        else:
            module = self.model.decoder_layers[layer].cross_attn
            query, memory = result.decoder_cross_inputs[layer], result.memory
        with torch.inference_mode():
            dev = self.device
            q, k, v = module.project(torch.from_numpy(query)[None].to(dev), torch.from_numpy(memory)[None].to(dev))
        tq, tk = query.shape[0], memory.shape[0]
        mask = np.ones((tq, tk), dtype=bool)
        if kind == "decoder_self":
            mask = np.tril(mask)
        return HeadQKV(
            q=q[0, head].float().cpu().numpy(),
            k=k[0, head].float().cpu().numpy(),
            v=v[0, head].float().cpu().numpy(),
            mask=mask,
            weights=result.attention(kind)[layer, head],
        )
