"""Transformer 内部：学生的句子逐块走过编码器–解码器。"""

STRINGS: dict[str, str] = {
    "nav.inside": "Transformer 内部",
    "inside.title": "Transformer 内部：你的句子，一块一块地看",
    "inside.intro": (
        "这是《Attention Is All You Need》中的模型：**{enc} 层**编码器读入{source}句子，**{dec} 层**解码器写出{target}句子，"
        "而且每一层解码器都通过交叉注意力读取编码器的输出。每个向量有 d_model = {d} 个数；注意力有 {heads} 个头；"
        "FFN 扩展到 d_ff = {dff}。点击图中的一个模块（或在下方选择），就能看到你的句子在那里的张量。"
        "每个数都来自模型本身，旁边是用检查点的权重重新算出的同一步，以及两者之间的最大差值。"
    ),
    "inside.diagram.title": "编码器–解码器 Transformer：点击一个模块",
    "inside.diagram.click": "点击，在下方打开这个模块",
    "inside.diagram.src_embed": "源语言嵌入 × √d + 位置编码",
    "inside.diagram.tgt_embed": "目标语言嵌入 × √d + 位置编码（右移）",
    "inside.diagram.self_attn": "自注意力",
    "inside.diagram.masked_self_attn": "掩码自注意力",
    "inside.diagram.cross_attn": "交叉注意力",
    "inside.diagram.ffn": "前馈网络",
    "inside.diagram.add_norm": "残差与归一化",
    "inside.diagram.encoder_layer": "编码器第 {n} 层",
    "inside.diagram.decoder_layer": "解码器第 {n} 层",
    "inside.diagram.memory": "编码器输出（送往每一层解码器）",
    "inside.diagram.linear": "线性层：h · E_tgtᵀ（logits）",
    "inside.diagram.softmax": "Softmax → 下一个词元",
    "inside.diagram.tied": "同一个矩阵（权重共享）",
    "inside.memory.note": "这个模块的输出 {shape} 就是**编码器输出**：{dec} 层解码器的交叉注意力都用它来计算各自的键和值。",
    "inside.pick.block": "模块",
    "inside.pick.token": "词元",
    "inside.block.src_embed": "源语言嵌入与位置编码",
    "inside.block.tgt_embed": "目标语言嵌入与位置编码",
    "inside.block.output": "输出：线性投影与 softmax",
    "inside.block.enc": "编码器第 {n} 层 · {part}",
    "inside.block.dec": "解码器第 {n} 层 · {part}",
    "inside.part.enc.self_attn": "自注意力、残差与归一化",
    "inside.part.enc.ffn": "前馈网络、残差与归一化",
    "inside.part.dec.self_attn": "掩码自注意力、残差与归一化",
    "inside.part.dec.cross_attn": "交叉注意力、残差与归一化",
    "inside.part.dec.ffn": "前馈网络、残差与归一化",
    "inside.axis.tokens": "词元",
    "inside.axis.dims": "维度",
    "inside.axis.value": "数值",
    "inside.axis.candidate": "候选的下一个词元",
    "inside.axis.prob": "概率",
    "inside.col.step": "步骤",
    "inside.col.shape": "形状",
    "inside.col.diff": "最大 |重算 − 模型|",
    "inside.col.token": "词元",
    "inside.col.mean_in": "之前的 μ",
    "inside.col.var_in": "之前的 σ²",
    "inside.col.mean_std": "归一化后的 μ",
    "inside.col.var_std": "归一化后的 σ²",
    "inside.col.mean_out": "乘 γ 加 β 后的 μ",
    "inside.col.var_out": "乘 γ 加 β 后的 σ²",
    "inside.col.candidate": "候选",
    "inside.col.logit": "logit",
    "inside.col.prob": "概率（重算）",
    "inside.col.model_prob": "概率（模型）",
    "inside.tensor.input": "x（本层输入）",
    "inside.tensor.self_attn_out": "自注意力输出",
    "inside.tensor.norm1": "第 1 次残差与归一化之后",
    "inside.tensor.cross_attn_out": "交叉注意力输出",
    "inside.tensor.norm2": "第 2 次残差与归一化之后",
    "inside.tensor.ffn_out": "FFN 输出",
    "inside.tensor.output": "本层输出",
    "inside.vec.row": "E 的第 {id} 行",
    "inside.vec.onehot": "one-hot · E",
    "inside.vec.scaled": "× {root}",
    "inside.vec.pe": "位置 {pos} 的位置编码",
    "inside.vec.sum": "× √d + PE（重算）",
    "inside.vec.model_input": "第 1 层的输入（模型）",
    "inside.vec.recomputed": "重算",
    "inside.vec.returned_as": "模型的 {name}",
    "inside.vec.returned": "模型输出",
    "inside.vec.residual": "x + Sublayer(x)",
    "inside.vec.standardised": "标准化后 (v − μ) / √(σ² + ε)",
    "inside.vec.layernorm": "γ ⊙ … + β（重算）",
    "inside.vec.model": "{name}（模型）",
    "inside.panel.scaled": "E[词元] × √d {s}",
    "inside.panel.pe": "位置编码 {s}",
    "inside.panel.input": "和 = 第 1 层的输入 {s}",
    # ---- embeddings
    "inside.embed.text": (
        "嵌入矩阵 E 为 {v} 个词元的词表中的每个词元保存一行 d_model = {d} 个数：E 的形状是 ({v} × {d})。"
        "查找一个词元就是取出它的那一行——与用 one-hot 向量乘以 E 相同。这一行再乘以 √d_model = {root} = {scale}，"
        "加上该位置的位置编码：得到的 {t} 行就是第一层的输入。"
    ),
    "inside.embed.shifted": (
        "解码器的输入是**右移一位**的译文：它以 {first} 开头，每个位置读入的是它要预测的词元之前的那个词元（见输出模块）。"
    ),
    "inside.embed.lookup": (
        "{token} 的编号是 **{id}**。写成 one-hot 向量是 {onehot}：{v} 个数，其中 {ones} 个为 1（在 {id} 处）。"
        "one-hot {onehot} · E {table} = {row}，正是 E 的第 {id} 行（最大差值 {diff}）。"
    ),
    "inside.embed.check": (
        "对全部 {t} 个词元、{d} 个维度重算：one-hot · E 与 E[id] · √d + PE 都与模型第 1 层的输入一致（最大差值 {diff}）。"
    ),
    "inside.embed.fig": "词元的行 × √d、位置编码，以及两者之和（每个词元一行）",
    # ---- attention
    "inside.attn.enc.self_attn": (
        "多头**缩放点积注意力**（论文中的名称）：每个源语言词元（查询）都看每个源语言词元（键、值），"
        "每个头有 {tq} × {tk} 个权重。Q、K、V 都由本层的输入 x 投影而来。"
    ),
    "inside.attn.dec.self_attn": (
        "多头**掩码**缩放点积注意力：解码器位置 i 只能看位置 ≤ i（掩码 M 在后面的位置放上 −∞），"
        "每个头有 {tq} × {tk} 个权重。Q、K、V 来自解码器的输入。"
    ),
    "inside.attn.dec.cross_attn": (
        "交叉注意力（论文称为“编码器–解码器注意力”）：**查询来自解码器**（本层第 1 次残差与归一化的输出），"
        "**键和值来自编码器的输出**——每一层解码器用的都是同一个编码器输出。每个头是 {tq} 个目标语言词元 × {tk} 个源语言词元。"
    ),
    "inside.attn.shapes": (
        "形状：x（宽 {d}）按头投影为 q {q}、k 和 v {k}，其中 d_k = d_model / h = {d} / {h} = {dk}；"
        "每个头的分数 QKᵀ / √d_k（√{dk} = {root}）和 softmax 权重都是 {w}；{h} 个头的输出拼接成 {concat}，"
        "再乘以 W^O：子层的输出是 {out}。"
    ),
    "inside.attn.qkv_link": "用你的句子一步步看一个头的 Q·K·V：“{page}”页面",
    "inside.attn.step.q": "Q = x W_Q + b（按头）",
    "inside.attn.step.k": "K = x W_K + b（按头）",
    "inside.attn.step.v": "V = x W_V + b（按头）",
    "inside.attn.step.weights": "softmax(QKᵀ / √d_k) 权重",
    "inside.attn.step.out": "Concat(各头) W^O + b",
    "inside.attn.check": "重算了每个头的投影、权重和子层输出：最大差值 {diff}。",
    # ---- FFN
    "inside.ffn.text": (
        "逐位置前馈网络对每个词元单独使用同样的两个线性层：d_model = {d} → d_ff = {dff}（加宽到 **{ratio}**）→ {d}，"
        "中间是 **{act}**。x {x} → 隐藏层 {h} → 输出 {x}。"
    ),
    "inside.act.relu": "ReLU，即 max(0, z)（论文所用）",
    "inside.act.swish": "swish，即 z · sigmoid(z)（Marian 所用，而不是论文的 ReLU）",
    "inside.ffn.hidden.relu": "对 {token}，ReLU 把 {dff} 个隐藏维度中的 **{zero} 个**置为 0。",
    "inside.ffn.hidden.swish": "对 {token}，{dff} 个隐藏维度中有 **{negative} 个**为负：swish 让较小的负值通过。",
    "inside.ffn.check": "用 linear1 和 linear2 的权重为每个词元重算 FFN：最大差值 {diff}。",
    # ---- add & norm
    "inside.norm.header": "残差连接与层归一化（Add & Norm）",
    "inside.norm.text": (
        "子层的输出与它的输入**相加**（残差连接），再对和做归一化：LayerNorm({x} + {sub}) = {out}。"
        "LayerNorm 取每个词元自己 d_model 个数的均值 μ 和方差 σ²，再用学到的 γ 和 β（每个维度一对）缩放和平移。"
    ),
    "inside.norm.post": (
        "**后置归一化（post-norm）**——LayerNorm(x + Sublayer(x))——是论文的做法，也是本模型的做法。"
        "后来的许多模型用**前置归一化（pre-norm）**，即 x + Sublayer(LayerNorm(x))，在很深的堆叠中训练更稳定；"
        "那样残差流在各层内部不被归一化——每个子层读取的是归一化后的副本，再把结果加到未归一化的和上——"
        "最后一层之后还有一个 LayerNorm，在输出投影之前对它做归一化。"
    ),
    "inside.norm.stats": "每个词元自身各数的均值 μ 和方差 σ²：归一化之前（x + Sublayer(x)）、之后，以及乘 γ 加 β 之后：",
    "inside.norm.numbers": "{token} 的前几个数，一步一步：",
    "inside.norm.check": "为每个词元重算 LayerNorm(x + Sublayer(x))：最大差值 {diff}。",
    "inside.bn.title": "为什么用 LayerNorm，而不用 BatchNorm？",
    "inside.bn.text": (
        "BatchNorm 对每个维度取**整个批次所有位置**的均值和方差。这里把你的句子（{n} 个词元）"
        "与“{other}”（{m} 个词元）放进同一个批次，较短的一句用零向量补齐（{pad} 个填充位置）。"
        "下面是你的第一个词元的向量用四种方式归一化的结果（不含 γ 和 β）："
    ),
    "inside.bn.ln_alone": "LayerNorm，单独一句",
    "inside.bn.ln_batch": "LayerNorm，在批次中",
    "inside.bn.bn_alone": "BatchNorm，单独一句",
    "inside.bn.bn_batch": "BatchNorm，含填充的批次",
    "inside.bn.bn_real": "BatchNorm，批次中去掉填充",
    "inside.bn.result": (
        "LayerNorm 单独一句和在批次中的结果相同（最大差值 {ln}）：每个词元只用它自己的统计量。"
        "另一句和填充加入批次后，BatchNorm 的结果最多变化 {bn}；去掉填充也仍变化 {real}："
        "你的句子的结果会取决于它和哪些句子分在一批，也取决于毫无意义的填充。"
        "句子长短不一，所以 Transformer 对每个词元单独归一化。推理时 BatchNorm 根本不看当前批次，"
        "而是用**滑动统计量**：训练时对各批次均值和方差的滑动平均——训练批次有填充时也把填充算了进去，"
        "而且只要课堂上输入的句子与训练数据不同，这些统计量就不再贴切。LayerNorm 不保存滑动统计量：训练和推理计算的完全一样。"
    ),
    # ---- output
    "inside.out.text": (
        "最后一层解码器的输出 h {h} 乘以**转置的目标语言嵌入** E_tgtᵀ {e}：输出投影与嵌入共享权重，"
        "不增加参数。结果是 {logits}：在 {t} 个位置上，为 {v} 个词元的词表中每个词元各给一个分数（logit）。"
        "softmax 把每一行变成概率。"
    ),
    "inside.out.bias": "本模型还在 logits 上加一个学到的偏置 b（output_bias）。",
    "inside.out.no_bias": "与论文一样，本模型不在 logits 上加偏置。",
    "inside.out.banned": (
        "在 softmax 之前，搜索永远不会选的 {n} 个词元编号（{ids}：填充和解码器的起始词元，"
        "以及模型规则禁止时的 <unk>）的 logit 被设为 −∞，与搜索时相同：它们的概率为 0。"
        "训练时不这样做：训练的 softmax 覆盖整个词表，模型只是因为目标中从不出现这些词元，才学会给它们很小的概率。"
        "禁用是解码的规则，所以这里的概率会比原始 softmax 的略高一些。"
    ),
    "inside.out.position": "在 {input} 处，模型选择了 **{chosen}**，概率 {prob}（重算）；模型报告的是 {model}。",
    "inside.out.same_top": "重算出的最可能的 {k} 个词元与模型的 {k} 个相同，顺序也相同",
    "inside.out.other_top": "但重算出的最可能的 {k} 个词元与模型的不同",
    "inside.out.check": "对全部 {t} 个位置重算 logits 和 softmax：每个所选词元的概率都与模型一致（最大差值 {diff}）；{top}。",
    "inside.tf.header": "右移：教师强制与自回归解码",
    "inside.tf.text": (
        "解码器的位置 t **读入**的是它要**预测**的词元之前的那个词元。训练时，参考译文右移一位后输入（教师强制）："
        "所有位置一次算完，掩码遮住后面的词元，每个预测都与下一个参考词元比较。以你的句子为例："
    ),
    "inside.tf.position": "位置",
    "inside.tf.input": "读入（解码器输入）",
    "inside.tf.target": "预测（输出）",
    "inside.tf.inference": (
        "推理时没有参考译文：解码是**自回归**的。模型只从 <s> 开始，预测出 {first}，再把它作为下一个输入（{second}），"
        "如此继续，直到预测出 </s>。本页的数来自对模型自己输出的一次前向计算，与逐步解码得到的数相同（“逐步解码”页面会一步步演示）。"
    ),
}
