"""共享界面：侧边栏、导航、输入。"""

STRINGS = {
    "nav.section.explore": "探索模型",
    "nav.section.learn": "学习注意力",
    "nav.decoding": "逐步解码",
    "nav.qkv": "Q、K、V 逐步计算",
    "nav.masks": "掩码 (Mask)",
    "nav.positional": "位置编码",
    "nav.scaling": "为什么除以 √d_k",
    "nav.multihead": "多头注意力的形状",
    "nav.anatomy": "模型结构与训练",
    "nav.translate": "翻译与注意力探索",
    "app.title": "注意力机制图解",
    "sidebar.language": "语言",
    "sidebar.checkpoint": "模型检查点",
    "sidebar.device": "设备",
    "sidebar.beam": "束搜索宽度 (beam)",
    "error.checkpoint": "模型无法加载：{error}",
    "error.input": "{error}",
    # translate() 报告的输入错误与提示（键与占位符同 model/messages.py）。
    "model.not_string": "输入必须是字符串，收到的是 {type}",
    "model.empty": "请输入一个句子：文本为空，或只有不可见字符。",
    "model.beam": "束搜索宽度必须在 1 到 {max} 之间，收到的是 {beam}",
    "model.top_k": "top_k 至少为 1，收到的是 {top_k}",
    "model.chars_cut": "输入超过 {limit} 个字符，只使用了前 {limit} 个字符。",
    "model.tokens_cut": "输入超过模型的 {limit} 个源语言词元，已截断为：{text}…",
    "model.output_cut": "译文达到 {n} 个词元的输出上限，在此处被截断。",
}
