"""教学页面：Q·K·V、掩码、位置编码、缩放、多头形状、模型结构与训练。"""

STRINGS: dict[str, str] = {
    # ---- 各教学页面共用
    "teach.sentence.caption": "你的句子（在“翻译与注意力探索”页面设置）和模型的译文：",
    "teach.pick.kind": "注意力类型",
    "teach.pick.layer": "层",
    "teach.pick.head": "头",
    "teach.pick.query": "查询词元",
    "teach.axis.keys": "键（被关注的词元）",
    "teach.axis.queries": "查询（发出关注的词元）",
    "teach.masked": "灰色 = 被掩码（−∞）",
    "teach.dims": "第 {a}–{b} 维",
    "teach.sep": "、",
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
    # ---- 位置编码
    "pe.title": "位置编码",
    "pe.intro": (
        "注意力本身不考虑顺序：把词元打乱，每个词元得到的输出不变，只是跟着一起被打乱。所以在第一层之前，"
        "每个词元的嵌入都要加上一个位置向量 PE(pos)。论文用的是固定的正弦和余弦：第 i 对维度以自己的角频率 "
        "ω_i = 1/10000^(2i/d_model) 旋转，从每 2π ≈ {fast} 个位置转一圈（i = 0），到最后一对（i = d_model/2 − 1）"
        "每 2π·10000^((d_model−2)/d_model) 个位置转一圈：本模型 d_model = {d} 时约为 {slow}。（2π·10000 只是 d_model 很大时的极限。）"
    ),
    "pe.tab.note": "4 · 常见笔误",
    "pe.note.text": (
        "有些学习笔记把余弦写成 cos(pos / 10,000^{{2i+1 / d_model}})，并在 pos = {pos}、d_model = {d} "
        "的示例代码里计算 10000 ** (2 * i + 1 / d_model)。按字面读，指数是 2i + 1/d_model；"
        "按它大概想表达的意思读，是 (2i+1)/d_model。两者都不对。论文中一对正弦和余弦用的是**同一个**指数 "
        "2i/d_model：PE(pos, 2i+1) = cos(pos / 10000^(2i/d_model))。只有这样两者才共享同一个频率，PE(pos + k) "
        "才是 PE(pos) 的一个旋转（见第 2 节）。本模型和本页的每个数字都遵循论文。"
    ),
    "pe.note.eq": "有些笔记的写法：",
    "pe.note.paper": "论文：cos 指数 2i/d",
    "pe.note.literal": "字面写法：2i + 1/d",
    "pe.note.diff": "字面写法 − 想表达的写法",
    "pe.note.parts": (
        "“字面写法”和“想表达的写法”只在第 {dims} 维上不同，相差 {diffs}：保留 4 位小数时两者看起来一样，"
        "所以表里显示 {decimals} 位小数和它们的差。"
    ),
    "pe.note.meant": "想表达的写法：(2i+1)/d",
    "pe.note.table": "d_model = {d} 时的 PE(pos = {pos})（与那段示例代码的尺寸相同），用三种方式计算（列是维度）：",
    "pe.note.rotation": (
        "第 2 节的旋转检验（在 {n} 个位置上 PE(pos+1) = R·PE(pos) 的最大误差）：论文 {paper}；字面写法 "
        "{literal}；想表达的写法 {meant}。余弦换了指数，就不存在这样的旋转。"
    ),
    "pe.tab.matrix": "1 · PE 矩阵",
    "pe.length": "位置数",
    "pe.d_model": "d_model",
    "pe.matrix.model": (
        "默认值就是所选模型自己的尺寸（d_model = {d}，最多 {length} 个位置）。这张表是在本页用 NumPy 算的；"
        "它与模型的 model.sinusoidal_table 相差不超过 {diff}。"
    ),
    "pe.matrix.halves": (
        "这个模型（Marian）把同样的数按另一种顺序存放：先是所有 sin 列，再是所有 cos 列"
        "（PE(pos, 2i) 在第 i 列，PE(pos, 2i+1) 在第 d_model/2 + i 列）。重新排列后，这张表与它的表相差不超过 {diff}。"
        "顺序不改变模型的计算：它的权重就是按这个顺序学出来的。"
    ),
    "pe.matrix.fig": "{length} 个位置 × {d} 个维度的 PE（行 = 位置，列 = 维度）",
    "pe.axis.pos": "位置 pos",
    "pe.axis.dim": "维度（偶数 = sin，奇数 = cos）",
    "pe.axis.pos_a": "位置 a",
    "pe.axis.pos_b": "位置 b",
    "pe.matrix.text": (
        "左边的列逐行变化很快（第 0 对维度每 {fast} 个位置重复一次）：精细的局部位置。右边的列变化很慢"
        "（最后一对大约要 {slow} 个位置才转一圈）：粗略的全局位置。每一行都不一样，所以每个位置都有自己独特的模式。"
    ),
    "pe.curves.header": "选定维度的曲线",
    "pe.curves.pick": "维度",
    "pe.curves.name": "维度 {dim} = {fn}(pos·ω_{i})，周期 {period}",
    "pe.curves.fig": "PE 值随位置的变化（实线 = sin，虚线 = cos）",
    "pe.sim.header": "位置之间的相似度",
    "pe.sim.text": (
        "点积 PE(a)·PE(b) = Σ_i cos((a−b)·ω_i) 只取决于距离 a − b：图中是平行于对角线的条带。"
        "它在对角线上最大（{norm2} = d_model/2），随距离增大而减小。"
    ),
    "pe.sim.fig": "每一对位置的 PE(a)·PE(b)",
    "pe.tab.rot": "2 · 旋转",
    "pe.rot.text": (
        "每一对 (sin, cos) 都是圆上的一个点，每前进一个位置就转过角度 ω_i。前进 k 个位置就转过 kω_i——对每个 pos "
        "都是同一个旋转。所以 PE(pos+k) 是 PE(pos) 的一个固定的线性函数：这正是论文选择正弦函数的理由"
        "（模型可以学会按相对距离去关注）。"
    ),
    "pe.rot.k": "偏移量 k",
    "pe.rot.pos": "位置 pos",
    "pe.rot.pair": "维度对 i",
    "pe.rot.check": (
        "数值验证：对所有位置使用同一组旋转，R_k·PE(pos) 在全部 {n} 个位置、全部 {d} 个维度上都重现了 "
        "PE(pos+{k})；最大误差 {err}。"
    ),
    "pe.rot.fig": "每个位置的第 {pair} 对维度（维度 {a}、{b}）：单位圆上的点",
    "pe.rot.sin": "PE 维度 {a}（sin）",
    "pe.rot.cos": "PE 维度 {b}（cos）",
    "pe.rot.start": "PE(pos)",
    "pe.rot.end": "PE(pos + k)",
    "pe.rot.path": "所有位置",
    "pe.tab.size": "3 · PE 和词嵌入相比",
    "pe.size.text": (
        "PE 和嵌入是相加的，所以两者的大小很重要。每一行 PE 的长度都是 √(d_model/2) = "
        "{pe}（每一对都是单位圆上的点）。模型在加上 PE 之前先把嵌入乘以 √d_model = {root}（论文 §3.4），"
        "免得词的信息被位置淹没。在你的句子上，缩放后嵌入的平均长度是 {emb}。"
    ),
    "pe.size.fig": "每个词元缩放后嵌入的长度，以及它所在位置 PE 的长度",
    "pe.size.tokens": "源语言词元（位置：词元）",
    "pe.size.emb": "‖√d_model · 嵌入‖（×{root}）",
    "pe.size.pe": "‖PE(pos)‖",
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
    # ---- topics: alternatives and extrapolation (positional page)
    "pe.tab.ext": "5 · 其他位置编码与外推",
    "pe.ext.alternatives": (
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
    "pe.ext.known": (
        "我们模型的位置表有 max_len = {max_len} 个位置：源句最多 {room} 个词元加 </s>。最长的训练句对有 {src} 个源语言"
        "词元和 {tgt} 个目标语言词元，都含结束标记（共 {pairs} 个句对，由 `python -m evaluation.coverage` 统计并写入"
        "训练日志）。正弦和余弦在任何位置都有值，所以模型也能在位置 {src}–{last} 上运行，但训练时那里从没出现过词元。"
    ),
    "pe.ext.unknown": (
        "我们模型的位置表有 max_len = {max_len} 个位置。训练日志没有记录最长的训练句子，所以下面的实验说不出训练过的"
        "位置到哪里为止：在训练数据上运行 `python -m evaluation.coverage --dev DEV.tsv --train TRAIN.tsv` 来记录它。"
    ),
    "pe.ext.try": (
        "现场试一试：你的句子后面接上本应用的示例句子（用模型读入的语言），直到比任何训练句子都长：共 {tokens} 个源语言词元，"
        "其中 {past} 个位于模型训练时从没见过的位置。图中是每个源语言位置得到的交叉注意力：各层各头取平均，再对输出步求和。"
    ),
    "pe.ext.result": (
        "这 {n} 个句子逐句翻译共得到 {parts} 个词元；连在一起时，模型写出 {whole} 个（{coverage} %），"
        "所选词元的平均置信度为 {conf}（只翻译你的句子时为 {conf_one}）。位置 {src} 及以后的源语言位置占这个句子的 "
        "{token_share} %，得到交叉注意力的 {attention_share} %（所有层和头）。"
    ),
    "pe.ext.control": (
        "在训练长度以内做同样的测试：前 {n} 个句子（{tokens} 个词元）连在一起，译出了逐句翻译 {parts} 个词元中的 "
        "{whole} 个（{coverage} %）。Tatoeba 的句对每对只有一句，所以多句连在一起本身就让模型丢掉了不少输出；"
        "两个百分比之间的差距，才是额外的长度带来的。"
    ),
    "pe.ext.fig": "每个源语言位置得到的交叉注意力",
    "pe.ext.alt_header": "编码位置的其他方法",
    "pe.ext.position": "源语言位置（键）",
    "pe.ext.received": "得到的注意力",
    "pe.ext.limit": "最长训练源句：{n}",
    "pe.ext.caption.long": "长句子和模型的翻译：",
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
