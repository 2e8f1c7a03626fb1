"""Positional encoding: the page's strings."""

STRINGS: dict[str, str] = {
    # ---- 位置编码
    "positional.title": "位置编码",
    "positional.intro": (
        "注意力本身不考虑顺序：把词元打乱，每个词元得到的输出不变，只是跟着一起被打乱。所以在第一层之前，"
        "每个词元的嵌入都要加上一个位置向量 PE(pos)。论文用的是固定的正弦和余弦：第 i 对维度以自己的角频率 "
        "ω_i = 1/10000^(2i/d_model) 旋转，从每 2π ≈ {fast} 个位置转一圈（i = 0），到最后一对（i = d_model/2 − 1）"
        "每 2π·10000^((d_model−2)/d_model) 个位置转一圈：本模型 d_model = {d} 时约为 {slow}。（2π·10000 只是 d_model 很大时的极限。）"
    ),
    "positional.tab.note": "4 · 常见笔误",
    "positional.note.text": (
        "有些学习笔记把余弦写成 cos(pos / 10,000^{{2i+1 / d_model}})，并在 pos = {pos}、d_model = {d} "
        "的示例代码里计算 10000 ** (2 * i + 1 / d_model)。按字面读，指数是 2i + 1/d_model；"
        "按它大概想表达的意思读，是 (2i+1)/d_model。两者都不对。论文中一对正弦和余弦用的是**同一个**指数 "
        "2i/d_model：PE(pos, 2i+1) = cos(pos / 10000^(2i/d_model))。只有这样两者才共享同一个频率，PE(pos + k) "
        "才是 PE(pos) 的一个旋转（见第 2 节）。本模型和本页的每个数字都遵循论文。"
    ),
    "positional.note.eq": "有些笔记的写法：",
    "positional.note.paper": "论文：cos 指数 2i/d",
    "positional.note.literal": "字面写法：2i + 1/d",
    "positional.note.diff": "字面写法 − 想表达的写法",
    "positional.note.parts": (
        "“字面写法”和“想表达的写法”只在第 {dims} 维上不同，相差 {diffs}：保留 4 位小数时两者看起来一样，"
        "所以表里显示 {decimals} 位小数和它们的差。"
    ),
    "positional.note.meant": "想表达的写法：(2i+1)/d",
    "positional.note.table": "d_model = {d} 时的 PE(pos = {pos})（与那段示例代码的尺寸相同），用三种方式计算（列是维度）：",
    "positional.note.rotation": (
        "第 2 节的旋转检验（在 {n} 个位置上 PE(pos+1) = R·PE(pos) 的最大误差）：论文 {paper}；字面写法 "
        "{literal}；想表达的写法 {meant}。余弦换了指数，就不存在这样的旋转。"
    ),
    "positional.tab.matrix": "1 · PE 矩阵",
    "positional.length": "位置数",
    "positional.d_model": "d_model",
    "positional.matrix.model": (
        "默认值就是所选模型自己的尺寸（d_model = {d}，最多 {length} 个位置）。这张表是在本页用 NumPy 算的；"
        "它与模型的 model.sinusoidal_table 相差不超过 {diff}。"
    ),
    "positional.matrix.halves": (
        "这个模型（Marian）把同样的数按另一种顺序存放：先是所有 sin 列，再是所有 cos 列"
        "（PE(pos, 2i) 在第 i 列，PE(pos, 2i+1) 在第 d_model/2 + i 列）。重新排列后，这张表与它的表相差不超过 {diff}。"
        "顺序不改变模型的计算：它的权重就是按这个顺序学出来的。"
    ),
    "positional.matrix.fig": "{length} 个位置 × {d} 个维度的 PE（行 = 位置，列 = 维度）",
    "positional.axis.pos": "位置 pos",
    "positional.axis.dim": "维度（偶数 = sin，奇数 = cos）",
    "positional.axis.pos_a": "位置 a",
    "positional.axis.pos_b": "位置 b",
    "positional.matrix.text": (
        "左边的列逐行变化很快（第 0 对维度每 {fast} 个位置重复一次）：精细的局部位置。右边的列变化很慢"
        "（最后一对大约要 {slow} 个位置才转一圈）：粗略的全局位置。每一行都不一样，所以每个位置都有自己独特的模式。"
    ),
    "positional.curves.header": "选定维度的曲线",
    "positional.curves.pick": "维度",
    "positional.curves.name": "维度 {dim} = {fn}(pos·ω_{i})，周期 {period}",
    "positional.curves.fig": "PE 值随位置的变化（实线 = sin，虚线 = cos）",
    "positional.sim.header": "位置之间的相似度",
    "positional.sim.text": (
        "点积 PE(a)·PE(b) = Σ_i cos((a−b)·ω_i) 只取决于距离 a − b：图中是平行于对角线的条带。"
        "它在对角线上最大（{norm2} = d_model/2），随距离增大而减小。"
    ),
    "positional.sim.fig": "每一对位置的 PE(a)·PE(b)",
    "positional.tab.rot": "2 · 旋转",
    "positional.rot.text": (
        "每一对 (sin, cos) 都是圆上的一个点，每前进一个位置就转过角度 ω_i。前进 k 个位置就转过 kω_i——对每个 pos "
        "都是同一个旋转。所以 PE(pos+k) 是 PE(pos) 的一个固定的线性函数：这正是论文选择正弦函数的理由"
        "（模型可以学会按相对距离去关注）。"
    ),
    "positional.rot.k": "偏移量 k",
    "positional.rot.pos": "位置 pos",
    "positional.rot.pair": "维度对 i",
    "positional.rot.check": (
        "数值验证：对所有位置使用同一组旋转，R_k·PE(pos) 在全部 {n} 个位置、全部 {d} 个维度上都重现了 "
        "PE(pos+{k})；最大误差 {err}。"
    ),
    "positional.rot.fig": "每个位置的第 {pair} 对维度（维度 {a}、{b}）：单位圆上的点",
    "positional.rot.sin": "PE 维度 {a}（sin）",
    "positional.rot.cos": "PE 维度 {b}（cos）",
    "positional.rot.start": "PE(pos)",
    "positional.rot.end": "PE(pos + k)",
    "positional.rot.path": "所有位置",
    "positional.tab.size": "3 · PE 和词嵌入相比",
    "positional.size.text": (
        "PE 和嵌入是相加的，所以两者的大小很重要。每一行 PE 的长度都是 √(d_model/2) = "
        "{pe}（每一对都是单位圆上的点）。模型在加上 PE 之前先把嵌入乘以 √d_model = {root}（论文 §3.4），"
        "免得词的信息被位置淹没。在你的句子上，缩放后嵌入的平均长度是 {emb}。"
    ),
    "positional.size.fig": "每个词元缩放后嵌入的长度，以及它所在位置 PE 的长度",
    "positional.size.tokens": "源语言词元（位置：词元）",
    "positional.size.emb": "‖√d_model · 嵌入‖（×{root}）",
    "positional.size.pe": "‖PE(pos)‖",
    # ---- topics: alternatives and extrapolation (positional page)
    "positional.tab.ext": "5 · 其他位置编码与外推",
    "positional.ext.alternatives": (
        "| | 位置怎样进入模型 | 超过最长的训练句子时 |\n"
        "|---|---|---|\n"
        "| **正弦**（本模型、论文） | 给每个嵌入加上一个固定向量 | 任何位置都有定义，但各层从没学过新位置是什么样子 |\n"
        "| **可学习**（BERT、GPT-2） | 每个位置一个训练出来的向量，加到嵌入上 | 不行：没训练过的位置没有向量 |\n"
        "| **相对位置**（Shaw 等 2018、T5） | 注意力分数里加一个按距离 i − j 学到的项 | 距离被截断或分桶，"
        "远距离共用学到的值 |\n"
        "| **RoPE**（旋转位置编码：LLaMA、Qwen） | 按位置旋转 q 和 k，q·k 对位置的依赖只通过 i − j（仍然取决于 q 和 k 本身） | 比绝对位置好，"
        "但远超训练长度时仍然变差，除非重新缩放角度 |\n"
        "| **ALiBi**（Press 等 2022） | 没有位置向量：每个分数加上惩罚 −m·\\|i − j\\|，m 是每个头固定的斜率，不经学习 | 外推得好：远处的键只是得到更少的注意力 |"
    ),
    "positional.ext.known": (
        "我们模型的位置表有 max_len = {max_len} 个位置：源句最多 {room} 个词元加 </s>。最长的训练句对有 {src} 个源语言"
        "词元和 {tgt} 个目标语言词元，都含结束标记（共 {pairs} 个句对，由 `python -m evaluation.coverage` 统计并写入"
        "训练日志）。正弦和余弦在任何位置都有值，所以模型也能在位置 {src}–{last} 上运行，但训练时那里从没出现过词元。"
    ),
    "positional.ext.unknown": (
        "我们模型的位置表有 max_len = {max_len} 个位置。训练日志没有记录最长的训练句子，所以下面的实验说不出训练过的"
        "位置到哪里为止：在训练数据上运行 `python -m evaluation.coverage --dev DEV.tsv --train TRAIN.tsv` 来记录它。"
    ),
    "positional.ext.try": (
        "现场试一试：你的句子后面接上本应用的示例句子（用模型读入的语言），直到比任何训练句子都长：共 {tokens} 个源语言词元，"
        "其中 {past} 个位于模型训练时从没见过的位置。图中是每个源语言位置得到的交叉注意力：各层各头取平均，再对输出步求和。"
    ),
    "positional.ext.result": (
        "这 {n} 个句子逐句翻译共得到 {parts} 个词元；连在一起时，模型写出 {whole} 个（{coverage} %），"
        "所选词元的平均置信度为 {conf}（只翻译你的句子时为 {conf_one}）。位置 {src} 及以后的源语言位置占这个句子的 "
        "{token_share} %，得到交叉注意力的 {attention_share} %（所有层和头）。"
    ),
    "positional.ext.control": (
        "在训练长度以内做同样的测试：前 {n} 个句子（{tokens} 个词元）连在一起，译出了逐句翻译 {parts} 个词元中的 "
        "{whole} 个（{coverage} %）。Tatoeba 的句对每对只有一句，所以多句连在一起本身就让模型丢掉了不少输出；"
        "两个百分比之间的差距，才是额外的长度带来的。"
    ),
    "positional.ext.fig": "每个源语言位置得到的交叉注意力",
    "positional.ext.alt_header": "编码位置的其他方法",
    "positional.ext.position": "源语言位置（键）",
    "positional.ext.received": "得到的注意力",
    "positional.ext.limit": "最长训练源句：{n}",
    "positional.ext.caption.long": "长句子和模型的翻译：",
}
