"""The benchmark is a script, not a timed test; this runs its quick subset once so it cannot rot."""

import json

import pytest

pytest.importorskip("transformers")  # the peer; in requirements-dev.txt

from benchmarks.run import main  # noqa: E402


@pytest.mark.slow
def test_quick_benchmark_runs_and_writes_its_table(tmp_path, capsys):
    out = tmp_path / "results.json"
    assert main(["--quick", "--repeats", "1", "--out", str(out)]) == 0
    table = capsys.readouterr().out
    assert "| section | measurement | median ms | p95 ms |" in table and "ours/peer" in table
    report = json.loads(out.read_text())
    cpu = report["devices"]["cpu"]
    assert cpu["settings"]["torch_threads"] >= 1 and report["torch_threads"] == cpu["settings"]["torch_threads"]
    sections = {row["section"] for row in cpu["rows"]}
    assert "app first full render (AppTest, caches cleared)" in {row["name"] for row in cpu["rows"]}
    assert {"cold start", "translate + every attention map", "speed pieces", "figures, translate page"} <= sections
    assert all(row["median_ms"] > 0 and row["p95_ms"] >= row["median_ms"] for row in cpu["rows"])
    summary = cpu["summary"]
    assert summary["cache_speedup"] and summary["ours_over_peer_time"]
    assert {"layout S=10", "fused kernel step"} <= set(summary["speed_pieces"])
    assert 0 < summary["figures"]["default_view_bytes"] < summary["figures"]["largest_grid_bytes"]
    assert summary["burst"]["throughput_rps"] > 0
