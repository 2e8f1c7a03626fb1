"""Why √d_k: the page's strings."""

STRINGS: dict[str, str] = {
    # ---- 缩放
    "scaling.title": "为什么要除以 √d_k",
    "scaling.intro": (
        "一个得分是 d_k 个乘积 q_j·k_j 的和。如果 q 和 k 的各个分量相互独立、均值为 0、方差为 1（论文脚注 4 "
        "的假设），每个乘积的方差是 1，总和的方差就是 d_k：向量越长，得分越大。除以 √d_k 后，无论 d_k 多大，"
        "方差都回到 1。"
    ),
    "scaling.tex.when": "当某个权重趋近 1（其余趋近 0）时",
    "scaling.dk": "d_k（每个查询/键向量的维度）",
    "scaling.var.header": "1 · q·k 的方差随 d_k 增长",
    "scaling.var.fig": "得分的方差：每个 d_k 取 {samples} 对随机 q、k（双对数坐标）",
    "scaling.var.axis": "得分的方差",
    "scaling.var.raw": "q·k",
    "scaling.var.scaled": "q·k / √d_k",
    "scaling.var.theory": "理论值：Var = d_k",
    "scaling.var.text": (
        "d_k = {d} 时，q·k 的样本方差为 {raw}（标准差 {std}）；除以 √d_k 之后为 {scaled}。虚线标出所选的 d_k。"
    ),
    "scaling.sat.header": "2 · 得分过大会让 softmax 饱和",
    "scaling.sat.fig": "一个随机查询对 {n} 个随机键，d_k = {d}",
    "scaling.sat.keys": "{n} 个键",
    "scaling.sat.weight": "softmax 权重",
    "scaling.sat.raw": "softmax(q·k)",
    "scaling.sat.scaled": "softmax(q·k / {root})",
    "scaling.sat.text": (
        "不缩放时，这里最大的权重是 {top_raw}；缩放后是 {top_scaled}。对 {trials} 个随机查询取平均，最大权重不缩放时为 "
        "{mean_raw}，缩放后为 {mean_scaled}（完全均匀时为 {uniform}）。饱和的 softmax——一个权重接近 1，其余接近 0——"
        "对得分的变化几乎没有反应：它最大的梯度 w(1 − w) 不缩放时是 {grad_raw}，缩放后是 {grad_scaled}，"
        "所以训练时很难通过它学到东西。拖动 d_k 滑块：d_k 越大，效果越明显。"
    ),
    "scaling.toy.header": "3 · 回到那个经典例子",
    "scaling.toy.text": (
        "经典例子把得分 {a} 和 {b} 除以 {root} = √{d_k}，第一个权重是 {w8}。如果除以它自己向量的 √d_k，即 "
        "√{width} ≈ {root3}，第一个权重会是 {w3}：已经饱和了。所以让这个例子保持在 softmax 有用范围内的，"
        "是借来的 {root}，而不是“除以 √d_k”这条规则。这条规则依赖上面的假设：q 和 k 的各个分量均值为 0、方差为 "
        "1，因此 q·k 的方差是 d_k。这些小整数分量的均方是 {ms}，远不是 1，所以它们的得分远大于 √{width}，"
        "这个论证对它们并不适用。它适用于第 1 节那样的向量：对那些向量，除以 √d_k 正是让 softmax "
        "避开饱和区的原因。"
    ),
    # ---- topics: why embeddings are multiplied by √d_model (scaling page)
    "scaling.tab.dk": "1 · 为什么除以 √d_k",
    "scaling.tab.emb": "2 · 为什么嵌入要乘以 √d_model",
    "scaling.emb.text": (
        "第 1 层读入的是“嵌入 × √d_model + PE”（论文 §3.4；模型也是这样做的）。每一行 PE 的长度都是 "
        "√(d_model/2) = {pe}。发布的模型的源语言嵌入表（{rows} 个词元，不含填充）各行长度的中位数是 {raw}："
        "如果直接相加，它只有 PE 长度的 {ratio_raw} 倍，位置会淹没词义。乘以 √{d} = {root} 后长度为 {scaled}，"
        "是 PE 的 {ratio_scaled} 倍：词义为主，位置是叠加在上面的较小信号。（目标语言嵌入表：{tgt_raw}，缩放后 {tgt_scaled}。）"
    ),
    "scaling.emb.init": (
        "为什么这个因子合适：嵌入表的初始值取自 N(0, 1/d_model)，每行长度约为 1；乘以 √d_model 后每个分量的方差为 1，"
        "和 PE 的正弦余弦同一量级。训练让它们变长了一些，但不多：发布的模型中，源语言嵌入表每行长度的中位数是 {raw}，目标语言表是 {tgt_raw}，而开始时约为 1。嵌入表与输出层共享的模型希望这些行小一些"
        "（行大则 logit 大），这个因子让它们可以保持小。"
    ),
    "scaling.emb.fig": "第 1 层输入中的典型长度（发布的模型）",
    "scaling.emb.bar": "{table}嵌入行的中位数 × {factor}",
    "scaling.emb.source": "源语言",
    "scaling.emb.target": "目标语言",
    "scaling.emb.pe": "PE 行（任何位置）",
    "scaling.emb.length": "长度（欧几里得范数）",
}
