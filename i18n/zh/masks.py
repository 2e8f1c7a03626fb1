"""Masks: padding and causal: the page's strings."""

STRINGS: dict[str, str] = {
    # ---- 掩码
    "masks.title": "掩码：谁可以关注谁",
    "masks.intro": (
        "掩码决定每个查询能不能看每个键。做法是把 M 加到缩放后的得分上：允许关注的位置加 0，"
        "不允许的位置加 −∞。经过 softmax 后 e^−∞ = 0，所以被掩码的键权重恰好为 0，而这一行其余的权重加起来仍然是 1。"
    ),
    "masks.tex.allowed": "可以关注",
    "masks.tex.masked": "被掩码",
    "masks.tab.doc": "1 · 因果：“i have a dream”（{n}×{n}）",
    "masks.doc.text": (
        "在解码器里，一个词元不能看到它后面的词元。翻译时，它们还没有生成出来。训练时它们其实已经存在："
        "整个目标句子一次性输入（教师强制，teacher forcing），位置 t 要预测第 t+1 个词元。如果没有掩码，位置 t "
        "就能看到第 t+1、t+2……个词元，直接把答案抄过来；有了掩码，每个位置只能看到逐步解码时能看到的**位置**。"
        "但这些位置上的**词元**仍然不同：训练输入的是参考译文，解码输入的是模型自己的输出（第 2 节展示两者在哪里分开）。"
        "对 {n} 个词元的句子，这是一个 {n}×{n} 的下三角掩码：查询 i 只能关注键 0…i。"
    ),
    "masks.tab.exposure": "2 · 教师强制：暴露偏差",
    "masks.exposure.text": (
        "掩码让训练和翻译看到相同的位置，而不是相同的词元。\n\n"
        "- 句子：“{english}”\n- 我们的参考译文：{reference}\n- 模型的翻译：**{translation}**\n\n"
        "在第 {step} 步，模型写出了 **{wrote}**，而参考译文是 **{right}**"
        "（模型只给 {right} {ref_prob} 的概率）。从这里开始两者读到的前缀不同：训练输入参考译文 **{train_prefix}**，"
        "此后模型在第 {next} 步会写 {train_top}（{train_top_prob}）；翻译输入模型自己的 **{free_prefix}**"
        "——训练中从没出现过的前缀——它写出 {free_next}。训练只见过正确的前缀；解码却要带着自己的错误往下走。"
        "这个差距叫作**暴露偏差**（exposure bias）；计划采样（scheduled sampling）和序列级训练都是为缩小它而提出的。"
        "逐步对照（◀：前缀开始不同的第一步）："
    ),
    "masks.exposure.none": (
        "教师强制不等于解码：训练输入参考译文的词元，解码输入模型自己的词元。模型对每个示例句子的翻译都和我们的参考译文完全一致，"
        "所以这里没有两者分开的一步。"
    ),
    "masks.exposure.step": "步",
    "masks.exposure.train_reads": "训练时读入",
    "masks.exposure.train_top": "接着会写（概率）",
    "masks.exposure.free_reads": "翻译时读入",
    "masks.exposure.free_writes": "实际写出（概率）",
    "masks.doc.sees": "- **{token}** 能看到：{keys}",
    "masks.toy": "这里的得分只是示意：随机的 q 和 k，d_k = {d}（这个例子不涉及模型）。",
    "masks.stage.mask": "① 掩码 M：0 或 −∞",
    "masks.stage.scores": "② 缩放得分 QKᵀ/√d_k",
    "masks.stage.masked": "③ 得分 + M",
    "masks.stage.weights": "④ softmax：注意力权重",
    "masks.value.mask": "M",
    "masks.value.scores": "得分",
    "masks.value.masked": "得分",
    "masks.value.weights": "权重",
    "masks.rowsums": "④ 中每一行的和：{sums}。被掩码位置上的最大权重：{above}。",
    "masks.zero_vs_inf": (
        "学习笔记里常说掩码是“把灰色的区域用 0 覆盖掉”。这句话对 **softmax 之后的权重**成立，对得分却不成立："
        "如果把“{token}”这一行被遮住的得分设成 0 而不是 −∞，被遮住的键仍然会分到权重（softmax：{zeroed}），"
        "而用 −∞ 得到的是 {proper}。"
    ),
    "masks.tab.live": "3 · 你的句子在解码器中",
    "masks.live.text": (
        "解码器读入 `<s>` 和目前为止的译文（共 {n} 个词元），并在每个位置预测下一个词元。"
        "下面是模型在所选层和头上的真实缩放得分，由本页完成掩码和 softmax。"
    ),
    "masks.live.check": "本页算出的权重与模型返回的注意力一致（最大差值 {diff}）。",
    "masks.tab.pad": "4 · 批次中的填充（padding）",
    "masks.pad.text": (
        "训练时句子按批次处理，而一个批次是一个矩形：较短的句子（{b} 个词元）用 `<pad>` 补齐到较长句子的长度"
        "（{a} 个词元），一共 {width} 列。填充掩码在真实词元处为 True，在 `<pad>` 处为 False：任何查询都不能关注 `<pad>` 键。"
    ),
    "masks.pad.fig": "补齐后的批次（蓝色 = 真实词元，灰色 = <pad>）",
    "masks.pad.sentence": "批次中的句子",
    "masks.pad.position": "位置",
    "masks.pad.real": "真实词元（掩码 = 1）",
    "masks.pad.pad": "<pad>（掩码 = 0）",
    "masks.pad.row": "句子 {i}",
    "masks.pad.index": "填充掩码",
    "masks.pad.pick": "查看批次中的哪个句子",
    "masks.pad.kind": "注意力类型",
    "masks.pad.kind.self": "编码器自注意力",
    "masks.pad.kind.combined": "解码器自注意力（填充 + 因果）",
    "masks.pad.kind.cross": "交叉注意力",
    "masks.self.header": "带填充的编码器自注意力",
    "masks.self.text": (
        "编码器没有因果掩码：每个真实词元都能看到所有真实词元。被掩码的是 `<pad>` "
        "所在的**列**（任何查询都不关注填充）。`<pad>` 所在的行仍然会算出结果，但这些输出从来不会被使用。"
    ),
    "masks.combined.header": "填充 + 因果：解码器的自注意力",
    "masks.combined.text": "解码器用逻辑“与”把两种掩码合起来：一个键只有既不在未来、**又**不是填充时才可见。",
    "masks.cross.header": "交叉注意力：目标语言查询 × 源语言键",
    "masks.cross.text": (
        "交叉注意力中，查询是目标语言词元，键是源语言词元，所以掩码是长方形的（目标长度 × 源长度）。"
        "源句子没有“未来”——整个源句都已知——所以只需要遮住源句的填充。"
    ),
    "masks.convention": (
        "约定并不统一：在本模型中（许多教程的代码也一样），True 表示“可以关注”。而 PyTorch 的 "
        "nn.MultiheadAttention 对布尔掩码的约定正好相反：True 表示“忽略这个键”。许多学习笔记照抄的 The Annotated "
        "Transformer 代码写的是 masked_fill(mask == 0, −1e9)：用一个很大的负数代替 −∞，"
        "得到的权重相同——只有在某一行所有键都被遮住时例外：−1e9 会给出均匀的权重，而 −∞ 会得到 0/0 = NaN；"
        "本模型（以及本页的计算）在这种情况下返回全零的一行。"
    ),
}
