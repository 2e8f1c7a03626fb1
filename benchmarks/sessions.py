"""Server capacity without browsers: N students open one page at once, each a bare Streamlit session.

    python -m benchmarks.sessions [--students 10 30 60] [--labs 0 5] [--lab-runs 1] [--repeats 3]
                                  [--page translate] [--out benchmarks/sessions_results.json]

Starts `streamlit run app.py` (the project's own config), then for each count N:

- shared: N sessions open the same link at once (the teacher's: it was opened once before, as the teacher did);
- distinct: N sessions open the page at once, each with a sentence of its own (none computed before).

With --labs L, both are measured again while L more sessions train in the live lab (each presses Train again
whenever its run ends, and answers the lab fragment's ticks as a browser does); --lab-runs sets the server's
ATTENTION_LAB_RUNS (how many train at once; the app's default is one, the others wait in its queue). The whole
sequence (idle, then with labs) is run --repeats times on one server, and the table gives each row's median over
the repeats, with p95 with labs ÷ p95 idle beside it. A bare session (benchmarks/bare_session.py) speaks
Streamlit's websocket protocol and renders nothing, so the times are the server's alone: from opening the link to the server's "script
finished". Reported per row: p50/p95/max seconds, the server's CPU seconds per page run (its CPU over the burst ÷ N;
with labs the labs' training is in it), the load average beside the run, error boxes, and how many sessions were
shown their own translation (computed here by the same model before the server starts). The server runs with the
project's .streamlit/config.toml; `STREAMLIT_SERVER_FILE_WATCHER_TYPE=auto` in the environment measures it as it was
before that file turned Streamlit's file watcher off.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import sys
import tempfile
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

from benchmarks import proc
from benchmarks.bare_session import BareSession
from benchmarks.classroom import count_tracebacks, expectations, sentence, streamlit_pid, summary

OUT = Path(__file__).with_name("sessions_results.json")
PLACES = ("", " at home", " with my friend", " after school")  # 4 × 256 distinct sentences (benchmarks/classroom.py)
LAB_WARMUP_S = 10  # labs are pressed, then left this long to be training before the class opens the link


async def burst(url: str, page: str, params: list[dict]) -> list[tuple[float | None, BareSession]]:
    """Every session in `params` opens `page` at the same moment; (seconds or None on failure, session) each."""
    async def one(query: dict):
        async with BareSession(url) as session:
            try:
                return await session.open(page, query), session
            except (asyncio.TimeoutError, OSError) as error:
                session.seen.errors.append(repr(error))
                return None, session
    return await asyncio.gather(*(one(query) for query in params))


async def measure(url: str, pid: int | None, page: str, params: list[dict], expected: list[str | None]) -> dict:
    """One burst's row: times, the server's CPU per run (None without its `pid`) and the load beside it, errors,
    own results."""
    cpu = proc.cpu_seconds(pid) if pid else None
    done = await burst(url, page, params)
    cpu = round((proc.cpu_seconds(pid) - cpu) / len(params), 3) if pid else None
    seconds = [s for s, _ in done if s is not None]
    own = sum(1 for (s, session), want in zip(done, expected) if s is not None and (want is None or session.seen.shows(
        f"### {want}")))
    return {**summary(seconds), "failed": len(done) - len(seconds), "own_result": own,
            "errors": sorted({e for _, session in done for e in session.seen.errors})[:5],
            "server_cpu_s_per_run": cpu, "load_avg_1min": round(os.getloadavg()[0], 2)}


async def keep_training(session: BareSession, runs: list[int]) -> None:
    """A student in the lab who presses Train again whenever a run has ended (the page draws Train enabled again),
    so the lab never goes quiet during the measurement; counts the runs started in `runs`."""
    while True:
        await session.press("lab.train")
        runs[0] += 1
        while not session.seen.enabled("lab.train"):
            await asyncio.sleep(0.2)


async def with_labs(url: str, labs: int) -> tuple[list[BareSession], list[asyncio.Task], list[int]]:
    """`labs` sessions training in the live lab, again and again, answering its ticks (closed by the caller)."""
    sessions, runs = [BareSession(url) for _ in range(labs)], [0]
    for session in sessions:
        await session.__aenter__()
    await asyncio.gather(*(session.open("lab") for session in sessions))
    tasks = [asyncio.create_task(keep_training(session, runs)) for session in sessions]
    await asyncio.sleep(LAB_WARMUP_S)
    return sessions, tasks, runs


def distinct_sentence(i: int) -> str:
    """The i-th distinct sentence (i < 1,024): the classroom benchmark's 256, then each again with a place."""
    return f"{sentence(i % 256)[:-1]}{PLACES[i // 256]}."


async def labs_phase(url: str, pid: int, page: str, counts: list[int], lab_count: int, lab_runs: int,
                     expected: list[dict], shared: dict) -> list[dict]:
    """Each count's two bursts while `lab_count` labs train; `expected` holds the distinct sentences to use."""
    rows, offset = [], 0
    lab_sessions, lab_tasks, started = await with_labs(url, lab_count) if lab_count else ([], [], [0])
    for n in counts:
        row = {"students": n, "labs": lab_count, "lab_runs": lab_runs}
        runs_before, ticks_before = started[0], sum(len(lab.seen.finished) for lab in lab_sessions)
        row["shared"] = await measure(url, pid, page, [{"s": shared["sentence"]}] * n, [shared["translation"]] * n)
        chosen, offset = expected[offset:offset + n], offset + n
        row["distinct"] = await measure(url, pid, page, [{"s": e["sentence"]} for e in chosen],
                                        [e["translation"] for e in chosen])
        row["lab_runs_started"] = started[0] - runs_before
        row["lab_ticks"] = sum(len(lab.seen.finished) for lab in lab_sessions) - ticks_before
        rows.append(row)
    for task in lab_tasks:
        task.cancel()
    for session in lab_sessions:
        await session.__aexit__()
    return rows


async def run(url: str, pid: int, page: str, counts: list[int], labs: list[int], lab_runs: int, repeats: int,
              expected: list[dict], shared: dict) -> list[dict]:
    rows = []
    async with BareSession(url) as teacher:  # the teacher opened the shared link before the class did
        await teacher.open(page, {"s": shared["sentence"]})
    offset = 0
    for repeat in range(repeats):
        for lab_count in labs:
            phase = await labs_phase(url, pid, page, counts, lab_count, lab_runs, expected[offset:], shared)
            offset += sum(counts)
            rows += [{**row, "repeat": repeat} for row in phase]
            print(table(phase, header=not rows[:-len(phase)]), flush=True)
    return rows


def medians(rows: list[dict]) -> list[dict]:
    """One row per (count, labs): the median over the repeats of each number, with p95 with labs ÷ p95 idle."""
    keys = sorted({(row["students"], row["labs"]) for row in rows}, key=lambda key: (key[1], key[0]))
    merged = []
    for n, labs in keys:
        same = [row for row in rows if (row["students"], row["labs"]) == (n, labs)]
        row = {"students": n, "labs": labs, "lab_runs": same[0]["lab_runs"], "repeats": len(same)}
        for kind in ("shared", "distinct"):
            row[kind] = {name: round(float(np.median([r[kind][name] for r in same])), 3)
                         for name in ("p50", "p95", "max", "server_cpu_s_per_run", "load_avg_1min")}
            row[kind].update(own_result=sum(r[kind]["own_result"] for r in same),
                             n=sum(r[kind]["n"] + r[kind]["failed"] for r in same),
                             errors=sorted({e for r in same for e in r[kind]["errors"]}))
        merged.append(row)
    for row in merged:
        idle = next((r for r in merged if r["students"] == row["students"] and r["labs"] == 0), None)
        for kind in ("shared", "distinct"):
            row[kind]["p95_vs_idle"] = round(row[kind]["p95"] / idle[kind]["p95"], 2) if idle and row["labs"] else None
    return merged


def table(rows: list[dict], header: bool = True) -> str:
    lines = ["| N | labs (training at once) | link | p50 s | p95 s | max s | p95 ÷ idle | server CPU-s / run | load "
             "| own result | errors |", "|---|---|---|---|---|---|---|---|---|---|---|"] if header else []
    for row in rows:
        for kind in ("shared", "distinct"):
            r = row[kind]
            labs = f"{row['labs']} ({min(row['labs'], row['lab_runs'])})" if row["labs"] else "0"
            n = r["n"] if "repeats" in row else r["n"] + r["failed"]
            lines.append(f"| {row['students']} | {labs} | {kind} | {r['p50']} | {r['p95']} | {r['max']} | "
                         f"{r.get('p95_vs_idle') or '–'} | {r['server_cpu_s_per_run']} | {r['load_avg_1min']} | "
                         f"{r['own_result']}/{n} | {len(r['errors'])} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, nargs="+", default=[10, 30, 60])
    parser.add_argument("--labs", type=int, nargs="+", default=[0, 5])
    parser.add_argument("--lab-runs", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--page", default="translate")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    need = sum(args.students) * len(args.labs) * args.repeats
    if need >= len(PLACES) * 256:
        parser.error(f"at most {len(PLACES) * 256 - 1} distinct sentences: fewer students, labs or repeats")
    everyone = expectations([distinct_sentence(i) for i in range(need + 1)])
    expected, shared = everyone[:need], everyone[need]
    log = Path(tempfile.mkdtemp()) / "server.log"
    from tests.support.app_server import running_app  # the tests' one way to start the app and wait for it

    with running_app(log, env={"ATTENTION_LAB_RUNS": str(args.lab_runs)}) as url:
        pid = streamlit_pid(url)
        rss_before = proc.rss_mb(pid)
        rows = asyncio.run(run(url, pid, args.page, args.students, args.labs, args.lab_runs, args.repeats, expected,
                               shared))
        rss_after = proc.rss_mb(pid)
    result = {"when": datetime.now(timezone.utc).isoformat(timespec="seconds"), "machine": platform.machine(),
              "cores": os.cpu_count(), "python": sys.version.split()[0], "page": args.page, "lab_runs": args.lab_runs,
              # .streamlit/config.toml's "none" unless the environment says otherwise (the "before" of README's table)
              "file_watcher": os.environ.get("STREAMLIT_SERVER_FILE_WATCHER_TYPE", "none"),
              "medians": medians(rows), "rows": rows,
              "server_rss_mb": {"before": rss_before, "after": rss_after},
              "server_tracebacks": count_tracebacks(log.read_text())}
    args.out.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    print(f"\nMedians of {args.repeats} repeats:\n" + table(medians(rows)))


if __name__ == "__main__":
    main()
