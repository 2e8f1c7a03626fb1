"""Training and what it measures: train.py (python -m model.training.train), data.py, schedule.py,
metrics.py, card.py (the model card), snapshots.py (attention during training), study.py (scoring a
checkpoint), calibrate.py (confidence thresholds), dictionary.py and everyday.py (translation quality),
lab.py (the small live training run the Lab page drives)."""
