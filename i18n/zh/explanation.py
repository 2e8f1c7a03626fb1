"""“注意力是解释吗？”页面。"""

STRINGS: dict[str, str] = {
    "nav.explanation": "注意力是解释吗？",
    "explain.title": "注意力是解释吗？",
    "explain.intro": (
        "注意力显示解码器看向了哪里；归因显示输出依赖于什么。两者一致吗？"
    ),
    "explain.tab.maps": "1 · 注意力与归因并排",
    "explain.tab.heads": "2 · 哪些头一致",
    "explain.tab.knock": "3 · 屏蔽注意力头",
    "explain.tab.importance": "4 · 头的重要性",
    "explain.tab.align": "5 · 人工词对齐",
    "explain.tab.caveat": "6 · 需要注意的地方",
    "explain.papers.title": "研究怎么说",
    "explain.papers": (
        "- **Jain & Wallace 2019《Attention is not Explanation》**：注意力权重常与基于梯度的重要性不一致，"
        "而且差别很大的注意力可以给出同样的预测。\n"
        "- **Wiegreffe & Pinter 2019《Attention is not not Explanation》**：这取决于“解释”指什么；"
        "注意力可以是一种说得通的解释，但必须检验，不能默认。\n"
        "- **Abnar & Zuidema 2020**：深层的原始注意力混合的是前面各层已经混合过的位置；"
        "*rollout*（注意力展开）把各层的注意力图相乘，追溯到输入词元。\n"
        "- **Voita 等 2019、Michel 等 2019**：大多数头去掉后代价很小；真正重要的少数头各有分工"
        "（位置、句法、罕见词）。"
    ),
    "explain.method": "归因方法",
    "explain.method.integrated_gradients": "积分梯度",
    "explain.method.input_x_gradient": "输入 × 梯度",
    "explain.maps.attribution": "归因（{method}）",
    "explain.maps.head": "交叉注意力 · 第 {layer} 层 · 第 {head} 个头",
    "explain.maps.layer": "交叉注意力 · 第 {layer} 层 · 平均",
    "explain.maps.rollout": "展开到第 {layer} 层",
    "explain.maps.value": "占比",
    "explain.maps.caption": (
        "行：正在写出的输出词元；列：源语言词元（键）。归因表示每个源语言词元的嵌入对该输出词元对数概率的影响有多大，"
        "以 |归因| / 行总和 表示，因此与注意力同在 0–1 刻度上。在这句话上与归因的一致程度（对源语言词元求 Spearman ρ，"
        "再对各步取平均；top-1：两者最看重同一个词元）：这个头 ρ = {head_rho}，top-1 {head_top1}；"
        "该层平均 ρ = {layer_rho}，top-1 {layer_top1}；展开 ρ = {roll_rho}，top-1 {roll_top1}。"
    ),
    "explain.gap": (
        "积分梯度的完备性检验（从零嵌入到真实嵌入的路径上取 {points} 个点）：各归因之和与沿这条路径的对数概率变化相差"
        "不超过 {gap}（最差一步，相对值）。路径上的点会逐步加密，直到误差不超过 {bound}，最多 {most} 个点。"
    ),
    "explain.heads.header": "哪些头与归因一致？",
    "explain.heads.sentence": "这句话（{method}）：每个交叉注意力头的 Spearman ρ",
    "explain.heads.dev": "{n} 个未见过的开发集句子：平均 ρ",
    "explain.heads.rows": "层",
    "explain.heads.cols": "头",
    "explain.heads.value": "ρ",
    "explain.heads.dev_missing": (
        "这个检查点还没有开发集上的一致性统计：运行 python -m evaluation.agreement --dev DEV.tsv --train TRAIN.tsv 来测量。"
    ),
    "explain.heads.dev_summary": (
        "在 {n} 个未见过的开发集句子上（积分梯度）：最一致的头是第 {best_layer} 层第 {best_head} 个头"
        "（ρ = {best_rho}，top-1 {best_top1}）；第 1 层各头平均 ρ = {first_rho}；最后一层的头平均 ρ = {last_rho}"
        "（top-1 {last_top1}），展开 ρ = {roll_rho}（top-1 {roll_top1}）。"
    ),
    "explain.knock.header": "屏蔽一些头并重新翻译",
    "explain.knock.pick": "要屏蔽的头",
    "explain.knock.all_cross": "全部交叉注意力头",
    "explain.knock.head": "{kind} · 第 {layer} 层 · 第 {head} 个头",
    "explain.knock.placeholder": "选择要屏蔽的头",
    "explain.knock.none": "在上面选择要屏蔽的头：这句话会在这些头的输出置零后重新翻译。",
    "explain.knock.result": "完整模型：**{plain}** —— 屏蔽 {n} 个头后：**{knocked}**",
    "explain.knock.same": "译文没有变化：这句话不需要这些头。",
    "explain.knock.map_title": "屏蔽这些头之后：交叉注意力，第 {layer} 层，各头平均",
    "explain.knock.map_plain_title": "完整模型：交叉注意力，第 {layer} 层，各头平均",
    "explain.knock.changed": "变化的输出词元标有 ✱（{total} 个中的 {changed} 个）。",
    "explain.importance.header": "每个头在开发集上有多重要",
    "explain.importance.intro": (
        "每次只屏蔽一个头，在 {pairs} 个开发集句对上（贪心解码）：完整模型 BLEU {bleu}。没有哪一个头单独屏蔽后"
        "使 BLEU 下降超过 {worst}（{worst_head}）。按重要性从低到高依次屏蔽各头，直到 BLEU 的下降超出随机波动："
    ),
    "explain.importance.chance": (
        "在这 {pairs} 个句对上，BLEU 仅因随机因素就会波动 ±{chance}（对句对做 1,000 次自助重采样，取 95% 区间的一半）："
        "下降小于它的头都在噪声之内。"
    ),
    "explain.importance.kind": "{kind}：屏蔽 {total} 个头中的 {n} 个后 BLEU 为 {kept}；全部屏蔽后为 {none}。",
    "explain.importance.drop": "单独屏蔽该头时 BLEU 的下降 · {kind}",
    "explain.importance.missing": "这个检查点还没有各头重要性的统计：运行 python -m model.training.heads --dev DEV.tsv 来测量。",
    "explain.pruning.title": "按重要性从低到高屏蔽各头时的 BLEU",
    "explain.pruning.removed": "屏蔽的头数",
    "explain.pruning.bleu": "开发集 BLEU",
    "explain.align.header": "注意力与人工词对齐一致吗？",
    "explain.align.intro": (
        "{pairs} 个未见过的开发集句对由人工对齐（英文单词 × 中文汉字，分 *确定* 与 *可能* 两种链接；"
        "见 evaluation/alignment/GUIDELINE.md）。每个句对连同参考译文一起输入模型（教师强制），每个汉字链接到某个头"
        "权重最大的英文单词（子词权重相加为单词权重），再用对齐错误率（AER：0 表示与人工对齐相同，1 表示毫无共同之处）"
        "打分。最好的头是第 {best_layer} 层第 {best_head} 个头，AER 为 {best}；错后一步读（读入所写汉字的那一步："
        "Chen 等 2020），第 {shifted_layer} 层第 {shifted_head} 个头为 {shifted}。完全不用注意力、只靠词语统计的 "
        "IBM 模型 1 为 {baseline}：注意力的对齐远不如 1993 年的基线。"
    ),
    "explain.align.col.aligner": "链接取自",
    "explain.align.row.head_plain": "交叉注意力 · 第 {layer} 层 · 第 {head} 个头",
    "explain.align.row.head_shifted": "交叉注意力 · 第 {layer} 层 · 第 {head} 个头，错后一步（读入该字的那一步）",
    "explain.align.row.layer_plain": "交叉注意力 · 第 {layer} 层 · 各头平均",
    "explain.align.row.layer_shifted": "交叉注意力 · 第 {layer} 层 · 各头平均，错后一步",
    "explain.align.row.attribution": "归因（{method}）",
    "explain.align.row.baseline": "IBM 模型 1（在训练集上做 5 轮 EM；不用注意力）",
    "explain.align.missing": (
        "此检查点还没有对齐评分：运行 python -m evaluation.alignment --dev DEV.tsv --train TRAIN.tsv 即可测得。"
    ),
    "explain.align.no_dev": (
        "人工对齐的句子在运行时从 Tatoeba 开发集读取（项目只保存行号和链接）；此处无法读取（{path}：{error}）。"
    ),
    "explain.align.pick": "人工对齐的句子（Tatoeba，tatoeba.org，CC-BY 2.0 FR）",
    "explain.align.rows": "查询：写出的中文汉字（参考译文）",
    "explain.align.cols": "键：英文单词",
    "explain.align.not_characters": "这个模型不是一个字一个词元地写出这句参考译文，所以它的图无法与人工对齐叠放。",
    "explain.align.caption": (
        "开发集第 {line} 行。方框：确定的人工链接（{sure} 个）；细圆圈：可能的链接（{possible} 个）。每行是写出该汉字的"
        "那一步，每列是一个英文单词（单词的权重是其各子词权重之和）。在 {rows} 行中，这个头权重最大的单词有 {hits} 行"
        "落在人工链接上：本句 AER 为 {aer}。"
    ),
    "explain.roles.header": "人工对齐句对上各头的角色",
    "explain.roles.title": "{kind}：每个头的角色及其依据的比例",
    "explain.roles.value": "比例 / AER",
    "explain.roles.previous": "前一个",
    "explain.roles.next": "后一个",
    "explain.roles.sink": "汇点",
    "explain.roles.rare": "罕见词",
    "explain.roles.alignment": "对齐",
    "explain.roles.mixed": "混合",
    "explain.roles.caption": (
        "在 {pairs} 个人工对齐句对上（教师强制）测得。*前一个* / *后一个*：至少 {threshold} 的行中，该头权重最大的位置"
        "是查询的前一个 / 后一个词元（自注意力）。*汇点*：至少 {threshold} 的权重落在 <s>、</s> 或标点上。*罕见词*："
        "至少 {threshold} 的行中，权重最大的是句中（按训练英文计）最不常见的源语言词元。*对齐*：AER（直接读或错后一步读，"
        "即格中数字）与最好的头相差不超过 {margin} 的交叉注意力头。*混合*：都不是；数字是它最大的比例。本图：前一个 "
        "{previous} 个，后一个 {next} 个，汇点 {sink} 个，罕见词 {rare} 个，对齐 {alignment} 个，混合 {mixed} 个。"
    ),
    # 注意力不是解释：需要注意的地方
    "explain.caveat.header": "注意力不是解释（需要注意的地方）",
    "explain.caveat.sinks": (
        "**汇点（sink）。** 一个头的注意力有很大一部分可能落在根本不代表词的词元上：开头的 <s>、结尾的 </s>、"
        "句末的句号。一个没有有用信息可读的头会把权重“停放”在那里（权重之和必须为 1），而热力图会把它画成很强的注意力。"
        "下表是这个句子每一层落在这些词元上的注意力份额（对该层所有头和所有查询位置取平均），以及若每个查询对它能看到的键"
        "均匀分配注意力，这些词元会得到的份额："
    ),
    "explain.caveat.layer": "第 {n} 层",
    "explain.caveat.uniform": "均匀",
    "explain.caveat.most": "超出最多的是{kind}第 {layer} 层：它把 **{share}** 的注意力放在 {token} 上，而均匀注意力只会给 {uniform}。",
    "explain.caveat.residual": (
        "**残差流。** 每一层计算 LayerNorm(x + Attention(x))（后置归一化）：x 即词元自身的向量，绕过注意力原样通过，"
        "注意力权重只描述第二项是怎样混合的——既不说明它与 x 相比有多大分量，也不说明每个值向量有多大。"
        "下表是这个句子每一层注意力子层输出与它所加上的残差之比的平均值 ‖Attention(x)‖ / ‖x‖"
        "（交叉注意力的 x 是解码器经过自注意力之后的状态）："
    ),
    "explain.caveat.residual_result": (
        "比值小的地方，如{kind}第 {layer} 层（{ratio}），离开这一层的大部分是原本进来的东西，不管权重画成什么样。"
        "所以本页用证据检验注意力，而不是直接解读它：见上面的归因（梯度穿过整个模型，包括残差）和屏蔽头的实验。"
    ),
}
