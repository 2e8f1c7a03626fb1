"""The live lab: a small Transformer trained in the browser"""

STRINGS: dict[str, str] = {
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
        "**反对角线。** 第 {layer} 层第 {head} 个头在写答案第 i 个字母（从 0 数起）时，现在把 {share} 的交叉注意力给了"
        "与它对称的源句字母，即第 {mirror} − i 个（源句的 {letters} 个字母编号为 0 到 {mirror}）；训练前是 {before}，"
        "约等于在 {n} 个源位置（含 </s>）上平均分配的注意力（{uniform}）。"
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
    "lab.queued": "正在排队：前面还有 {ahead} 个训练（服务器一次只训练 {runs} 个，这样大家的翻译都不会变慢）。大约 {seconds} 秒后轮到你，届时会自动开始。",
    "lab.cancel": "取消",
    "lab.running": "训练中……随时可以改变注意力类型、层或头，训练会继续。",
    "lab.tested": (
        "**有什么保证。** 应用自带的检查用这些设置训练复制和倒序（最多 {steps} 步、{seconds} 秒计算，"
        "随机种子固定：在这里用同一任务训练就是同一次训练），要求留出字符串中至少 {exact} 完全正确，并且有一个交叉注意力头"
        "把至少 {share} 的权重给答案字母所来自的源位置；未训练的模型约为 {uniform}。"
    ),
}
