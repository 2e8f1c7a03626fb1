"""Training: train.py (python -m model.training.train), data.py, schedule.py, metrics.py, snapshots.py
(attention during training), dictionary.py (CC-CEDICT pairs) and lab.py (the Lab page's live run). The trainer writes the model card (model/card/) at
the end of a run; what a trained checkpoint is measured by lives in evaluation/."""
