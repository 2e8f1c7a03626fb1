"""python -m benchmarks.run [--device cpu [cuda]] [--repeats N] [--out benchmarks/results.json] [--threads N] [--quick]
                          [--only-explanation [--float32]]

Times what a classroom feels, on this machine, and prints one table per
device (median and 95th percentile over --repeats runs) plus the JSON file:

- translate + capture of every attention map, 10/20/40-token sentences, greedy and beam 4;
- greedy and beam search with and without the key/value cache, forced to 40 output tokens;
- the peer: transformers' MarianMTModel of the same size, generate() with every attention map,
  same input length and same number of output tokens, in the same run (ours/peer time ratio);
- every figure the translate page shows for a 40-token sentence: build + serialise time, JSON bytes;
- cold start: checkpoint load, the app's first full render (AppTest, caches cleared);
- a burst of 60 simultaneous requests through Translator.translate: latency and throughput;
- Is attention an explanation?: integrated gradients, input × gradient and a re-decode with every cross head
  knocked out, per sentence length (--only-explanation: these alone; --float32: attribution in float32 even
  where the CPU multiplies bfloat16 natively, as on a CPU without it).

--quick measures a small subset (the test suite runs it so the script cannot rot).
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import json
import platform
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import plotly.io
import plotly.tools
import torch

from app_pages.shell import registry
from benchmarks.peer import marian_like, peer_generate
from benchmarks.timing import Row, measure
from i18n import translate_key
from lessons.attention_maps import ALL, pick, shown_mask
from model import ATTENTION_KINDS, Translator, load_checkpoint
from model.architecture.config import GenerationConfig
from model.translation.decoding import greedy_search
from model.translation import attribution
from model.translation.threads import configure_torch_threads, usable_cores
from viz.head_view import head_view
from viz.heatmap import attention_heatmap
from viz.model_view import model_view
from viz.options import Heads, Labels

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = Path(__file__).resolve().parent / "results.json"
BUDGETS = {"default_view_bytes": 100_000, "grid_bytes": 600_000, "all_figures_ms": 200.0,
           # Is attention an explanation? (S=20, medians on 2 cores): attribution on demand, a knock-out re-decode
           "integrated_gradients_ms": 2000.0, "input_x_gradient_ms": 300.0, "ablated_translate_ms": 500.0}
CACHE_GOAL, PEER_GOAL = 1.5, 2.0  # cache ≥ 1.5× faster at 40 output tokens; ours ≥ 2× faster than the peer
# Plain English the sentences are cut from; word by word until the tokenizer counts exactly n tokens.
PARAGRAPH = (
    "When the students finally arrived at the old station after a long and tiring journey through the "
    "mountains , they discovered that the last train had already left and nobody knew when the next one "
    "would come , so they sat down on the cold benches , shared the bread and cheese they had bought in the "
    "village , told each other stories about their teachers and their families , and waited quietly for the "
    "morning light to return over the sleeping town ."
)
# The same paragraph for a model reading Chinese (checkpoints/zh-en): one source token per character.
PARAGRAPH_ZH = (
    "学生们穿过群山，经过漫长而累人的旅程，终于到达了那个老车站，却发现最后一班火车已经开走了，谁也不知道下一班什么时候来。"
    "于是他们在冰冷的长椅上坐下，分享在村子里买的面包和奶酪，互相讲老师和家人的故事，静静地等待晨光重新照亮沉睡的小镇。"
)


@dataclasses.dataclass(frozen=True)
class Plan:
    lengths: tuple[int, ...]  # source tokens of the test sentences (</s> not counted)
    beams: tuple[int, ...]
    forced_output: int  # output tokens of the cache comparison
    burst: int  # simultaneous requests
    bursts: int
    app_render: bool


FULL = Plan(lengths=(10, 20, 40), beams=(1, 4), forced_output=40, burst=60, bursts=3, app_render=True)
QUICK = Plan(lengths=(10,), beams=(1,), forced_output=10, burst=8, bursts=1, app_render=True)


def sentence_of(tokenizer, n: int, language: str = "en") -> str:
    """The first words (characters, for Chinese) of the paragraph in `language` that make exactly n source tokens."""
    if language == "zh":
        units, joiner = list(PARAGRAPH_ZH), ""
    else:
        units, joiner = PARAGRAPH.split(), " "
    for k in range(1, len(units) + 1):
        text = joiner.join(units[:k]).replace(" ,", ",").replace(" .", ".")
        if len(tokenizer.encode(text)) == n:
            return text
    raise ValueError(f"no prefix of the paragraph is exactly {n} tokens; extend PARAGRAPH")


def without_eos(model):
    """A view of `model` whose search never stops at </s>, so every run decodes the same number of tokens."""
    forced = copy.copy(model)  # shares every parameter; only the config differs
    # No token has id −1, so the search never stops. ModelConfig refuses such an id (its checks are for config
    # files), so this benchmark-only config is set past them, on a copy.
    forced.config = copy.copy(model.config)
    object.__setattr__(forced.config, "eos_id", -1)
    return forced


def alternating(fns: dict, repeats: int, device: str, block: int = 10) -> dict[str, list[float]]:
    """Time the functions in turns of `block` runs each, so a slow moment of the machine hits all of them alike.

    Each turn starts with two untimed runs: the other function may have pushed this one's data out of
    the CPU caches, and a server running only one of them would not pay for that.
    """
    times = {name: [] for name in fns}
    while len(times[next(iter(fns))]) < repeats:
        for name, fn in fns.items():
            times[name] += measure(fn, min(block, repeats - len(times[name])), device, warmup=2)
    return times


def cold_start(checkpoint: Path, device: str, plan: Plan, repeats: int) -> list:
    rows = [Row("cold start", "checkpoint load, first in process", measure(
        lambda: Translator.from_checkpoint(checkpoint, device=device), 1, device, warmup=0))]
    rows.append(Row("cold start", "checkpoint load, again", measure(
        lambda: Translator.from_checkpoint(checkpoint, device=device), min(repeats, 5), device, warmup=0)))
    if plan.app_render and device == "cpu":
        import streamlit as st
        from streamlit.testing.v1 import AppTest

        def render():
            st.cache_resource.clear()  # the model loads again, as in a fresh server process
            st.cache_data.clear()
            at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=600)
            at.switch_page(registry.PAGE["translate"].script)  # the root address opens Start here, without charts
            at.run()
            if at.exception or not at.get("plotly_chart"):
                raise RuntimeError(f"the app did not render: {[e.message for e in at.exception]}")

        rows.append(Row("cold start", "app first full render (AppTest, caches cleared)",
                        measure(render, min(repeats, 3), device, warmup=0), note="load + translate + figures"))
    return rows


def translate_rows(tr, sentences: dict[int, str], plan: Plan, repeats: int, device: str) -> list:
    rows = []
    for n, text in sentences.items():
        for beam in plan.beams:
            result = tr.translate(text, beam=beam)
            times = measure(lambda: tr.translate(text, beam=beam), repeats, device)
            name = f"S={n} " + ("greedy" if beam == 1 else f"beam {beam}")
            rows.append(Row("translate + every attention map", name, times,
                            note=f"{len(result.output_tokens)} output tokens", extra={"source_tokens": n, "beam": beam}))
    return rows


def greedy_without_cache(model, enc, out_len: int) -> list[int]:
    """Greedy search that recomputes the whole prefix at every step: what the key/value cache saves."""
    ys = torch.tensor([[model.config.bos_id]], device=enc.memory.device)
    for _ in range(out_len):
        nxt = GenerationConfig().never_next(model.decode(ys, enc).logits[:, -1], model.config).argmax(-1, keepdim=True)
        ys = torch.cat([ys, nxt], dim=1)
    return ys[0, 1:].tolist()


def cache_rows(tr, sentences: dict[int, str], plan: Plan, repeats: int, device: str) -> tuple[list, dict]:
    """Greedy search forced to the same number of tokens, with the key/value cache and without."""
    model, out_len = without_eos(tr.model), plan.forced_output
    rows, speedups = [], {}
    for n, text in sentences.items():
        _, ids, _ = tr.prepare(text)
        with torch.inference_mode():
            enc = model.encode(torch.tensor([ids], device=tr.device))

        def search(use_cache: bool):
            with torch.inference_mode():
                out = greedy_search(model, enc, [out_len])[0] if use_cache else greedy_without_cache(model, enc, out_len)
            if len(out) != out_len:
                raise RuntimeError(f"decoded {len(out)} tokens, forced {out_len}")

        times = alternating({"cache": lambda: search(True), "no cache": lambda: search(False)}, repeats, device)
        label = f"S={n} greedy"
        ratio = float(np.median(times["no cache"]) / np.median(times["cache"]))
        speedups[label] = round(ratio, 2)
        for which in ("cache", "no cache"):
            rows.append(Row(f"search, {out_len} output tokens", f"{label}, {which}", times[which],
                            note=f"cache {ratio:.1f}× faster" if which == "cache" else ""))
    return rows, speedups


def peer_rows(tr, sentences: dict[int, str], repeats: int, device: str) -> tuple[list, dict]:
    peer = marian_like(tr.config, device)
    rows, ratios = [], {}
    for n, text in sentences.items():
        result = tr.translate(text, beam=1)  # greedy, as the peer's generate (translate's default is beam 4)
        steps = len(result.output_tokens)  # decoding steps, the last one predicting </s>
        generator = torch.Generator().manual_seed(n)
        ids = torch.randint(4, tr.config.src_vocab_size, (1, len(result.source_tokens)), generator=generator)
        ids[0, -1] = tr.config.eos_id
        ids = ids.to(device)
        # Turns of 5: the VM's speed drifts by ±25 % within a minute, so one long turn each would often
        # time the two models at different speeds. Each turn starts with 2 untimed runs, because a run
        # right after the other model pays ~1.7× (their weights evict each other from the CPU caches).
        times = alternating({"ours": lambda: tr.translate(text, beam=1),
                             "peer": lambda: peer_generate(peer, ids, steps)}, repeats, device, block=5)
        ratio = float(np.median(times["ours"]) / np.median(times["peer"]))
        ratios[f"S={n}"] = round(ratio, 3)
        note = f"{steps} output tokens; ours/peer = {ratio:.2f} ({1 / ratio:.1f}× faster)"
        rows.append(Row("peer (greedy, same S and T)", f"S={n} ours: translate()", times["ours"], note=note))
        rows.append(Row("peer (greedy, same S and T)", f"S={n} Marian generate(output_attentions)", times["peer"]))
    return rows, ratios


def piece_rows(checkpoint: Path, tr, sentences: dict[int, str], repeats: int, device: str) -> tuple[list, dict]:
    """What each speed piece buys, measured against the model without it in the same run (model/loading/cpu_layout.py).

    - column-major weights: translate() with the CPU layout vs. the same checkpoint loaded row-major;
    - fused attention kernel: one untraced decoding step (torch's kernel) vs. the traced step (weights by hand).
    """
    rows, ratios = [], {}
    if device == "cpu":
        row_major, _, _ = load_checkpoint(checkpoint, "cpu", cpu_layout=False)
        plain = Translator(row_major, tr.src_tok, tr.tgt_tok)
        for n, text in sentences.items():
            times = alternating({"column-major": lambda: tr.translate(text, beam=1),
                                 "row-major": lambda: plain.translate(text, beam=1)}, repeats, device, block=5)
            ratio = float(np.median(times["column-major"]) / np.median(times["row-major"]))
            ratios[f"layout S={n}"] = round(ratio, 3)
            for which in times:
                rows.append(Row("speed pieces", f"S={n} translate(), weights {which}", times[which],
                                note=f"column-major / row-major = {ratio:.2f}" if which == "column-major" else ""))
    n = max(sentences)
    _, ids, _ = tr.prepare(sentences[n])
    model = tr.model
    with torch.inference_mode():
        enc = model.encode(torch.tensor([ids], device=tr.device))
        prefix = model.decode(torch.tensor([[model.config.bos_id] * 10], device=tr.device), enc)
        nxt = torch.tensor([[model.config.bos_id]], device=tr.device)

    def step(trace: bool):
        with torch.inference_mode():
            model.decode(nxt, enc, prefix.cache, trace=trace)

    times = alternating({"fused": lambda: step(False), "traced": lambda: step(True)}, repeats * 5, device)
    ratio = float(np.median(times["fused"]) / np.median(times["traced"]))
    ratios["fused kernel step"] = round(ratio, 3)
    rows.append(Row("speed pieces", f"S={n} one decoding step, fused attention", times["fused"],
                    note=f"fused / by hand = {ratio:.2f}"))
    rows.append(Row("speed pieces", f"S={n} one decoding step, traced (weights by hand)", times["traced"]))
    return rows, ratios


# What each view of the translate page's explorer draws: the grid view also shows, under it, the map a click opens.
VIEWS = {"one head": ("one head",), "grid": ("grid", "one head"), "lines": ("lines",)}


def page_figures(result, kind: str) -> dict[str, Callable[[], object]]:
    """Builders of the translate page's three figures for one attention kind.

    Same viz functions, arguments, labels and default layer/head as the explorer in app_pages/pages/translate.py.
    """
    def t(key, **values):
        return translate_key("en", key, **values)

    weights = result.attention(kind)  # (layers, heads, Tq, Tk)
    queries, keys = result.axis_tokens(kind)
    titles = {"query_title": t(f"axis.{kind}.queries"), "key_title": t(f"axis.{kind}.keys"),
              "value_label": t("axis.weight")}
    mask = shown_mask(kind, *weights.shape[2:])
    layer, head = 0, ALL  # the page's defaults

    def one_head():
        title = t("explorer.map_title", kind=t(f"kind.{kind}"), layer=t("explorer.layer_n", n=1),
                  head=t("explorer.all_heads"))
        return attention_heatmap(pick(weights, layer, head), Labels(queries, keys, masked_label=t("axis.masked"),
                                                                    **titles), title=title, mask=mask)

    def grid():
        return model_view(weights, Labels(queries, keys, **titles),
                          title=t("explorer.grid_title", kind=t(f"kind.{kind}")),
                          layer_label=t("explorer.layer_n"), head_label=t("explorer.head_n"), selected=None,
                          click_hint=t("explorer.click_hint"))

    def lines():
        return head_view(weights[layer], Labels(queries, keys, **titles), heads=Heads(None, t("explorer.head_n")),
                         query_index=None, min_weight=0.1,
                         title=t("explorer.lines_title", kind=t(f"kind.{kind}"), layer=t("explorer.layer_n", n=1)))

    return {"one head": one_head, "grid": grid, "lines": lines}


def serialised(figures: list) -> list[str]:
    """What st.plotly_chart does with a figure before sending it: to_dict(), then plotly.io.to_json(validate=False)."""
    return [plotly.io.to_json(plotly.tools.return_figure_from_figure_or_data(fig, validate_figure=True), validate=False)
            for fig in figures]


def figure_rows(tr, text: str, n: int, repeats: int) -> tuple[list, dict]:
    result = tr.translate(text)
    figures = {kind: page_figures(result, kind) for kind in ATTENTION_KINDS}
    sizes = {f"{kind}/{name}": len(serialised([build()])[0].encode())
             for kind, builders in figures.items() for name, build in builders.items()}
    default = figures[ATTENTION_KINDS[0]]  # the page opens on encoder self-attention
    rows = [
        Row("figures, translate page", f"S={n}: {view} view", measure(
            lambda names=names: serialised([default[name]() for name in names]), repeats),
            note=f"{sum(sizes[f'{ATTENTION_KINDS[0]}/{name}'] for name in names) / 1000:.0f} KB JSON")
        for view, names in VIEWS.items()
    ]
    every = [build for builders in figures.values() for build in builders.values()]
    rows.append(Row("figures, translate page", f"S={n}: all {len(every)} figures built + serialised",
                    measure(lambda: serialised([build() for build in every]), repeats),
                    note=f"3 kinds × 3 figures; budget {BUDGETS['all_figures_ms']:.0f} ms"))
    summary = {"default_view_bytes": sizes[f"{ATTENTION_KINDS[0]}/one head"],
               "largest_grid_bytes": max(v for k, v in sizes.items() if k.endswith("/grid")),
               "bytes": sizes, "all_figures_median_ms": round(rows[-1].median_ms, 1)}
    return rows, summary


def burst_rows(tr, plan: Plan, device: str) -> tuple[list, dict]:
    words = PARAGRAPH.split()
    texts = [" ".join(words[i % 40 : i % 40 + 6 + i % 9]) for i in range(plan.burst)]  # all different
    latencies, throughputs = [], []
    for _ in range(plan.bursts):
        start = threading.Barrier(plan.burst)
        spans = [None] * plan.burst

        def request(i):
            start.wait()
            began = time.perf_counter()
            tr.translate(texts[i])
            spans[i] = (began, time.perf_counter())

        with ThreadPoolExecutor(max_workers=plan.burst) as pool:
            list(pool.map(request, range(plan.burst)))
        latencies += [(end - began) * 1000 for began, end in spans]
        wall = max(end for _, end in spans) - min(began for began, _ in spans)
        throughputs.append(plan.burst / wall)
    rps = float(np.median(throughputs))
    row = Row(f"burst of {plan.burst} at once", "latency per request (queue + model)", latencies,
              note=f"{rps:.1f} requests/s, {tr.max_concurrent} model calls at once")
    return [row], {"throughput_rps": round(rps, 2), "requests": plan.burst, "bursts": plan.bursts}


def explanation_rows(tr, sentences: dict[int, str], repeats: int, device: str) -> tuple[list, dict]:
    """Attribution of each output token and a translation with every cross head knocked out, per sentence length."""
    rows, medians = [], {}
    every_cross = tuple(("cross", layer, head) for layer in range(tr.config.n_decoder_layers)
                        for head in range(tr.config.n_heads))
    for n, text in sentences.items():
        result = tr.translate(text, beam=1)
        jobs = {"integrated_gradients": lambda: tr.attribute(result, "integrated_gradients"),
                "input_x_gradient": lambda: tr.attribute(result, "input_x_gradient"),
                "ablated_translate": lambda: tr.translate(text, beam=1, knock_out=every_cross)}
        ig = jobs["integrated_gradients"]()
        precision = "bfloat16" if attribution.native_bf16(tr.device) else "float32"
        path = f"{ig.points} points, gap {ig.gap:.3f}, {precision}; "
        for name, job in jobs.items():
            times = measure(job, max(3, repeats // 4), device)  # attribution runs dozens of passes: fewer repeats
            rows.append(Row("is attention an explanation?", f"S={n} {name.replace('_', ' ')}", times,
                            note=f"{path if name == 'integrated_gradients' else ''}{len(result.output_tokens)} "
                                 f"output tokens; budget {BUDGETS[name + '_ms']:.0f} ms at S=20"))
            medians[f"S={n} {name}"] = round(rows[-1].median_ms, 1)
    return rows, medians


def run_device(checkpoint: Path, device: str, plan: Plan, repeats: int, only_explanation: bool = False) -> dict:
    rows = [] if only_explanation else cold_start(checkpoint, device, plan, repeats)
    tr = Translator.from_checkpoint(checkpoint, device=device)
    sentences = {n: sentence_of(tr.src_tok, n, tr.config.source_language) for n in plan.lengths}
    summary = {}
    if not only_explanation:
        rows += translate_rows(tr, sentences, plan, repeats, device)
        cache, summary["cache_speedup"] = cache_rows(tr, sentences, plan, repeats, device)
        peer, summary["ours_over_peer_time"] = peer_rows(tr, sentences, repeats, device)
        pieces, summary["speed_pieces"] = piece_rows(checkpoint, tr, sentences, repeats, device)
        longest = max(plan.lengths)
        figures, summary["figures"] = figure_rows(tr, sentences[longest], longest, repeats)
        burst, summary["burst"] = burst_rows(tr, plan, device)
        rows += cache + peer + pieces + figures + burst
    explanation, summary["explanation_ms"] = explanation_rows(tr, sentences, repeats, device)
    rows += explanation
    return {
        "settings": {"device": device, "torch_threads": torch.get_num_threads(), "usable_cores": usable_cores(),
                     "max_concurrent_model_calls": tr.max_concurrent, "repeats": repeats,
                     "sentences": sentences, "forced_output_tokens": plan.forced_output},
        "rows": [r.as_dict() for r in rows],
        "summary": {**summary, "budgets": BUDGETS},
        "_rows": rows,
    }


def print_table(report: dict) -> None:
    s = report["settings"]
    print(f"\n## {s['device']}: {s['torch_threads']} torch thread(s), {s['usable_cores']} usable core(s), "
          f"{s['max_concurrent_model_calls']} model call(s) at once, {s['repeats']} repeats\n")
    print("| section | measurement | median ms | p95 ms | n | note |")
    print("|---|---|---:|---:|---:|---|")
    for r in report["_rows"]:
        print(f"| {r.section} | {r.name} | {r.median_ms:.1f} | {r.p95_ms:.1f} | {len(r.times_ms)} | {r.note} |")
    summary = report["summary"]
    print()
    if "figures" in summary:  # not with --only-explanation
        print_goals(summary, s["forced_output_tokens"])
    for label, ms in summary["explanation_ms"].items():
        size, name = label.split(" ", 1)
        if size == "S=20":
            budget = BUDGETS[f"{name}_ms"]
            print(f"- {name.replace('_', ' ')}, {size}: {ms:.0f} ms (budget {budget:.0f} ms: "
                  f"{'ok' if ms <= budget else 'OVER'})")


def print_goals(summary: dict, forced_output: int) -> None:
    fig = summary["figures"]
    for label, ratio in summary["cache_speedup"].items():
        print(f"- cache speed-up, {label}, {forced_output} output tokens: {ratio:.2f}× "
              f"({'meets' if ratio >= CACHE_GOAL else 'MISSES'} the {CACHE_GOAL}× goal)")
    for label, ratio in summary["ours_over_peer_time"].items():
        print(f"- ours/peer time, {label}: {ratio:.3f} = {1 / ratio:.1f}× faster "
              f"({'meets' if 1 / ratio >= PEER_GOAL else 'MISSES'} the {PEER_GOAL:.0f}× goal)")
    for label, value, budget in (
        ("default view JSON", fig["default_view_bytes"], BUDGETS["default_view_bytes"]),
        ("largest layers×heads grid JSON", fig["largest_grid_bytes"], BUDGETS["grid_bytes"]),
    ):
        print(f"- {label}: {value / 1000:.0f} KB (budget {budget / 1000:.0f} KB: {'ok' if value <= budget else 'OVER'})")
    ms = fig["all_figures_median_ms"]
    print(f"- all figures built + serialised: {ms:.0f} ms (budget {BUDGETS['all_figures_ms']:.0f} ms: "
          f"{'ok' if ms <= BUDGETS['all_figures_ms'] else 'OVER'})")
    print(f"- burst: {summary['burst']['throughput_rps']} requests/s")


def versions() -> dict:
    import transformers

    cpu = platform.processor()
    try:
        cpu = next(line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return {"python": platform.python_version(), "torch": torch.__version__, "transformers": transformers.__version__,
            "cpu": cpu, "machine": platform.machine()}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.run", description=__doc__.split("\n\n")[1])
    p.add_argument("--device", nargs="+", default=["cpu"], choices=["cpu", "cuda"],
                   help="one table per device (on a CUDA machine: --device cpu cuda)")
    p.add_argument("--repeats", type=int, default=20, help="timed runs per measurement (after one warm-up)")
    p.add_argument("--out", type=Path, default=DEFAULT_OUT, help="JSON file for the results")
    p.add_argument("--threads", type=int, default=None, help="torch threads (default: sized to the machine)")
    p.add_argument("--checkpoint", type=Path, default=ROOT / "checkpoints" / "en-zh")
    p.add_argument("--quick", action="store_true", help="a small subset, for the smoke test")
    p.add_argument("--only-explanation", action="store_true",
                   help="only attribution and the knock-out re-decode (Is attention an explanation?)")
    p.add_argument("--float32", action="store_true", help="attribution in float32 even where bfloat16 is native")
    args = p.parse_args(argv)
    if args.float32:
        attribution.native_bf16 = lambda device: False  # this script's own process only
    if args.repeats < 1:
        p.error("--repeats must be at least 1")
    if "cuda" in args.device and not torch.cuda.is_available():
        p.error("--device cuda asked for, but torch sees no CUDA GPU")
    threads = configure_torch_threads(args.threads)  # first, before any torch op
    plan = QUICK if args.quick else FULL
    reports = {}
    for device in args.device:
        reports[device] = run_device(args.checkpoint, device, plan, args.repeats, args.only_explanation)
        print_table(reports[device])
    out = {
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "command": "python -m benchmarks.run " + " ".join(argv if argv is not None else sys.argv[1:]),
        "torch_threads": threads, "quick": args.quick, "versions": versions(),
        "devices": {d: {k: v for k, v in r.items() if k != "_rows"} for d, r in reports.items()},
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"\nwrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
