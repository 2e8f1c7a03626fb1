"""The back-translation data step (model/training/backtranslation, issue 61) on small made-up files: what it keeps
out of the pool, and that a seed gives the same synthetic corpus byte for byte, resumed or not. Never the fetched
test-set repository: the app, the tests and CI do not need it."""

from __future__ import annotations

import hashlib
import json
import random
import subprocess

import pytest
import torch
import torch.nn.functional as F

from model import Translator
from model.text.pairs import encode_pairs
from model.text.tokenizer import TextTokenizer, train_tokenizer
from model.training.backtranslation.mix import TAG, mix
from model.loading.training_log import TrainingLog
from model.training.backtranslation.pool import build_pool, excluded_keys
from model.training.backtranslation.__main__ import main as backtranslation_main
from model.training.backtranslation.record import entry, with_arms
from model.training.backtranslation.resumable import run
from model.training.backtranslation.synthesis import Settings, noised
from model.training.backtranslation.testsets import REPOSITORY, Tree, en_zh_test_files
from model.training.data import collate, in_direction, read_pairs
from tests.support.tiny import CHINESE, ENGLISH, tiny_model, tokenizers

POOL = "datasets/helsinki_nlp/tatoeba/testsets"
V = "tatoeba-test-v2021-08-07"

# path → lines: two pool files (one labelled, mixing Mandarin with Cantonese), English–Chinese test files of other
# versions and folders (both trees of the repository, either order of the pair, a news set), and one of German.
FILES = {
    f"{POOL}/deu-eng/{V}.eng": ["Tom is here.", "I like tea.", "She runs fast.", "We met in dev.", "A gold one.",
                                "Known from training.", "i like tea.", "Ｔｈｅｙ ｌｅｆｔ．", "这是中文。", "A very long "
                                "sentence that goes on and on."],
    f"{POOL}/deu-eng/{V}.deu": ["Tom ist hier."],
    f"{POOL}/deu-zho/{V}.zho": ["我们在这里。", "我喜欢茶。", "佢係邊個？", "開發集的句子。", "金句。", "训练过的句子。",
                                "他跑得快！", "Tom"],
    f"{POOL}/deu-zho/{V}.zho.labels": ["cmn_Hans", "cmn_Hans", "yue_Hant", "cmn_Hant", "cmn_Hans", "cmn_Hans",
                                       "cmn_Hant", "cmn_Hans"],
    f"{POOL}/eng-cmn_Hant/tatoeba-test-v2020-07-28.eng": ["They left."],
    f"{POOL}/eng-cmn_Hant/tatoeba-test-v2020-07-28.cmn_Hant": ["我們在這裡。"],
    "testsets/zho-eng/tatoeba-test-v2021-03-30.eng": ["Tom is here."],
    "testsets/zho-eng/tatoeba-test-v2021-03-30.zho": ["汤姆在这儿。"],
    "testsets/zho-eng/newstest2019.zho": ["他跑得快!"],
    "testsets/deu-fra/tatoeba-test-v2021-08-07.deu": ["I like tea."],
}


def write_tree(root, files=FILES):
    for path, lines in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return root


@pytest.fixture
def corpus_files(tmp_path):
    """dev.tsv, the gold pairs and train.tsv, made up: one sentence of the pool in each (in another script)."""
    dev = tmp_path / "dev.tsv"
    dev.write_text("We met in dev.\t开发集的句子。\tCC-BY 2.0 (France)\n", encoding="utf-8")
    gold = tmp_path / "pairs.tsv"
    gold.write_text("# dev_line\tenglish\tchinese\tattribution\n7\tA gold one.\t金句。\tCC-BY\n", encoding="utf-8")
    train = tmp_path / "train.tsv"
    train.write_text("Known from training.\t训练過的句子。\n", encoding="utf-8")
    return dev, gold, train


def pools(tree, dev, gold, train):
    return {language: build_pool(tree, language, excluded_keys(tree, language, dev, gold, train),
                                 lambda text: len(text) < 40, "v2021-08-07") for language in ("en", "zh")}


def test_every_en_zh_test_file_dev_gold_and_training_sentence_is_kept_out_of_the_pool(tmp_path, corpus_files):
    tree = Tree(write_tree(tmp_path / "repo"))
    (en, en_steps), (zh, zh_steps) = pools(tree, *corpus_files).values()
    # Out: "Tom is here." (a test set of another version and tree), "Ｔｈｅｙ ｌｅｆｔ．" (full-width "They left."),
    # "i like tea." (a case variant, once), dev's, gold's and train's sentences, Han in English, the long one.
    assert en == ["I like tea.", "She runs fast."]
    # Out: "我们在这里。" (traditional in the test file), Cantonese (by its label), dev's "開發集的句子。" and train's
    # sentence (traditional on either side), gold's, "他跑得快！" (a news test set, ASCII "!"), no Han.
    assert zh == ["我喜欢茶。"]
    assert [s["count"] for s in en_steps] == [10, 9, 7, 6, 5, 4, 3, 2]
    assert [s["count"] for s in zh_steps] == [7, 7, 5, 4, 3, 2, 1, 1]
    assert sorted(en_zh_test_files(tree)["zh"]) == [f"{POOL}/eng-cmn_Hant/tatoeba-test-v2020-07-28.cmn_Hant",
                                              "testsets/zho-eng/newstest2019.zho",
                                              "testsets/zho-eng/tatoeba-test-v2021-03-30.zho"]
    assert f"{POOL}/deu-zho/{V}.zho.labels" in tree.hashes  # every file read is hashed for the log


def test_the_bare_git_directory_gives_the_same_pool_as_a_checkout(tmp_path, corpus_files):
    folder = write_tree(tmp_path / "repo")
    git = ["git", "-C", str(folder), "-c", "user.name=t", "-c", "user.email=t@t"]
    for args in (["init", "-q"], ["add", "."], ["commit", "-q", "-m", "made up"]):
        subprocess.run([*git, *args], check=True)
    bare, checkout = Tree(folder / ".git"), Tree(folder)
    assert bare.git and len(bare.commit) == 40 and not checkout.git
    assert pools(bare, *corpus_files) == pools(checkout, *corpus_files)
    assert bare.hashes == checkout.hashes  # the same files read, the same bytes


@pytest.fixture(scope="module")
def translator():
    """The tiny English → Chinese model after a few steps on its six pairs: it ends its sentences, and sampling
    still has choices to make."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    src, tgt = tokenizers()
    model = tiny_model(0)
    batch = collate(encode_pairs(list(zip(ENGLISH[:6], CHINESE[:6])), src, tgt, model.config), model.config.pad_id)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    model.train()
    for _ in range(30):
        loss = F.cross_entropy(model(batch[0], batch[1]).flatten(0, 1), batch[2].flatten(), ignore_index=0)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    yield Translator(model.eval(), src, tgt, checkpoint="tiny")
    torch.set_num_threads(threads)


SENTENCES = ENGLISH[:6] + ["Who is your dog?", "I have a cat.", "What is the name?", "The cat saw you."]
META = {"input": {"sha256": "made up"}, "checkpoint": {"path": "tiny"}}


@pytest.mark.parametrize("method", ["sample", "beam-noise"])
def test_a_seed_gives_the_same_synthetic_corpus_byte_for_byte_resumed_or_not(tmp_path, translator, method):
    settings = Settings(method=method, seed=7, batch=2, chunk=4, temperature=2.0)
    once = run(translator, SENTENCES, settings, tmp_path / "once" / "x.tsv", META)
    again = run(translator, SENTENCES, settings, tmp_path / "again" / "x.tsv", META)
    assert (tmp_path / "once/x.tsv").read_bytes() == (tmp_path / "again/x.tsv").read_bytes()
    assert once["counts"] == again["counts"] and once["counts"]["kept"] >= 5
    # Stopped after the first chunk, with half a chunk written after it; then run again to the end.
    run(translator, SENTENCES, settings, tmp_path / "resumed" / "x.tsv", META, limit=1)
    with open(tmp_path / "resumed/x.tsv", "ab") as f:
        f.write("I have a dream.\t我有".encode())
    resumed = run(translator, SENTENCES, settings, tmp_path / "resumed" / "x.tsv", META)
    assert (tmp_path / "resumed/x.tsv").read_bytes() == (tmp_path / "once/x.tsv").read_bytes()
    assert resumed["counts"] == once["counts"] and resumed["done"] == len(SENTENCES)
    other = run(translator, SENTENCES, Settings(**{**settings.__dict__, "seed": 8}), tmp_path / "other/x.tsv", META)
    assert (tmp_path / "other/x.tsv").read_bytes() != (tmp_path / "once/x.tsv").read_bytes()
    assert json.loads((tmp_path / "other/x.json").read_text())["settings"]["seed"] == 8
    pairs = read_pairs(tmp_path / "once/x.tsv")  # the corpus's format: English first, whichever side is synthetic
    assert {english for english, _ in pairs} <= set(SENTENCES) and all(chinese for _, chinese in pairs)
    with pytest.raises(ValueError, match="settings"):
        run(translator, SENTENCES, Settings(method=method, seed=9, batch=2, chunk=4), tmp_path / "once/x.tsv", META)


def test_noise_drops_blanks_and_moves_words_at_most_k_places_keeping_latin_words_whole():
    words = [f"w{i}" for i in range(30)]
    settings = Settings(method="beam-noise", delete=0.0, blank=0.0, swap=3)
    moved = noised(" ".join(words), "en", random.Random(1), settings).split()
    assert sorted(moved) == sorted(words) and moved != words
    assert max(abs(moved.index(w) - i) for i, w in enumerate(words)) <= 3
    chars = noised("我有一个梦想。", "zh", random.Random(1), Settings(method="beam-noise", delete=0.0, blank=1.0))
    assert chars == "□" * 7
    latin = noised("Tom在DVD里。", "zh", random.Random(2), Settings(method="beam-noise", delete=0.0, blank=0.0))
    assert sorted(latin.replace(" ", "").replace("Tom", "T").replace("DVD", "D")) == sorted("T在D里。")


def test_the_tag_marks_only_the_synthetic_source_and_is_one_token_once_trained(tmp_path):
    synthetic = tmp_path / "en.sample.seed1.tsv"  # English pool, synthetic Chinese: data for the zh → en model
    synthetic.write_text("I see.\t我看见了。\n", encoding="utf-8")
    synthetic.with_suffix(".json").write_text(json.dumps({"synthetic_language": "zh"}), encoding="utf-8")
    real = tmp_path / "train.tsv"
    real.write_text("Hello.\t你好。\n", encoding="utf-8")
    counts = mix(real, synthetic, tmp_path / "mixed.tsv", tag=True, real_copies=2)
    assert counts["synthetic"] == 1 and counts["tag"] == TAG
    pairs = read_pairs(tmp_path / "mixed.tsv")
    assert pairs == [("Hello.", "你好。")] * 2 + [("I see.", f"{TAG}我看见了。")]
    sources = [source for source, _ in in_direction(pairs, "zh")]  # the tag survives NFKC and OpenCC
    assert sources[-1] == f"{TAG}我看见了。"
    chinese = TextTokenizer(train_tokenizer(sources * 20, 300, mark_word_starts=False))
    assert chinese.tokens(chinese.encode(sources[-1]))[0] == TAG
    english = TextTokenizer(train_tokenizer([f"{TAG} I see.", "I see you."] * 20, 600, mark_word_starts=True))
    assert english.tokens(english.encode(f"{TAG} I see."))[0] == f"▁{TAG}"



def test_a_forward_mix_noises_and_tags_the_real_source_and_keeps_the_models_own_translation(tmp_path):
    """Self-training for en → zh (He et al. 2020): the English pool's sentences, translated by en-zh, become its own
    training pairs: the real English is the source, noised (seeded) and tagged, the Chinese translation the target
    as written. The same seed writes the same file; record refuses the mix (the card describes back-translation)."""
    synthetic = tmp_path / "en.beam.seed1.tsv"  # the English pool translated by en-zh
    sentences = [f"Tom saw the {w} dog near the old red barn." for w in ("big", "small", "brown", "lazy")]
    synthetic.write_text("".join(f"{s}\t汤姆看见了狗。\n" for s in sentences), encoding="utf-8")
    synthetic.with_suffix(".json").write_text(json.dumps({"synthetic_language": "zh"}), encoding="utf-8")
    real = tmp_path / "train.tsv"
    real.write_text("Hello.\t你好。\n", encoding="utf-8")
    counts = mix(real, synthetic, tmp_path / "forward.tsv", tag=True, seed=3, forward=True)
    assert counts["forward"] == {"source": "en", "delete": 0.1, "blank": 0.1, "swap": 3}
    pairs = read_pairs(tmp_path / "forward.tsv")
    assert pairs[0] == ("Hello.", "你好。") and [zh for _, zh in pairs[1:]] == ["汤姆看见了狗。"] * 4
    sources = [en for en, _ in pairs[1:]]
    assert all(en.startswith(f"{TAG} ") for en in sources) and sources != [f"{TAG} {s}" for s in sentences]
    for en, sentence in zip(sources, sentences):  # noise: words dropped, blanked or moved, never made up
        assert set(en.split()[1:]) <= set(sentence.split()) | {Settings().filler}
    mix(real, synthetic, tmp_path / "again.tsv", tag=True, seed=3, forward=True)
    assert (tmp_path / "again.tsv").read_bytes() == (tmp_path / "forward.tsv").read_bytes()
    untagged = mix(real, synthetic, tmp_path / "plain.tsv", tag=False, seed=3, forward=True)
    assert untagged["tag"] is None and [en for en, _ in read_pairs(tmp_path / "plain.tsv")[1:]] == [
        en.removeprefix(f"{TAG} ") for en in sources]
    (tmp_path / "logs").mkdir()
    pool, back, _, arms = data_step_logs(tmp_path / "logs")
    with pytest.raises(ValueError, match="self-training"):
        entry(pool, back, tmp_path / "forward.tsv", arms, "greedy")

def data_step_logs(tmp_path):
    """The logs the data step writes (extract.json, translate's and mix's X.json beside X.tsv) and two arms files,
    made up, with this machine's paths in them as the real ones have."""
    (tmp_path / "pool").mkdir()
    steps = [{"step": "lines read (labelled Mandarin / English)", "count": 10}, {"step": "not in dev", "count": 7}]
    (tmp_path / "pool" / "extract.json").write_text(json.dumps({
        "testsets": "/work/.mirror/x", "commit": "c0ffee", "version": "v2021-08-07",
        "languages": {"en": {"steps": steps, "sha256": "aa"}, "zh": {"steps": [], "sha256": "bb"}},
        "excluded_from": {"/work/shared/dev.tsv": "d1", "/work/main/evaluation/alignment/pairs.tsv": "g1"}}))
    synthetic, mixed = tmp_path / "en.beam.seed1.tsv", tmp_path / "zh-en.tsv"
    synthetic.with_suffix(".json").write_text(json.dumps({
        "checkpoint": {"path": "/work/main/checkpoints/en-zh", "model_sha256": "e4"}, "real_language": "en",
        "synthetic_language": "zh", "settings": {"method": "beam", "seed": 1, "beam": 1, "top_k": 0,
                                                 "temperature": 1.0, "delete": 0.1, "blank": 0.1, "swap": 3},
        "counts": {"translated": 7, "ran_to_the_limit": 1, "name_lost": 0, "empty_or_wrong_script": 0, "kept": 6}}))
    synthetic.write_text("I see.\t我看见了。\n" * 6, encoding="utf-8")
    real = tmp_path / "train.tsv"
    real.write_text("Hello.\t你好。\n", encoding="utf-8")
    mix(real, synthetic, mixed, tag=True, real_copies=3)
    arms = []
    for name in ("sample", "greedy"):
        arms.append(tmp_path / f"{name}.json")
        arms[-1].write_text(json.dumps({"sets": {"test_unseen": 392, "newer": 2644}, "beam": 4, "systems": {
            "/work/main/checkpoints/zh-en": {"minutes": 115.0, "steps": 9, "train_pairs": 1,
                                             "newer": {"bleu": 15.7, "chrf": 32.4}},
            f"runs/arms/{name}": {"minutes": 117.0, "steps": 9, "train_pairs": 9, "everyday": ["…"],
                                  "newer": {"bleu": 17.0, "chrf": 34.5, "gain": 1.3, "low": 0.7, "high": 2.0}}}}))
    return tmp_path / "pool", synthetic, mixed, arms


def test_a_checkpoint_records_its_back_translated_data_for_the_card_with_no_machine_path(tmp_path):
    pool, synthetic, mixed, arms = data_step_logs(tmp_path)
    found = entry(pool, synthetic, mixed, arms, "greedy")
    assert "/work" not in json.dumps(found)  # file names and hashes only
    log = TrainingLog.from_dict({"train_pairs": 9, "backtranslation": found})
    bt = log.backtranslation
    assert (bt.repository, bt.commit, bt.version, bt.pool_language) == (REPOSITORY, "c0ffee", "v2021-08-07", "en")
    assert [(s.step, s.count) for s in bt.pool_steps] == [(s["step"], s["count"]) for s in found["pool"]["steps"]]
    assert bt.excluded_from == {"dev.tsv": "d1", "pairs.tsv": "g1"}
    assert (bt.synthesis.method, bt.synthesis.beam, bt.synthesis.delete, bt.synthesis.kept) == ("beam", 1, None, 6)
    assert (bt.mix.real, bt.mix.real_copies, bt.mix.synthetic, bt.mix.tag) == (1, 3, 6, TAG)
    assert bt.mix.sha256 == hashlib.sha256(mixed.read_bytes()).hexdigest()
    assert [(a.run, a.this, a.reference) for a in bt.arms] == [("zh-en", False, True), ("sample", False, False),
                                                                ("greedy", True, False)]  # the reference once
    assert bt.arms[-1].newer.gain == 1.3 and (bt.beam, bt.newer_pairs) == (4, 2644)
    assert log.real_pairs == 1 and TrainingLog.from_dict({"train_pairs": 9}).real_pairs == 9


def test_recording_refuses_arms_scored_apart_and_a_run_the_arms_lack(tmp_path):
    pool, synthetic, mixed, arms = data_step_logs(tmp_path)
    with pytest.raises(ValueError, match="--this"):
        entry(pool, synthetic, mixed, arms, "zh-en-bt")
    other = json.loads(arms[1].read_text())
    arms[1].write_text(json.dumps({**other, "beam": 1}))
    with pytest.raises(ValueError, match="different beams"):
        entry(pool, synthetic, mixed, arms, "greedy")


def test_an_arm_scored_later_joins_the_recorded_table_against_the_same_reference_only(tmp_path):
    pool, synthetic, mixed, arms = data_step_logs(tmp_path)
    recorded = entry(pool, synthetic, mixed, arms, "greedy")
    control = tmp_path / "control.json"
    scored = json.loads(arms[0].read_text())
    systems = {"/tmp/before/zh-en": scored["systems"]["/work/main/checkpoints/zh-en"],
               "runs/arms/real-default": {"minutes": 120.0, "steps": 9, "train_pairs": 1,
                                          "newer": {"bleu": 16.9, "chrf": 34.0, "gain": 1.2, "low": 0.5, "high": 1.9}}}
    control.write_text(json.dumps({**scored, "systems": systems}))
    grown = with_arms(recorded, [control])
    rows = grown["scored"]["arms"]
    assert [(a["run"], a["this"], a["reference"]) for a in rows] == [
        ("zh-en", False, True), ("sample", False, False), ("greedy", True, False), ("real-default", False, False)]
    assert rows[-1]["newer"]["gain"] == 1.2 and "everyday" not in rows[-1]
    assert {k: v for k, v in grown.items() if k != "scored"} == {k: v for k, v in recorded.items() if k != "scored"}
    against_shipped = {**scored, "systems": {"/work/main/checkpoints/greedy": systems["/tmp/before/zh-en"],
                                             "runs/arms/real-default": systems["runs/arms/real-default"]}}
    control.write_text(json.dumps(against_shipped))
    with pytest.raises(ValueError, match="another reference"):
        with_arms(recorded, [control])
    control.write_text(json.dumps({**scored, "systems": systems, "beam": 1}))
    with pytest.raises(ValueError, match="another beam"):
        with_arms(recorded, [control])


def test_record_with_arms_alone_adds_them_and_refuses_a_checkpoint_without_an_entry(tmp_path, capsys):
    pool, synthetic, mixed, arms = data_step_logs(tmp_path)
    folder = tmp_path / "zh-en"
    folder.mkdir()
    (folder / "training_log.json").write_text(json.dumps({"train_pairs": 9}))
    with pytest.raises(SystemExit, match="recorded 'backtranslation' entry"):
        backtranslation_main(["record", "--into", str(folder), "--arms", str(arms[0])])
    backtranslation_main(["record", "--into", str(folder), "--pool", str(pool), "--synthetic", str(synthetic),
                          "--mixed", str(mixed), "--arms", str(arms[0]), "--this", "sample"])
    backtranslation_main(["record", "--into", str(folder), "--arms", str(arms[1])])
    runs = [a.run for a in TrainingLog.read(folder).backtranslation.arms]
    assert runs == ["zh-en", "sample", "greedy"]


def test_a_checkpoint_that_replaces_another_keeps_its_arms_and_records_the_shipping_comparison(tmp_path, capsys):
    pool, synthetic, mixed, arms = data_step_logs(tmp_path)
    replaced = tmp_path / "greedy"  # the shipped checkpoint, recorded when it shipped
    replaced.mkdir()
    (replaced / "training_log.json").write_text(json.dumps({"backtranslation": entry(pool, synthetic, mixed, arms,
                                                                                      "greedy")}))
    first = json.loads(arms[1].read_text())["systems"]
    new = {"minutes": 124.0, "steps": 9, "train_pairs": 18, "newer": {"bleu": 17.9, "chrf": 35.4, "gain": 2.2,
                                                                       "low": 1.5, "high": 2.9}}
    vs_first, vs_replaced = tmp_path / "vs-first.json", tmp_path / "vs-replaced.json"
    systems = {"/work/before/zh-en": first["/work/main/checkpoints/zh-en"],
               "/work/ship/greedy": first["runs/arms/greedy"], "runs/arms/greedy100k": new}
    vs_first.write_text(json.dumps({"sets": {"test_unseen": 392, "newer": 2644}, "beam": 4, "systems": systems}))
    against = {"/work/ship/greedy": {**first["runs/arms/greedy"], "newer": {"bleu": 17.0, "chrf": 34.5}},
               "runs/arms/greedy100k": {**new, "newer": {**new["newer"], "gain": 0.9, "low": 0.22, "high": 1.54}}}
    vs_replaced.write_text(json.dumps({"sets": {"test_unseen": 392, "newer": 2644}, "beam": 4, "systems": against}))
    folder = tmp_path / "greedy100k"
    folder.mkdir()
    (folder / "training_log.json").write_text(json.dumps({"train_pairs": 18}))
    record = ["record", "--into", str(folder), "--pool", str(pool), "--synthetic", str(synthetic), "--mixed",
              str(mixed), "--arms", str(vs_first), "--earlier", str(replaced), "--replaced", str(vs_replaced)]
    backtranslation_main(record)
    bt = TrainingLog.read(folder).backtranslation
    assert [(a.run, a.this, a.reference) for a in bt.arms] == [  # the earlier arms first, one reference throughout
        ("zh-en", False, True), ("sample", False, False), ("greedy", False, False), ("greedy100k", True, False)]
    assert bt.arms[-1].newer.gain == 2.2 and "/work" not in (folder / "training_log.json").read_text()
    assert (bt.replaced.run, bt.replaced.newer.gain, bt.replaced.newer.low, bt.replaced.newer.high) == (
        "greedy", 0.9, 0.22, 1.54)
    systems["/work/ship/greedy"] = {**first["runs/arms/greedy"], "newer": {**new["newer"], "bleu": 16.0}}
    vs_first.write_text(json.dumps({"sets": {"test_unseen": 392, "newer": 2644}, "beam": 4, "systems": systems}))
    with pytest.raises(ValueError, match="'greedy' scored"):  # rescored otherwise than the earlier table says
        backtranslation_main(record)
    systems["/work/ship/greedy"] = first["runs/arms/greedy"]
    vs_first.write_text(json.dumps({"sets": {"test_unseen": 392, "newer": 2644}, "beam": 4, "systems": systems}))
    vs_replaced.write_text(json.dumps({"sets": {"test_unseen": 392, "newer": 2644}, "beam": 4, "systems": systems}))
    with pytest.raises(ValueError, match="alone against the model it replaces"):
        backtranslation_main(record)
    real_only = tmp_path / "real-only"  # a checkpoint trained on the real pairs alone has no arms to keep
    real_only.mkdir()
    (real_only / "training_log.json").write_text(json.dumps({"train_pairs": 9}))
    with pytest.raises(SystemExit, match="no recorded 'backtranslation' entry"):
        backtranslation_main([*record[:-4], "--earlier", str(real_only)])
