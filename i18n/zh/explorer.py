"""翻译页、注意力探索器和逐步解码。"""

STRINGS: dict[str, str] = {
    # 翻译页
    "translate.title": "翻译一句话，再看看模型内部",
    "translate.intro": (
        "输入一句{source}：本应用从零训练的 Transformer 把它译成{target}，它一路算出的每一张注意力图都能在下方打开。"
    ),
    "translate.input": "要翻译的句子",
    "translate.input_in": "{source}句子",  # 输入框的占位文字：模型读入的语言
    "translate.submit": "翻译",
    "translate.examples": "或者试试这些例句",
    "cache.translating": "正在翻译…",
    "cache.attributing": "正在计算归因…",
    "translate.examples_button": "例句",
    # 中文原句里模型读不懂的名字（model/translation/chinese_names.py），简短地显示在译文下方（下面的图留在第一屏），
    # 原因写在译文的提示里。
    "translate.names_unread": "可能是它没学过的名字，会被当成普通的字来读：{names}。",
    "translate.names_unread_help": (
        "这个模型学习用的中文句子（Tatoeba）里几乎只有汤姆（Tom）、玛丽（Mary）这样的名字，没见过的名字会被当成"
        "普通的字来读：译文可能丢掉这个名字，或把它译成别的词（见模型卡的“局限”）。"
    ),
    "translate.translation": "译文",
    "translate.details": "检查点 {checkpoint} · 设备 {device} · 束宽 {beam} · 源语言 {S} 个词元 · 目标语言 {T} 个词元",
    "translate.source_tokens": "源语言词元（{language}，编码器输入，{n} 个）",
    "translate.target_tokens": "目标语言词元（{language}，解码器输入，{n} 个）",
    "translate.tokens_help": (
        "中文按单个汉字切分，英文切成子词片段。</s> 表示源句结束；解码器从 <s> 开始，在每个位置预测下一个目标语言词元。"
    ),
    "chips.position": "位置 {n}",
    "tokens.word_start": "▁ 表示一个英文单词的开头：▁have 是一个词的开头，不带 ▁ 的词元接在前一个词元后面。",
    "tokens.bytes": (
        "字节词元（{runs}）：分词器在训练句子里从没见过的字符没有自己的词元，只能按它的 UTF-8 字节拼出来，"
        "每个字节一个词元。模型训练时也从没见过这些词元，所以它对它们的理解只是猜测。"
    ),
    # 这个模型懂什么（数字来自检查点的训练日志）
    "knows.data": "**这个模型懂什么**：它从 {pairs} 对简短的日常句对（Tatoeba）中学会把{source}译成{target}。",
    "translate.intro_marian": (
        "输入一个句子。侧边栏选中的是生产级的 Marian（opus-mt）Transformer，已转换成本应用自己的 Transformer 代码；"
        "在译文下方，你可以打开它在翻译过程中计算出的每一张注意力图。"
    ),
    "knows.marian": "**{name}** 是 Marian（opus-mt）模型，由其作者用数百万句对训练；本应用没有训练它，也没有它自己的开发集分数。",
    "knows.data_bt": "**这个模型懂什么**：它从 {pairs} 对简短的日常句对（Tatoeba），以及另外 {synthetic} 对{source}一侧由机器翻译得来的句对（回译）中，学会把{source}译成{target}。",
    "knows.data_unknown": "**这个模型懂什么**：它从简短的日常句对（Tatoeba）中学会把{source}译成{target}。",
    "knows.score": "它在{set}上的 BLEU 为 {bleu}（{decoding}）。",
    "knows.set_test": "{pairs} 个与训练句子都不相似的留出测试句（从未用于任何选择）",
    "knows.set_test_seen": "{pairs} 个与训练句子都不相似的留出测试句（它的检查点是在包括这些句子在内的整个开发集上选出的）",
    "knows.set_unseen": "与训练数据都不相似的 {pairs} 句开发集句子",
    "knows.set_dev": "开发集",
    "knows.beam": "束宽 {beam}",
    "knows.greedy": "贪心解码",
    "knows.limits": "简短的日常句子翻得最好；长句或专业文本翻得很差。",
    "knows.card_link": "模型卡",
    "knows.sep": "",
    # 每个输出词元的置信度（阈值来自检查点的校准，evaluation/calibrate.py）
    "confidence.title": "模型对它写出的每个词元有多确定",
    "chips.probability": "概率 {prob} · 位置 {n}",
    "confidence.legend": (
        "每个标签是模型写出的一个词元及其概率（悬停可看精确值）。红色标签低于 {threshold}："
        "在 {pairs} 个开发集句子上，这么不确定的词元只有 {below_right} 出现在参考译文中（高于阈值的为 {above_right}）。"
    ),
    "confidence.sure_short": "整句译文的置信度：{score}，高于 {threshold} 的界线。",
    "confidence.sure": (
        "整句译文的置信度：{score}（各词元概率的几何平均），高于 {threshold} 这条线——"
        "在开发集上，高于这条线的译文有 {above_exact} 与参考译文完全一致，低于它的只有 {below_exact}。"
    ),
    "confidence.unsure_short": "没有把握：置信度 {score}，低于 {threshold} 的界线。请谨慎看待。",
    "confidence.unsure": (
        "模型对这句译文没有把握：它的置信度是 {score}（各词元概率的几何平均），低于 {threshold}。"
        "在开发集上，低于这条线的译文只有 {below_exact} 与参考译文完全一致（高于它的为 {above_exact}）。请谨慎看待。"
    ),
    "confidence.beam_same": "这些阈值是在束宽 {beam} 下测得的，与这次翻译的束宽相同。",
    "confidence.beam_other": (
        "这些阈值是在束宽 {measured} 下测得的；这次翻译用的是束宽 {beam}，没有在这个束宽下测量过："
        "不同的搜索会改变概率，所以颜色只能作为粗略参考。"
    ),
    "confidence.uncalibrated": (
        "这个检查点尚未校准（还没有对它运行 python -m evaluation.calibrate），所以不标记低置信度词元："
        "标签上显示的是原始概率。各词元概率的几何平均：{score}。"
    ),
    # 例句：看什么（根据结果的交叉注意力计算，model/translation/alignment.py）
    "example.dream": (
        "看点：写出“{target}”时，交叉注意力第 {layer} 层第 {head} 个头给 {source} 的权重是 {weight}——"
        "所有头里最高（在它的注意力图中看 {rows} 这几行：每一行写出下一个词元）。"
    ),
    "example.who": (
        "看点：{source} 位于英文问句开头；写出“{target}”时，交叉注意力第 {layer} 层第 {head} 个头找到了它"
        "（权重 {weight}，行 {rows}）——对比“{target}”在译文中的位置。"
    ),
    "example.yesterday": (
        "看点：{source} 是英文的最后一个词；写出“{target}”时，交叉注意力第 {layer} 层第 {head} 个头看向那里"
        "（权重 {weight}，行 {rows}）——看看中文把“{target}”放在哪里。"
    ),
    "example.where": (
        "看点：写出“{target}”时，交叉注意力第 {layer} 层第 {head} 个头回头看向 {source}"
        "（权重 {weight}，行 {rows}）：比较两种语言里疑问词的位置。"
    ),
    "example.dog": (
        "看点：一个英文单词对应一个汉字——写出“{target}”时，交叉注意力第 {layer} 层第 {head} 个头"
        "给 {source} 的权重是 {weight}（行 {rows}）。"
    ),
    # 同样的例句以中文输入（中文 → 英文模型）：语序不同之处反过来说。
    "example.who_zh": (
        "看点：{source} 在中文问句末尾，英文却以 {target} 开头；写出它时，交叉注意力第 {layer} 层第 {head} 个头"
        "回头看向句末（权重 {weight}，行 {rows}）。"
    ),
    "example.yesterday_zh": (
        "看点：中文把 {source} 放在第二个，英文把 {target} 放在最后；写出它时，交叉注意力第 {layer} 层第 {head} 个头"
        "回头看向那里（权重 {weight}，行 {rows}）。"
    ),
    "example.dog_zh": (
        "看点：一个汉字对应一个英文单词——写出 {target} 时，交叉注意力第 {layer} 层第 {head} 个头"
        "给 {source} 的权重是 {weight}（行 {rows}）。"
    ),
    "example.missing": "这句译文里没有“{target}”，所以无法指出“{target}”与 {source} 之间的对应。",
    "example.rows_sep": "、",
    "example.show": "显示这个头",
    # 模型卡页面
    "card.title": "模型卡：{name}",
    "card.intro": "模型是什么、如何训练、得分多少——由训练脚本根据检查点的配置和训练日志写成。",
    "card.intro_marian": "Marian（opus-mt）模型：它自己的模型卡（文件夹里的 README.md），没有时则列出其配置。它由原作者训练，本应用只做了转换。",
    "card.missing": "这个检查点没有模型卡（README.md）。",
    "card.english_only": "这个模型的模型卡只有英文版，下面显示的是英文原文。",
    "card.calibration.header": "置信度校准",
    "card.calibration.missing": (
        "这个检查点尚未校准：运行 python -m evaluation.calibrate --checkpoint DIR --dev DEV.tsv，"
        "测出它的概率从哪里开始不可信。"
    ),
    "card.calibration.intro": (
        "翻译页用两个阈值标记没有把握的词元和整句译文，它们是在 {pairs} 对开发集句子上测得的"
        "（束宽 {beam}，python -m evaluation.calibrate）："
    ),
    "card.calibration.tokens": (
        "**词元**：概率低于 {threshold} 的词元有 {below_right} 出现在参考译文中（共 {below_n} 个）；"
        "高于它的为 {above_right}（共 {above_n} 个）。阈值取在这一比例的保序回归拟合达到一半的位置。"
    ),
    "card.calibration.sentences": (
        "**整句译文**：词元概率几何平均低于 {threshold} 的译文有 {below_exact} 与参考译文完全一致"
        "（平均 chrF {below_chrf}，共 {below_n} 句）；高于它的为 {above_exact}（chrF {above_chrf}，共 {above_n} 句）。"
        "这个阈值最能把完全一致的译文与其余译文分开（约登指数 J）。"
    ),
    # 探索器
    "explorer.title": "注意力探索器",
    "explorer.kind": "注意力类型",
    "explorer.view": "视图",
    "explorer.layer": "层",
    "explorer.head": "头",
    "explorer.layer_n": "第 {n} 层",
    "explorer.head_n": "第 {n} 个头",
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
    "kind.cross": "交叉注意力",
    "kind.encoder_self.help": (
        "每个{source}词元（行）关注同一句子中的每个{source}词元（列）。"
        "每一行之和为 1：表示这个词元如何把其他词元混合进自己的新表示。"
    ),
    "kind.decoder_self.help": (
        "每个目标语言位置（行）关注到目前为止已写出的{target}词元（列）。灰色格子被掩码遮住："
        "一个位置不能看还没有生成的词元，所以这张图是一个三角形。"
    ),
    "kind.cross.help": "每个目标语言位置（行）关注{source}源句词元（列）——解码器在生成下一个{target}词元时从源句的哪里读取信息。",
    "view.head": "单个头",
    "view.grid": "全部头",
    "view.lines": "连线视图",
    "view.head.help": (
        "查询在纵轴，键在横轴。颜色使用固定的 0（白）到 1（深蓝）刻度，便于比较不同的头；"
        "把鼠标移到格子上可以看到精确权重。把头选为“平均”可以看这一层所有头的平均。"
    ),
    "view.grid.help": (
        "所有层的所有头：行是层，列是头，全部使用同一个 0–1 刻度。点击某张小图（或用层、头选择器）"
        "即可在下方放大查看；当前打开的那张带红框。"
    ),
    "view.lines.help": (
        "左边是查询词元，右边是键词元；连线的粗细和深浅表示权重。把鼠标移到词元上，可以看到它的位置、"
        "最强的几条连接和精确权重；点击一个查询词元，就只显示它的连线（在上方选“全部查询词元”可恢复）。"
    ),
    "view.rollout": "注意力累积",
    "view.rollout.help": (
        "注意力累积（rollout，Abnar & Zuidema 2020）不是原始注意力：它把第 1 层到所选层的注意力图依次相乘"
        "（每层先对所有头取平均，再把残差连接算作每行的一半），所以一个格子估计这一行的信息有多少经过中间各层"
        "来自这个输入词元。这只是在一个假设下的估计——假设信息只按注意力权重混合：它不考虑各值向量的大小、"
        "前馈层和层归一化（LayerNorm）。交叉注意力则是所选解码器层的交叉注意力（对各头取平均）乘以编码器全部各层的注意力累积："
        "列是输入词元，而不是解码器读取的编码器输出；它下面的解码器各层（自注意力、残差）不在追溯之内。"
        "每行之和为 1；把鼠标移到格子上可以看到精确数值。可与“单个头”中的“平均”比较：原始注意力显示某一层看向哪里，"
        "注意力累积估计信息来自哪里。"
    ),
    "rollout.title.encoder_self": "注意力累积 · 编码器自注意力 · 第 1 至 {layer} 层",
    "rollout.title.decoder_self": "注意力累积 · 解码器自注意力 · 第 1 至 {layer} 层",
    "rollout.title.cross": "注意力累积 · 第 {layer} 层交叉注意力（经由编码器）",
    "rollout.value": "累积份额",
    "axis.encoder_self.queries": "查询（源语言词元）",
    "axis.encoder_self.keys": "键（源语言词元）",
    "axis.decoder_self.queries": "查询（目标语言词元）",
    "axis.decoder_self.keys": "键（目标语言词元）",
    "axis.cross.queries": "查询（目标语言词元）",
    "axis.cross.keys": "键（源语言词元）",
    "axis.queries": "查询",
    # 翻译的注意力图说出词元的语言：“查询（中文源句词元）”
    "axis.queries_of": "查询（{tokens}）",
    "axis.keys_of": "键（{tokens}）",
    "axis.source_tokens": "{language}源句词元",
    "axis.target_tokens": "{language}译文词元",
    "axis.keys": "键",
    "axis.note": "行是{queries}，列是{keys}。",
    "axis.weight": "权重",
    "axis.masked": "灰色 = 被掩码（未来位置）",
    "decoding.not_yet": "灰色 · = 尚未写出（被掩码）",
    "axis.step_query": "查询（当前这一步）",
    "axis.layer_head": "层 · 头",
    "axis.candidate": "候选",
    "axis.probability": "概率",
    # 逐步解码页
    "decoding.title": "逐步解码：一次一个词元",
    "decoding.intro": (
        "解码器每一步写出译文的一个词元。每一步它读取已经写出的词元，回看{source}句子，"
        "再给每个可能的下一个词元打分。用“上一步”/“下一步”（或 ← → 键）、“播放”或滑块，一步一步看完整个翻译过程。"
    ),
    "decoding.sentence": "**{source}：** {sentence} → **{target}：** {translation}",
    "decoding.change_sentence": "换一句",
    "decoding.prev": "上一步",
    "decoding.next": "下一步",
    "stepper.speed": "速度",
    "stepper.speed.slow": "慢",
    "stepper.speed.normal": "中",
    "stepper.speed.fast": "快",
    "decoding.play": "播放",
    "decoding.pause": "暂停",
    "decoding.step": "解码步",
    "decoding.now": "第 **{step}** 步（共 {steps} 步）：模型写出 **{token}**（概率 {prob}）。",
    "decoding.which": "{layer} · {head}",
    "decoding.mask_title": "这一步能看到什么",
    "decoding.mask_help": (
        "因果掩码：这一步的查询只能看到前缀（颜色表示它的自注意力权重）；"
        "后面的位置被掩码遮成灰色，因为此时它们还不存在。"
    ),
    "decoding.cross_title": "它在{source}句子中看向哪里",
    "decoding.cross_help": "这一步对源语言词元的交叉注意力，使用上面选择的层和头。",
    "decoding.every_head": "显示每一层的每一个头",
    "decoding.every_head_help": "每行对应一个层和头：这一步对源语言词元的交叉注意力。",
    "decoding.candidates_title": "下一个词元的候选",
    "decoding.candidates_help": "概率最高的 {k} 个下一个词元；搜索最终选中的那个用橙色标出。",
    "decoding.beam_title": "束搜索（束宽 {beam}）",
    "decoding.beam_greedy": "贪心解码每一步只保留最好的一个词元。在侧边栏调大束宽，就能看到束搜索保留和剪掉了哪些候选译文。",
    "decoding.beam_help": (
        "到第 {last} 步为止，搜索打过分的候选译文组成的树：每一列是一步，每个节点是一个候选译文在它所延续的候选译文后面"
        "加上的词元（把鼠标停在节点上，可以看到整个候选译文和它的对数概率）。每一步，搜索只看最好的 {top} 个延续："
        "绿色的保留到下一步，蓝色的以 </s> 结束，灰色的被剪掉（这一支到此为止）。橙色的路径是它选中的译文。"
        "第 {step} 步：保留 {kept} 个，结束 {finished} 个，剪掉 {dropped} 个。"
    ),
    "beam.kept": "保留",
    "beam.finished": "已结束",
    "beam.dropped": "剪掉",
    "beam.chosen": "选中的译文",
    "beam.step": "步骤",
    "beam.logprob": "log P（候选译文）",
    "beam.token_logprob": "log P（它的最后一个词元）",
    "compare.title": "注意力对比",
    "compare.intro": "两张图并排：同一个句子在两个模型中，同一个句对从两个方向看，同一个句子的两个头，或同一个头看两个句子（附差值图 B − A）。",
    "compare.one_model": "这台服务器只提供一个模型，所以两张图是同一张图。可以改为对比两个头或两个句子，或者请老师再提供一个模型（例如生产级的 Marian 模型）。",
    "compare.same_model": "两个选择框选的是同一个模型，所以两张图是同一张图：请在右侧选择另一个模型。",
    "compare.one_map_twice": "同一个模型，所以是同一张图画了两次（见下方说明）",
    "compare.enter": "按回车，用两个模型翻译。",
    "compare.left": "左侧模型",
    "compare.right": "右侧模型",
    "compare.shape": "{layers} 层 × {heads} 个头 · 词表 {src} 和 {tgt} 个词元 · {s} 个源语言词元 · {t} 个解码位置",
    "compare.clamped": "这个模型只有 {layers} 层、{heads} 个头：显示第 {layer} 层{head}。",
    "compare.note": "不同模型的词元不同：各有自己的词表（大小见每个译文旁的提示），所以即使是同一个句子，坐标轴也不同。束宽和目标语言取自侧边栏。",
    "compare.mode.directions": "两个方向",
    "compare.other_way": "{left} 和 {right} 读的是不同的语言，所以其中一个读到的句子是它要写出的那种语言。要从两边看同一个句对，请选“{mode}”。",
    "compare.no_reverse": "“两个方向”需要一个与 {model} 方向相反的模型，而这台服务器没有提供。可以改为对比两个头或两个句子。",
    "compare.nothing_written": "模型对这个句子什么也没写出，另一个方向的模型无从读起。",
    "compare.transpose": "转置右侧的图",
    "compare.transpose_help": "交换右侧图的行和列，使两张图的竖轴是同一种语言、横轴是另一种语言：一个词和它的译文在两张图里落在同一行同一列。",
    "compare.directions_note": "左侧：{left} 读你的句子。右侧：{right} 读左侧模型写出的译文，所以两张图是同一个句对，从两边来看。",
    "compare.one_scale": "两张图共用右侧的一个颜色条：两张图的权重用同一个刻度，从 0 到 1。",
    "compare.directions_cross": "在交叉注意力里，右侧的图就是左侧那一对调转过来：左侧模型写出的{target}词元（它的行）正是右侧模型读入的内容（它的列）。转置后两者就在同一条轴上。",
    "compare.directions_transposed": "在交叉注意力里，右侧的图就是左侧那一对调转过来；这里把它转置画出，两张图的竖轴都是{target}、横轴都是{source}：一个词和它的译文在两张图里落在同一位置（左侧模型写出它的地方，右侧模型读入它的地方）。",
    "compare.side_axes": "{side}——行：{rows}；列：{cols}。",
    "compare.pairs": "可以试试的句子对",
    "compare.pairs_help": "只差一个词的两个句子，两句都翻译正确：差值图显示换掉的词把注意力移到了哪里。",
    "compare.goes_wrong": "模型出错的例子",
    "compare.goes_wrong_help": "这个小模型翻译错的句子，留着用来说明它的局限：把它的译文和人会怎么翻译对比一下。",
    "compare.lined_up": "先把两个句子的词元对齐，所以两句的每个词元都在图上；不同之处，A 的一段和 B 的一段共用一行或一列，标作 A/B（{runs}）：这一列是整段得到的权重（各列相加），这一行是这段各行的平均。",
    # 解码页 · 束搜索的长度惩罚
    "decoding.lp.title": "束搜索中的长度惩罚",
    "decoding.lp.formula.gnmt": (
        "每多一个词元，候选译文的概率就要再乘一个小于 1 的数，所以它的对数概率 log P(Y) 只会越来越低："
        "只按 log P(Y) 排序，束搜索会偏爱短的译文。因此我们的解码器按 log P(Y) ÷ ((5 + |Y|) / 6)^α "
        "给已完成的候选译文排序，这是 GNMT 的长度惩罚，α = {alpha}（|Y|：候选译文的词元数，含 </s>）。"
        "α = 0 即除以 1，没有惩罚；α 越大，越偏向长译文。"
        "Transformer 论文用的是 α = 0.6；我们的 α 是在开发集上选出的（见模型卡中的解码表）。"
    ),
    "decoding.lp.formula.power": (
        "每多一个词元，候选译文的概率就要再乘一个小于 1 的数，所以它的对数概率 log P(Y) 只会越来越低："
        "只按 log P(Y) 排序，束搜索会偏爱短的译文。这个模型按 log P(Y) ÷ |Y|^α 给已完成的候选译文排序，"
        "与它所来自的 Hugging Face 库相同，α 取模型作者设定的 {alpha}（|Y|：候选译文的词元数，含 </s>）。"
        "α = 0 即除以 1，没有惩罚；α 越大，越偏向长译文。"
    ),
    "decoding.lp.greedy": "贪心解码只完成一个候选译文，没有可比较的：在侧边栏把束宽调大，就能比较束搜索完成的各个候选译文。",
    "decoding.lp.col.hypothesis": "已完成的候选译文",
    "decoding.lp.col.length": "|Y|",
    "decoding.lp.col.logprob": "log P(Y)",
    "decoding.lp.col.score": "得分，α = {alpha}",
    "decoding.lp.result": (
        "束宽为 {beam} 的搜索为这个句子完成了以下 {n} 个候选译文；每一列用一个 α 重新打分"
        "（★：该列得分最高者；搜索本身按 α = {own} 排序）。各 α 下的胜者："
    ),
    "decoding.lp.winner": "α = {alpha}：**{text}**（{n} 个词元）",
    "decoding.lp.changes": "在这里，α 的取值改变了译文：长度惩罚并非细枝末节。",
    "decoding.lp.same": (
        "在这里，每个 α 选出的都是同一个候选译文：它的概率比其余候选译文高得多，除以惩罚项也改变不了排序。"
        "换一个更长的句子试试，候选译文的长度差别会更大。"
    ),
    "decoding.lp.caveat": "这里只是重新打分，并没有重新搜索：用另一个 α 运行的搜索会在另一步停下，也可能完成另一些候选译文。",
}
