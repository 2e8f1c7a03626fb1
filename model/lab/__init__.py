"""The live lab the Lab page drives: a tiny Transformer trained in seconds on a made-up task, its attention redrawn.

tasks.py makes up the tasks (copy, reverse, sort) and their answers; run.py trains on one (train_steps, a generator
of Progress) with the trainer's schedule; worker.py runs a server's lab runs in a process of their own, niced. It comes after training/, whose batching and schedule it reuses.

The names below are the lab's public surface: model/__init__.py exports the package itself (`model.lab`), and a page
imports these from it (tests/test_layering.py checks it) rather than from model's flat list.
"""

from .run import ALIGNED_SHARE, TESTED_EXACT, LabSettings, Progress, train_steps
from .tasks import EXAMPLE, TASKS, answer
from .worker import LAB_NICE, Trainer

__all__ = ["ALIGNED_SHARE", "EXAMPLE", "LAB_NICE", "TASKS", "TESTED_EXACT", "LabSettings", "Progress", "Trainer", "answer",
           "train_steps"]
