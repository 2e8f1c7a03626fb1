"""How the live lab's queue keeps a class's translations quick while students train.

    python -m benchmarks.lab_contention [--labs 5] [--seconds 40]

In one process, as the server runs them: `--labs` sessions press Train at once (each a thread advancing its run
chunk by chunk, each chunk inside the server's limit on model work, app_pages.state.server.model_calls), while another
session translates a sentence again and again. Measured twice: with the lab queue (app_pages.state.lab_queue, one run at a
time) and without it (every run at once, as before the queue). Reports translate latency p50 / p95 and how far the
runs got. The issue's goal: translate p95 ≤ 1 s during 5 labs. Results go to benchmarks/lab_contention_results.json.
"""

from __future__ import annotations

import argparse
import json
import threading
import time
from pathlib import Path

import numpy as np

from app_pages.state.lab_queue import LabQueue
from model import DEFAULT_CHECKPOINT, CallGate, Translator
from model.lab import LabSettings, train_steps

OUT = Path(__file__).with_name("lab_contention_results.json")
SENTENCE = "The children are playing in the park."


def lab(queue: LabQueue | None, gate: CallGate, stop: threading.Event, done: list) -> None:
    """One student's run: waits its turn in the queue (if any), then computes chunk by chunk inside the gate."""
    ticket = queue.join() if queue else None
    run = train_steps(LabSettings(task="reverse"))
    while not stop.is_set():
        if queue and not queue.may_run(ticket):
            time.sleep(0.1)  # the page's fragment asks again at its next tick
            continue
        with gate:
            progress = next(run)
        if progress.stopped_by:
            done.append(progress)
            break
    if queue:
        queue.leave(ticket)


def measure(translator: Translator, labs: int, seconds: float, queued: bool) -> dict:
    gate, stop, done = CallGate(), threading.Event(), []
    queue = LabQueue(runs=1) if queued else None
    threads = [threading.Thread(target=lab, args=(queue, gate, stop, done)) for _ in range(labs)]
    for thread in threads:
        thread.start()
    latencies, deadline = [], time.monotonic() + seconds
    while time.monotonic() < deadline:
        started = time.perf_counter()
        with gate:
            translator.translate(SENTENCE)
        latencies.append(time.perf_counter() - started)
    stop.set()
    for thread in threads:
        thread.join()
    return {"queued": queued, "labs": labs, "translations": len(latencies),
            "translate_p50_s": round(float(np.percentile(latencies, 50)), 2),
            "translate_p95_s": round(float(np.percentile(latencies, 95)), 2),
            "runs_finished": len(done), "runs_learned": sum(p.stopped_by == "learned" for p in done)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--labs", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=40.0)
    args = parser.parse_args()
    translator = Translator.from_checkpoint(DEFAULT_CHECKPOINT, device="cpu")
    translator.translate(SENTENCE)  # warm
    alone = measure(translator, 0, min(args.seconds, 10.0), queued=False)
    rows = [alone, measure(translator, args.labs, args.seconds, queued=False),
            measure(translator, args.labs, args.seconds, queued=True)]
    OUT.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    print("| labs training | queue | translate p50 | translate p95 | runs finished (learned) in the window |")
    print("|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['labs']} | {'one at a time' if r['queued'] else 'none'} | {r['translate_p50_s']} s | "
              f"{r['translate_p95_s']} s | {r['runs_finished']} ({r['runs_learned']}) |")


if __name__ == "__main__":
    main()
