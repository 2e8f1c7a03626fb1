"""`python -m model.translate`: the JSON contract, files, and failures without tracebacks."""

import json
import subprocess
import sys

import pytest

from tests.conftest import CHECKPOINT, ROOT

pytestmark = pytest.mark.skipif(not CHECKPOINT.exists(), reason="shipped checkpoint not present")


def cli(*args, **kw):
    return subprocess.run(
        [sys.executable, "-m", "model.translate", *args], cwd=ROOT, capture_output=True, text=True, timeout=300, **kw
    )


def test_prints_a_translation():
    run = cli("I love you.")
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() and run.stdout.count("\n") == 1
    assert "Traceback" not in run.stderr


def test_json_contract_sizes_agree_with_tokens():
    run = cli("--json", "--beam", "2", "The dog saw the cat.")
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    for key in ("source_tokens", "target_tokens", "translation", "device", "checkpoint", "attention"):
        assert key in data
    assert data["device"] == "cpu" or data["device"].startswith("cuda")
    s, t = len(data["source_tokens"]), len(data["target_tokens"])
    config = json.loads((CHECKPOINT / "config.json").read_text())
    expected = {
        "encoder_self": (config["n_encoder_layers"], s, s),
        "decoder_self": (config["n_decoder_layers"], t, t),
        "cross": (config["n_decoder_layers"], t, s),
    }
    for kind, (layers, rows, cols) in expected.items():
        maps = data["attention"][kind]
        assert len(maps) == layers and all(len(head) == rows for layer in maps for head in layer)
        assert all(len(layer) == config["n_heads"] for layer in maps)
        assert all(len(row) == cols and abs(sum(row) - 1) < 1e-4 for layer in maps for head in layer for row in head)
    assert data["source_tokens"][-1] == "</s>" and data["target_tokens"][0] == "<s>"


@pytest.mark.parametrize("text", ["", "   ", "\u200b\u200b"])
def test_empty_input_exits_2_with_one_line(text):
    run = cli(text)
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and run.stderr.startswith("error:")
    assert run.stdout == ""


def test_file_gives_one_line_per_input_line(tmp_path):
    path = tmp_path / "in.txt"
    path.write_text("I love you.\nWho are you?\nWhat is your name?\n", encoding="utf-8")
    run = cli("--file", str(path))
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert len(lines) == 3 and all(lines)


def test_too_long_input_is_truncated_with_a_note():
    run = cli(" ".join(["word"] * 400))
    assert run.returncode == 0, run.stderr
    assert "truncated" in run.stderr and "Traceback" not in run.stderr


def test_bad_checkpoint_is_a_clear_error(tmp_path):
    run = cli("--checkpoint", str(tmp_path / "missing"), "hello")
    assert run.returncode == 2
    assert "does not exist" in run.stderr and "Traceback" not in run.stderr
