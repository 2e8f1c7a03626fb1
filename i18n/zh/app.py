"""共享界面：侧边栏、导航、输入。"""

STRINGS = {
    "nav.section.explore": "探索模型",
    "nav.section.learn": "学习注意力",
    "nav.compare": "对比",
    "nav.decoding": "逐步解码",
    "nav.qkv": "Q、K、V 逐步计算",
    "nav.masks": "掩码",
    "nav.positional": "位置编码",
    "nav.scaling": "为什么除以 √d_k",
    "nav.multihead": "多头注意力的形状",
    "nav.anatomy": "模型结构与训练",
    "nav.translate": "翻译与注意力探索",
    "nav.model_card": "模型卡",
    "nav.start": "从这里开始",
    "start.title": "从这里开始：给老师的使用指南",
    "start.intro": (
        "本应用运行一个真实的、把{source}翻译成{target}的 Transformer，并展示它算出的每一个注意力权重。"
        "屏幕上没有手画的数字：每个数都来自模型，或来自页面上的计算。"
    ),
    "start.first": "先展示什么",
    "start.steps": (
        "1. **Q、K、V 逐步计算**：手算“Thinking Machines”的例子，得分 {a} 和 {b}，除以 {root}，softmax 得到 {wa} 和 {wb}。\n"
        "2. **翻译与注意力探索**：输入全班选的句子，打开*交叉注意力*，先让学生猜每个{tgt_unit}看向哪个{src_unit}，再把鼠标移上去验证。\n"
        "3. **逐步解码**：按 **下一步**（或 → 键），看因果掩码每次增长一个词元、每个新{tgt_unit}看向{source}的哪里、以及它胜过了哪些候选。\n"
        "4. 有疑问时再讲 **掩码**、**位置编码** 和 **为什么除以 √d_k**。"
    ),
    "start.links": "准备好的链接",
    "start.links_help": (
        "每个链接都会打开下面描述的视图；把它放进幻灯片或班级群，每个学生看到的都是同一个视图。"
        "你自己设置的任何视图也有自己的链接：地址栏会随你的点击而更新。"
    ),
    "start.cross.title": "“{zh}”看向哪里：交叉注意力",
    "start.cross.what": (
        "打开探索器中交叉注意力第 {layer} 层第 {head} 个头：这个模型中把“{zh}”和“{en}”联系得最紧的头（从模型自己的"
        "权重中找出）。图中每一行写出下一个词元：标为 {rows} 的行写出“{zh}”，它们平均把 {weight} 的注意力放在“{en}”上。"
    ),
    "start.rows_sep": "和",
    "start.unit.en": "英文单词",
    "start.unit.zh": "汉字",
    "start.cross.what_any": "打开探索器中的交叉注意力：找出“{zh}”看向“{en}”的那个头。",
    "start.decoding.title": "写出“{zh}”：第 {step} 个解码步",
    "start.decoding.what": "打开逐步解码页中写出“{zh}”的那一步：因果掩码、它在英文中看向哪里，以及它胜过的候选。",
    "start.qkv.title": "手算 Q、K、V：“Thinking Machines”",
    "start.qkv.what": "学习笔记中的例题，页面上的每个数字都是算出来的。",
    "start.wrong": "模型出错的例子",
    "start.wrong_help": "这个模型很小，只用简短的日常句子训练过：下面这些句子它翻译错了。特意留在这里，让学生看到它的局限；没有哪一课以它们开头。",
    "start.wrong_line": "模型译为 {model} · 人会译为 {reference}",
    "start.present": "在投影仪上",
    "start.present_help": (
        "在侧边栏打开 **演示模式**：文字和图表更大，侧边栏收起。在这里点击准备好的链接，会在当前标签页打开并保持演示模式；"
        "在演示模式下复制的链接也会以演示模式打开。"
        "在逐步解码页，用 ← 和 → 键逐步查看译文。"
    ),
    "app.title": "注意力机制图解",
    "sidebar.language": "语言",
    "language.en": "英文",
    "language.zh": "中文",
    "sidebar.checkpoint": "模型（翻译方向）",
    "teacher.title": "教师控制",
    "teacher.help": "服务器范围：这里的选择会作用于每个学生的会话。",
    "teacher.passcode": "教师口令",
    "teacher.wrong": "口令不对。",
    "teacher.locked": "这个浏览器或它的网络地址输错口令的次数太多：接下来 {seconds} 秒内不检查任何口令，正确的口令也一样。",
    "teacher.folders": (
        "模型来自服务器上的文件夹，不在这里输入：把模型文件夹（我们的模型，或用 save_pretrained 保存的 Marian 模型）"
        "放进 {folder}，然后重新加载。要使用 Hugging Face 模型名，请用 ATTENTION_ALLOW_HUB=1 启动服务器（见 README）。"
    ),
    "teacher.hub.off": "这台服务器没有开放添加 Hugging Face 模型。",
    "teacher.hub.invalid": "{name} 不是 Hugging Face 模型名（owner/name，只含字母、数字和 . _ -）。",
    "teacher.hub.failed": "{name} 没能在限定时间内作为 Marian 模型加载（离线、不存在或不是 Marian 模型）。{minutes} 分钟内不会再试。",
    "teacher.hub.failed_recently": "{name} 几分钟前加载失败，暂时不会再试。",
    "sidebar.add_model": "从 Hugging Face 添加 Marian（opus-mt）模型",
    "sidebar.add_model_help": "Hugging Face 模型名，例如 Helsinki-NLP/opus-mt-en-zh：下载一次（限时一分钟），之后所有会话都能选择。按回车确认。",
    "sidebar.marian_missing": "使用 Marian（opus-mt）生产级模型：`{command}`",
    "sidebar.language_token": "目标语言标记",
    "sidebar.device": "设备",
    "sidebar.beam": "束宽",
    "sidebar.share": "给学生的本视图链接",
    "sidebar.share_help": "学生设备能打开的地址（ATTENTION_PUBLIC_URL，否则是本服务器的网络地址），带着本页的设置：可发到课堂群或放进幻灯片。你自己的地址栏可能显示 127.0.0.1，只有这台机器能打开。",
    "sidebar.present": "演示模式",
    "sidebar.present_help": "为投影仪放大文字和图表，并收起侧边栏。此时复制的链接也会以演示模式打开。",
    "link.ignored": "链接中的 {name}={value} 无法使用，已忽略：{why}。",
    "link.why.number": "应为 {low} 到 {high} 之间的整数",
    "link.why.decimal": "应为 {low} 到 {high} 之间的数",
    "link.why.number_or_average": "应为 {low} 到 {high} 之间的整数，或 average（平均）",
    "link.why.choice": "应为以下之一：{options}",
    "link.why.long": "句子最多 {n} 个字符",
    "link.unknown": "应用没有这个设置",
    "lab.numbers_when_stopped": "训练停止后即可取得这些数字（CSV、TSV）：训练时它们每秒变化好几次。",
    "link.unknown_more": "链接中另有 {n} 个设置被忽略：应用没有这些设置。",
    "hardware.cpu": "{machine} CPU，{threads} 个线程",
    "error.checkpoint": "模型无法加载：{error}",
    "error.input": "{error}",
    # translate() 报告的输入错误与提示（键与占位符同 model/translation/messages.py）。
    "model.not_string": "输入必须是字符串，收到的是 {type}",
    "model.empty": "请输入一个句子：文本为空，或只有不可见字符。",
    "model.beam": "束宽必须在 1 到 {max} 之间，收到的是 {beam}",
    "model.top_k": "top_k 至少为 1，收到的是 {top_k}",
    "model.chars_cut": "输入超过 {limit} 个字符，只使用了前 {limit} 个字符。",
    "model.names_read_as": "没学过的名字读作：{swaps}",
    "model.tokens_cut": "输入超过模型的 {limit} 个源语言词元，已截断为：{text}…",
    "model.language": "这个模型需要在 {languages} 中选一个目标语言，收到的是 {language}。",
    "model.language_unsupported": "这个模型只译成一种语言，不接受目标语言（收到的是 {language}）。",
    "model.not_chinese": "这个模型读中文，而这句话里没有汉字：它写出的不是译文。要翻译英文，请选择“English → 中文”模型。",
    "model.not_english": "这个模型读英文，而这句话是中文：它写出的不是译文。要翻译中文，请选择“中文 → English”模型。",
    "model.mixed_latin": "句子里有一部分是拉丁字母，这个模型在中文源句中很少见到。",
    "model.mixed_chinese": "句子里有一部分是汉字，这个模型在英文源句中从未见过。",
    "model.simplified": "繁体字已用 OpenCC 转为简体字，这是模型学过的写法：{text}",
    "model.output_cut": "译文达到 {n} 个词元的输出上限，在此处被截断。",
    "model.head": "这个模型没有 {kind} 第 {layer} 层第 {head} 个头：它有 {layers} 层，每层 {heads} 个头。",
    "model.attribution_method": "归因方法必须是 {methods} 之一，收到的是 {method}",
    # 没有校验和的检查点，权重看起来已损坏（model/translation/sanity.py）。
    "model.weights_large": (
        "{folder} 未经校验就加载了（没有 sha256sums.txt，或设置了 ATTENTION_SKIP_CHECKSUMS=1），而 {name} 中有一个值为 "
        "{value}，训练出的权重都在 ±{bound} 以内：文件很可能已损坏，译文可能是胡话。请从完好的副本恢复该文件夹，或重新训练。"
    ),
    "model.weights_nonsense": (
        "{folder} 未经校验就加载了（没有 sha256sums.txt，或设置了 ATTENTION_SKIP_CHECKSUMS=1），而测试句子"
        "“{sentence}”被译成了“{output}”（每个词元的平均置信度为 {sure}）：权重可能已损坏。请从完好的副本恢复该文件夹，或重新训练。"
    ),
}
