"""Training: train.py (python -m model.training.train), data.py, schedule.py, metrics.py, snapshots.py
(attention during training) and dictionary.py (CC-CEDICT pairs). The trainer writes the model card (model/card/) at
the end of a run; what a trained checkpoint is measured by lives in evaluation/."""
