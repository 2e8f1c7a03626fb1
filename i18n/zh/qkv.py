"""Q·K·V: the worked example and the live walkthrough: the page's strings."""

STRINGS: dict[str, str] = {
    # ---- Q、K、V 逐步计算
    "qkv.title": "Q、K、V：一步一步算注意力",
    "qkv.intro": (
        "注意力给每个词元三个向量：**查询** q（这个词元在找什么）、**键** k（它能向别人提供什么）和**值** "
        "v（它要传递出去的内容）。一个词元的输出是所有值向量的加权混合，权重取决于它的查询与每个键的匹配程度。"
        "先用一个简化的小例子算一遍，再在真实模型和你自己的句子上算一遍。"
    ),
    "qkv.tab.example": "1 · 经典例子：“Thinking Machines”",
    "qkv.example.source": (
        "出自 Jay Alammar 的“The Illustrated Transformer”，许多学习笔记都转述过这个例子：两个单词“Thinking”和"
        "“Machines”，嵌入向量 x₁、x₂ 各有 {n} 个数，权重矩阵 W_Q、W_K、W_V 的大小都是 {n}×{m}。"
    ),
    "qkv.example.chosen": (
        "The Illustrated Transformer 只给出了结果——{results}——从未给出嵌入向量和权重矩阵。"
        "下面这些小整数矩阵是**专门为了精确复现这些结果而挑选的**（在小整数范围内搜索得到）；W_V 可以随便取，"
        "任何 {n}×{m} 矩阵都行。本页其余的每个数字都是由它们计算出来的。"
    ),
    "qkv.step.label": "步骤",
    "qkv.step.project": "① 线性投影",
    "qkv.step.dot": "② 点积",
    "qkv.step.scale": "③ 除以 {root}",
    "qkv.step.softmax": "④ Softmax",
    "qkv.step.sum": "⑤ 加权求和",
    "qkv.project.text": (
        "每个单词的嵌入（x 的一行）分别乘以三个矩阵：q = x·W_Q，k = x·W_K，v = x·W_V。"
        "每个单词都得到自己的 q、k、v，大小都是 1×{m}。"
    ),
    "qkv.dot.text": (
        "“Thinking”应该对每个单词关注多少？用它的查询 q₁ 和每个键做点积。"
        "得分越大，说明这个键越符合查询要找的东西。"
    ),
    "qkv.scale.text": (
        "两个得分都除以 {root}。为什么是 {root}？它是 √d_k，用的是**论文中的 d_k = {d_k}**（d_model = {d_model} "
        "分给 {heads} 个头），而不是这些简化小例子中向量自己的维度 {width}。The Illustrated Transformer "
        "在例子里借用了论文的除数，转述它的学习笔记也照抄了这个 {root}，有的还说这是“工程问题，没什么好解释的”。"
        "其实是有原因的，见“为什么除以 √d_k”页面：如果 q 和 k 的各个分量方差为 1，q·k 的方差就是 d_k，除以 √d_k "
        "可以防止得分把 softmax 推进饱和区。这些小整数并不是这样的向量，所以这个论证决定不了它们该除以多少："
        "这里的 {root} 只是借来的。"
    ),
    "qkv.scale.alt": (
        "如果用简化小例子中向量自己的 d_k = {d}，除数就是 √{d} ≈ {root}：缩放后的得分为 {a} 和 {b}，softmax 结果为 "
        "{wa} 和 {wb}——几乎全部权重都落在一个单词上。"
    ),
    "qkv.softmax.text": (
        "Softmax 把缩放后的得分 {a} 和 {b} 变成为正、且加起来等于 1 的权重。只有它们的差有意义"
        "（{a} − {b} = {diff}），所以第一个权重就是 1 / (1 + e^−{diff})。"
    ),
    "qkv.softmax.rounded": "保留两位小数：**{a}** 和 **{b}**，正是 The Illustrated Transformer 给出的数字。",
    "qkv.sum.text": (
        "“Thinking”的输出 z₁ 是值向量的加权和。本页用的是精确的 softmax 权重 {wa} 和 {wb}；The Illustrated "
        "Transformer 把它们四舍五入成了 {ra} 和 {rb}。"
    ),
    "qkv.fig.sum.title": "加权求和：每个键的权重 × v，按维度叠加；◆ = 它们的和",
    "qkv.fig.dim": "v 的维度",
    "qkv.fig.output": "输出（求和结果）",
    "qkv.fig.dot": "① 与每个键的点积 q·k",
    "qkv.fig.scaled": "② ÷ √d_k = {root}（被掩码的键：−∞）",
    "qkv.fig.weights": "③ softmax：注意力权重（和为 1）",
    "qkv.fig.words": "k₁、k₂：“{a}”和“{b}”的键；q₁ 是“{a}”的查询。",
    "qkv.fig.example.scaled": "② ÷ √d_k = {root}",
    "qkv.fig.example.dot": "① q₁ · k",
    "qkv.fig.example.weights": "③ softmax：权重",
    "qkv.tab.matrix": "2 · 矩阵形式：两个单词一起算",
    "qkv.matrix.text": (
        "把单词按行堆起来：X（{w}×{n}）各做一次矩阵乘法就得到 Q、K、V（{w}×{m}）。QKᵀ 是一张 {w}×{w} 的表，"
        "列出每个查询和每个键的点积（行 = 查询，列 = 键）；第一行就是上面的两个得分。除以 √d_k = {root}，"
        "对每一行做 softmax，再乘以 V：Z 的第 1 行是“Thinking”的 z₁，第 2 行是“Machines”的 z₂。"
    ),
    "qkv.matrix.index": "查询 ↓ · 键 →",
    "qkv.matrix.check": "QKᵀ 的第 1 行是 {a} 和 {b}，Z 的第 1 行与逐步计算得到的 z₁ 相同（最大差值 {diff}）。",
    "qkv.tab.live": "3 · 你的句子，在真实模型上",
    "qkv.live.explain.encoder_self": (
        "**编码器**第 {layer} 层第 {head} 个头：查询、键和值是同一组向量（每个源语言词元一个）的三种投影——在第 "
        "1 层，这组向量是词元的嵌入加上位置编码；在更高的层，是上一层编码器在该位置的输出。每个头处理 d_head = "
        "{d} 个数，所以得分除以 √{d} = {root}。这里没有任何掩码（单个句子没有填充）。"
    ),
    "qkv.live.explain.decoder_self": (
        "**解码器自注意力**第 {layer} 层第 {head} 个头：查询、键和值是解码器每个输入词元（先是 `<s>`，"
        "然后是目前为止的译文）所对应向量的投影——在第 1 层是嵌入加上位置编码，在更高的层是上一层解码器的输出。"
        "得分除以 √{d} = {root}；因果掩码遮住每个后面的词元（softmax 之前置为 −∞）。"
    ),
    "qkv.live.explain.cross": (
        "**交叉注意力**第 {layer} 层第 {head} 个头："
        "查询由解码器中一个目标语言词元的向量投影得到（即本层掩码自注意力经过残差连接和层归一化之后的输出）；"
        "键和值由编码器的最终输出投影得到（每个源语言词元一个向量，解码器的每一层用的都是它）。得分除以 √{d} = "
        "{root}。"
    ),
    "qkv.live.q": "所选词元的查询 q（{d} 个数，由这个头对应的那一段 W_Q 投影得到）：",
    "qkv.live.marian": (
        "q = x·W_Q + b_Q：这个头在投影中的那一段，含偏置。Marian 自己的代码在投影之后立即把 q 乘以 "
        "1/√d_head = {inv}，而不是把分数除以 {root}；得到的权重完全相同（测试把它们与 transformers 的结果比较，误差在 1e-5 以内）。"
    ),
    "qkv.live.kv": "显示这个头的所有键 k 和值 v",
    "qkv.live.table": "对每个键：点积、缩放、掩码（1 = 可以关注）、掩码后得分、softmax——以及模型返回的权重：",
    "qkv.live.col.dot": "q·k",
    "qkv.live.col.scaled": "÷ √d_head",
    "qkv.live.col.allowed": "可关注",
    "qkv.live.col.masked": "掩码后",
    "qkv.live.col.weight": "softmax",
    "qkv.live.col.model": "模型的权重",
    "qkv.live.output": "这个头对该查询的输出：值向量的加权和。",
    "qkv.live.check": (
        "验证：这里重新计算的权重与模型返回的注意力一致——该查询的最大差值为 {diff}，"
        "这个头全部 {n} 个查询的最大差值为 {whole}。"
    ),
}
