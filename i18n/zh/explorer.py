"""翻译页、注意力探索器和逐步解码。"""

STRINGS: dict[str, str] = {
    # 翻译页
    "translate.title": "翻译一句话，再看看模型内部",
    "translate.intro": (
        "输入一句英文。本页的 Transformer 是从零开始训练的英译中模型；在译文下方，"
        "你可以打开它在翻译过程中计算出的每一张注意力图。"
    ),
    "translate.input": "英文句子",
    "translate.submit": "翻译",
    "translate.examples": "或者试试这些例句",
    "translate.translation": "译文",
    "translate.details": "检查点 {checkpoint} · 设备 {device} · 束宽 {beam} · 源端 {S} 个词元 · 目标端 {T} 个词元",
    "translate.source_tokens": "源端词元（编码器输入，{n} 个）",
    "translate.target_tokens": "目标端词元（解码器输入，{n} 个）",
    "translate.tokens_help": (
        "▁ 表示一个英文单词的开头（▁have 是完整的词；不带 ▁ 的词元接在前一个词元后面）。"
        "中文按单个汉字切分。</s> 表示源句结束；解码器从 <s> 开始，在每个位置预测下一个目标词元。"
    ),
    "chips.position": "位置 {n}",
    # 探索器
    "explorer.title": "注意力探索器",
    "explorer.kind": "注意力类型",
    "explorer.view": "视图",
    "explorer.layer": "层",
    "explorer.head": "头",
    "explorer.layer_n": "第 {n} 层",
    "explorer.head_n": "头 {n}",
    "explorer.average": "平均",
    "explorer.all_layers": "各层平均",
    "explorer.all_heads": "各头平均",
    "explorer.map_title": "{kind} · {layer} · {head}",
    "explorer.grid_title": "{kind}：所有层的所有头",
    "explorer.lines_title": "{kind} · {layer}",
    "explorer.click_hint": "点击即可在下方放大这张图",
    "explorer.focus": "只显示一个查询词元的连线",
    "explorer.focus_all": "全部查询词元",
    "explorer.min_weight": "隐藏权重低于此值的连线",
    "kind.encoder_self": "编码器自注意力",
    "kind.decoder_self": "解码器掩码自注意力",
    "kind.cross": "编码器–解码器交叉注意力",
    "kind.encoder_self.help": (
        "每个英文词元（行）关注同一句子中的每个英文词元（列）。"
        "每一行之和为 1：表示这个词元如何把其他词元混合进自己的新表示。"
    ),
    "kind.decoder_self.help": (
        "每个目标端位置（行）关注到目前为止的目标词元（列）。灰色格子被掩码遮住："
        "一个位置不能看还没有生成的词元，所以这张图是一个三角形。"
    ),
    "kind.cross.help": "每个目标端位置（行）关注英文源词元（列）——解码器在生成下一个汉字时从源句的哪里读取信息。",
    "view.head": "单个头",
    "view.grid": "全部头",
    "view.lines": "连线视图",
    "view.head.help": (
        "查询（query）在纵轴，键（key）在横轴。颜色使用固定的 0（白）到 1（深蓝）刻度，便于比较不同的头；"
        "把鼠标移到格子上可以看到精确权重。选择“各头平均”可以看整层的平均效果。"
    ),
    "view.grid.help": (
        "所有层的所有头：行是层，列是头，全部使用同一个 0–1 刻度。点击某张小图（或用层、头选择器）"
        "即可在下方放大查看；当前打开的那张带红框。"
    ),
    "view.lines.help": (
        "左边是查询词元，右边是键词元；连线的粗细和深浅表示权重，每个头一种颜色。"
        "点击图例中的头可以隐藏它，双击则只看这个头；把鼠标移到圆点上可以看到精确权重。"
    ),
    "axis.encoder_self.queries": "查询（源端词元）",
    "axis.encoder_self.keys": "键（源端词元）",
    "axis.decoder_self.queries": "查询（目标端词元）",
    "axis.decoder_self.keys": "键（目标端词元）",
    "axis.cross.queries": "查询（目标端词元）",
    "axis.cross.keys": "键（源端词元）",
    "axis.weight": "权重",
    "axis.masked": "灰色 = 被掩码（未来位置）",
    "axis.step_query": "查询（当前这一步）",
    "axis.layer_head": "层 · 头",
    "axis.candidate": "候选",
    "axis.probability": "概率",
    "axis.hypothesis": "候选译文",
    "axis.sequence_prob": "候选译文的概率（对数刻度）",
    # 逐步解码页
    "decoding.title": "逐步解码：一次一个词元",
    "decoding.intro": (
        "解码器每一步写出译文的一个词元。每一步它读取已经写出的词元，回看英文句子，"
        "再给每个可能的下一个词元打分。拖动滑块，一步一步看完整个翻译过程。"
    ),
    "decoding.sentence": "**英文：** {source}  \n**中文：** {translation}",
    "decoding.change_sentence": "到翻译页更换句子",
    "decoding.step": "输出步",
    "decoding.now": "第 **{step}** 步（共 {steps} 步）：模型写出 **{token}**（概率 {prob}）。",
    "decoding.prefix": "解码器到目前为止读到的内容（目标前缀）",
    "decoding.which": "{layer} · {head}",
    "decoding.mask_title": "这一步能看到什么",
    "decoding.mask_help": (
        "因果掩码：这一步的查询只能看到前缀（颜色表示它的自注意力权重）；"
        "后面的位置被掩码遮成灰色，因为此时它们还不存在。"
    ),
    "decoding.cross_title": "它在英文句子中看向哪里",
    "decoding.cross_help": "这一步对源端词元的交叉注意力，使用上面选择的层和头。",
    "decoding.every_head": "显示每一层的每一个头",
    "decoding.every_head_help": "每行对应一个层和头：这一步对源端词元的交叉注意力。",
    "decoding.candidates_title": "下一个词元的候选",
    "decoding.candidates_help": "概率最高的 {k} 个下一个词元；搜索最终选中的那个用橙色标出。",
    "decoding.beam_title": "束搜索（束宽 {beam}）",
    "decoding.beam_greedy": "贪心解码每一步只保留最好的一个词元。在侧边栏调大束宽，就能看到束搜索保留和丢弃了哪些候选译文。",
    "decoding.beam_done": "束搜索在第 {steps} 步后已经结束；这一步只属于最终选中的候选译文。",
    "decoding.beam_help": (
        "这一步之后的候选译文，以及模型给出的整个前缀的概率（对数刻度：条越长，可能性越大）："
        "{kept} 个保留到下一步，{finished} 个以 </s> 结束，{dropped} 个被丢弃。"
    ),
    "beam.kept": "保留",
    "beam.finished": "已结束",
    "beam.dropped": "丢弃",
}
