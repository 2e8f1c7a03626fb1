"""Multi-head shapes: the page's strings."""

STRINGS: dict[str, str] = {
    # ---- 多头形状
    "multihead.title": "多头注意力：每个张量的形状",
    "multihead.intro": (
        "多头注意力并排运行 h 个注意力。它并不做 h 个全尺寸的投影：而是先投影一次到隐藏维度，把每个向量切成 h 段"
        "（每段 hidden / h 个数），每一段（一个头）各自做注意力，最后把 h 个输出拼回去，再经过输出投影 W^O。"
        "总计算量与一个全维度的注意力相当。"
    ),
    "multihead.tab.doc": "2 · 亲手推演每个形状",
    "multihead.doc.text": (
        "学习笔记里流传的一个例子：批次大小 {batch}，{query_len} 个查询词，{key_len} 个键/值词，隐藏维度 "
        "{hidden}，{heads} 个头。修改这些数字，看每个形状如何变化。"
    ),
    "multihead.in.batch": "批次大小",
    "multihead.in.query_len": "查询的词元数",
    "multihead.in.key_len": "键的词元数",
    "multihead.in.hidden": "隐藏维度",
    "multihead.in.heads": "头数",
    "multihead.width": "{hidden} / {heads} = 每个头 {d} 个数。",
    "multihead.indivisible": (
        "hidden = {hidden} 无法分成 {heads} 个头：{hidden} / {heads} = {ratio} 不是整数。"
        "view(batch, length, heads, hidden / heads) 需要等长的分段（PyTorch 的 nn.MultiheadAttention 也会拒绝这样的尺寸）。"
        "hidden = {hidden} 时可用的头数：{valid}。"
    ),
    "multihead.col.step": "步骤",
    "multihead.col.tensor": "张量",
    "multihead.col.code": "代码",
    "multihead.col.shape": "形状",
    "multihead.step.query_in": "输入的查询",
    "multihead.step.key_in": "输入的键和值",
    "multihead.step.project_q": "投影：Q = query·W_Q",
    "multihead.step.project_kv": "投影：K = key·W_K，V = value·W_V",
    "multihead.step.split_q": "把 Q 切分成多个头",
    "multihead.step.transpose_q": "把“头”这一维移到前面",
    "multihead.step.split_kv": "切分 K 和 V，并把“头”移到前面",
    "multihead.step.scores": "得分：每个头里每个查询 × 每个键",
    "multihead.step.weights": "在键这一维（最后一维）上做 softmax",
    "multihead.step.heads_out": "每个头对 V 加权求和",
    "multihead.step.transpose_back": "把“词”这一维移回前面",
    "multihead.step.concat": "拼接所有头",
    "multihead.step.output": "输出投影 W^O",
    "multihead.why": (
        "**为什么 hidden 必须能被头数整除？** 各个头是同一个向量的不同分段：view() 把长度为 hidden 的最后一维"
        "变形为 (heads, hidden / heads)，只有每个头分到同样多、且是整数个维度时才可行。这也让所有头可以作为一次"
        "批量矩阵乘法一起计算。"
    ),
    "multihead.doc.bugs": (
        "这个例子流传的版本里有两处需要注意的小错误。一个版本对 {hidden} 维的向量构造了 "
        "nn.MultiheadAttention(embed_dim = {bad}, num_heads = 1)；在这里实际运行，PyTorch 会拒绝：它期望的嵌入维度是 {bad}，"
        "得到的却是 {hidden}（英文原文：`{error}`）。"
        "embed_dim 必须是 {hidden}。另外在一个手写的版本里，K、V、Q 的注释把词数写反了：Q 有 {lq} 个词（{q_in} → "
        "{q_heads}），K 和 V 有 {lk} 个（{k_in} → {k_heads}）。"
    ),
    "multihead.tab.live": "1 · 真实模型里的各个头",
    "multihead.live.text": (
        "本模型 d_model = {d_model}，有 {heads} 个头，所以 d_head = {d}。对你的句子，所选的注意力有 {tq} 个查询词元和 "
        "{tk} 个键词元（批次大小 = 1）。"
    ),
    "multihead.live.check": (
        "模型返回的这种注意力形状为 {shape} = （层，头，查询，键）：每层每个头是 {scores}，与表中一致。一个头的 q "
        "是 {q}；所有头并排拼起来就是 {full} 的 Q。"
    ),
    "multihead.live.fig": "第 {layer} 层的 Q：每行一个查询词元，列被切分给各个头",
    "multihead.live.dim": "Q 的维度（d_model）",
    # ---- topics: why several heads (multi-head page)
    "multihead.tab.why": "3 · 为什么要多个头",
    "multihead.why.text": (
        "一个头对一个查询的权重是一行 softmax：一组不小于 0、加起来等于 1 的数。给了一个键多少，其他键就少多少，"
        "所以一个头不能同时给两个键各自几乎全部的权重：它可以一分为二（0.49 和 0.49），但那样每个键只得到一半左右。两个头却能各给一个键几乎全部的权重。在第 {layer} 层（{kind}）里，对同一个查询，"
        "最强的键相距最远的两个头是第 {a} 个头和第 {b} 个头，查询是“{query}”：第 {a} 个头给“{ka}” {wa}，"
        "第 {b} 个头给“{kb}” {wb}。"
    ),
    "multihead.why.average": (
        "它们的平均（灰色）就是单个头想同时顾及这两个键时必须写出的权重：“{ka}” {avg_a}，“{kb}” {avg_b}；"
        "它的输出只能是这两个词元的值混在一起的一份。有了两个头，这一层把两份都完整保留：第 {a} 个头的 {d} 个数"
        "和第 {b} 个头的 {d} 个数在拼接里并排放着，W^O 可以分别使用。"
    ),
    "multihead.why.fig": "第 {layer} 层，查询“{query}”",
    "multihead.why.mean": "两者的平均",
    "multihead.why.weight": "注意力权重",
}
