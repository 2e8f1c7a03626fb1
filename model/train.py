"""Train the tokenizers and the Transformer on a TSV of sentence pairs and write a checkpoint.

    python -m model.train --train ../shared/data/tatoeba-cmn-eng/train.tsv \
        --dev ../shared/data/tatoeba-cmn-eng/dev.tsv --out checkpoints/en-zh --max-minutes 80

The recipe of the paper: Adam(β2=0.98, ε=1e-9), warm-up then inverse-square-root
learning rate, label smoothing 0.1, dropout, length-bucketed batches. Mixed
precision (bf16) on CUDA; data-parallel under `torchrun --nproc_per_node N`.
Training state is saved to --work-dir after every evaluation, and a rerun of
the same command resumes from it. The checkpoint with the best dev BLEU is
exported to --out.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
from pathlib import Path

import torch
import torch.distributed as dist
import torch.nn.functional as F

from .checkpoint import TRAINING_LOG, resolve_device, save_checkpoint
from .config import ModelConfig
from .data import Example, collate, encode_pairs, make_batches, pad, read_pairs
from .decoding import beam_decode, greedy_decode
from .metrics import score
from .tokenizer import TextTokenizer, train_tokenizer
from .transformer import Transformer

STATE = "train_state.pt"


def learning_rate(step: int, d_model: int, warmup: int, factor: float) -> float:
    """lrate = factor · d_model^-0.5 · min(step^-0.5, step · warmup^-1.5)  (paper §5.3)."""
    step = max(step, 1)
    return factor * d_model**-0.5 * min(step**-0.5, step * warmup**-1.5)


def cpu_has_native_bf16() -> bool:
    try:
        flags = Path("/proc/cpuinfo").read_text()
    except OSError:
        return False
    return "avx512_bf16" in flags or "amx_bf16" in flags


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m model.train", description=__doc__.split("\n\n")[0])
    p.add_argument("--train", required=True, help="TSV: english<TAB>chinese[<TAB>attribution]")
    p.add_argument("--dev", help="TSV used for model selection and the reported scores")
    p.add_argument("--out", required=True, help="checkpoint folder to write")
    p.add_argument("--work-dir", help="resumable training state (default: runs/<out folder name>)")
    p.add_argument("--src-vocab", type=int, default=4000)
    p.add_argument("--tgt-vocab", type=int, default=4000, help="upper bound; Chinese needs one per character")
    p.add_argument("--d-model", type=int, default=256)
    p.add_argument("--heads", type=int, default=8)
    p.add_argument("--encoder-layers", type=int, default=3)
    p.add_argument("--decoder-layers", type=int, default=3)
    p.add_argument("--d-ff", type=int, default=1024)
    p.add_argument("--dropout", type=float, default=0.1)
    p.add_argument("--max-len", type=int, default=128)
    p.add_argument("--max-tokens", type=int, default=3000, help="padded tokens per batch (per process)")
    p.add_argument("--warmup", type=int, default=1500)
    p.add_argument("--lr-factor", type=float, default=1.0)
    p.add_argument("--label-smoothing", type=float, default=0.1)
    p.add_argument("--epochs", type=int, default=100)
    p.add_argument("--max-minutes", type=float, default=80.0, help="stop training after this much time")
    p.add_argument("--eval-every", type=int, default=2, help="epochs between dev evaluations")
    p.add_argument("--final-beam", type=int, default=4, help="beam size for the final dev scores")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", type=int, default=0, help="torch CPU threads (0 = all cores)")
    p.add_argument("--device", default="auto")
    p.add_argument(
        "--amp", choices=["auto", "on", "off"], default="auto",
        help="bf16 mixed precision: auto = on for CUDA and for CPUs with native bf16 (avx512_bf16/AMX)",
    )
    p.add_argument("--dev-limit", type=int, default=0, help="score only the first N dev pairs (0 = all)")
    p.add_argument("--save-dtype", choices=["float16", "float32"], default="float16")
    return p.parse_args(argv)


def translate_ids(model: Transformer, examples: list[Example], beam: int = 1, batch_size: int = 64) -> list[list[int]]:
    """Output ids for each example's source (greedy in batches, or beam one by one)."""
    device = next(model.parameters()).device
    c = model.config
    out: list[list[int]] = []
    model.eval()
    with torch.inference_mode():
        for i in range(0, len(examples), batch_size):
            chunk = examples[i : i + batch_size]
            src = pad([e.src for e in chunk], c.pad_id).to(device)
            limit = min(c.max_len - 1, 2 * src.size(1) + 10)
            if beam == 1:
                out += greedy_decode(model, model.encode(src), limit)
            else:
                for row in range(src.size(0)):
                    one = src[row : row + 1, : len(chunk[row].src)]
                    out.append(beam_decode(model, model.encode(one), beam, limit)[0])
    return out


def evaluate(model, examples, references, tgt_tok, beam: int = 1) -> dict:
    hyps = [tgt_tok.decode(ids) for ids in translate_ids(model, examples, beam)]
    return {**score(hyps, references), "samples": hyps[:5]}


def dev_loss(model: Transformer, batches, pad_id: int, device) -> float:
    model.eval()
    total, count = 0.0, 0
    with torch.inference_mode():
        for batch in batches:
            src, tgt_in, tgt_out = (t.to(device) for t in collate(batch, pad_id))
            logits = model(src, tgt_in)
            total += F.cross_entropy(logits.flatten(0, 1).float(), tgt_out.flatten(), ignore_index=pad_id, reduction="sum").item()
            count += int((tgt_out != pad_id).sum())
    return total / max(count, 1)


def model_card(config: ModelConfig, log: dict, args: argparse.Namespace) -> str:
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
        f"| direction | English (en) → Chinese (zh, Simplified) |",
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


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    distributed = int(os.environ.get("WORLD_SIZE", "1")) > 1
    rank = 0
    if distributed:
        dist.init_process_group("nccl" if torch.cuda.is_available() else "gloo")
        rank = dist.get_rank()
        local = int(os.environ.get("LOCAL_RANK", "0"))
        device = torch.device("cuda", local) if torch.cuda.is_available() else torch.device("cpu")
        if device.type == "cuda":
            torch.cuda.set_device(device)
    else:
        device = resolve_device(args.device)
    if args.threads:
        torch.set_num_threads(args.threads)
    is_main = rank == 0
    say = (lambda *a: print(*a, flush=True)) if is_main else (lambda *a: None)
    torch.manual_seed(args.seed)
    rng = random.Random(args.seed)  # the same on every rank: all build the same batches, then take their share
    work = Path(args.work_dir or Path("runs") / Path(args.out).name)
    work.mkdir(parents=True, exist_ok=True)

    train_pairs = read_pairs(args.train)
    dev_pairs = read_pairs(args.dev) if args.dev else []
    if args.dev_limit:
        dev_pairs = dev_pairs[: args.dev_limit]
    state_path = work / STATE
    resume = torch.load(state_path, map_location="cpu", weights_only=True) if state_path.exists() else None
    if resume:
        src_tok = TextTokenizer.from_str(resume["source_tokenizer"])
        tgt_tok = TextTokenizer.from_str(resume["target_tokenizer"])
        config = ModelConfig.from_dict(json.loads(resume["config"]))
        say(f"resuming from {state_path} at step {resume['step']}")
    else:
        src_tok = TextTokenizer(train_tokenizer((s for s, _ in train_pairs), args.src_vocab, mark_word_starts=True))
        tgt_tok = TextTokenizer(train_tokenizer((t for _, t in train_pairs), args.tgt_vocab, mark_word_starts=False))
        config = ModelConfig(
            src_vocab_size=src_tok.vocab_size,
            tgt_vocab_size=tgt_tok.vocab_size,
            d_model=args.d_model,
            n_heads=args.heads,
            n_encoder_layers=args.encoder_layers,
            n_decoder_layers=args.decoder_layers,
            d_ff=args.d_ff,
            dropout=args.dropout,
            max_len=args.max_len,
        )
    train_examples = encode_pairs(train_pairs, src_tok, tgt_tok, config)
    dev_examples = encode_pairs(dev_pairs, src_tok, tgt_tok, config)
    dev_refs = [t for _, t in dev_pairs]
    model = Transformer(config).to(device)
    n_params = sum(p.numel() for p in model.parameters())
    say(f"{len(train_examples)} training pairs, {len(dev_examples)} dev pairs, {n_params:,} parameters, device {device}")
    optimizer = torch.optim.Adam(model.parameters(), lr=0.0, betas=(0.9, 0.98), eps=1e-9)
    hardware = (
        torch.cuda.get_device_name(device) if device.type == "cuda" else f"{platform.machine()} CPU, {torch.get_num_threads()} threads"
    ) + (f" × {dist.get_world_size()} processes" if distributed else "")
    log = {"argv": sys.argv[1:] if argv is None else argv, "hardware": hardware, "parameters": n_params,
           "train": [], "dev": [], "best": None, "steps": 0, "epochs": 0, "train_minutes": 0.0}
    step, epoch, elapsed = 0, 0, 0.0
    if resume:
        model.load_state_dict(resume["model"])
        optimizer.load_state_dict(resume["optimizer"])
        # The log carries on; the command and machine are those of the latest (resumed) run.
        log = {**json.loads(resume["log"]), "argv": sys.argv[1:] if argv is None else argv, "hardware": hardware}
        step, epoch, elapsed = resume["step"], resume["epoch"], resume["elapsed"]
        rng.setstate(tuple(v if not isinstance(v, list) else tuple(v) for v in json.loads(resume["rng"])))
    net = torch.nn.parallel.DistributedDataParallel(model) if distributed else model
    # On CPUs without native bf16, half precision is many times slower than fp32.
    use_amp = args.amp == "on" or (args.amp == "auto" and (device.type == "cuda" or cpu_has_native_bf16()))
    log["mixed_precision"] = "bf16" if use_amp else "fp32"
    dev_batches = make_batches(dev_examples, args.max_tokens, random.Random(0))

    def save_state() -> None:
        if not is_main:
            return
        torch.save(
            {"model": model.state_dict(), "optimizer": optimizer.state_dict(), "step": step, "epoch": epoch,
             "elapsed": elapsed, "log": json.dumps(log), "config": config.to_json(), "rng": json.dumps(rng.getstate()),
             "source_tokenizer": src_tok.to_str(), "target_tokenizer": tgt_tok.to_str()},
            state_path,
        )

    def export() -> None:
        if is_main:
            save_checkpoint(args.out, model, src_tok, tgt_tok, model_card(config, log, args), log,
                            getattr(torch, args.save_dtype))

    started = time.time() - elapsed
    out_of_time = False
    while epoch < args.epochs and not out_of_time:
        net.train()
        batches = make_batches(train_examples, args.max_tokens, rng)
        if distributed:  # equal shares, or the ranks with one batch more would wait forever in all-reduce
            world = dist.get_world_size()
            batches = batches[rank::world][: len(batches) // world]
        total, tokens = 0.0, 0
        for batch in batches:
            src, tgt_in, tgt_out = (t.to(device) for t in collate(batch, config.pad_id))
            step += 1
            lr = learning_rate(step, config.d_model, args.warmup, args.lr_factor)
            for group in optimizer.param_groups:
                group["lr"] = lr
            with torch.autocast(device.type, dtype=torch.bfloat16, enabled=use_amp):
                logits = net(src, tgt_in)
            loss = F.cross_entropy(
                logits.flatten(0, 1).float(), tgt_out.flatten(), ignore_index=config.pad_id,
                label_smoothing=args.label_smoothing,
            )
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            n = int((tgt_out != config.pad_id).sum())
            total, tokens = total + loss.item() * n, tokens + n
            if step % 50 == 0:
                log["train"].append({"step": step, "epoch": epoch + 1, "loss": round(loss.item(), 4), "lr": lr,
                                     "minutes": round((time.time() - started) / 60, 2)})
            out_of_time = (time.time() - started) / 60 > args.max_minutes
            if distributed:  # rank 0's clock decides for all, so no rank leaves the others waiting
                flag = torch.tensor([float(out_of_time)], device=device)
                dist.broadcast(flag, 0)
                out_of_time = bool(flag.item())
            if out_of_time:
                break
        epoch += 1
        elapsed = time.time() - started
        say(f"epoch {epoch} step {step} loss {total / max(tokens, 1):.3f} lr {lr:.2e} {elapsed / 60:.1f} min")
        if is_main and dev_examples and (epoch % args.eval_every == 0 or out_of_time or epoch == args.epochs):
            result = evaluate(model, dev_examples, dev_refs, tgt_tok)
            entry = {"step": step, "epoch": epoch, "loss": round(dev_loss(model, dev_batches, config.pad_id, device), 4),
                     **{k: result[k] for k in ("bleu", "chrf")}, "minutes": round(elapsed / 60, 2)}
            log["dev"].append(entry)
            say(f"  dev loss {entry['loss']} BLEU {entry['bleu']} chrF {entry['chrf']} | {result['samples'][:3]}")
            log.update(steps=step, epochs=epoch, train_minutes=round(elapsed / 60, 2))
            if log["best"] is None or entry["bleu"] > log["best"]["bleu"]:
                log["best"] = {**entry, "bleu_signature": result["bleu_signature"], "chrf_signature": result["chrf_signature"]}
                export()
            save_state()
    if is_main and not dev_examples:
        log.update(steps=step, epochs=epoch, train_minutes=round(elapsed / 60, 2),
                   best={"step": step, "bleu": None, "chrf": None, "bleu_signature": "", "chrf_signature": ""})
        export()
        save_state()
    if is_main and dev_examples and args.final_beam > 1:
        from .checkpoint import load_checkpoint

        best_model, _, _ = load_checkpoint(args.out, device)
        result = evaluate(best_model, dev_examples, dev_refs, tgt_tok, beam=args.final_beam)
        log["final"] = {"beam": args.final_beam, "bleu": result["bleu"], "chrf": result["chrf"]}
        say(f"best checkpoint (step {log['best']['step']}), beam {args.final_beam}: BLEU {result['bleu']} chrF {result['chrf']}")
        (Path(args.out) / TRAINING_LOG).write_text(json.dumps(log, indent=1) + "\n", encoding="utf-8")
        (Path(args.out) / "README.md").write_text(model_card(config, log, args), encoding="utf-8")
    if distributed:
        dist.destroy_process_group()
    return 0


if __name__ == "__main__":
    sys.exit(main())
