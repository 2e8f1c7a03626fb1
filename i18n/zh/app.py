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
}
