"""What a model trained on back-translated pairs was trained on, for its card: the test sets the pool came from,
what was kept out of it, how its sentences were translated, how they were mixed with the real pairs, and the arms
that were scored. Read from the logs the data step writes (extract.json, the synthetic file's and the mixed file's
X.json beside X.tsv) and from `python -m evaluation.arms --json` files; written into the checkpoint's
training_log.json under "backtranslation" (TrainingLog.backtranslation reads it; cards/ writes the card's section).

Only what holds on any machine is kept: file names and SHA-256 hashes, never this machine's paths.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from .resumable import sha256
from .testsets import REPOSITORY

LOG_KEY = "backtranslation"
SYNTHESIS = ("method", "beam", "seed", "top_k", "temperature", "delete", "blank", "swap")
NOISE = ("delete", "blank", "swap")  # only beam-noise adds noise: kept for it alone


def _read(path: Path) -> dict:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def _synthesis(log: dict) -> dict:
    """The decoding settings that made the synthetic side, the model that decoded, and what was kept."""
    settings = {k: v for k, v in log["settings"].items() if k in SYNTHESIS
                and (log["settings"]["method"] == "beam-noise" or k not in NOISE)}
    return {**settings, "model_sha256": log["checkpoint"]["model_sha256"], "real_language": log["real_language"],
            "synthetic_language": log["synthetic_language"], **log["counts"]}


def _scored(files: Sequence[dict], this: str) -> dict:
    """How the arms were scored (beam, each set's pairs) and every system the arms files (`files`, as read) scored,
    once each (the reference, the model shipped before, is in every file), by its folder's name; `this`: the run
    that became this checkpoint. Files scored otherwise (another beam or other sets) cannot share one table: refused."""
    if len({json.dumps([f["beam"], f["sets"]], sort_keys=True) for f in files}) > 1:
        raise ValueError("the arms files were scored with different beams or sets: record them apart")
    rows: dict[str, dict] = {}
    for scored in files:
        for system, found in scored["systems"].items():
            row = {"run": Path(system).name, "this": Path(system).name == this,
                   "reference": "gain" not in found.get("newer", {}),
                   **{k: v for k, v in found.items() if k != "everyday"}}
            rows.setdefault(row["run"], row)
    if files and this and this not in rows:
        raise ValueError(f"no arm named {this!r} in the arms files: name this checkpoint's run with --this")
    return {"beam": files[0]["beam"] if files else None, **(files[0]["sets"] if files else {}),
            "arms": list(rows.values())}


def entry(pool: Path, synthetic: Path, mixed: Path, arms: Sequence[Path], this: str) -> dict:
    """The log's "backtranslation" entry from the data step's files: `pool` the folder extract wrote, `synthetic`
    and `mixed` the TSVs translate and mix wrote (their logs beside them), `arms` evaluation.arms JSON files in which
    this checkpoint is the run named `this`."""
    extract, made, mix = _read(pool / "extract.json"), _read(synthetic.with_suffix(".json")), \
        _read(mixed.with_suffix(".json"))
    language = made["real_language"]
    return {"testsets": {"repository": REPOSITORY, "commit": extract["commit"], "version": extract["version"]},
            "pool": {"language": language, "steps": extract["languages"][language]["steps"],
                     "sha256": extract["languages"][language]["sha256"]},
            "excluded_from": {Path(p).name: digest for p, digest in extract["excluded_from"].items()},
            "synthesis": _synthesis(made),
            "mix": {k: mix[k] for k in ("real", "real_copies", "synthetic", "tag", "seed")} | {"sha256":
                                                                                              sha256(mixed)},
            "scored": _scored([_read(path) for path in arms], this)}


def with_arms(recorded: dict, arms: Sequence[Path]) -> dict:
    """A recorded entry with the arms of `arms` (evaluation.arms --json files) added to its table: an arm scored
    after the checkpoint was recorded (a control run later). Refused where the files were scored at another beam, on
    other sets, or against another reference than the entry's arms (their gains would not be comparable)."""
    scored, files = recorded["scored"], [_read(path) for path in arms]
    added = _scored(files, "")["arms"]
    if any(f["beam"] != scored["beam"] or f["sets"] != {k: scored[k] for k in f["sets"]} for f in files):
        raise ValueError("the arms files were scored with another beam or on other sets than the recorded arms")
    reference = {row["run"] for row in scored["arms"] if row["reference"]}
    if {row["run"] for row in added if row["reference"]} != reference:
        raise ValueError(f"the arms files were scored against another reference than {sorted(reference)}")
    known = {row["run"] for row in scored["arms"]}
    rows = scored["arms"] + [row for row in added if row["run"] not in known]
    return {**recorded, "scored": {**scored, "arms": rows}}
