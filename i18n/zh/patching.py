"""“哪个头在传递它？”页面：两个句子之间的激活修补、logit 透镜和对比归因。"""

STRINGS: dict[str, str] = {
    "nav.patching": "哪个头在传递它？",
    "patching.title": "哪个头在传递它？",
    "patching.intro": (
        "注意力显示一个头看向哪里；修补检验它传递了什么。翻译一个**干净**句子和一个只差一个词的**被改动**句子。"
        "然后重新运行被改动的句子，每次把一个头的输出（或残差流上的一个点）换成干净运行里的值，看它能把干净的答案"
        "找回多少：0 = 没有作用，1 = 完全恢复干净的答案。"
    ),
    "patching.builtin": "内置句对",
    "patching.clean": "干净句子",
    "patching.corrupt": "被改动的句子",
    "patching.run": "修补",
    "patching.target": "目标词",
    "patching.foil": "对照词",
    "patching.auto": "自动",
    "patching.view": "显示",
    "patching.target_help": "干净译文中的一个词元：指标读取它的 logit。自动：两个译文开始不同的地方。",
    "patching.foil_help": "与目标词比较的词元。自动：被改动的运行在那一步写出的词。",
    "patching.slide_title": "激活修补 · {view} — {clean} / {corrupt}",
    "deck.bad.patching": "某张幻灯片的句对无法修补：{why}",  # a patching slide in a deck (decks.py)
    "patching.view.heads": "注意力头",
    "patching.view.residual": "残差流",
    "patching.view.lens": "Logit 透镜",
    "patching.view.attribution": "归因",
    "patching.clean_line": "**干净**：{sentence} → {translation}",
    "patching.corrupt_line": "**被改动**：{sentence} → {translation}",
    "patching.metric": (
        "指标：第 {step} 个输出位置上的 logit({target}) − logit({foil})，两次运行都输入干净译文到这里为止的部分："
        "干净 {clean}，被改动 {corrupt}。"
    ),
    "patching.unpatched": "两个句子的词元数不同：以下被改动句子的词元在干净句子里没有对应位置，从不修补：{tokens}。",
    "patching.kind.encoder_self": "编码器自注意力",
    "patching.kind.decoder_self": "解码器自注意力",
    "patching.kind.cross": "交叉注意力",
    "patching.side.encoder": "编码器残差流",
    "patching.side.decoder": "解码器残差流",
    "patching.embeddings": "嵌入",
    "patching.layer_n": "第 {n} 层",
    "patching.head_n": "{n}",  # numbers under the axis title 注意力头, as the explanation page numbers its head grids
    "patching.cell.head": "{kind}第 {layer} 层第 {head} 个头",
    "patching.cell.residual": "{side}，{point}，位置 {position}",
    "patching.axis.heads": "注意力头",
    "patching.axis.encoder_positions": "源语言位置（被改动句子的词元）",
    "patching.axis.decoder_positions": "解码器位置（输入：<s> 和到此为止的干净译文）",
    "patching.axis.decoder_layers": "读取其输出的解码器层",
    "patching.axis.steps": "输出位置 → 写出的词元",
    "patching.axis.source": "源语言词元（干净句子）",
    "patching.effect": "作用",
    "patching.hover": "{row} · {column}：作用 {value}",
    "patching.heads.title": "修补一个头（行：层，列：头）",
    "patching.residual.title": "修补残差流上的一个点（行：层，列：位置）",
    "patching.lens.title": "Logit 透镜：每个解码器层概率最高的词元及其概率",
    "patching.attr.contrastive": "为什么是 {target} 而不是 {foil}？",
    "patching.attr.ordinary": "为什么是 {target}？",
    "patching.attr.share": "占 |归因| 总和的比例",
    "patching.caption.heads": (
        "每个格子：重新运行被改动的句子，只把这一个头（所有位置）的输出换成干净运行的值。红色把干净的答案找回来，"
        "蓝色推得更远。点击一个格子或在下面选择它，用这个修补重新翻译被改动的句子。"
    ),
    "patching.caption.residual": (
        "每个格子：被改动的运行里，把某一层、某一位置的残差流换成干净运行的值（因果追踪，Meng 等 2022）。"
        "空白格子在干净句子里没有对应位置。"
    ),
    "patching.caption.lens": "把每个解码器层的输出当作最后一层，经输出投影读取（干净句子）。最后一列就是模型自己的输出。",
    "patching.caption.attribution": (
        "对干净句子各词元的积分梯度：左边是 logit(目标) − logit(对照)（Yin 和 Neubig 2022），右边是目标的对数概率。"
        "每根柱子是它所在图总和的比例。"
    ),
    "patching.limits": "这些图不能说明什么",
    "patching.limit.baseline": "作用取决于被改动的句子：同一个句子换一种改法，起作用的头可能不同。",
    "patching.limit.backup": "各个头的作用不能相加：修补一个头时，其他头可能补偿（备用头）；两个头一起的作用可能大于或小于各自之和。",
    "patching.limit.one_pair": "一个句对只是一个句对：在这里作用很大的头，对别的句子可能毫无作用。先试同一类的多个句对，再说某个头负责某件事。",
    "patching.limit.lens": "Logit 透镜用一个中间层没有为之训练过的投影去读它们，所以较早的层可能知道得比读出来的多（Belrose 等 2023）。",
    "patching.cell_pick": "修补一个格子并重新翻译",
    "patching.cell_none": "不修补",
    "patching.redecode.clean": "**干净**：{translation}",
    "patching.redecode.corrupt": "**被改动**：{translation}",
    "patching.redecode.patched": "**被改动，修补{cell}**：{translation}",
    "patching.guess.question": "你认为是哪个头在传递它？",
    "patching.guess.kind": "类型",
    "patching.guess.layer": "层",
    "patching.guess.head": "头",
    "patching.guess.reveal": "揭晓",
    "patching.guess.toggle": "先猜一猜",
    "patching.guess.toggle_help": "先隐藏注意力头的网格，等你猜出哪个头在传递这个差别。",
    "patching.guess.verdict": "你猜的{guess}作用为 {effect}：在 {n} 个头中排第 {rank}。作用最大的是{best}（{best_effect}）。",
    "patching.download": "CSV",
    "patching.error.identical": "按模型读取的方式，这两个句子完全相同：没有不同之处，也就没有可修补的东西。",
    "patching.error.same_token": "目标词和对照词是同一个词元（{token}）：一个词元的 logit 减去它自己总是 0。请选择被改动的句子会写出的另一个词。",
    "patching.error.no_difference": "两个译文每一步都相同（{translation}）：请在干净译文中选一个要恢复的词元和一个对照词。",
    "patching.error.too_long": "修补只接受每句最多 {limit} 个词元的句子；这一对分别有 {clean} 和 {corrupt} 个。请缩短它们。",
    "patching.error.not_trained_here": "这个页面需要在这里训练的模型（en-zh 或 zh-en）：{checkpoint} 是转换来的 Marian 模型。请在侧边栏选择我们的模型。",
    "patching.error.unknown_token": "{token} 不是这个模型会写出的一个词元：请按显示的样子给出译文中的一个词元（例如 {example}）。",
    "patching.error.target_missing": "干净译文（{translation}）里没有 {token}：目标词必须是它的词元之一。",
    "patching.error.no_effect": "logit 差 {target} − {foil} 在干净和被改动的运行里相同（{diff}）：没有什么可以让修补恢复。请选择别的目标词或对照词。",
    "patching.error.no_cell": "这个模型和句对里没有可修补的 {cell}。",
    "patching.error.input": "这个句子无法翻译：{why}",
    "patching.study.title": "内置小研究（{kind}）：{n} 个句对",
    "patching.study.short.pronoun": "代词",
    "patching.study.short.adjective": "形容词",
    "patching.study.kind.pronoun": "换一个代词",
    "patching.study.kind.adjective": "换一个形容词",
    "patching.study.couples_sep": "、",
    "patching.study.couple": "{target} 对 {foil}",
    "patching.study.title_none": "内置小研究：尚未测量",
    "patching.study.none": "这个模型还没有内置小研究（一个句对只是一个句对）。用 `{command}` 测量。",
    "patching.study.intro": (
        "一个句对上的大作用只说明这一个句对。这里是同一种句对 {kept} 个：{kind}（{couples}）。共试了 {tried} 个，"
        "只保留模型在两个译文分开处写出预期目标词和对照词的句对。每格是一个注意力头在这些句对上的平均作用；把鼠标停在格上可看它在句对上的 "
        "95 % 自助法区间（重抽样 {resamples} 次）。"
    ),
    "patching.study.figure": "{n} 个句对上的平均作用：{kind}",
    "patching.study.colour": "平均作用",
    "patching.study.hover": "{kind}第 {layer} 层第 {head} 个头：{n} 个句对上平均 {mean}，95 % 区间 {low} 到 {high}",
    "patching.study.head": "{head} {mean}（{low} 到 {high}）",
    "patching.study.consistent": "稳定起作用的头（区间不含 0，平均至少 {threshold}）：{heads}。",
    "patching.study.no_consistent": "没有稳定起作用的头：没有哪个头的区间不含 0 且平均至少 {threshold}。",
    "patching.study.empty": "模型没有译对任何一个句对，没有可平均的。",
}
