"""A made-up "backtranslation" entry of a training log, as python -m model.training.backtranslation record writes
it: for the card and the pages that say what a back-translated model was trained on."""

BACKTRANSLATION = {
    "testsets": {"repository": "Helsinki-NLP/OPUS-MT-testsets", "commit": "ac0f19c0be3c", "version": "v2021-08-07"},
    "pool": {"language": "zh", "steps": [{"step": "lines read (labelled Mandarin / English)", "count": 98882},
                                         {"step": "not in testsets", "count": 24232},
                                         {"step": "within the length limit", "count": 17346}], "sha256": "ab"},
    "excluded_from": {"dev.tsv": "61ad", "pairs.tsv": "4725", "train.tsv": "ed83"},
    "synthesis": {"method": "beam-noise", "beam": 4, "seed": 1, "delete": 0.1, "blank": 0.1, "swap": 3,
                  "model_sha256": "9196", "real_language": "zh", "synthetic_language": "en", "translated": 17346,
                  "ran_to_the_limit": 30, "name_lost": 0, "empty_or_wrong_script": 0, "kept": 17316},
    "mix": {"real": 26777, "real_copies": 2, "synthetic": 17316, "tag": "◆", "seed": 1, "sha256": "cd"},
    "scored": {"beam": 4, "test_unseen": 392, "newer": 2644, "arms": [
        {"run": "en-zh", "this": False, "reference": True, "minutes": 80.0, "steps": 6471, "train_pairs": 26777,
         "test_unseen": {"bleu": 33.7, "chrf": 28.96}, "newer": {"bleu": 18.96, "chrf": 17.57}},
        {"run": "en-zh-bt-first", "this": False, "reference": False, "minutes": 81.2, "steps": 6471,
         "train_pairs": 53554, "test_unseen": {"bleu": 34.2, "chrf": 29.5, "gain": 0.5, "low": -1.5, "high": 2.5},
         "newer": {"bleu": 19.71, "chrf": 18.02, "gain": 0.75, "low": 0.21, "high": 1.3}},
        {"run": "en-zh-bt", "this": True, "reference": False, "minutes": 79.7, "steps": 6471, "train_pairs": 70870,
         "test_unseen": {"bleu": 35.1, "chrf": 30.2, "gain": 1.4, "low": -0.5, "high": 3.3},
         "newer": {"bleu": 20.12, "chrf": 18.3, "gain": 1.16, "low": 0.6, "high": 1.7}}],
        # this model against the one it replaced (record --replaced)
        "replaced": {"run": "en-zh-bt-first", "test_unseen": {"bleu": 35.1, "chrf": 30.2, "gain": 0.9, "low": -1.1,
                                                                "high": 2.9},
                     "newer": {"bleu": 20.12, "chrf": 18.3, "gain": 0.41, "low": 0.03, "high": 0.8}}}}
