"""观察注意力如何学成：回放所发布模型的训练过程，以及现场实验室。"""

STRINGS: dict[str, str] = {
    "nav.replay": "回放：注意力的形成",
    "nav.lab": "现场实验：训练一个小模型",
    # ---- replay
    "replay.title": "回放：注意力是怎样学会的",
    "replay.intro": (
        "所发布的模型在训练时，于 {snapshots} 个时刻（第 {first} 步到第 {last} 步）翻译了 {probes} 个固定的探针句子，"
        "并保存了每一张注意力图。未训练时，交叉注意力几乎均匀地摊在源句上；训练让它集中起来——有的头集中在正在翻译的词上，"
        "有的头让每一行都看同一个词元（汇点）。最后一张快照是第 {last_epoch} 轮之后的权重；所发布的模型是{shipped}，"
        "不是这组权重：像快照那样用贪心解码，{probes} 个探针句子中有 {differ} 个它译得和最后一张快照不同，"
        "它的注意力图也和最后一帧不同。在快照之间移动不会运行模型。"
    ),
    "replay.shipped_best": "最佳评估（第 {step} 步）时的权重",
    "replay.shipped_average": "第 {first}–{last} 轮之后权重的平均",
    "replay.aligned": (
        "打开时显示{layer}{head}：在最后一张快照中，它每一行最强的源语言词元有 {agree}/{rows} 行与全部 {heads} 个交叉注意力头"
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
    # ---- live lab
    "lab.title": "现场实验：看一个小 Transformer 学习",
    "lab.intro": (
        "本应用自己的 Transformer，做得很小：d_model = {d}，{heads} 个头，编码器与解码器各 {layers} 层，d_ff = {d_ff}："
        "{params} 个参数（翻译模型：{big}）。它在 {symbols} 个字母的字符串上学习一个编造的任务，每步 {batch} 个随机"
        "字符串，在 {held_out} 个从未训练过的字符串上评分；页面每 {every} 步重画一次。"
    ),
    "lab.task": "任务",
    "lab.task.copy": "复制",
    "lab.task.reverse": "倒序",
    "lab.task.sort": "排序",
    "lab.max_steps": "最多步数",
    "lab.train": "训练",
    "lab.example": "例子：**{source}** → **{answer}**",
    "lab.status": "第 {step} / {steps} 步 · {seconds} 秒 · 损失 {loss} · 留出集：{exact} 完全正确，字母正确率 {per_token}",
    "lab.stopped.learned": "{step} 步（{seconds} 秒）后学会了：{held_out} 个留出字符串中 {exact} 完全正确（字母正确率 {per_token}）。",
    "lab.stopped.steps": "到达 {step} 步的上限后停止（{seconds} 秒）：{held_out} 个留出字符串中 {exact} 完全正确（字母正确率 {per_token}）。",
    "lab.stopped.seconds": "到达时间上限（{seconds} 秒），{step} 步后停止：{held_out} 个留出字符串中 {exact} 完全正确（字母正确率 {per_token}）。",
    "lab.before": "训练前（第 0 步），{which}",
    "lab.after": "训练 {step} 步后，{which}",
    "lab.press_train": "按 **训练**：训练后模型的注意力图会出现在这里，并随学习过程重画。",
    "lab.wrote": "输出：{wrote} · 留出集：{exact} 完全正确，字母正确率 {per_token}",
    "lab.aligned.copy": (
        "**对角线。** 第 {layer} 层第 {head} 个头在写答案第 i 个字母时，现在把 {share} 的交叉注意力给了源句第 i 个字母；"
        "训练前是 {before}，约等于在 {n} 个源位置上平均分配的注意力（{uniform}）。"
    ),
    "lab.aligned.reverse": (
        "**反对角线。** 第 {layer} 层第 {head} 个头在写答案第 i 个字母时，现在把 {share} 的交叉注意力给了源句的镜像位置"
        " n − 1 − i；训练前是 {before}，约等于在 {n} 个源位置上平均分配的注意力（{uniform}）。"
    ),
    "lab.aligned.sort": (
        "**排序。** 第 {layer} 层第 {head} 个头在写一个字母时，把 {share} 的交叉注意力给了这个字母在源句中的位置"
        "（训练前 {before}；在 {n} 个源位置上平均分配为 {uniform}）。排序并不需要看那一个位置——模型可以改为数字母——"
        "所以答案正确时这个比例也可能很低。"
    ),
    "lab.curves.fig": "{task}：训练损失（左）与留出集准确率（右）",
    "lab.axis.loss": "损失（每个字母，单位：奈特）",
    "lab.axis.accuracy": "留出集准确率",
    "lab.curves.loss": "训练损失",
    "lab.curves.exact": "完全正确的字符串",
    "lab.curves.per_token": "正确的字母",
    "lab.queued": "正在排队：前面还有 {ahead} 个训练（服务器一次只训练 {runs} 个，这样大家的翻译都不会变慢）。轮到你时会自动开始。",
    "lab.cancel": "取消",
    "lab.running": "训练中……随时可以改变注意力类型、层或头，训练会继续。",
    "lab.tested": (
        "**有什么保证。** 应用自带的检查用这些设置训练复制和倒序（最多 {steps} 步、{seconds} 秒计算，"
        "随机种子固定：在这里用同一任务训练就是同一次训练），要求留出字符串中至少 {exact} 完全正确，并且有一个交叉注意力头"
        "把至少 {share} 的权重给答案字母所来自的源位置；未训练的模型约为 {uniform}。"
    ),
}
