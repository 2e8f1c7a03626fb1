"""The model card (the checkpoint's README.md), written from the config and the training log."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from ..architecture.config import ModelConfig
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
        "| integrity | SHA-256 of the weights, config and tokenizers in `sha256sums.txt`, verified on every load |",
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
        *_test(log.get("test")),
        *_study(log.get("study", []), log.get("study_findings", [])),
        *_rounding_note(log, name or Path(args.out).name),
        "## Training data",
        "",
        "English–Chinese sentence pairs from **Tatoeba (tatoeba.org), CC-BY 2.0 FR**, as compiled by",
        f"ManyThings.org (`cmn.txt`): {log.get('train_pairs', 26777):,} training pairs, {log.get('dev_pairs', 1221):,} dev pairs. "
        "The Chinese side was",
        "normalised to Simplified characters with OpenCC (t2s). The data is not shipped with this model.",
        "",
        *_dictionary_credit(args),
        "## Limits",
        "",
        "Tatoeba holds short everyday sentences; long, technical or literary input translates poorly.",
        "This is a teaching model: its purpose is to show attention, not to compete with production MT.",
        "",
        "## Retraining",
        "",
        "```",
        "python -m model.training.train " + " ".join(log["argv"]),
        "```",
        "",
    ]
    return "\n".join(lines)


def _shipped_greedy(log: dict) -> str:
    """The shipped weights' greedy scores: the averaged ones when averaging won, else the best evaluation's."""
    entry = log["average"] if log.get("shipped", "").startswith("average") else log["best"]
    return " | ".join(str(entry.get(k, "–")) for k in ("bleu", "chrf", "dedup_bleu", "dedup_chrf"))


def _test(test: dict | None) -> list[str]:
    """The held-out test half's scores (model.training.study --test-split): the figure no choice ever saw."""
    if not test:
        return []
    return [
        f"## Held-out test half ({test['pairs']:,} pairs, {test['unseen_pairs']:,} unseen)",
        "",
        "Half of dev.tsv (`model.data.split_dev`, by a hash of the English) that no recipe, arm or threshold",
        "was chosen on. " + ("Nor was this checkpoint: it was trained with `--test-split`." if test.get("untouched") else
                             "This checkpoint, trained before the split existed, was chosen on all of dev.tsv (this half "
                             "included), which flatters its figure a little; models trained with `--test-split` never see it."),
        f"Decoded as the app decodes (beam {test['beam']}).",
        "",
        "| | BLEU | chrF | unseen BLEU | unseen chrF |",
        "|---|---|---|---|---|",
        f"| test half | {test['bleu']} | {test['chrf']} | {test['dedup_bleu']} | {test['dedup_chrf']} |",
        "",
        f"BLEU signature: `{test['bleu_signature']}`  ",
        f"chrF signature: `{test['chrf_signature']}`",
        "",
    ]


def _budgets(rows: list[dict]) -> list[str]:
    """One line per group saying whether its runs had equal budgets, from their minutes and steps."""
    lines = []
    for group in sorted({row["group"] for row in rows}):
        members = [row for row in rows if row["group"] == group]
        minutes = [row["minutes"] or 0 for row in members]
        steps = [row["steps"] or 0 for row in members]
        if len(members) < 2 or max(minutes) <= 1.02 * min(minutes):
            same = "the same minutes"
        elif len(set(steps)) == 1:
            same = "the same steps (not the same minutes)"
        else:
            same = ("**not** the same budget: " + " vs ".join(f"{m} min / {s} steps" for m, s in zip(minutes, steps))
                    + "; compare its rows with that in mind")
        lines.append(f"- Group {group}: {same}.")
    return lines


def _study(rows: list[dict], findings: list[str]) -> list[str]:
    """The recipe-study table (model/training/study.py): each group's first row is the reference."""
    if not rows:
        return []
    lines = [
        "## Recipe study",
        "",
        "All rows decoded the same way (greedy). Rows with *test* scores were scored on the selection half of",
        "dev.tsv (dev columns) and on the held-out test half (test columns); the others on all of dev.tsv.",
        "*Δ unseen* compares each with its group's first run. Budgets:",
        "",
        *_budgets(rows),
        "",
        "| group | run | recipe (vs. the group's first run) | minutes | steps | hardware | dev BLEU | dev chrF "
        "| unseen BLEU | unseen chrF | test BLEU | test chrF | test unseen BLEU | Δ unseen BLEU | verdict |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    reference: dict[int, dict] = {}
    for row in rows:
        ref = reference.setdefault(row["group"], row)
        delta = selection_bleu(row) - selection_bleu(ref)
        verdict = "reference" if row is ref else "helped" if delta >= 0.5 else "hurt" if delta <= -0.5 else "no clear effect"
        test = " | ".join(str(row.get(k, "–")) for k in ("test_bleu", "test_chrf", "test_dedup_bleu"))
        lines.append(
            f"| {row['group']} | {row['run']} | {row['changes']} | {row['minutes']} | {row['steps']} | {row['hardware']} "
            f"| {row['bleu']} | {row['chrf']} | {row['dedup_bleu']} | {row['dedup_chrf']} | {test} | {delta:+.2f} | {verdict} |"
        )
    return lines + [""] + [f"- {finding}" for finding in findings] + ([""] if findings else [])


def _rounding_note(log: dict, name: str) -> list[str]:
    """Why the study's greedy score of this checkpoint differs from its training log's (float16 rounding)."""
    entry = log["average"] if log.get("shipped", "").startswith("average") else log.get("best", {})
    row = next((r for r in log.get("study", []) if r["run"] == name and "test_bleu" not in r), None)
    if not row or entry.get("bleu") in (None, row["bleu"]) or log["args"].get("save_dtype") != "float16":
        return []
    return [
        f"The study's greedy BLEU of {name} ({row['bleu']}) differs from its training log's ({entry['bleu']}) for",
        "one reason: the log scored the float32 weights in memory; the study decodes the shipped file, whose",
        "weights were rounded to float16 when saved (and are loaded back as float32). No bf16 is involved in",
        "either decoding; bf16 autocast is used only for training steps.",
        "",
    ]


def _dictionary_credit(args: SimpleNamespace) -> list[str]:
    """CC-CEDICT's attribution and share-alike terms, when its pairs were trained on."""
    words, names = getattr(args, "dictionary_words", 0), getattr(args, "names", 0)
    if not words and not names:
        return []
    return [
        f"Also trained on pairs derived from **CC-CEDICT** (https://cc-cedict.org, MDBG; **CC BY-SA 4.0**): up to",
        f"{words:,} English–Chinese word pairs and {names:,} Tatoeba sentences with names swapped for CC-CEDICT",
        "names or invented ones (`model/training/dictionary.py`). These weights are adapted from CC BY-SA material:",
        "share them under CC BY-SA 4.0 (https://creativecommons.org/licenses/by-sa/4.0/), crediting CC-CEDICT",
        "and Tatoeba.",
        "",
    ]
