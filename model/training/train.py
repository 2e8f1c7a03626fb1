"""Train the tokenizers and the Transformer on a TSV of sentence pairs and write a checkpoint.

    python -m model.training.train --train ../shared/data/tatoeba-cmn-eng/train.tsv \
        --dev ../shared/data/tatoeba-cmn-eng/dev.tsv --out checkpoints/en-zh --max-minutes 80

The recipe of the paper: Adam(β2=0.98, ε=1e-9), warm-up then inverse-square-root
learning rate, label smoothing 0.1, dropout, length-bucketed batches. Mixed
precision (bf16) on CUDA; data-parallel under `torchrun --nproc_per_node N`.
Training state is saved to --work-dir after every evaluation, and a rerun of
the same command resumes from it. The checkpoint with the best BLEU on the dev
pairs unlike any training pair (model.data.unlike_training) is exported to
--out, or the average of the last epochs' weights when that scores higher.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import torch
import torch.distributed as dist
import torch.nn.functional as F

from ..architecture.config import ModelConfig
from ..architecture.transformer import Transformer
from ..loading.checkpoint import load_checkpoint, resolve_device, save_checkpoint, selection_bleu, write_training_log
from ..text.pairs import Example, encode_pairs
from ..text.tokenizer import TextTokenizer, train_tokenizer
from ..translation.threads import native_bf16
from ..translation.translator import Translator
from . import dictionary
from .data import collate, in_direction, make_batches, read_pairs, split_dev, unlike_training
from .metrics import score
from .schedule import GRAD_CLIP_NORM, adam, learning_rate
from .snapshots import PROBES, as_tensors, index_maps, save_snapshots, take_snapshot

STATE = "train_state.pt"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m model.training.train", description=__doc__.split("\n\n")[0])
    p.add_argument("--train", required=True, help="TSV: english<TAB>chinese[<TAB>attribution]")
    p.add_argument("--direction", choices=["en-zh", "zh-en"], default="en-zh",
                   help="English → Chinese, or Chinese (characters) → English (BPE); the same TSV either way")
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
    p.add_argument("--dropout", type=float, default=0.1, help="on embeddings and sublayer outputs")
    p.add_argument("--attention-dropout", type=float, help="on the attention weights (default: --dropout)")
    p.add_argument("--activation-dropout", type=float, help="after the FFN's ReLU (default: --dropout)")
    p.add_argument("--token-dropout", type=float, default=0.0,
                   help="share of source and decoder-input tokens replaced by <unk> while training")
    p.add_argument("--max-len", type=int, default=128)
    p.add_argument("--max-tokens", type=int, default=3000, help="padded tokens per batch (per process)")
    p.add_argument("--warmup", type=int, default=1500)
    p.add_argument("--lr-factor", type=float, default=1.0)
    p.add_argument("--label-smoothing", type=float, default=0.1)
    p.add_argument("--epochs", type=int, default=100)
    p.add_argument("--max-minutes", type=float, default=80.0, help="stop training after this much time")
    p.add_argument("--max-steps", type=int, default=0,
                   help="stop after this many optimizer steps (0 = no limit): an arm's compute equal to a shipped "
                        "run's steps, whatever else shares the machine's cores")
    p.add_argument("--eval-every", type=int, default=2, help="epochs between dev evaluations")
    p.add_argument("--final-beam", type=int, default=4, help="beam size for the final dev scores")
    p.add_argument("--average-last", type=int, default=0,
                   help="also score the average of the weights of the last N epochs; export it if it wins on dev")
    p.add_argument("--probe", action="append", dest="probes",
                   help="probe sentence for the attention snapshots (repeatable; default: model.snapshots.PROBES)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", type=int, default=0, help="torch CPU threads (0 = all cores)")
    p.add_argument("--device", default="auto")
    p.add_argument(
        "--amp", choices=["auto", "on", "off"], default="auto",
        help="bf16 mixed precision: auto = on for CUDA and for CPUs with native bf16 (avx512_bf16/AMX)",
    )
    p.add_argument("--test-split", action="store_true",
                   help="hold out half of --dev (model.data.split_dev) as a test set: no choice ever sees it")
    p.add_argument("--dictionary-words", type=int, default=0,
                   help="add up to N CC-CEDICT word pairs for words the training sentences lack (model.dictionary)")
    p.add_argument("--names", type=int, default=0,
                   help="add N training sentences with Tom/汤姆 swapped for other names (model.dictionary)")
    p.add_argument("--dev-limit", type=int, default=0, help="score only the first N dev pairs (0 = all)")
    p.add_argument("--save-dtype", choices=["float16", "float32"], default="float16")
    return p.parse_args(argv)


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




def dev_scores(
    model: Transformer, src_tok: TextTokenizer, tgt_tok: TextTokenizer, pairs, dedup: list[int], beam: int = 1
) -> dict:
    """BLEU and chrF of all dev pairs and of the `dedup` ones (unlike training), from one decoding of all.

    `pairs` are (English, Chinese) as read_pairs reads them, turned here to the model's direction. Decoded exactly as
    the app decodes (Translator: same search, same limits).
    """
    pairs = in_direction(pairs, model.config.source_language)
    hypotheses = Translator(model, src_tok, tgt_tok, max_concurrent=1).translations([s for s, _ in pairs], beam)
    references = [t for _, t in pairs]
    language = model.config.target_language
    subset = score([hypotheses[i] for i in dedup], [references[i] for i in dedup], language) if dedup else {}
    return {**score(hypotheses, references, language), "dedup_bleu": subset.get("bleu"), "dedup_chrf": subset.get("chrf"),
            "samples": hypotheses[:3]}


@dataclass
class Run:
    """One training run's moving parts; all of it but the data is saved after each evaluation, to resume."""

    args: argparse.Namespace
    device: torch.device
    rank: int
    world: int  # processes (torchrun), 1 without
    src_tok: TextTokenizer
    tgt_tok: TextTokenizer
    config: ModelConfig
    model: Transformer
    optimizer: torch.optim.Optimizer
    rng: random.Random  # the same on every rank: all build the same batches, then take their share
    log: dict = field(default_factory=dict)
    snapshot_maps: dict = field(default_factory=dict)  # "<snapshot>/<probe>/<kind>" → float16 (layers, heads, Tq, Tk)
    step: int = 0
    epoch: int = 0
    elapsed: float = 0.0  # seconds of training, summed over resumed runs

    @property
    def is_main(self) -> bool:
        return self.rank == 0

    def say(self, *parts) -> None:
        if self.is_main:
            print(*parts, flush=True)


def start_process(args: argparse.Namespace) -> tuple[torch.device, int, int]:
    """(device, rank, world size); under torchrun each process takes its own GPU."""
    if int(os.environ.get("WORLD_SIZE", "1")) == 1:
        return resolve_device(args.device), 0, 1
    dist.init_process_group("nccl" if torch.cuda.is_available() else "gloo")
    device = torch.device("cpu")
    if torch.cuda.is_available():
        device = torch.device("cuda", int(os.environ.get("LOCAL_RANK", "0")))
        torch.cuda.set_device(device)
    return device, dist.get_rank(), dist.get_world_size()


def extra_pairs(args: argparse.Namespace, train_pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The CC-CEDICT word and name pairs asked for (none by default); the same on every rerun."""
    if not args.dictionary_words and not args.names:
        return []
    entries = dictionary.cedict_entries()
    words = dictionary.word_pairs(entries, train_pairs, args.dictionary_words) if args.dictionary_words else []
    names = dictionary.name_pairs(train_pairs, dictionary.cedict_names(entries), args.names, seed=args.seed)
    return words + names


def new_or_resumed_run(args: argparse.Namespace, train_pairs, argv: list[str], state_path: Path) -> Run:
    """Tokenizers, model and optimizer: fresh, or as saved in `state_path` by an earlier run of the same command."""
    device, rank, world = start_process(args)
    resume = torch.load(state_path, map_location="cpu", weights_only=True) if state_path.exists() else None
    if resume:
        src_tok = TextTokenizer.from_str(resume["source_tokenizer"])
        tgt_tok = TextTokenizer.from_str(resume["target_tokenizer"])
        config = ModelConfig.from_dict(json.loads(resume["config"]))
    else:
        source, target = args.direction.split("-")
        # English is BPE over words marked ▁ at their start; Chinese one token per character.
        src_tok = TextTokenizer(train_tokenizer((s for s, _ in train_pairs), args.src_vocab, mark_word_starts=source == "en"))
        tgt_tok = TextTokenizer(train_tokenizer((t for _, t in train_pairs), args.tgt_vocab, mark_word_starts=target == "en"))
        config = ModelConfig(source_language=source, target_language=target,
            src_vocab_size=src_tok.vocab_size, tgt_vocab_size=tgt_tok.vocab_size, d_model=args.d_model,
            n_heads=args.heads, n_encoder_layers=args.encoder_layers, n_decoder_layers=args.decoder_layers,
            d_ff=args.d_ff, dropout=args.dropout, attention_dropout=args.attention_dropout,
            activation_dropout=args.activation_dropout, max_len=args.max_len,
        )
    model = Transformer(config).to(device)
    optimizer = adam(model.parameters())
    hardware = (
        torch.cuda.get_device_name(device) if device.type == "cuda"
        else f"{platform.machine()} CPU, {torch.get_num_threads()} threads"
    ) + (f" × {world} processes" if world > 1 else "")
    # The command and machine are those of the latest (resumed) run; the arguments are kept as data for the pages.
    now = {"argv": argv, "args": vars(args), "hardware": hardware}
    run = Run(args, device, rank, world, src_tok, tgt_tok, config, model, optimizer, random.Random(args.seed))
    if resume:
        model.load_state_dict(resume["model"])
        optimizer.load_state_dict(resume["optimizer"])
        run.log = {**json.loads(resume["log"]), **now}
        run.step, run.epoch, run.elapsed = resume["step"], resume["epoch"], resume["elapsed"]
        run.snapshot_maps = {k: v.numpy() for k, v in resume["snapshots"].items()}
        run.rng.setstate(tuple(v if not isinstance(v, list) else tuple(v) for v in json.loads(resume["rng"])))
        run.say(f"resuming from {state_path} at step {run.step}")
    else:
        run.log = {**now, "parameters": sum(p.numel() for p in model.parameters()), "train": [], "dev": [],
                   "best": None, "steps": 0, "epochs": 0, "train_minutes": 0.0,
                   "probes": list(args.probes or PROBES[config.source_language]), "snapshots": []}
    return run


def save_state(run: Run, path: Path) -> None:
    torch.save(
        {"model": run.model.state_dict(), "optimizer": run.optimizer.state_dict(), "step": run.step,
         "epoch": run.epoch, "elapsed": run.elapsed, "log": json.dumps(run.log), "config": run.config.to_json(),
         "rng": json.dumps(run.rng.getstate()), "snapshots": as_tensors(run.snapshot_maps),
         "source_tokenizer": run.src_tok.to_str(),
         "target_tokenizer": run.tgt_tok.to_str()},
        path,
    )


def export(run: Run) -> None:
    """The checkpoint folder the app loads: weights, config, tokenizers and training log (the model card is
    written from them by `python -m cards CHECKPOINT`)."""
    save_checkpoint(run.args.out, run.model, run.src_tok, run.tgt_tok, training_log=run.log,
                    dtype=getattr(torch, run.args.save_dtype))
    save_snapshots(run.args.out, run.snapshot_maps)


def record_snapshot(run: Run) -> None:
    """The probes' attention maps and translations now, into the log (see model/training/snapshots.py)."""
    entry, maps = take_snapshot(run.model, run.src_tok, run.tgt_tok, run.log["probes"], run.step, run.epoch)
    run.snapshot_maps.update(index_maps(maps, len(run.log["snapshots"])))
    run.log["snapshots"].append(entry)


def drop_tokens(ids: torch.Tensor, p: float, config: ModelConfig) -> torch.Tensor:
    """Word dropout (Sennrich & Zhang 2019): real tokens become <unk> with probability p; specials stay."""
    special = ids <= max(config.pad_id, config.unk_id, config.bos_id, config.eos_id)
    keep = special | (torch.rand(ids.shape, device=ids.device) >= p)
    return ids.where(keep, torch.full_like(ids, config.unk_id))


def train_epoch(run: Run, net: torch.nn.Module, examples: list[Example], use_amp: bool, started: float) -> bool:
    """One pass over the training data (this process's share); returns whether the time budget ran out."""
    args, config = run.args, run.config
    net.train()
    batches = make_batches(examples, args.max_tokens, run.rng)
    if run.world > 1:  # equal shares, or the ranks with one batch more would wait forever in all-reduce
        batches = batches[run.rank :: run.world][: len(batches) // run.world]
    total, tokens, lr = 0.0, 0, 0.0
    for batch in batches:
        src, tgt_in, tgt_out = (t.to(run.device) for t in collate(batch, config.pad_id))
        if args.token_dropout:
            src, tgt_in = drop_tokens(src, args.token_dropout, config), drop_tokens(tgt_in, args.token_dropout, config)
        run.step += 1
        lr = learning_rate(run.step, config.d_model, args.warmup, args.lr_factor)
        for group in run.optimizer.param_groups:
            group["lr"] = lr
        with torch.autocast(run.device.type, dtype=torch.bfloat16, enabled=use_amp):
            logits = net(src, tgt_in)  # (batch, T, vocab)
        loss = F.cross_entropy(logits.flatten(0, 1).float(), tgt_out.flatten(), ignore_index=config.pad_id,
                               label_smoothing=args.label_smoothing)
        run.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(run.model.parameters(), GRAD_CLIP_NORM)
        run.optimizer.step()
        n = int((tgt_out != config.pad_id).sum())
        total, tokens = total + loss.item() * n, tokens + n
        if run.step % 50 == 0:
            run.log["train"].append({"step": run.step, "epoch": run.epoch + 1, "loss": round(loss.item(), 4), "lr": lr,
                                     "minutes": round((time.time() - started) / 60, 2)})
        out_of_time = (time.time() - started) / 60 > args.max_minutes or 0 < args.max_steps <= run.step
        if run.world > 1:  # rank 0's clock decides for all, so no rank leaves the others waiting
            flag = torch.tensor([float(out_of_time)], device=run.device)
            dist.broadcast(flag, 0)
            out_of_time = bool(flag.item())
        if out_of_time:
            break
    run.epoch += 1
    run.elapsed = time.time() - started
    run.say(f"epoch {run.epoch} step {run.step} loss {total / max(tokens, 1):.3f} lr {lr:.2e} {run.elapsed / 60:.1f} min")
    return out_of_time


def evaluate(run: Run, dev_pairs, dedup: list[int], dev_batches) -> None:
    """Dev loss and scores into the log; a new best is exported as the checkpoint."""
    result = dev_scores(run.model, run.src_tok, run.tgt_tok, dev_pairs, dedup)
    entry = {"step": run.step, "epoch": run.epoch, "loss": round(dev_loss(run.model, dev_batches, run.config.pad_id, run.device), 4),
             "bleu": result["bleu"], "chrf": result["chrf"], "dedup_bleu": result["dedup_bleu"],
             "dedup_chrf": result["dedup_chrf"], "minutes": round(run.elapsed / 60, 2)}
    run.log["dev"].append(entry)
    run.say(f"  dev loss {entry['loss']} BLEU {entry['bleu']} chrF {entry['chrf']} dedup BLEU {entry['dedup_bleu']}"
            f" | {result['samples']}")
    if run.log["best"] is None or selection_bleu(entry) > selection_bleu(run.log["best"]):
        run.log["best"] = {**entry, "bleu_signature": result["bleu_signature"], "chrf_signature": result["chrf_signature"]}
        run.log["shipped"] = f"best evaluation (step {run.step})"
        export(run)


def keep_for_averaging(run: Run, folder: Path) -> None:
    """This epoch's weights on disk; only the last --average-last are kept."""
    folder.mkdir(exist_ok=True)
    torch.save({k: v.detach().to("cpu", copy=True) for k, v in run.model.state_dict().items()},
               folder / f"epoch{run.epoch:04d}.pt")
    for old in sorted(folder.glob("epoch*.pt"))[: -run.args.average_last]:
        old.unlink()


def try_average(run: Run, folder: Path, dev_pairs, dedup: list[int]) -> None:
    """Score the mean of the kept epochs' weights (checkpoint averaging); export it if it beats the best."""
    paths = sorted(folder.glob("epoch*.pt"))
    if len(paths) < 2:
        return
    states = [torch.load(p, map_location="cpu", weights_only=True) for p in paths]
    run.model.load_state_dict({k: sum(s[k].float() for s in states) / len(states) for k in states[0]})
    result = dev_scores(run.model, run.src_tok, run.tgt_tok, dev_pairs, dedup)
    entry = {"epochs": [int(p.stem[5:]) for p in paths], **{k: result[k] for k in ("bleu", "chrf", "dedup_bleu", "dedup_chrf")}}
    run.log["average"] = entry
    run.say(f"average of epochs {entry['epochs']}: BLEU {entry['bleu']} dedup BLEU {entry['dedup_bleu']}")
    if selection_bleu(entry) > selection_bleu(run.log["best"]):
        run.log["shipped"] = f"average of the weights of epochs {entry['epochs'][0]}–{entry['epochs'][-1]}"
        export(run)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    if args.threads:
        torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    work = Path(args.work_dir or Path("runs") / Path(args.out).name)
    work.mkdir(parents=True, exist_ok=True)
    train_pairs = read_pairs(args.train)
    dev_pairs = read_pairs(args.dev) if args.dev else []
    dev_pairs = (split_dev(dev_pairs)[0] if args.test_split else dev_pairs)[: args.dev_limit or None]
    train_pairs += extra_pairs(args, train_pairs)
    dedup = unlike_training(dev_pairs, train_pairs)  # on (English, Chinese) pairs, whichever way the model reads
    train_pairs = in_direction(train_pairs, args.direction.split("-")[0])  # dev pairs are turned where they are scored
    run = new_or_resumed_run(args, train_pairs, argv, work / STATE)
    train_examples = encode_pairs(train_pairs, run.src_tok, run.tgt_tok, run.config)
    run.log.update(train_pairs=len(train_examples), dev_pairs=len(dev_pairs), dedup_dev_pairs=len(dedup))
    dev_batches = make_batches(encode_pairs(in_direction(dev_pairs, run.config.source_language), run.src_tok,
                                            run.tgt_tok, run.config), args.max_tokens, random.Random(0))
    run.say(f"{len(train_examples)} training pairs, {len(dev_pairs)} dev pairs ({len(dedup)} unlike training), "
            f"{run.log['parameters']:,} parameters, device {run.device}")
    net = torch.nn.parallel.DistributedDataParallel(run.model) if run.world > 1 else run.model
    # On CPUs without native bf16, half precision is many times slower than fp32.
    use_amp = args.amp == "on" or (args.amp == "auto" and native_bf16(run.device))
    run.log["mixed_precision"] = "bf16" if use_amp else "fp32"

    averaged = work / "average"
    if run.is_main and run.step == 0:
        record_snapshot(run)  # the untrained model: where the replay of attention starts
    started = time.time() - run.elapsed
    out_of_time = False
    while run.epoch < args.epochs and not out_of_time:
        out_of_time = train_epoch(run, net, train_examples, use_amp, started)
        if not run.is_main:
            continue
        run.log.update(steps=run.step, epochs=run.epoch, train_minutes=round(run.elapsed / 60, 2))
        if args.average_last:
            keep_for_averaging(run, averaged)
        evaluating = dev_pairs and (run.epoch % args.eval_every == 0 or out_of_time or run.epoch == args.epochs)
        if evaluating or run.epoch <= 2:  # attention changes fastest in the first epochs
            record_snapshot(run)
        if evaluating:
            evaluate(run, dev_pairs, dedup, dev_batches)
            save_state(run, work / STATE)
    if run.is_main and not dev_pairs:
        run.log["best"] = {"step": run.step, "bleu": None, "chrf": None, "bleu_signature": "", "chrf_signature": ""}
        export(run)
        save_state(run, work / STATE)
    if run.is_main and dev_pairs and args.average_last:
        try_average(run, averaged, dev_pairs, dedup)
    if run.is_main and dev_pairs and args.final_beam > 1:
        shipped, _, _ = load_checkpoint(args.out, run.device)
        result = dev_scores(shipped, run.src_tok, run.tgt_tok, dev_pairs, dedup, beam=args.final_beam)
        run.log["final"] = {"beam": args.final_beam, **{k: result[k] for k in ("bleu", "chrf", "dedup_bleu", "dedup_chrf")}}
        run.say(f"shipped: {run.log['shipped']}, beam {args.final_beam}: BLEU {result['bleu']} chrF {result['chrf']} "
                f"dedup BLEU {result['dedup_bleu']}")
    if run.is_main and dev_pairs:
        export_log(run)
    if run.world > 1:
        dist.destroy_process_group()
    return 0


def export_log(run: Run) -> None:
    """Rewrite the checkpoint's log and snapshots (all of training's) without touching its weights."""
    save_snapshots(run.args.out, run.snapshot_maps)
    write_training_log(run.args.out, run.log)


if __name__ == "__main__":
    sys.exit(main())
