"""The model card (the checkpoint's README.md), written from the config and the training log."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from .config import ModelConfig
from .metrics import selection_bleu


def model_card(config: ModelConfig, log: dict, name: str | None = None) -> str:
    """The checkpoint's README: what the model is, its scores, its data and how to retrain it.

    `name`: the folder the card is written into, when the checkpoint was moved after training.
    """
    args = SimpleNamespace(**log["args"])
    best = log["best"]
    params = log["parameters"]
    final = log.get("final", {})
    shipped = log.get("shipped") or f"best evaluation (step {best['step']})"
    lines = [
        f"# Model card: {name or Path(args.out).name}",
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
        f"{log['epochs']} epochs; shipped: {shipped} |",
        f"| recipe | Adam(0.9, 0.98, 1e-9), warm-up {args.warmup} steps then 1/√step, label smoothing "
        f"{args.label_smoothing}, dropout {config.dropout} (attention {config.attention_dropout_p}, "
        f"activation {config.activation_dropout_p}), token dropout {getattr(args, 'token_dropout', 0.0)}, "
        f"~{args.max_tokens} tokens per batch |",
        "",
        f"## Dev-set scores (`dev.tsv`, {log.get('dev_pairs', 1221):,} pairs, references converted to Simplified with OpenCC t2s)",
        "",
        "*Unseen* is the part of dev.tsv that is not a near-duplicate of a training pair (no training sentence within",
        "one English word of it, no identical Chinese; `model.data.unlike_training`): "
        f"{log.get('dedup_dev_pairs', '?')} pairs. Tatoeba is full of one-word",
        "variants, so the whole dev set rewards recall of training sentences; the unseen part is the honest measure",
        "and the one that selected this checkpoint.",
        "",
        "| decoding | BLEU | chrF | unseen BLEU | unseen chrF |",
        "|---|---|---|---|---|",
        f"| greedy, {log.get('shipped', 'best evaluation')} | {_shipped_greedy(log)} |",
    ]
    if final:
        lines.append(f"| beam {final['beam']} | {final['bleu']} | {final['chrf']} | {final.get('dedup_bleu', '–')} "
                     f"| {final.get('dedup_chrf', '–')} |")
    lines += [
        "",
        f"BLEU signature: `{best['bleu_signature']}`  ",
        f"chrF signature: `{best['chrf_signature']}`",
        "",
        *_study(log.get("study", []), log.get("study_findings", [])),
        "## Training data",
        "",
        "English–Chinese sentence pairs from **Tatoeba (tatoeba.org), CC-BY 2.0 FR**, as compiled by",
        f"ManyThings.org (`cmn.txt`): {log.get('train_pairs', 26777):,} training pairs, {log.get('dev_pairs', 1221):,} dev pairs. "
        "The Chinese side was",
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


def _shipped_greedy(log: dict) -> str:
    """The shipped weights' greedy scores: the averaged ones when averaging won, else the best evaluation's."""
    entry = log["average"] if log.get("shipped", "").startswith("average") else log["best"]
    return " | ".join(str(entry.get(k, "–")) for k in ("bleu", "chrf", "dedup_bleu", "dedup_chrf"))


def _study(rows: list[dict], findings: list[str]) -> list[str]:
    """The recipe-study table (model/study.py): each group shares a time budget; its first row is the reference."""
    if not rows:
        return []
    lines = [
        "## Recipe study",
        "",
        "All rows decoded the same way (greedy) on the same dev pairs. Within a group the runs had the same",
        "budget on the same hardware (the same minutes, or the same steps where the minutes differ);",
        "*Δ unseen* compares each with its group's first run.",
        "",
        "| group | run | recipe (vs. the group's first run) | minutes | steps | hardware | dev BLEU | dev chrF "
        "| unseen BLEU | unseen chrF | Δ unseen BLEU | verdict |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    reference: dict[int, dict] = {}
    for row in rows:
        ref = reference.setdefault(row["group"], row)
        delta = selection_bleu(row) - selection_bleu(ref)
        verdict = "reference" if row is ref else "helped" if delta >= 0.5 else "hurt" if delta <= -0.5 else "no clear effect"
        lines.append(
            f"| {row['group']} | {row['run']} | {row['changes']} | {row['minutes']} | {row['steps']} | {row['hardware']} "
            f"| {row['bleu']} | {row['chrf']} | {row['dedup_bleu']} | {row['dedup_chrf']} | {delta:+.2f} | {verdict} |"
        )
    return lines + [""] + [f"- {finding}" for finding in findings] + ([""] if findings else [])
