"""The model card (the checkpoint's README.md), written from the config and the training log."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from .config import ModelConfig


def model_card(config: ModelConfig, log: dict) -> str:
    """The checkpoint's README: what the model is, its scores, its data and how to retrain it."""
    args = SimpleNamespace(**log["args"])
    best = log["best"]
    params = log["parameters"]
    final = log.get("final", {})
    lines = [
        f"# Model card: {Path(args.out).name}",
        "",
        "An encoder–decoder Transformer (Vaswani et al., 2017), written from scratch in PyTorch,",
        "that translates **English → Chinese (Simplified)**. It returns every attention map it computes.",
        "",
        "| | |",
        "|---|---|",
        "| direction | English (en) → Chinese (zh, Simplified) |",
        f"| parameters | {params:,} |",
        f"| shape | d_model {config.d_model}, {config.n_heads} heads, {config.n_encoder_layers} encoder + "
        f"{config.n_decoder_layers} decoder layers, d_ff {config.d_ff}, max {config.max_len} positions |",
        f"| vocabularies | English BPE {config.src_vocab_size} (word starts marked ▁), Chinese {config.tgt_vocab_size} "
        "(one token per character); both with byte fallback |",
        f"| weights | safetensors, {args.save_dtype} (loaded as float32) |",
        f"| training | {log['hardware']}, {log.get('mixed_precision', 'fp32')}; {log['train_minutes']:.1f} minutes, {log['steps']} steps, "
        f"{log['epochs']} epochs; selected at step {best['step']} |",
        f"| recipe | Adam(0.9, 0.98, 1e-9), warm-up {args.warmup} steps then 1/√step, label smoothing "
        f"{args.label_smoothing}, dropout {config.dropout}, ~{args.max_tokens} tokens per batch |",
        "",
        "## Dev-set scores (`dev.tsv`, 1,221 pairs, references converted to Simplified with OpenCC t2s)",
        "",
        "| decoding | BLEU | chrF |",
        "|---|---|---|",
        f"| greedy | {best['bleu']} | {best['chrf']} |",
    ]
    if final:
        lines.append(f"| beam {final['beam']} | {final['bleu']} | {final['chrf']} |")
    lines += [
        "",
        f"BLEU signature: `{best['bleu_signature']}`  ",
        f"chrF signature: `{best['chrf_signature']}`",
        "",
        "## Training data",
        "",
        "English–Chinese sentence pairs from **Tatoeba (tatoeba.org), CC-BY 2.0 FR**, as compiled by",
        "ManyThings.org (`cmn.txt`): 26,777 training pairs, 1,221 dev pairs. The Chinese side was",
        "normalised to Simplified characters with OpenCC (t2s). The data is not shipped with this model.",
        "",
        "## Limits",
        "",
        "Tatoeba holds short everyday sentences; long, technical or literary input translates poorly.",
        "This is a teaching model: its purpose is to show attention, not to compete with production MT.",
        "",
        "## Retraining",
        "",
        "```",
        "python -m model.train " + " ".join(log["argv"]),
        "```",
        "",
    ]
    return "\n".join(lines)
