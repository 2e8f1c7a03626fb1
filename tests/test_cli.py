"""`python -m model.translate`: the JSON contract, files, and failures without tracebacks.

The cases call model.translate.main in-process (a subprocess each re-imported torch: about 2 s a case); an exception
escaping main, which a command would print as a traceback, fails them. One subprocess run proves the command itself.
"""

import json
import subprocess
import sys

import pytest

from model.translation.cli import main
from tests.support.paths import CHECKPOINT, ROOT, ZH_CHECKPOINT

pytestmark = pytest.mark.skipif(not CHECKPOINT.exists(), reason="shipped checkpoint not present")


def cli(capsys, *args) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of `python -m model.translate *args`, run in this process."""
    status = main(list(args))
    out = capsys.readouterr()
    return status, out.out, out.err


@pytest.mark.slow
def test_the_command_prints_the_models_translation(translator):
    run = subprocess.run([sys.executable, "-m", "model.translate", "I love you."], cwd=ROOT, capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.stdout == translator.translate("I love you.").translation + "\n"
    assert "Traceback" not in run.stderr


def test_json_contract_sizes_agree_with_tokens(capsys):
    status, out, err = cli(capsys, "--json", "--beam", "2", "The dog saw the cat.")
    assert status == 0, err
    data = json.loads(out)
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
def test_empty_input_exits_2_with_one_line(capsys, text):
    status, out, err = cli(capsys, text)
    assert status == 2
    assert err.count("\n") == 1 and err.startswith("error:")
    assert out == ""


def test_file_gives_one_line_per_input_line(capsys, tmp_path):
    path = tmp_path / "in.txt"
    path.write_text("I love you.\nWho are you?\nWhat is your name?\n", encoding="utf-8")
    status, out, err = cli(capsys, "--file", str(path))
    assert status == 0, err
    lines = out.splitlines()
    assert len(lines) == 3 and all(lines)


def test_too_long_input_is_truncated_with_a_note(capsys):
    status, _, err = cli(capsys, " ".join(["word"] * 400))
    assert status == 0, err
    assert "truncated" in err


def test_bad_checkpoint_is_a_clear_error(capsys, tmp_path):
    status, _, err = cli(capsys, "--checkpoint", str(tmp_path / "missing"), "hello")
    assert status == 2
    assert "does not exist" in err


@pytest.mark.skipif(not ZH_CHECKPOINT.exists(), reason="the Chinese → English checkpoint is not present")
def test_the_other_direction_keeps_the_json_contract(capsys, zh_translator):
    """--checkpoint checkpoints/zh-en: Chinese in (one token per character, traditional converted and said), English
    out, the same JSON keys and shapes; English given to it is said to be no translation."""
    status, out, err = cli(capsys, "--checkpoint", str(ZH_CHECKPOINT), "--json", "我有一個夢想。")
    assert status == 0, err
    data = json.loads(out)
    assert data["source_tokens"] == ["我", "有", "一", "个", "梦", "想", "。", "</s>"]
    assert data["translation"] == zh_translator.translate("我有一个梦想。").translation
    assert any(note.startswith("Traditional characters were converted") for note in data["notices"])
    layers, heads = zh_translator.config.n_decoder_layers, zh_translator.config.n_heads
    cross = data["attention"]["cross"]
    assert (len(cross), len(cross[0]), len(cross[0][0]), len(cross[0][0][0])) == (
        layers, heads, len(data["target_tokens"]), len(data["source_tokens"]))
    status, out, err = cli(capsys, "--checkpoint", str(ZH_CHECKPOINT), "I have a dream.")
    assert status == 0 and "This model reads Chinese" in err
