"""Replay: watching attention being learned during the shipped model's training"""

STRINGS: dict[str, str] = {
    "nav.replay": "回放：注意力的形成",
    "nav.lab": "现场实验：训练一个小模型",
    # ---- replay
    "replay.title": "回放：注意力是怎样学会的",
    "replay.intro": (
        "所发布的模型在训练时，于 {snapshots} 个时刻（第 {first} 步到第 {last} 步）翻译了 {probes} 个固定的探针句子，"
        "并保存了每一张注意力图。未训练时，交叉注意力几乎均匀地摊在源句上；训练让它集中起来——有的头让每一行看各自不同的源语言词元，"
        "有的头让每一行都看同一个词元（汇点）；至于一行看的是不是它正在翻译的词，探针句子没有人工标注的对齐，无法判断。最后一张快照是第 {last_epoch} 轮之后的权重；所发布的模型是{shipped}，"
        "不是这组权重：像快照那样用贪心解码，{probes} 个探针句子中有 {differ} 个它译得和最后一张快照不同，"
        "它的注意力图也和最后一帧不同。在快照之间移动不会运行模型。"
    ),
    "replay.shipped_best": "最佳评估（第 {step} 步）时的权重",
    "replay.shipped_average": "第 {first}–{last} 轮之后权重的平均",
    "replay.aligned.shown": "图中显示的是{layer}{head}，即对这个探针句子最接近所有头平均的头：",
    "replay.aligned.other": "对这个探针句子，最接近所有头平均的头是{layer}{head}（图中显示的是{shown}；用“层”和“头”的按钮选{layer}{head}就能看到它）：",
    "replay.aligned": (
        "在最后一张快照中，它每一行最强的源语言词元有 {agree}/{rows} 行与全部 {heads} 个交叉注意力头"
        "（汇点也算在内）的平均一致（取平均图中权重最大的源语言词元）；在没有把一半以上的行都压在同一个词元上的头里，"
        "它一致的行最多。这个平均只是各头合起来的看法，不是词对齐：探针句子没有人工标注的对齐可供核对。"
        "只看低熵会选中汇点：熵衡量一行有多集中，而不是它是否看向正确的词。"
    ),
    "replay.probe": "探针句子",
    "replay.step": "训练步",
    "replay.now": "第 {n} / {total} 个快照，**第 {step} 步**（第 {epoch} 轮）：模型把“{source}”译为 **{translation}**",
    "replay.now_dev": " · 这一步的开发集 BLEU：{bleu}",
    "replay.now_shipped": "所发布的模型（与快照一样用贪心解码）译为：**{translation}**",
    "replay.untrained": "——训练开始前权重是随机的，所以每一步概率最高的都是同一个词元（{token}），一直重复到长度上限。",
    "replay.map_title": "{kind}，{layer}，{head}，第 {step} 步",
    "replay.share.header": "从均匀到集中",
    "replay.share.fig": "{kind}：熵 ÷ 均匀分布的熵",
    "replay.share.axis": "H ÷ log n",
    "replay.share.uniform": "均匀",
    "replay.share.text": (
        "注意力图的每一行都是该查询可见的 n 个键上的概率分布。它的熵 H = −Σ p·log p 在均匀摊开时为 log n，"
        "只看一个键时为 0；图中画的是各行 H ÷ log n 的平均值，每层一条线（各头平均）。{which}：第 {first_step} 步"
        "为 {first}{now}，最低 {lowest}（第 {lowest_step} 步）。"
    ),
    "replay.share.now": "，第 {step} 步为 {now}",
    "replay.curves.header": "这一步在训练中的位置",
    "replay.curves.fig": "损失（左）与开发集分数（右）；虚线为第 {step} 步",
    "replay.corrupt": "无法显示回放：{error} 模型本身在其他页面上照常翻译；重新训练会写出新的快照文件。",
    "replay.missing": (
        "{folder} 中的检查点没有注意力快照：它是在训练程序开始保存快照之前训练的。重新训练就会记录下来——"
        "在第一步之前、前两轮的每一轮之后以及每次评估时（每 `--eval-every` 轮），探针句子的注意力图和译文："
    ),
    "replay.missing_probes": (
        "加上 `--probe \"一个句子\"`（可重复）来选择探针句子；不加时训练程序使用默认的五个探针句子。"
        "完整做法见 README 的“Retraining”一节。"
    ),
}
