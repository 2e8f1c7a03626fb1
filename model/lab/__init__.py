"""The live lab the Lab page drives: a tiny Transformer trained in seconds on a made-up task, its attention redrawn.

tasks.py makes up the tasks (copy, reverse, sort) and their answers; run.py trains on one (train_steps, a generator
of Progress) with the trainer's schedule. It comes after training/, whose batching and schedule it reuses.

The names below are the lab's public surface: model/__init__.py exports the package itself (`model.lab`), and a page
imports these from it (tests/test_layering.py checks it) rather than from model's flat list.
"""

from .run import ALIGNED_SHARE, TESTED_EXACT, LabSettings, Progress, train_steps
from .tasks import EXAMPLE, TASKS, answer

__all__ = ["ALIGNED_SHARE", "EXAMPLE", "TASKS", "TESTED_EXACT", "LabSettings", "Progress", "answer", "train_steps"]
