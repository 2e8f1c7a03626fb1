"""The GPU sweep's arm files (model/training/sweeps/*.arms, read by model/training/gpu_sweep.sh): a lent GPU's
minutes are few, so an arm whose options the trainer would refuse must fail here, not there."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from model.training.train import parse_args

SWEEPS = Path(__file__).resolve().parent.parent / "model" / "training" / "sweeps"
SCRIPT = SWEEPS.parent / "gpu_sweep.sh"


def arms(path: Path) -> list[tuple[str, list[str]]]:
    """(name, options) of each arm, as gpu_sweep.sh reads them: blank lines and # comments skipped."""
    lines = [line.split(maxsplit=1) for line in path.read_text().splitlines()]
    return [(words[0], shlex.split(words[1]) if len(words) > 1 else []) for words in lines
            if words and not words[0].startswith("#")]


def common_options() -> list[str]:
    """The options gpu_sweep.sh gives every arm (its C=...), with its variables filled in."""
    line = next(line for line in SCRIPT.read_text().splitlines() if line.startswith('C="'))
    filled = re.sub(r"\$\{EPOCHS:-(\d+)\}", r"\1", line[3:-1]).replace("$MIN", "7").replace("$DEV", "cuda")
    return shlex.split(filled)


@pytest.mark.parametrize("path", sorted(SWEEPS.glob("*.arms")), ids=lambda p: p.stem)
def test_every_arm_is_an_option_set_the_trainer_accepts(path):
    found = arms(path)
    assert len(found) >= 2, f"{path.name} holds fewer than two arms"
    names = [name for name, _ in found]
    assert len(set(names)) == len(names), f"{path.name}: two arms share a name, so one's folder would be overwritten"
    for name, options in found:
        assert re.fullmatch(r"[a-z0-9][a-z0-9-]*", name), name
        args = parse_args([*common_options(), "--out", f"ck/{name}", *options])
        assert args.test_split, "every arm keeps the test half out of every choice"
        assert args.max_tokens > 0 and args.warmup > 0


def test_round_two_is_the_sweep_group_five_ran():
    """The model card's group 5 rows, by name and by what set them apart."""
    found = dict(arms(SWEEPS / "round2.arms"))
    assert set(found) == {"g-base", "g-reg", "g-dict", "g-reg-dict", "g-reg-v8k", "g-reg-dict-v8k", "g-reg-deep",
                          "g-reg-dict16k"}
    assert parse_args(["--train", "t", "--out", "o", *found["g-reg-v8k"]]).src_vocab == 8000
    assert parse_args(["--train", "t", "--out", "o", *found["g-base"]]).max_tokens == 2500
