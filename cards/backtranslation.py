"""The model card's section on back-translated pairs (issue 61), in English and Chinese: where the monolingual
sentences came from and under which licence, what was kept out of them so that no test is trained on, how they
were translated and mixed with the real pairs, the arms scored against one reference, this model against the one it
replaced (if it replaced one), and the commands that rebuild the data. Written only for a checkpoint whose log records it (TrainingLog.backtranslation)."""

from __future__ import annotations

from model.loading.training_log import Arm, ArmScore, Backtranslation

LANGUAGES = {"en": {"en": "English", "zh": "Chinese"}, "zh": {"en": "英文", "zh": "中文"}}
DIRECTION = {"en": "en-zh", "zh": "zh-en"}  # the pool's language → the model that translated it

TEXTS = {
    "en": {
        "header": "### Back-translated pairs",
        "what": (
            "Besides the real pairs, {synthetic} synthetic ones: {real} sentences of the Tatoeba-Challenge test sets\n"
            "([{repository}](https://github.com/{repository}), commit `{commit}`, version {version}; Tatoeba\n"
            "sentences, **CC-BY 2.0 FR**, tatoeba.org) translated into {other} by the {model} model ({decoding}),\n"
            "their {other} side marked `{tag}` (tagged back-translation, Caswell et al. 2019). Training read the real\n"
            "pairs {copies} times and the synthetic ones once: {lines} lines."
        ),
        "kept_out": (
            "No test is trained on: out of the pool went every sentence, on its side, of every English–Chinese test\n"
            "file of that repository (every version; among them the newer pairs scored below), of the dev set (both\n"
            "halves) and of the gold alignment's pairs, then what train.tsv already has, then sentences in the\n"
            "wrong script or past the length limit. Compared after NFKC, OpenCC t2s and, for English, case folding:"
        ),
        "steps": "| step | {real} sentences |",
        "kept": (
            "Of {translated} sentences translated, {kept} were kept ({name_lost} lost a carried name, {limit} ran to\n"
            "the length limit, {empty} came out empty or in the wrong script)."
        ),
        "arms": (
            "Every arm, scored by `python -m evaluation.arms` at beam {beam} on the test half's {test} pairs unlike\n"
            "training and on {newer} newer Tatoeba pairs (eng-cmn_Hans {version} less every pair with a side in\n"
            "training); a gain is against the reference row, with the 95 % interval of 1,000 paired resamples:"
        ),
        "columns": "| run | training lines | steps | minutes | test half: BLEU / chrF, gain | newer pairs: BLEU / chrF, gain |",
        "this": "{run} (this model)",
        "reference": "{run} (reference, shipped before)",
        "first": "{run} (reference, shipped first)",
        "replaced_row": "{run} (shipped before this one)",
        "replaced": (
            "Against {run}, the model this one replaced, scored the same way on the same pairs:\n"
            "test half {test}, newer pairs {newer} (BLEU gain, 95 % interval of 1,000 paired\n"
            "resamples). A model replaces the shipped one only when its interval on the newer pairs lies above 0 and\n"
            "the test half does not fall significantly."
        ),
        "rebuild": "The data, rebuilt (outside this repository: it derives from the corpus and is never shipped):",
        "sample": "sampling, seed {seed}",
        "beam-noise": "beam {beam} with noise, seed {seed}",
        "greedy": "greedy",
        "beam": "beam {beam}",
    },
    "zh": {
        "header": "### 回译句对",
        "what": (
            "除真实句对外，还有 {synthetic} 个合成句对：Tatoeba-Challenge 测试集"
            "（[{repository}](https://github.com/{repository})，提交 `{commit}`，版本 {version}；Tatoeba 句子，"
            "**CC-BY 2.0 FR**，tatoeba.org）中的{real}句子，由 {model} 模型译成{other}（{decoding}），"
            "{other}一侧标上 `{tag}`（带标记的回译，Caswell 等 2019）。训练时真实句对读 {copies} 遍，"
            "合成句对读一遍：共 {lines} 行。"
        ),
        "kept_out": (
            "不拿任何测试集训练：从句子池中去掉了该仓库所有英中测试文件（所有版本，包括下面用来评分的较新句对）、"
            "开发集（两半）和人工对齐句对里的每个句子（按各自一侧），再去掉 train.tsv 里已有的，"
            "最后去掉文字不对或超过长度上限的句子。比较前先做 NFKC、OpenCC t2s，英文还忽略大小写："
        ),
        "steps": "| 步骤 | {real}句子数 |",
        "kept": (
            "翻译了 {translated} 个句子，保留 {kept} 个（{name_lost} 个丢了带入的名字，{limit} 个写到长度上限，"
            "{empty} 个为空或文字不对）。"
        ),
        "arms": (
            "所有实验组都由 `python -m evaluation.arms` 以束宽 {beam} 评分：测试半中与训练句对不相似的 {test} 个句对，"
            "以及 {newer} 个较新的 Tatoeba 句对（eng-cmn_Hans {version}，去掉任一侧出现在训练数据中的句对）；"
            "增益相对于参照行，附 1,000 次配对重采样的 95% 区间："
        ),
        "columns": "| 训练运行 | 训练行数 | 步数 | 分钟 | 测试半：BLEU / chrF，增益 | 较新句对：BLEU / chrF，增益 |",
        "this": "{run}（本模型）",
        "reference": "{run}（参照，之前发布的）",
        "first": "{run}（参照，最早发布的）",
        "replaced_row": "{run}（本模型之前发布的）",
        "replaced": (
            "与本模型取代的 {run} 以同样方式在同样句对上比较：测试半 {test}，较新句对 {newer}（BLEU 增益，"
            "1,000 次配对重采样的 95% 区间）。只有当较新句对上的区间高于 0、且测试半没有显著下降时，"
            "新模型才会取代已发布的模型。"
        ),
        "rebuild": "重建这些数据（放在本仓库之外：它们派生自语料库，从不随模型发布）：",
        "sample": "采样，种子 {seed}",
        "beam-noise": "束宽 {beam} 加噪声，种子 {seed}",
        "greedy": "贪心解码",
        "beam": "束宽 {beam}",
    },
}
STEPS_ZH = {
    "lines read (labelled Mandarin / English)": "读入的行（标为普通话 / 英文）",
    "unique after normalisation": "规范化后去重",
    "not in testsets": "不在任何英中测试集中",
    "not in dev": "不在开发集中",
    "not in gold": "不在人工对齐句对中",
    "not in train": "不在 train.tsv 中",
    "in script": "文字正确",
    "within the length limit": "在长度上限之内",
}


def _decoding(bt: Backtranslation, texts: dict) -> str:
    s = bt.synthesis
    if s.method == "beam":
        return texts["greedy"] if s.beam == 1 else texts["beam"].format(beam=s.beam)
    return texts[s.method].format(beam=s.beam, seed=s.seed)


def _gain(score: ArmScore) -> str:
    return f"**{score.gain:+.2f}** [{score.low:.2f}, {score.high:.2f}]".replace("-", "−")


def _score(score: ArmScore) -> str:
    text = f"{score.bleu:.2f} / {score.chrf:.2f}"
    return text if score.gain is None else f"{text}, {_gain(score)}"


def _label(arm: Arm, bt: Backtranslation) -> str:
    replaced = bt.replaced.run if bt.replaced else None
    return ("this" if arm.this else ("first" if replaced else "reference") if arm.reference
            else "replaced_row" if arm.run == replaced else "")


def _arm_row(arm: Arm, bt: Backtranslation, texts: dict) -> str:
    run = texts[label].format(run=arm.run) if (label := _label(arm, bt)) else arm.run
    return (f"| {run} | {arm.train_pairs:,} | {arm.steps:,} | {arm.minutes:.1f} | {_score(arm.test_unseen)} | "
            f"{_score(arm.newer)} |")


def _commands(bt: Backtranslation, mixed: str) -> list[str]:
    s, m = bt.synthesis, bt.mix
    settings = {"sample": f"--top-k {s.top_k} --temperature {s.temperature}", "beam": f"--beam {s.beam}",
                "beam-noise": f"--beam {s.beam} --delete {s.delete} --blank {s.blank} --swap {s.swap}"}[s.method]
    synthetic = f"/work/bt/synthetic/{s.real_language}.{s.method}.seed{s.seed}.tsv"
    return ["```bash",
            "python -m model.training.backtranslation extract --testsets OPUS-MT-testsets",
            f"python -m model.training.backtranslation translate --language {s.real_language} --method {s.method} "
            f"{settings} --seed {s.seed} --limit {s.translated}",
            f"python -m model.training.backtranslation mix --synthetic {synthetic}"
            + (" --tag" if m.tag else "") + f" --real-copies {m.real_copies} --out {mixed}",
            "```"]


def section(bt: Backtranslation | None, language: str, mixed: str) -> list[str]:
    """The card's lines on back-translated pairs in `language` ("en" or "zh"; a direction's phrasebook key such as
    "en/zh-en" reads as its language); [] for a model trained on real pairs alone. `mixed`: the training file."""
    if bt is None:
        return []
    language = language.split("/")[0]
    texts, names = TEXTS[language], LANGUAGES[language]
    real, other = names[bt.synthesis.real_language], names[bt.synthesis.synthetic_language]
    s, m = bt.synthesis, bt.mix
    lines = [texts["header"], "",
             texts["what"].format(synthetic=f"{m.synthetic:,}", real=real, other=other, repository=bt.repository,
                                  commit=bt.commit[:7], version=bt.version, model=DIRECTION[s.real_language],
                                  decoding=_decoding(bt, texts), tag=m.tag, copies=m.real_copies,
                                  lines=f"{m.real * m.real_copies + m.synthetic:,}"), "",
             texts["kept_out"], "", texts["steps"].format(real=real), "| --- | ---: |",
             *(f"| {STEPS_ZH.get(p.step, p.step) if language == 'zh' else p.step} | {p.count:,} |"
               for p in bt.pool_steps), "",
             texts["kept"].format(translated=f"{s.translated:,}", kept=f"{s.kept:,}", name_lost=f"{s.name_lost:,}",
                                  limit=f"{s.ran_to_the_limit:,}", empty=f"{s.empty_or_wrong_script:,}"), ""]
    if bt.arms:
        lines += [texts["arms"].format(beam=bt.beam, test=f"{bt.test_unseen_pairs:,}", newer=f"{bt.newer_pairs:,}",
                                       version=bt.version), "", texts["columns"],
                  "| --- | ---: | ---: | ---: | --- | --- |", *(_arm_row(a, bt, texts) for a in bt.arms), ""]
    if (r := bt.replaced) is not None:
        lines += [texts["replaced"].format(run=r.run, test=_gain(r.test_unseen), newer=_gain(r.newer)), ""]
    return lines + [texts["rebuild"], "", *_commands(bt, mixed), ""]
