"""“注意力是解释吗？”页面。"""

STRINGS: dict[str, str] = {
    "nav.explanation": "注意力是解释吗？",
    "explain.title": "注意力是解释吗？",
    "explain.intro": (
        "注意力显示解码器看向了哪里；归因显示输出依赖于什么。两者一致吗？"
    ),
    "explain.open.agreement": (
        "**注意力与归因**。在 {n} 个未见过的句子上，交叉注意力头给源语言词元排出的顺序与积分梯度相比，平均 Spearman "
        "ρ = {mean}（1 表示顺序完全相同，0 表示毫无关系）；{best}；把最后一层的头合成一张平均图，这张图的 ρ = {last_map}。"
    ),
    "explain.open.best_one": "在这些句子上 {heads} 个头中最好的一个（{named}）达到 {rho}",
    "explain.open.best_tied": "在这些句子上 {heads} 个头中最好的几个并列 {rho}（{named}）",
    "explain.to": "到",  # between an interval's ends
    "explain.head_one": "第 {layer} 层第 {head} 个头",
    "explain.head_many": "第 {layer} 层第 {heads} 个头",
    "explain.open.pruning": (
        "**屏蔽注意力头**。按重要性从低到高逐个去掉，在没有参与排序的 {pairs} 个句对上打分（完整模型 BLEU {whole}）。"
        "下降的 95% 区间含 0 时，{pairs} 个句子无法把它与零区分开——但这并不说明去掉这些头毫无代价："
    ),
    "explain.open.prune.kept": (
        "{kind}：去掉 {total} 个头中的 {n} 个，BLEU 低 {drop}（{low} 到 {high}）；去掉 {next_n} 个时低 {next_drop}"
        "（{next_low} 到 {next_high}），超出偶然误差；全部去掉：BLEU {none}。"
    ),
    "explain.open.prune.first": (
        "{kind}：{total} 个头中即使去掉最不重要的一个，BLEU 也低 {next_drop}（{next_low} 到 {next_high}），"
        "超出偶然误差；全部去掉：BLEU {none}。"
    ),
    "explain.open.prune.all": "{kind}：{total} 个头全部去掉，BLEU 低 {drop}（{low} 到 {high}）：没有哪一步能与零区分开。",
    "explain.open.kind.encoder_self": "编码器自注意力",
    "explain.open.kind.decoder_self": "解码器自注意力",
    "explain.open.kind.cross": "交叉注意力",
    "explain.open.alignment": (
        "**词对齐**。在 {pairs} 个人工对齐的句对上（开发集测试半集中的短句，平均 {words} 个英文单词），对照人工链接的"
        "对齐错误率（越低越好；括号内为 95% 区间）：在另一半句对上选出的最好注意力头为 {chosen_aer}"
        "（{chosen_low}–{chosen_high}）；积分梯度为 {ig_aer}（{ig_low}–{ig_high}）；只靠词语统计、完全不用注意力的 IBM "
        "模型 1 为 {ibm_aer}（{ibm_low}–{ibm_high}）。{longer}"
    ),
    "explain.align.longer": (
        "对较长的句子，这些数字偏乐观：用英译中模型在 20 个更长、更新的 Tatoeba 句对上（按同一份准则对齐）做的检查发现，"
        "每个 AER 都高出 0.09–0.15，先后顺序不变。"
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
        "- **Serrano & Smith 2019《Is Attention Interpretable?》**：把注意力最高的输入置零后，决策常常不变；"
        "按梯度排序去掉输入则更快改变决策：注意力权重高只是重要性的弱信号。\n"
        "- **Wiegreffe & Pinter 2019《Attention is not not Explanation》**：这取决于“解释”指什么；"
        "注意力可以是一种说得通的解释，但必须检验，不能默认。\n"
        "- **Abnar & Zuidema 2020**：深层的原始注意力混合的是前面各层已经混合过的位置；"
        "*注意力累积（rollout）*把各层的注意力图相乘，追溯到输入词元——这是一种估计，它假设每一层按权重的比例传递所读到的"
        "内容（不计值向量的大小、前馈层和 LayerNorm）。本页的注意力累积图是解码器第 L 层的交叉注意力"
        "（对各头取平均）乘以编码器的注意力累积（编码器每层的头平均，残差算作每行的一半）：它只追溯编码器一侧，"
        "不追溯解码器自身的自注意力和残差流。\n"
        "- **Voita 等 2019、Michel 等 2019**：大多数头去掉后代价很小；真正重要的少数头各有分工"
        "（位置、句法、罕见词）。"
    ),
    "explain.method": "归因方法",
    "explain.method.integrated_gradients": "积分梯度",
    "explain.method.input_x_gradient": "输入 × 梯度",
    "explain.maps.attribution": "归因（{method}）",
    "explain.maps.head": "交叉注意力 · 第 {layer} 层 · 第 {head} 个头",
    "explain.maps.layer": "交叉注意力 · 第 {layer} 层 · 平均",
    "explain.maps.rollout": "注意力累积到第 {layer} 层",
    "explain.maps.value": "占比",
    "explain.maps.caption": (
        "行：解码器的各步，每行标的是这一步读入的词元，所以标为 <s> 的一行是写出第一个输出词元的那一步；列：源语言词元"
        "（键）。归因表示每个源语言词元的嵌入对这一步所写词元的对数概率的影响有多大，"
        "以 |归因| / 行总和 表示，因此与注意力同在 0–1 刻度上。在这句话上与归因的一致程度（对源语言词元求 Spearman ρ，"
        "再对各步取平均；top-1：两者最看重同一个词元）：这个头 ρ = {head_rho}，top-1 {head_top1}；"
        "该层平均 ρ = {layer_rho}，top-1 {layer_top1}；注意力累积 ρ = {roll_rho}，top-1 {roll_top1}。"
    ),
    "explain.gap": (
        "积分梯度（从零词元嵌入——保留位置编码——到真实嵌入的直线路径上取 {points} 个点）：每一步的归因之和与该步对数概率"
        "沿这条路径的变化相差不超过 {gap}（最差一步，相对值：误差除以 max(|变化|, 1 奈特)）。路径正是按这条规则构造的——"
        "不断加点，直到误差不超过 {bound}，或点数达到 {most}——所以误差不超过 {bound} 是构造使然，并不能说明分数正确，"
        "而且只在点数上限以内成立：路径到了 {most} 个点就停在那里。{cap}能说明分数正确的"
        "是测试：本项目自己的前向模式实现与 Captum 的积分梯度结果一致。基线很重要：保留位置的零词元嵌入相当于一句长度"
        "相同但没有词的句子，所以分数表示的是这个词（而不是它的位置）有多重要；换一个基线，分数就会不同。"
    ),
    "explain.gap.over": "这句话的路径到了上限，误差仍高于 {bound}。",
    "explain.gap.gold": "在 {pairs} 个人工对齐句对上，有 {above} 个结束时高于 {bound}（最差 {worst}）。",
    "explain.heads.header": "哪些头与归因一致？",
    "explain.heads.sentence": "这句话（{method}）：每个交叉注意力头的 Spearman ρ",
    "explain.heads.dev": "{n} 个未见过的开发集句子：平均 ρ",
    "explain.heads.rows": "层",
    "explain.heads.cols": "头",
    "explain.heads.value": "ρ",
    "explain.heads.dev_missing": (
        "这个检查点还没有开发集上的一致性统计：运行 python -m evaluation.agreement --checkpoint checkpoints/{checkpoint} "
        "--dev DEV.tsv --train TRAIN.tsv 来测量。"
    ),
    "explain.heads.dev_summary": (
        "在 {n} 个未见过的开发集句子上（积分梯度）。**逐个头**（先算每个头自己的 ρ，再对该层各头的 ρ 取平均）："
        "第 1 层 ρ = {first_heads}，第 {last} 层 ρ = {last_heads}；{best}。**每层一张图**（先把各头的权重平均成一张图，再算这张图的 ρ）："
        "第 1 层 ρ = {first_map}（top-1 {first_map_top1}），第 {last} 层 ρ = {last_map}（top-1 {last_map_top1}）；"
        "注意力累积 ρ = {roll_rho}（top-1 {roll_top1}）。请同类相比：平均后的一张图与各头一致度的平均不是同一样东西。"
    ),
    "explain.heads.best_one": "最一致的单个头是{named}（ρ = {rho}，top-1 {top1}）",
    "explain.heads.best_tied": "最一致的几个头并列 ρ = {rho}：{named}（top-1 {top1}）",
    "explain.knock.header": "屏蔽一些头并重新翻译",
    "explain.knock.pick": "要屏蔽的头",
    "explain.knock.all_cross": "全部交叉注意力头",
    "explain.knock.head": "{kind} · 第 {layer} 层 · 第 {head} 个头",
    "explain.knock.placeholder": "选择要屏蔽的头",
    "explain.knock.none": "在上面选择要屏蔽的头：这句话会在这些头的输出置零后重新翻译。",
    "explain.knock.result": "完整模型：**{plain}** —— 屏蔽 {n} 个头后：**{knocked}**",
    "explain.knock.same": "译文没有变化：这句话不需要这些头。",
    "explain.knock.map_title": "屏蔽这些头之后：交叉注意力，第 {layer} 层，仍在使用的 {kept} 个头（共 {heads} 个）的平均",
    "explain.knock.map_title_none": "屏蔽这些头之后：交叉注意力，第 {layer} 层",
    "explain.knock.map_none": (
        "第 {layer} 层的交叉注意力头全部被屏蔽：它们的权重照样算出，但输出被置零，解码器没有通过它们读取任何东西，"
        "所以这一层没有哪张图能描述这次运行。"
    ),
    "explain.knock.map_plain_title": "完整模型：交叉注意力，第 {layer} 层，各头平均",
    "explain.knock.changed": "变化的输出词元标有 ✱（{total} 个中的 {changed} 个）。",
    "explain.importance.header": "每个头在开发集上有多重要",
    "explain.importance.intro": (
        "每次只屏蔽一个头，在选择半集的 {pairs} 个开发集句对上（贪心解码）：完整模型 BLEU {bleu}。屏蔽一个头是成对比较——"
        "同一批句子分别用有这个头和没有这个头的模型翻译——所以噪声要在差值上测量：对句子做 {resamples} 次自助重采样，"
        "两个系统在同一次抽样上打分（Koehn 2004）。单个头的 BLEU 下降的 95% 区间半宽在 ±{narrow} 到 ±{wide} 之间；"
        "{total} 个头中有 {significant} 个的区间不含 0，而仅凭偶然（每个 5%），{total} 个中也会有约 {expected} 个落在区间外。{largest}"
    ),
    "explain.importance.largest_one": (
        "下降最大的是 {drop}（{named}；区间 {intervals}）：这是在同一批句对上测得的 {total} 个下降中最大的一个，"
        "因此部分是这批句对的运气；{total} 个区间中有一个不含 0，正是偶然就会给出的结果。"
    ),
    "explain.importance.largest_tied": (
        "最大的下降 {drop} 由{named}并列（区间 {intervals}）：这是在同一批句对上测得的 {total} 个下降中最大的，"
        "因此部分是这批句对的运气；{total} 个区间中有一个不含 0，正是偶然就会给出的结果。"
    ),
    "explain.importance.largest_test": "在没有参与任何选择的 {pairs} 个测试半集句对上，{drops}。",
    "explain.importance.largest_drop": "{named}的下降为 {drop}（区间 {low} 到 {high}）",
    "explain.importance.largest_untested": (
        "它在测试半集上的下降还没有测量：运行 python -m evaluation.heads --checkpoint checkpoints/{checkpoint} "
        "--dev DEV.tsv --largest-only 来测量。"
    ),
    "explain.importance.pruning": (
        "接着按重要性从低到高依次屏蔽各头。顺序是在上述句对上选出的；每次屏蔽后的 BLEU 则在测试半集的 {held_out} 个"
        "句对上测量（它们没有参与任何选择；完整模型 BLEU {held_out_bleu}），每一步都给出下降的成对区间。"
        "在第一次下降的区间整体高于 0 之前可以去掉的头数——区间含 0 时，{held_out} 个句对无法把下降与零区分开，"
        "这并不说明去掉这些头毫无代价："
    ),
    "explain.importance.kind": (
        "{kind}：去掉 {total} 个头中的 {n} 个，BLEU 为 {kept}，比完整模型低 {drop}（区间 {low} 到 {high}）；"
        "全部去掉后为 {none}。"
    ),
    "explain.importance.kind_first": "{kind}：{total} 个头中没有一个可以白白去掉；全部去掉后为 {none}。",
    "explain.importance.next": "再去掉到第 {n} 个时 BLEU 下降 {drop}（区间 {low} 到 {high}）。",
    "explain.weights_touched": "（发布的权重本身是在整个开发集上选出的，包括测试半集，所以这些测试半集上的数字略微偏高。）",
    "explain.importance.drop": "单独屏蔽该头时 BLEU 的下降 · {kind}",
    "explain.importance.missing": (
        "这个检查点还没有各头重要性的统计：运行 python -m evaluation.heads --checkpoint checkpoints/{checkpoint} "
        "--dev DEV.tsv 来测量。"
    ),
    "explain.pruning.drop": "BLEU 下降（95% 区间）",
    "explain.importance.interval": "95% 区间（成对）",
    "explain.pruning.title": "按重要性从低到高屏蔽各头时的 BLEU",
    "explain.pruning.removed": "屏蔽的头数",
    "explain.pruning.bleu": "测试半集 BLEU",
    "explain.align.header": "注意力与人工词对齐一致吗？",
    "explain.align.intro": (
        "{pairs} 个句对取自开发集测试半集中的短句（平均 {words} 个英文单词），训练中未见过，由人工对齐（英文单词 × 中文汉字，"
        "分 *确定* 与 *可能* 两种链接；见 evaluation/alignment/GUIDELINE.md）。每个句对连同参考译文一起输入模型（教师强制），{how}，"
        "再用对齐错误率打分，对所有句对合并计算（AER：读出的每条链接都是"
        "人工链接（确定或可能）、且每条确定链接都被读出时为 0；毫无共同之处时为 1），并给出对句对自助重采样的 95% 区间。"
        "最好的头在人工对齐的一半句对上选出、在另一半上打分，两半轮流（{picked}）：AER {chosen_aer}"
        "（{chosen_low}–{chosen_high}）。积分梯度（每个{target_unit}链接到 |归因| 最大的{source_unit}）：{ig_aer}（{ig_low}–{ig_high}）。"
        "完全不用注意力、只靠词语统计的 IBM 模型 1：{ibm_aer}（{ibm_low}–{ibm_high}）。{verdict}{layers}{longer}"
    ),
    "explain.align.how.en": "每个汉字链接到某个头权重最大的英文单词（子词权重相加为单词权重）",
    "explain.align.how.zh": (
        "它写出的每个英文单词（由几个子词组成的单词取这几步的平均）链接到某个头权重最大的汉字：同样的人工链接，"
        "只是调转了方向，因为这个模型读的是中文一侧"
    ),
    "explain.align.unit.en": "英文单词",
    "explain.align.unit.zh": "汉字",
    "explain.align.units.en": "英文单词",
    "explain.align.units.zh": "中文汉字",
    "explain.align.intro_live": (
        "{gold} 个句对取自开发集测试半集中的短句（平均 {words} 个英文单词），训练中未见过，由人工对齐（英文单词 × 中文汉字，"
        "分 *确定* 与 *可能* 两种链接；见 evaluation/alignment/GUIDELINE.md）。这个模型（{source} → {target}）还没有存储的对齐评分，所以刚刚在它的"
        "注意力上现场测得（{gold} 个句对中有 {pairs} 个与它的词元对得上）。每个句对连同参考译文一起输入模型（教师强制），"
        "{how}。这些链接用对所有句对合并计算的对齐错误率打分（AER：读出的每条链接都是人工链接、且每条确定链接都被读出时为 0；"
        "毫无共同之处时为 1）。最好的头在一半句对上选出、在另一半上打分，两半轮流（{picked}）：AER {aer}"
        "（{low}–{high}，对句对自助重采样的 95% 区间）。{layers}{longer}归因和 IBM 模型 1 需要对每个句对求梯度、还需要训练集，"
        "所以这里不测：运行 python -m evaluation.alignment --checkpoint checkpoints/{checkpoint} --dev DEV.tsv "
        "--train TRAIN.tsv 可测得并存下全部数字。"
    ),
    "explain.align.layer_better": "把一层的头平均起来反而更好：第 {layer} 层的平均{shifted}达到 {aer}（这一层是在打分所用的同一份人工对齐上挑出的）。",
    "explain.align.layer_worse": "没有哪一层的头平均更好：最好的是第 {layer} 层{shifted}，为 {aer}。",
    "explain.align.shifted": "（后移一步）",
    "explain.align.measuring": "正在 {pairs} 个人工对齐句对上测量注意力（每个模型只测一次）……",
    "explain.align.none_fit": "没有一个人工对齐句对与这个模型的词元对得上（有字不在词表里，或一个词元跨了两个词），无从打分。",
    "explain.align.map_units.en": "每行是写出该汉字的那一步，每列是一个英文单词（单词的权重是其各子词权重之和）。",
    "explain.align.map_units.zh": (
        "每行是写出的一个英文单词（由几个子词组成的单词取这几步的平均），每列是读入的一个汉字（每字一个词元）；"
        "人工链接调转了方向，因为这个模型读的是中文一侧。"
    ),
    "explain.align.head_beats_ig": "选出的头比积分梯度对齐得更好（成对区间）。",
    "explain.align.ig_beats_head": "积分梯度比选出的头对齐得更好（差值的成对区间不含 0）。",
    "explain.align.head_ties_ig": "在这份人工对齐上，选出的头与积分梯度分不出高下（成对区间含 0）。",
    "explain.align.ig_beats_ibm": "积分梯度也胜过 IBM 模型 1。",
    "explain.align.ibm_beats_ig": "IBM 模型 1 比两者都好：注意力、乃至穿过整个模型的归因，在这里都不是最好的词对齐工具。",
    "explain.align.ig_ties_ibm": "在这份人工对齐上，积分梯度与 IBM 模型 1 分不出高下。",
    "explain.align.pick_plain": "第 {layer} 层第 {head} 个头",
    "explain.align.pick_shifted": "第 {layer} 层第 {head} 个头，后移一步",
    "explain.align.col.aligner": "链接取自",
    "explain.align.col.interval": "95% 区间",
    "explain.align.table_caption": (
        "区间：对人工对齐句对做 {resamples} 次自助重采样，每一行用同样的重采样。下面各行中的头是在打分所用的同一份"
        "人工对齐上挑出的，因此它们的 AER 偏乐观；各层平均则没有经过挑选。"
    ),
    "explain.align.row.chosen": "最好的头，在人工对齐的另一半上选出（{picked}）",
    "explain.align.row.integrated_gradients": "归因（积分梯度）",
    "explain.align.row.head_plain": "交叉注意力 · 第 {layer} 层 · 第 {head} 个头（在全部人工对齐上挑出）",
    "explain.align.row.head_shifted": "交叉注意力 · 第 {layer} 层 · 第 {head} 个头，后移一步（读入所写词元的那一步；在全部人工对齐上挑出）",
    "explain.align.row.layer_plain": "交叉注意力 · 第 {layer} 层 · 各头平均",
    "explain.align.row.layer_shifted": "交叉注意力 · 第 {layer} 层 · 各头平均，后移一步",
    "explain.align.row.attribution": "归因（{method}）",
    "explain.align.row.baseline": "IBM 模型 1（在训练集上做 5 轮 EM；不用注意力）",
    "explain.align.missing": (
        "此检查点还没有对齐评分：运行 python -m evaluation.alignment --checkpoint checkpoints/{checkpoint} --dev DEV.tsv "
        "--train TRAIN.tsv 即可测得。"
    ),
    "explain.align.no_dev": (
        "上面的数字是在人工对齐的句子上测得的（句子来自 Tatoeba，tatoeba.org，CC-BY 2.0 FR）。这些句子随应用一起提供，"
        "但这里的副本无法读取。下面的图改用为本应用编写的句子，按同样的规则对齐。"
    ),
    "explain.align.bad_dev": (
        "随应用提供的人工对齐句子与它们的对齐链接对不上了（副本被改动过）。下面的图改用为本应用编写的句子，按同样的规则对齐。"
    ),
    "explain.align.pick_dev": "人工对齐的句子（Tatoeba，tatoeba.org，CC-BY 2.0 FR）",
    "explain.align.pick_example": "示例句子（为本应用编写）",
    "explain.align.source_dev": "开发集第 {line} 行。",
    "explain.align.source_example": "示例 {line}，为本应用编写：不在上面打分的 {pairs} 个句对之中。",
    "explain.align.rows": "查询：写出的{target_units}（参考译文）",
    "explain.align.cols": "键：{source_units}",
    "explain.align.not_characters": "这个模型的词元与这个句对的单词和汉字对不上（有词元跨了两个单位，或有字不在词表里），所以它的图无法与人工对齐叠放。",
    "explain.align.caption": (
        "方框：确定的人工链接（{sure} 个）；细圆圈：可能的链接（{possible} 个）。{units}"
        "在 {rows} 行中，这个头权重最大的一列有 {hits} 行"
        "落在人工链接上：本句 AER 为 {aer}。"
    ),
    "explain.roles.header": "人工对齐句对上各头的角色",
    "explain.roles.missing": (
        "此检查点还没有各头的角色：运行 python -m evaluation.alignment --checkpoint checkpoints/{checkpoint} --dev DEV.tsv "
        "--train TRAIN.tsv 即可测得。"
    ),
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
        "至少 {threshold} 的行中，权重最大的是句中（按训练集中的{source}句子计）最不常见的源语言词元。*对齐*：AER（直接读或后移一步读，"
        "即格中数字）与最好的头相差不超过 {margin} 的交叉注意力头。*混合*：都不是；数字是它最大的比例。本图：前一个 "
        "{previous} 个，后一个 {next} 个，汇点 {sink} 个，罕见词 {rare} 个，对齐 {alignment} 个，混合 {mixed} 个。"
    ),
    # 注意力不是解释：需要注意的地方
    "explain.caveat.header": "注意力不是解释（需要注意的地方）",
    "explain.caveat.sinks": (
        "**汇点（sink）。** 一个头的注意力有很大一部分可能落在根本不代表词的词元上：开头的 <s>、结尾的 </s>、"
        "句号。一个没有有用信息可读的头会把权重“停放”在那里（权重之和必须为 1），而热力图会把它画成很强的注意力。"
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
