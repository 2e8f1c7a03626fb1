"""The model card's prose, one phrasebook per language: writer.py fills the same numbers and tables into either.
English writes README.md, Chinese README.zh.md.

Each entry is a format string; writer.py passes the values (`c` is the ModelConfig). Chinese paragraphs are one
line each: Markdown turns a line break inside a paragraph into a space, which Chinese text does not have.
"""

from __future__ import annotations

import re

EN: dict[str, str] = {
    "title": "# Model card: {name}",
    "intro": (
        "An encoder–decoder Transformer (Vaswani et al., 2017), written from scratch in PyTorch,\n"
        "that translates **English → Chinese (Simplified)**. It returns every attention map it computes."
    ),
    "row.direction": "| direction | English (en) → Chinese (zh, Simplified) |",
    "row.parameters": "| parameters | {params} |",
    "row.shape": (
        "| shape | d_model {c.d_model}, {c.n_heads} heads, {c.n_encoder_layers} encoder + {c.n_decoder_layers} decoder "
        "layers, d_ff {c.d_ff}, max {c.max_len} positions |"
    ),
    "row.vocabularies": (
        "| vocabularies | English BPE {c.src_vocab_size} (word starts marked ▁), Chinese {c.tgt_vocab_size} "
        "(one token per character); both with byte fallback |"
    ),
    "row.weights": "| weights | safetensors, {dtype} (loaded as float32) |",
    "row.integrity": (
        "| integrity | SHA-256 of the weights, config and tokenizers in `sha256sums.txt`, verified on every load |"
    ),
    "row.training": (
        "| training | {hardware}, {precision}; {minutes:.1f} minutes, {steps} steps, {epochs} epochs; "
        "shipped: {shipped} |"
    ),
    "row.recipe": (
        "| recipe | Adam(0.9, 0.98, 1e-9), warm-up {warmup} steps then 1/√step, label smoothing {smoothing}, "
        "dropout {c.dropout} (attention {c.attention_dropout_p}, activation {c.activation_dropout_p}), "
        "token dropout {token_dropout}, ~{max_tokens} tokens per batch |"
    ),
    "dev.header": (
        "## Dev-set scores (`dev.tsv`, {pairs} pairs, references converted to Simplified with OpenCC t2s)"
    ),
    "dev.unseen": (
        "*Unseen* is the part of dev.tsv that is not a near-duplicate of a training pair (no training sentence within\n"
        "one English word of it, no identical Chinese): {unseen} pairs. Tatoeba is "
        "full of one-word\nvariants, so the whole dev set rewards recall of training sentences; the unseen part is "
        "the honest measure\nand the one that selected this checkpoint."
    ),
    "dev.columns": "| decoding | BLEU | chrF | unseen BLEU | unseen chrF |",
    "dev.greedy": "| greedy, {shipped} | {scores} |",
    "dev.beam": "| beam {beam} | {scores} |",
    "signature.bleu": "BLEU signature: `{signature}`  ",
    "signature.chrf": "chrF signature: `{signature}`",
    "test.header": "## Held-out test half ({pairs} pairs, {unseen} unseen)",
    "test.what": (
        "Half of dev.tsv (split by a hash of the English) that no recipe, arm or decoding\n"
        "setting was chosen on. "
    ),
    "test.thresholds_all": (
        "The confidence thresholds, though, were fitted on all {pairs} dev pairs, this half included. "
    ),
    "test.thresholds_selection": "Nor were the confidence thresholds (fitted on {pairs} pairs of the selection half). ",
    "test.untouched": "Nor was this checkpoint: it was trained with `--test-split`.",
    "test.touched": (
        "This checkpoint, trained before the split existed, was chosen on all of dev.tsv (this half included), "
        "which flatters its figure a little; models trained with `--test-split` never see it."
    ),
    "test.beam": "Decoded as the app decodes (beam {beam}).",
    "test.columns": "| | BLEU | chrF | unseen BLEU | unseen chrF |",
    "test.row": "| test half | {scores} |",
    "sweep.header": "## Beam size and length penalty, chosen on dev",
    "sweep.what": (
        "`python -m evaluation.decoding_sweep` decoded the selection half of dev.tsv ({selection} pairs) with\n"
        "every setting below. The best BLEU there (chrF, then the smaller beam, break ties) replaces the default\n"
        "only where it beats it significantly (paired bootstrap resampling, 1,000 samples, {rule}); only then\n"
        "was the test half ({test} pairs) decoded. α is GNMT's length-penalty exponent: a finished hypothesis's\n"
        "log-probability is divided by ((5 + |Y|) / 6)^α."
    ),
    "sweep.columns": "| beam | α | BLEU | chrF |",
    "sweep.greedy": "—",
    "sweep.default_best": "The default the app and the CLI use, beam {beam} with α {alpha}, is also the best here.",
    "sweep.adopted": (
        "The best, beam {beam} with α {alpha}, beats the default (beam {default_beam}, α {default_alpha})\n"
        "significantly (p = {p}): it is the new default."
    ),
    "sweep.rule": "p < 0.05",
    "sweep.rule_shared": "p < {threshold}:\n0.05 shared among the {compared} settings the best was picked from, Bonferroni",
    "sweep.kept": (
        "The best, beam {beam} with α {alpha}, does not beat the default (beam {default_beam}, α {default_alpha})\n"
        "significantly (p = {p}): the default stays."
    ),
    "sweep.no_lead": (
        "The best of the grid, beam {beam} with α {alpha}, scores no higher BLEU than the default (beam {default_beam},\n"
        "α {default_alpha}, decoded on its own): the default stays."
    ),
    "sweep.test_columns": "| on the test half | beam | α | BLEU | chrF |",
    "sweep.test_row": "| {name} | {beam} | {alpha} | {bleu} | {chrf} |",
    "sweep.chosen": "chosen",
    "sweep.default": "the default",
    "sweep.best": "the best on the selection half",
    "budget.group": "- Group {group}: {same}.",
    "budget.minutes": "the same minutes",
    "budget.steps": "the same steps (not the same minutes)",
    "budget.unequal": "**not** the same budget: {runs}; compare its rows with that in mind",
    "budget.run": "{minutes} min / {steps} steps",
    "budget.versus": " vs ",
    "study.header": "## Recipe study",
    "study.intro": (
        "All rows decoded the same way (greedy). Rows with *test* scores were scored on the selection half of\n"
        "dev.tsv (dev columns) and on the held-out test half (test columns); the others on all of dev.tsv.\n"
        "*Δ unseen* compares each with its group's first run. Budgets:"
    ),
    "study.columns": (
        "| group | run | recipe (vs. the group's first run) | minutes | steps | hardware | dev BLEU | dev chrF "
        "| unseen BLEU | unseen chrF | test BLEU | test chrF | test unseen BLEU | Δ unseen BLEU | verdict |"
    ),
    "verdict.reference": "reference",
    "verdict.helped": "helped",
    "verdict.hurt": "hurt",
    "verdict.unclear": "no clear effect",
    "findings.untranslated": "These findings are in English only:",  # never needed: the findings are English
    "rounding": (
        "The study's greedy BLEU of {name} ({study}) differs from its training log's ({log}) for\n"
        "one reason: the log scored the float32 weights in memory; the study decodes the shipped file, whose\n"
        "weights were rounded to float16 when saved (and are loaded back as float32). No bf16 is involved in\n"
        "either decoding; bf16 autocast is used only for training steps."
    ),
    "data.header": "## Training data",
    "data.text": (
        "English–Chinese sentence pairs from **Tatoeba (tatoeba.org), CC-BY 2.0 FR**, as compiled by\n"
        "ManyThings.org (`cmn.txt`): {train} training pairs, {dev} dev pairs. The Chinese side was\n"
        "normalised to Simplified characters with OpenCC (t2s). The data is not shipped with this model."
    ),
    "dictionary": (
        "Also trained on pairs derived from **CC-CEDICT** (https://cc-cedict.org, MDBG; **CC BY-SA 4.0**): up to\n"
        "{words} English–Chinese word pairs and {names} Tatoeba sentences with names swapped for CC-CEDICT\n"
        "names or invented ones. These weights are adapted from CC BY-SA material:\n"
        "share them under CC BY-SA 4.0 (https://creativecommons.org/licenses/by-sa/4.0/), crediting CC-CEDICT\n"
        "and Tatoeba."
    ),
    "names.header": "## Names it never learned",
    "names.what": (
        "Tatoeba's pairs hold thousands of sentences with Tom and Mary but few other names, and training on\n"
        "name-swapped sentences did not teach the model to write a new one (study groups 3–5: 0 of 20 kept). So the\n"
        "translator does what translation systems do with placeholders: a capitalised\n"
        "word its source vocabulary splits into pieces, unless it is an English word of CC-CEDICT's glosses where\n"
        "capitals say nothing (a sentence's start, a title) or a whole proper gloss (\"Kyoto\"), is read as a name\n"
        "the model knows (Tom, Mary, John), and that name's Chinese in the output is replaced by the typed name:\n"
        "CC-CEDICT's transliteration for its 504 given names (Alice → 爱丽丝), else the name in Latin letters, as\n"
        "Chinese text often writes foreign names. Where the model does not write the carrier back exactly, the\n"
        "sentence is translated as typed. The attention maps show the sentence the model read, and the app says which\n"
        "names it swapped. The same weights, decoded both ways (beam {beam}):"
    ),
    "names.columns": (
        "| decoding | test BLEU | test chrF | test unseen BLEU | test unseen chrF | selection BLEU "
        "| selection unseen BLEU | classroom BLEU | classroom chrF | names kept |"
    ),
    "names.as_typed": "read as typed",
    "names.names_read_as": "names read as known ones",
    "names.caveat": (
        "{swapped} of dev.tsv's sentences had a name swapped. The rules were shaped while reading the results of\n"
        "`evaluation/names.tsv` and the swapped sentences of both dev halves (an earlier rule copied \"Kyoto\" and\n"
        "\"Saturdays\" instead of translating them), so neither is untouched by this choice. The name table and the\n"
        "word list (`model/translation/cedict_names.tsv`, `cedict_english_words.txt`) derive from **CC-CEDICT**\n"
        "(https://cc-cedict.org, MDBG; **CC BY-SA 4.0**) and are shared under the same licence; the weights were\n"
        "not trained on them."
    ),
    "limits.header": "## Limits",
    "limits.text": (
        "Tatoeba holds short everyday sentences; long, technical or literary input translates poorly.\n"
        "This is a teaching model: its purpose is to show attention, not to compete with production MT."
    ),
    "retraining.header": "## Retraining",
}

ZH: dict[str, str] = {
    "title": "# 模型卡：{name}",
    "intro": (
        "一个编码器–解码器 Transformer（Vaswani 等，2017），用 PyTorch 从零写成，把**英文译成中文（简体）**。"
        "它返回自己计算的每一张注意力图。"
    ),
    "row.direction": "| 翻译方向 | 英文（en）→ 中文（zh，简体） |",
    "row.parameters": "| 参数量 | {params} |",
    "row.shape": (
        "| 形状 | d_model {c.d_model}，{c.n_heads} 个头，编码器 {c.n_encoder_layers} 层 + 解码器 {c.n_decoder_layers} 层，"
        "d_ff {c.d_ff}，最多 {c.max_len} 个位置 |"
    ),
    "row.vocabularies": (
        "| 词表 | 英文 BPE {c.src_vocab_size} 个词元（词首标记为 ▁），中文 {c.tgt_vocab_size} 个词元（每个汉字一个词元）；"
        "两者都有字节回退 |"
    ),
    "row.weights": "| 权重 | safetensors，{dtype}（加载为 float32） |",
    "row.integrity": "| 完整性 | 权重、配置和分词器的 SHA-256 记在 `sha256sums.txt` 中，每次加载都会校验 |",
    "row.training": (
        "| 训练 | {hardware}，{precision}；{minutes:.1f} 分钟，{steps} 步，{epochs} 轮；发布的权重：{shipped} |"
    ),
    "row.recipe": (
        "| 训练配方 | Adam(0.9, 0.98, 1e-9)，预热 {warmup} 步，之后按 1/√step 衰减，标签平滑 {smoothing}，"
        "dropout {c.dropout}（注意力 {c.attention_dropout_p}，激活 {c.activation_dropout_p}），"
        "词元 dropout {token_dropout}，每批约 {max_tokens} 个词元 |"
    ),
    "dev.header": "## 开发集分数（`dev.tsv`，{pairs} 个句对，参考译文用 OpenCC t2s 转为简体）",
    "dev.unseen": (
        "*未见*部分是 dev.tsv 中与训练句对都不近似重复的句对（没有哪个训练句子与它只差一个英文单词以内，也没有相同的中文）："
        "{unseen} 个句对。Tatoeba 里满是只差一个词的变体，所以整个开发集奖励的是"
        "对训练句子的记忆；未见部分才是诚实的衡量，这个检查点也是按它选出的。"
    ),
    "dev.columns": "| 解码方式 | BLEU | chrF | 未见 BLEU | 未见 chrF |",
    "dev.greedy": "| 贪心，{shipped} | {scores} |",
    "dev.beam": "| 束搜索，束宽 {beam} | {scores} |",
    "signature.bleu": "BLEU 签名：`{signature}`  ",
    "signature.chrf": "chrF 签名：`{signature}`",
    "test.header": "## 留出测试半集（{pairs} 个句对，其中 {unseen} 个未见）",
    "test.what": "dev.tsv 的一半（按英文句子的哈希划分），没有任何配方、对比方案或解码设置是据它选出的。",
    "test.thresholds_all": (
        "置信度阈值则不然：它们是在全部 {pairs} 个开发集句对（包括这一半）上拟合的。"
    ),
    "test.thresholds_selection": "置信度阈值也不是（在选择半集的 {pairs} 个句对上拟合）。",
    "test.untouched": "这个检查点也不是：它是用 `--test-split` 训练的。",
    "test.touched": (
        "这个检查点训练于这种划分出现之前，是在整个 dev.tsv（包括这一半）上选出的，所以它在这里的分数略微偏高；"
        "用 `--test-split` 训练的模型从不接触这一半。"
    ),
    "test.beam": "解码方式与应用相同（束宽 {beam}）。",
    "test.columns": "| | BLEU | chrF | 未见 BLEU | 未见 chrF |",
    "test.row": "| 测试半集 | {scores} |",
    "sweep.header": "## 束宽与长度惩罚：在 dev 上选出",
    "sweep.what": (
        "`python -m evaluation.decoding_sweep` 用下表的每种设置解码 dev.tsv 的选择半集（{selection} 个句对）。"
        "那里 BLEU 最高的设置（相同时先比 chrF，再取较小的束宽）只有在显著胜过默认设置时才取代它"
        "（配对自助重采样，1,000 次，{rule}）；之后才解码测试半集（{test} 个句对）。"
        "α 是 GNMT 长度惩罚的指数：已完成假设的对数概率除以 ((5 + |Y|) / 6)^α。"
    ),
    "sweep.columns": "| 束宽 | α | BLEU | chrF |",
    "sweep.greedy": "—",
    "sweep.default_best": "应用和命令行使用的默认设置（束宽 {beam}，α {alpha}）在这里也是最好的。",
    "sweep.adopted": "最好的设置（束宽 {beam}，α {alpha}）显著胜过默认设置（束宽 {default_beam}，α {default_alpha}）（p = {p}）：它成为新的默认设置。",
    "sweep.rule": "p < 0.05",
    "sweep.rule_shared": "p < {threshold}：0.05 由最好的设置所出自的 {compared} 种设置分摊，即 Bonferroni 校正",
    "sweep.kept": "最好的设置（束宽 {beam}，α {alpha}）没有显著胜过默认设置（束宽 {default_beam}，α {default_alpha}）（p = {p}）：保留默认设置。",
    "sweep.no_lead": "网格里最好的设置（束宽 {beam}，α {alpha}）的 BLEU 不高于默认设置（束宽 {default_beam}，α {default_alpha}，单独解码）：保留默认设置。",
    "sweep.test_columns": "| 测试半集上 | 束宽 | α | BLEU | chrF |",
    "sweep.test_row": "| {name} | {beam} | {alpha} | {bleu} | {chrf} |",
    "sweep.chosen": "选出的设置",
    "sweep.default": "默认设置",
    "sweep.best": "选择半集上最好的设置",
    "budget.group": "- 第 {group} 组：{same}。",
    "budget.minutes": "分钟数相同",
    "budget.steps": "步数相同（分钟数不同）",
    "budget.unequal": "预算**不**相同：{runs}；比较这一组的各行时请记住这一点",
    "budget.run": "{minutes} 分钟 / {steps} 步",
    "budget.versus": " 对 ",
    "study.header": "## 训练配方研究",
    "study.intro": (
        "所有行的解码方式相同（贪心）。有*测试*分数的行分别在 dev.tsv 的选择半集（开发集各列）和留出测试半集"
        "（测试各列）上评分；其余行在整个 dev.tsv 上评分。*Δ 未见*把每一行与本组的第一个运行相比。预算："
    ),
    "study.columns": (
        "| 组 | 运行 | 配方（与本组第一个运行相比） | 分钟 | 步数 | 硬件 | 开发集 BLEU | 开发集 chrF "
        "| 未见 BLEU | 未见 chrF | 测试 BLEU | 测试 chrF | 测试未见 BLEU | Δ 未见 BLEU | 结论 |"
    ),
    "verdict.reference": "参照",
    "verdict.helped": "有益",
    "verdict.hurt": "有害",
    "verdict.unclear": "无明显影响",
    "findings.untranslated": "以下结论只有英文原文（研究没有记录它们的中文版）：",
    "rounding": (
        "研究中 {name} 的贪心 BLEU（{study}）与其训练日志中的（{log}）不同，原因只有一个：日志评分的是内存中的 float32 权重；"
        "研究解码的是发布的文件，其权重在保存时舍入为 float16（加载时再转回 float32）。两种解码都不涉及 bf16；"
        "bf16 autocast 只用于训练步。"
    ),
    "data.header": "## 训练数据",
    "data.text": (
        "英中句对来自 **Tatoeba（tatoeba.org），CC-BY 2.0 FR**，由 ManyThings.org 整理（`cmn.txt`）：{train} 个训练句对，"
        "{dev} 个开发句对。中文一侧用 OpenCC（t2s）统一转为简体字。本模型不附带这些数据。"
    ),
    "dictionary": (
        "还用从 **CC-CEDICT**（<https://cc-cedict.org>，MDBG；**CC BY-SA 4.0**）派生的句对训练：最多 {words} 个英中词对，"
        "以及 {names} 个 Tatoeba 句子，其中的人名换成了 CC-CEDICT 里的人名或编造的人名。"
        "这些权重改编自 CC BY-SA 材料：请按 CC BY-SA 4.0（<https://creativecommons.org/licenses/by-sa/4.0/>）共享，"
        "并注明 CC-CEDICT 和 Tatoeba。"
    ),
    "names.header": "## 没学过的名字",
    "names.what": (
        "Tatoeba 的句对里有成千上万句带 Tom 和 Mary，其他名字却很少；用替换了名字的句子训练也没能教会模型写出新名字（研究第 3–5 组：20 个名字保住 0 个）。所以翻译器采用翻译系统处理占位符的做法：源语言词表要拆成几块的大写词，除非它是 CC-CEDICT 释义里的英文词且所在位置本来就大写（句首、标题），或是一条完整的专名释义（“Kyoto”），就当作名字，换成模型认识的名字（Tom、Mary、John）来读，再把译文里这个名字的中文换回输入的名字：CC-CEDICT 收录的 504 个人名用它的音译（Alice → 爱丽丝），其余保留拉丁字母，正如中文文本常写外国名字那样。模型没把替身名字原样写出时，就按输入原样翻译。注意力图显示模型实际读到的句子，应用也会说明换了哪些名字。同一份权重，两种读法（束宽 {beam}）："
    ),
    "names.columns": (
        "| 解码 | 测试 BLEU | 测试 chrF | 测试未见 BLEU | 测试未见 chrF | 选择半集 BLEU "
        "| 选择半集未见 BLEU | 课堂 BLEU | 课堂 chrF | 保住的名字 |"
    ),
    "names.as_typed": "按输入原样读",
    "names.names_read_as": "名字换成认识的来读",
    "names.caveat": (
        "dev.tsv 中有 {swapped} 句换了名字。这些规则是一边看 `evaluation/names.tsv` 的结果和两个 dev 半集里换了名字的句子一边定下的（早先的规则把“Kyoto”和“Saturdays”原样照抄而没有翻译），所以这两者对这个选择都不算未经触碰。人名表和词表（`model/translation/cedict_names.tsv`、`cedict_english_words.txt`）派生自 **CC-CEDICT**（<https://cc-cedict.org>，MDBG；**CC BY-SA 4.0**），按同一许可共享；权重并未用它们训练。"
    ),
    "limits.header": "## 局限",
    "limits.text": (
        "Tatoeba 收录的是简短的日常句子；长句、技术性或文学性的输入翻译得很差。这是一个教学模型：它的目的是展示注意力，"
        "而不是与生产级机器翻译竞争。"
    ),
    "retraining.header": "## 重新训练",
}

# A Chinese → English model's card: the entries that name the direction, over the phrasebook of its language.
EN_ZH_EN: dict[str, str] = {
    "intro": (
        "An encoder–decoder Transformer (Vaswani et al., 2017), written from scratch in PyTorch,\n"
        "that translates **Chinese → English**. It returns every attention map it computes."
    ),
    "row.direction": "| direction | Chinese (zh, Simplified) → English (en) |",
    "row.vocabularies": (
        "| vocabularies | Chinese {c.src_vocab_size} (one token per character), English BPE {c.tgt_vocab_size} "
        "(word starts marked ▁); both with byte fallback |"
    ),
    "dev.header": (
        "## Dev-set scores (the {pairs} pairs of `dev.tsv` training read, turned round; Chinese sources normalised as "
        "the translator normalises input: NFKC, then OpenCC t2s)"
    ),
    "limits.text": (
        "Tatoeba holds short everyday sentences; long, technical or literary input translates poorly. Names\n"
        "written in Chinese characters are often lost{example}: the name placeholders of the model reading English\n"
        "read English names only.\n"
        "This is a teaching model: its purpose is to show attention, not to compete with production MT."
    ),
    "limits.example": " (in the classroom sentences, {source} came out as \"{translation}\")",
    "data.text": (
        "English–Chinese sentence pairs from **Tatoeba (tatoeba.org), CC-BY 2.0 FR**, as compiled by\n"
        "ManyThings.org (`cmn.txt`), read Chinese first: {train} training pairs, {dev} dev pairs. The Chinese side\n"
        "was normalised to Simplified characters with OpenCC (t2s), as typed input is. The data is not shipped with\n"
        "this model."
    ),
}
ZH_ZH_EN: dict[str, str] = {
    "intro": (
        "一个编码器–解码器 Transformer（Vaswani 等，2017），用 PyTorch 从零写成，把**中文译成英文**。"
        "它返回自己计算的每一张注意力图。"
    ),
    "row.direction": "| 翻译方向 | 中文（zh，简体）→ 英文（en） |",
    "row.vocabularies": (
        "| 词表 | 中文 {c.src_vocab_size} 个词元（每个汉字一个词元），英文 BPE {c.tgt_vocab_size} 个词元（词首标记为 ▁）；"
        "两者都有字节回退 |"
    ),
    "dev.header": (
        "## 开发集分数（训练时读取的 `dev.tsv` 中 {pairs} 个句对，反过来用；中文源句按翻译器处理输入的方式规范化：NFKC，再用 OpenCC t2s）"
    ),
    "limits.text": (
        "Tatoeba 收录的是简短的日常句子；长句、技术性或文学性的输入翻译得很差。用汉字写的名字常常丢失{example}："
        "英译中模型的人名占位办法只适用于英文名字。这是一个教学模型：它的目的是展示注意力，而不是与生产级机器翻译竞争。"
    ),
    "limits.example": "（在课堂句子中，“{source}”译成了“{translation}”）",
    "data.text": (
        "英中句对来自 **Tatoeba（tatoeba.org），CC-BY 2.0 FR**，由 ManyThings.org 整理（`cmn.txt`），以中文为源语言："
        "{train} 个训练句对，{dev} 个开发句对。中文一侧用 OpenCC（t2s）统一转为简体字，输入的句子也这样处理。本模型不附带这些数据。"
    ),
}
EN_ZH_EN["everyday.what"] = (
    "`python -m evaluation.everyday` translated `evaluation/classroom_zh.tsv`: the classroom set turned round,\n"
    "50 Chinese sentences as a 中文 teacher types them, never trained on and never used for a choice (beam {beam})."
)
ZH_ZH_EN["everyday.what"] = (
    "`python -m evaluation.everyday` 翻译了 `evaluation/classroom_zh.tsv`：把课堂句子集反过来用，"
    "是中文老师会输入的 50 个中文句子，从未用于训练，也从未用来做任何选择（束宽 {beam}）。"
)
EN.update({
    "everyday.header": "## Everyday sentences",
    "everyday.what": (
        "`python -m evaluation.everyday` translated `evaluation/classroom.tsv`: 50 sentences a teacher types in\n"
        "a first lesson, with our own references, never trained on and never used for a choice (beam {beam})."
    ),
    "everyday.columns": "| BLEU | chrF | exactly the reference |",
    "everyday.row": "| {bleu} | {chrf} | {exact} of {sentences} |",
})
ZH.update({
    "everyday.header": "## 日常句子",
    "everyday.what": (
        "`python -m evaluation.everyday` 翻译了 `evaluation/classroom.tsv`：老师第一堂课会输入的 50 个句子，"
        "参考译文是我们自己写的，从未用于训练，也从未用来做任何选择（束宽 {beam}）。"
    ),
    "everyday.columns": "| BLEU | chrF | 与参考译文完全相同 |",
    "everyday.row": "| {bleu} | {chrf} | {sentences} 句中 {exact} 句 |",
})

PHRASEBOOKS = {"en": EN, "zh": ZH, "en/zh-en": {**EN, **EN_ZH_EN}, "zh/zh-en": {**ZH, **ZH_ZH_EN}}


def phrasebook_key(language: str, source_language: str) -> str:
    """Which phrasebook writes a card in `language` for a model reading `source_language`."""
    return language if source_language == "en" else f"{language}/zh-en"

# What the training log says in words (model/training/train.py and study.py write them in English), as each
# language writes it: (pattern, replacement) applied in order; run names, GPU names and recipes stay as written.
LOG_WORDS: dict[str, tuple[tuple[str, str], ...]] = {
    "en": (),
    "zh": (
        (r"^average of the weights of epochs (\d+)–(\d+)$", r"第 \1–\2 轮之后权重的平均"),
        (r"^best evaluation \(step (\d+)\)$", r"最佳评估（第 \1 步）时的权重"),
        (r"^best evaluation$", "最佳评估时的权重"),
        (r"^reference$", "参照"),
        (r"^(\S+) CPU, (\d+) threads?", r"\1 CPU，\2 个线程"),
        (r" × (\d+) processes$", r" × \1 个进程"),
    ),
}


def log_words(text, language: str) -> str:
    """A phrase from the training log (how the weights were chosen, the machine, "reference") in `language`."""
    text = str(text)
    for pattern, replacement in LOG_WORDS[language.split("/")[0]]:
        text = re.sub(pattern, replacement, text)
    return text
