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


def _row(system: str, found: dict, this: str) -> dict:
    return {"run": Path(system).name, "this": Path(system).name == this,
            "reference": "gain" not in found.get("newer", {}), **{k: v for k, v in found.items() if k != "everyday"}}


def _scored(files: Sequence[dict], this: str, earlier: dict | None = None) -> dict:
    """How the arms were scored (beam, each set's pairs) and every system the arms files (`files`, as read) scored,
    once each (the reference is in every file), by its folder's name; `this`: the run that became this checkpoint.
    `earlier`: a recorded "scored", whose rows come first; a run scored there and in `files` must score the same.
    Files scored otherwise (another beam or other sets, or against another reference than `earlier`'s) cannot
    share one table: refused."""
    if len({json.dumps([f["beam"], f["sets"]], sort_keys=True) for f in files}) > 1:
        raise ValueError("the arms files were scored with different beams or sets: record them apart")
    rows = {row["run"]: dict(row) for row in (earlier or {}).get("arms", ())}
    if earlier and files and (files[0]["beam"] != earlier["beam"]
                              or any(earlier.get(k) != n for k, n in files[0]["sets"].items())):
        raise ValueError("the arms files were scored with another beam or on other sets than the earlier arms")
    reference = {row["run"] for row in rows.values() if row["reference"]}
    for scored in files:
        found_rows = [_row(system, found, this) for system, found in scored["systems"].items()]
        if earlier and {row["run"] for row in found_rows if row["reference"]} != reference:
            raise ValueError(f"the arms files were scored against another reference than {sorted(reference)}")
        for row in found_rows:
            if (known := rows.setdefault(row["run"], row)) is not row:
                if _bleus(known) != _bleus(row):
                    raise ValueError(f"{row['run']!r} scored {_bleus(row)} here, {_bleus(known)} before")
                known["this"] = known["this"] or row["this"]
    if files and this and this not in rows:
        raise ValueError(f"no arm named {this!r} in the arms files: name this checkpoint's run with --this")
    beam, sets = (files[0]["beam"], files[0]["sets"]) if files else (None, {})
    if earlier:
        beam, sets = earlier["beam"], {k: earlier[k] for k in ("test_unseen", "newer") if k in earlier}
    return {"beam": beam, **sets, "arms": list(rows.values())}


def _bleus(row: dict) -> list:
    return [row.get(s, {}).get("bleu") for s in ("test_unseen", "newer")]


def against_replaced(path: Path, this: str, scored: dict) -> dict:
    """This run scored against the model it replaces (an evaluation.arms file of those two alone, at the beam and on
    the sets of `scored`): the shipping rule's comparison, {"run": the replaced model's folder name, set: gain}."""
    found = _read(path)
    rows = [_row(system, v, this) for system, v in found["systems"].items()]
    if found["beam"] != scored["beam"] or any(scored.get(k) != n for k, n in found["sets"].items()):
        raise ValueError(f"{path.name} was scored with another beam or on other sets than the arms")
    if len(rows) != 2 or not rows[0]["reference"] or not rows[1]["this"]:
        raise ValueError(f"{path.name} must score {this!r} alone against the model it replaces (its --baseline)")
    return {"run": rows[0]["run"], **{s: rows[1][s] for s in ("test_unseen", "newer") if s in rows[1]}}


def entry(pool: Path, synthetic: Path, mixed: Path, arms: Sequence[Path], this: str, earlier: dict | None = None,
          replaced: Path | None = None) -> dict:
    """The log's "backtranslation" entry from the data step's files: `pool` the folder extract wrote, `synthetic`
    and `mixed` the TSVs translate and mix wrote (their logs beside them), `arms` evaluation.arms JSON files in which
    this checkpoint is the run named `this`; `earlier`: the entry of the checkpoint this one replaces, whose arms
    stay in the table; `replaced`: the arms file that scored this run against that checkpoint."""
    extract, made, mix = _read(pool / "extract.json"), _read(synthetic.with_suffix(".json")), \
        _read(mixed.with_suffix(".json"))
    if "forward" in mix:
        raise ValueError(f"{mixed.name} is a self-training mix (mix --forward): the card describes back-translated "
                         "pairs only")
    language = made["real_language"]
    if earlier is not None:  # its arms stay in the table; its "this" is this checkpoint's predecessor
        earlier = {**earlier["scored"], "arms": [{**row, "this": False} for row in earlier["scored"]["arms"]]}
    scored = _scored([_read(path) for path in arms], this, earlier)
    if replaced is not None:
        scored["replaced"] = against_replaced(replaced, this, scored)
    return {"testsets": {"repository": REPOSITORY, "commit": extract["commit"], "version": extract["version"]},
            "pool": {"language": language, "steps": extract["languages"][language]["steps"],
                     "sha256": extract["languages"][language]["sha256"]},
            "excluded_from": {Path(p).name: digest for p, digest in extract["excluded_from"].items()},
            "synthesis": _synthesis(made),
            "mix": {k: mix[k] for k in ("real", "real_copies", "synthetic", "tag", "seed")} | {"sha256":
                                                                                              sha256(mixed)},
            "scored": scored}


def with_arms(recorded: dict, arms: Sequence[Path]) -> dict:
    """A recorded entry with the arms of `arms` (evaluation.arms --json files) added to its table: an arm scored
    after the checkpoint was recorded (a control run later). Refused where the files were scored at another beam, on
    other sets, or against another reference than the entry's arms (their gains would not be comparable)."""
    scored = recorded["scored"]
    return {**recorded, "scored": {**scored, **_scored([_read(path) for path in arms], "", scored)}}
