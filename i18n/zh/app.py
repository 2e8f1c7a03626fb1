"""共享界面：侧边栏、导航、输入。"""

STRINGS = {
    "nav.translate": "翻译与注意力探索",
    "app.title": "注意力机制图解",
    "sidebar.language": "语言",
    "sidebar.checkpoint": "模型检查点",
    "sidebar.device": "设备",
    "sidebar.beam": "束搜索宽度 (beam)",
    "error.checkpoint": "模型无法加载：{error}",
    "error.input": "{error}",
}
