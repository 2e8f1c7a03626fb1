"""Model anatomy: parameters, tied embeddings, dead units: the page's strings."""

STRINGS: dict[str, str] = {
    # ---- 模型结构与训练
    "anatomy.title": "模型结构与训练",
    "anatomy.intro": (
        "所选模型：d_model = H = {d}，{heads} 个头，d_ff = {d_ff}，{enc} 层编码器和 {dec} 层解码器，"
        "词表分别有 {vs} 个{source}词元和 {vt} 个{target}词元。下面的所有数字都由这套配置计算，并与加载的模型核对。"
    ),
    "anatomy.tab.params": "1 · 各部分的参数量",
    "anatomy.col.component": "组成部分",
    "anatomy.col.formula": "公式",
    "anatomy.col.each": "每份",
    "anatomy.col.copies": "份数",
    "anatomy.col.total": "合计（公式）",
    "anatomy.col.model": "模型中实际统计",
    "anatomy.part.src_embed": "源语言嵌入",
    "anatomy.part.tgt_embed": "目标语言嵌入",
    "anatomy.part.tgt_embed_shared": "目标语言嵌入（与源语言共用一张表）",
    "anatomy.part.output_bias": "logits 上的偏置（Marian 的 final_logits_bias）",
    "anatomy.part.output_projection": "输出投影（与目标语言嵌入共享权重）",
    "anatomy.part.positional": "位置编码（固定的正弦函数）",
    "anatomy.part.encoder.self_attn": "编码器自注意力",
    "anatomy.part.encoder.ffn": "编码器前馈网络",
    "anatomy.part.encoder.norms": "编码器层归一化",
    "anatomy.part.decoder.self_attn": "解码器掩码自注意力",
    "anatomy.part.decoder.cross_attn": "解码器交叉注意力",
    "anatomy.part.decoder.ffn": "解码器前馈网络",
    "anatomy.part.decoder.norms": "解码器层归一化",
    "anatomy.params.total": "按公式合计：{formula}。加载的模型中实际统计：{model}。训练时记录：{logged}。",
    "anatomy.params.fig": "各部分的参数量（所有层合计）",
    "anatomy.params.axis": "参数量",
    "anatomy.formula.header": "常见的公式：每层编码器 12H² + 13H",
    "anatomy.tex.attention": "注意力",
    "anatomy.tex.norms": "2 个层归一化",
    "anatomy.tex.decoder": "解码器层",
    "anatomy.tex.cross": "交叉注意力",
    "anatomy.tex.norm3": "第 3 个层归一化",
    "anatomy.formula.text": (
        "常见的统计方法在 d_ff = 4H 的前提下计算一层编码器。本模型 d_ff / H = {ratio}，所以公式适用：H = {h} 时，"
        "12H² + 13H = {formula}；把各部分加起来得到 {layer}；模型第一层编码器实际有 {model} 个参数。"
    ),
    "anatomy.formula.text_other": (
        "常见的统计方法在 d_ff = 4H 的前提下计算一层编码器。本模型 d_ff / H = {ratio}，所以公式不适用：H = {h} 时，"
        "12H² + 13H 会得到 {formula}，而把各部分加起来（前馈网络为 2H·d_ff + d_ff + H）得到 {layer}；"
        "模型第一层编码器实际有 {model} 个参数。"
    ),
    "anatomy.formula.decoder": (
        "解码器每层多了一个交叉注意力（它自己的 W_Q、W_K、W_V、W_O：4H² + 4H）和第三个层归一化（2H）："
        "16H² + 19H = {formula}；由各部分相加得 {layer}；模型第一层解码器实际统计：{model}。"
    ),
    "anatomy.formula.note": (
        "学习笔记里常见的一个错误：把“VH + L(12H² + 13H)”标为“每层 Transformer Block”的参数量，"
        "但这其实是一个共享嵌入、有 L 层的纯解码器模型的总参数量；一个 block 是 12H² + 13H。"
        "像本模型这样的编码器–解码器模型有两个嵌入、L 层 12H² + 13H 的编码器和 L 层 16H² + 19H 的解码器。"
        "和许多实现一样（output_proj = nn.Linear(d_model, V, bias=False)，其权重直接指向嵌入矩阵），"
        "本模型让输出投影与目标语言嵌入共享权重，所以不增加参数。论文在共享词表上三方共享同一个矩阵（源语言嵌入、"
        "目标语言嵌入和输出层）；本模型的{source}和{target}词表是分开的，只能两方共享。"
    ),
    "anatomy.tab.flops": "2 · 你的句子的计算量（FLOPs）",
    "anatomy.flops.text": (
        "对你的句子做一次前向计算——{s} 个源语言词元经过编码器，{t} 个目标语言词元经过解码器——大约需要 {total} "
        "次浮点运算（{mflops} 百万次）。按常用的算法，(m×k)·(k×n) 的矩阵乘法计为 2·m·k·n。对一层编码器，"
        "常用的估计 24SH² + 4S²H 给出 {note}；逐项统计得到 {mine}。"
    ),
    "anatomy.flops.fig": "前向计算量按部分划分（S = {s}，T = {t}）",
    "anatomy.flop.encoder.projections": "编码器：W_Q、W_K、W_V、W_O",
    "anatomy.flop.encoder.scores_and_sum": "编码器：QKᵀ 和权重·V",
    "anatomy.flop.encoder.ffn": "编码器：前馈网络",
    "anatomy.flop.decoder.self_projections": "解码器自注意力：W_Q、W_K、W_V、W_O",
    "anatomy.flop.decoder.self_scores_and_sum": "解码器自注意力：QKᵀ 和权重·V",
    "anatomy.flop.decoder.cross_projections": "交叉注意力：W_Q、W_O（目标语言一侧），W_K、W_V（源语言一侧）",
    "anatomy.flop.decoder.cross_scores_and_sum": "交叉注意力：QKᵀ 和权重·V",
    "anatomy.flop.decoder.ffn": "解码器：前馈网络",
    "anatomy.flop.output_logits": "到词表的输出投影",
    "anatomy.flops.note": (
        "学习笔记里有时把计算 Q、K、V 的次数写成 8BSH²。其实 Q、K、V 只占 6BSH²，另外的 2BSH² 是输出投影 W_O。"
        "每层合计 24BSH² + 4BS²H 是对的。句子较短时 H² 项占主导；只有当 4S²H > 24SH²，即 S > 6H 时，S² "
        "项（注意力图本身）才会占上风。"
    ),
    "anatomy.tab.lr": "3 · 学习率与训练曲线",
    "anatomy.lr.text": (
        "论文的调度方式（§5.3）：前 warmup = {warmup} 步学习率线性增长，之后按 1/√step 下降。本次训练用的是 "
        "factor = {factor}、d_model = {d}：第 {warmup} 步的峰值为 {peak}。圆点是训练过程实际记录的学习率。"
    ),
    "anatomy.lr.fig": "每个训练步的学习率",
    "anatomy.lr.formula": "公式",
    "anatomy.lr.logged": "训练时记录的值",
    "anatomy.lr.warmup": "预热结束（第 {w} 步）",
    "anatomy.axis.step": "训练步数",
    "anatomy.axis.lr": "学习率",
    "anatomy.axis.loss": "损失（每个词元，单位：奈特）",
    "anatomy.axis.score": "开发集上的分数",
    "anatomy.curves.header": "附带检查点的训练曲线",
    "anatomy.curves.missing": "在 {folder} 中没有找到训练日志：检查点有了 training_log.json 之后这里才会显示曲线。",
    "anatomy.curves.text": (
        "在 {hardware} 上训练了 {steps} 步，用时 {minutes} 分钟。单次评估中开发集 BLEU 最高为 {bleu}（chrF {chrf}），"
        "出现在第 {best_step} 步。{shipped}"
    ),
    "anatomy.curves.best": "本应用加载的就是这个检查点。",
    "anatomy.curves.average": (
        "本应用加载的是第 {first}–{last} 轮权重的平均，开发集 BLEU 为 {bleu}（chrF {chrf}）：对最后几轮取平均可以抹平单步训练的噪声。"
    ),
    "anatomy.curves.fig": "损失（左）和开发集分数（右）随训练步数的变化",
    "anatomy.curves.train": "训练损失（含标签平滑）",
    "anatomy.curves.dev": "开发集损失（普通交叉熵）",
    "anatomy.tab.ls": "4 · 标签平滑",
    "anatomy.ls.eps": "ε（标签平滑）",
    "anatomy.ls.fig": "词表只有 {c} 个词、正确答案为 c0 时的目标分布，ε = {eps}",
    "anatomy.ls.classes": "词表条目",
    "anatomy.ls.prob": "目标概率",
    "anatomy.ls.hard": "独热（one-hot）目标",
    "anatomy.ls.smooth": "平滑后的目标",
    "anatomy.ls.text": (
        "训练时不要求正确词元的概率为 1，而是要求 1 − ε + ε/C，并把 ε 平均分给全部 C 个词元，"
        "这样模型就不会被推向无限的自信。这正是 PyTorch 的 cross_entropy(label_smoothing = ε) 的计算方式；"
        "论文用的是 ε = 0.1（§5.4），本次训练用的是 ε = {used}。对真实的{target}词表 C = {v} 个词元、ε = {eps}，"
        "正确词元的目标概率是 {top}，其他每个词元是 {rest}。一个副作用：无论模型多好，"
        "训练损失都不可能低于平滑目标的熵，即每个词元 {floor} 奈特。"
    ),
    # ---- topics: dead ReLU units (anatomy page)
    "anatomy.tab.dead": "5 · 从不激活的 ReLU 单元",
    "anatomy.dead.text": (
        "每个编码器层的 FFN 有 d_ff = {d_ff} 个隐藏单元，max(0, x·W1 + b1)。一个对所有词元都为 0 的单元不会向 W2 "
        "传递任何东西：对这些词元来说，它等于不存在。在你的句子上（{tokens} 个词元），各层从不激活的单元依次有 {dead} 个；"
        "在本应用的 {n} 个示例句子上（用模型读入的语言）（{example_tokens} 个词元）依次有 {example_dead} 个。"
    ),
    "anatomy.dead.dev": (
        "在全部 {sentences} 个开发集句子上（由 `python -m evaluation.coverage` 统计并写入训练日志），编码器各层 FFN "
        "用到的单元依次为 {used} 个（每层 {d_ff} 个）；最后一层用到 {last} 个（{share} %）。"
    ),
    "anatomy.dead.no_dev": (
        "训练日志里还没有开发集上的统计：运行 `python -m evaluation.coverage --dev DEV.tsv --train TRAIN.tsv` 来记录。"
    ),
    "anatomy.dead.note": (
        "一个对任何输入都不激活的单元，梯度无法穿过它的 ReLU，它自己的权重也就不再变化：这就是“死亡 ReLU”。但它不一定永远死去：它前面的层还在训练，它的输入会变，可能重新越过 0 而再次激活。在几个句子上沉默的单元"
        "可能在别的句子上激活，所以短句子上沉默的单元比开发集上多得多。"
    ),
    "anatomy.dead.swish": "这个模型的 FFN 使用 {activation}，它只在 0 处为 0：没有单元会被关掉，所以没有死亡单元可数。",
    "anatomy.dead.fig": "从不激活的 FFN 单元（每层 {d_ff} 个）",
    "anatomy.dead.layer": "编码器层",
    "anatomy.dead.count": "从不激活的单元数",
    "anatomy.dead.sentence": "你的句子",
    "anatomy.dead.examples": "{n} 个示例句子",
    "anatomy.dead.devset": "开发集（{n} 个句子）",
}
