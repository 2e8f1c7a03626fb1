"""“模型是怎样训练的”页面。"""

STRINGS: dict[str, str] = {
    "nav.training": "模型是怎样训练的",
    "training.title": "随应用发布的模型是怎样训练的",
    "training.missing": (
        "{folder} 中的检查点没有记录训练参数的训练日志。"
        "本页根据一次训练自己的日志来讲解，因此这里没有可显示的内容。"
    ),
    "training.intro": (
        "本应用加载的模型（{params} 个参数）在 {pairs} 对{source}–{target}句子上训练了 {steps} 步（{epochs} 轮），"
        "用时 {minutes} 分钟，设备是 {hardware}，精度 {precision}；并在 {dev} 对开发集句子上评分。"
        "下面的每个数字都来自这次训练的日志（和模型存放在一起）、训练程序自己的代码或页面上给出的计算。"
    ),
    "training.intro.bt": (
        "其中 {synthetic} 对是回译得来的：取自 Tatoeba 其他测试集的{real_language}句子，由 {model} 模型译成{synthetic_language}，"
        "并标上 {tag}；{real} 对真实句对每对读了 {copies} 遍。模型卡说明了从中去掉了什么（所有测试句子）以及带来了多少提升。"
    ),
    # ---- 1 · Adam
    "training.tab.adam": "1 · 优化器：Adam",
    "training.adam.settings": (
        "每个训练步都会为每个参数 θ 计算损失的梯度 g，Adam 再把它变成一步更新。**m** 是梯度的滑动平均"
        "（动量：批次之间的噪声会相互抵消；β₁ = {b1} 大约记住最近 {w1} 步）。**v** 是梯度平方的滑动平均："
        "除以 √v 让**每个参数都有自己的步长**，梯度很小的参数（例如罕见词的嵌入）也能和梯度很大的参数一样移动。"
        "两者都从 0 开始，所以在最初几步偏向 0；除以 1 − βᵗ（**偏差修正**）消除了这种偏差。\n\n"
        "训练程序用 **β₁ = {b1}、β₂ = {b2}、ε = {eps}** 构造 PyTorch 的 Adam——这是论文的取值（§5.3），"
        "而不是 PyTorch 的默认值（β₂ = {default_b2}、ε = {default_eps}）。β₂ = {b2} 大约在最近 {w2} 步上"
        "平均 g²，而不是 {default_w2} 步，因此当梯度的量级变化时（训练初期正是如此），步长能很快跟上；"
        "ε = {eps} 只用来保证除法不会除以零。每一步之前，所有参数的梯度合起来的范数会被缩小到不超过 {clip}"
        "（clip_grad_norm_），这样一个坏批次不会把模型推得太远。这个裁剪是**我们加的，不是论文的**："
        "论文的训练方案（§5.3）里没有梯度裁剪。我们加上它，是因为我们的批次很小（约 {tokens} 个词元，论文是 25,000 个），"
        "一个反常的批次分量更重。"
    ),
    "training.toy.header": "在一个玩具损失上比较 Adam 和普通梯度下降",
    "training.toy.text": (
        "两个参数，损失为 ½·({a}·w₁² + {b}·w₂²)：这是一条山谷，横向（w₂）比纵向（w₁）陡 {ratio} 倍。"
        "起点 (w₁, w₂) = ({w1}, {w2})，每种方法各走 {steps} 步。梯度下降（w ← w − lr·g）每一步把 w₂ 乘以 1 − lr·{b}："
        "lr = 2/{b} = {limit} 时它在 ±w₂ 之间来回摆动、永不收敛，再大就发散，所以只能用 lr = {sgd_lr}；于是它在平缓方向上的步子非常小。"
        "Adam 用 lr = {adam_lr}，β₁、β₂ 和 ε 与这次训练相同。"
    ),
    "training.toy.sgd": "梯度下降，lr = {lr}",
    "training.toy.adam": "Adam，lr = {lr}",
    "training.toy.fig": "两种优化器在玩具损失等高线上各走 {steps} 步",
    "training.toy.loss": "损失",
    "training.toy.step": "步",
    "training.toy.update": "Δw",
    "training.toy.result": (
        "{steps} 步之后，损失从 {start} 降到：梯度下降 **{sgd}**（w₁ = {sgd_w1}），Adam **{adam}**（w₁ = {adam_w1}）。"
        "下面逐个数字列出 Adam 的前三步："
    ),
    "training.toy.first": (
        "第 1 步的梯度是 {g1} 和 {g2}，相差 {ratio} 倍，但两个参数移动的距离相同，方向都与各自梯度的符号相反："
        "Δw₁ = {u1}，Δw₂ = {u2}（Δw = −lr·m̂/(√v̂ + ε)，所以 |Δw| = lr = {lr}）。"
        "偏差修正使 m̂₁ = g、√v̂₁ = |g| 恰好成立，所以第一步是 Δw = −lr·g/|g|。如果没有偏差修正，"
        "m₁ = {c1}·g、√v₁ = √{c2}·|g|，第一步只有 {nobias} × lr。"
    ),
    # ---- 2 · warm-up
    "training.tab.lr": "2 · 学习率",
    "training.lr.text": (
        "Adam 对每个参数的一步大致不超过 lrate（见上一节；只是近似的上界，并不严格：Kingma & Ba §2.1），所以这个调度决定了模型每步移动多远。"
        "这次训练：d_model = {d}、warmup = {warmup}、factor = {factor}。第 1 步的学习率是 {first}；"
        "之后线性增长，到 step = warmup 时达到峰值，此时 min() 的两项相等：factor · d_model^−0.5 · warmup^−0.5 = **{peak}**。"
        "训练程序在第 {logged_step} 步记录的是 {logged}。之后按 1/√step 下降，到最后一步（第 {last_step} 步）为 {last}。"
    ),
    "training.lr.fig": "这次训练每一步的学习率（d_model = {d}，warmup = {warmup}）",
    "training.lr.why": (
        "为什么要预热：一开始权重是随机的，Adam 的滑动平均只见过很少的梯度，全尺寸的一步会把模型推到难以回头的地方"
        "（像本模型这样的后置归一化（post-norm）Transformer 没有预热就容易发散）。为什么要下降：后期较小的步子"
        "让模型稳定在一个极小值附近，而不是在它周围来回跳动。"
    ),
    # ---- 3 · dropout
    "training.tab.dropout": "3 · Dropout",
    "training.dropout.embeddings": "词元嵌入 × √d_model + 位置编码，进入第 1 层之前",
    "training.dropout.sublayers": "每个子层（注意力、FFN）的输出，在残差相加和 LayerNorm 之前",
    "training.dropout.attention": "注意力权重，softmax 之后",
    "training.dropout.activation": "FFN 内部，{activation} 之后",
    "training.dropout.text": (
        "这些是模型构建时使用的比率（见它的配置）。这次训练在嵌入和子层输出上用的 dropout 是 {dropout}；"
        "注意力权重上：{attention}；FFN 激活之后：{activation}。词元 dropout（把输入词元换成 <unk>）为 {token}。"
        "训练时，dropout 以概率 p 把每个数置为 0，并把保留下来的数乘以 1/(1 − p) = {keep}，因此期望值保持不变。"
        "下面是它作用在你的句子第一个词元的第 1 层输入的前 {n} 个数上的效果："
    ),
    "training.dropout.same": "未单独设定，因此与总的比率相同",
    "training.dropout.row.input": "输入",
    "training.dropout.row.kept": "保留（1）或丢弃（0）",
    "training.dropout.row.train": "训练时：输出",
    "training.dropout.row.mean": "训练时：{n} 次抽样的平均",
    "training.dropout.row.eval": "推理时：输出",
    "training.dropout.row.dims": "{token} 的维度",
    "training.dropout.inference": (
        "推理时 dropout 是关闭的：应用中的模型处于 eval 模式（Translator 调用了 model.eval()），"
        "每个 nn.Dropout 都原样输出它的输入，注意力权重也按计算结果使用。由于训练时已经对保留的数做了放大，"
        "推理时的输出大小本来就是对的。"
    ),
    # ---- 4 · label smoothing
    "training.tab.ls": "4 · 标签平滑",
    "training.ls.text": (
        "这次训练用的是 ε = {eps}。对于真实的 {v} 个词元的{target}词表，目标给正确词元 {top}，给其他每个词元 {rest}。"
        "这个目标的熵是每个词元 {floor} 奈特，这是任何模型能达到的最低训练损失；这次训练记录到的最低训练损失"
        "（一个批次的）是 {lowest}。"
    ),
    "training.ls.below": (
        "**为什么开发集损失（最后为 {dev}）低于训练损失（{train}，即第 {epoch} 轮——最后一个完整轮次——"
        "记录下的 {batches} 个批次损失的平均）？** 两者的测量方式不同，这些都不说明开发集的句子更容易。"
    ),
    "training.ls.apart": (
        "**开发集损失（最后为 {dev}）和训练损失（{train}，即第 {epoch} 轮——最后一个完整轮次——"
        "记录下的 {batches} 个批次损失的平均）的测量方式不同。**"
    ),
    "training.ls.reasons": (
        "（1）训练时 dropout 是打开的：记录下的每个训练损失来自一部分数值被置零的网络（第 3 节），"
        "而开发集损失在 eval 模式下计算，dropout 关闭，网络全力工作。"
        "（2）训练损失以平滑后的目标计算，因此不可能低于 {floor}；开发集损失是针对正确词元的普通交叉熵。"
        "（3）记录下的每个训练损失只是该步一个批次的损失，是在模型于该轮次中仍在进步时取的，"
        "开发集损失则是在轮次结束时用当时的权重对整个开发集计算的。"
    ),
    # ---- 5 · batches
    "training.tab.batch": "5 · 分桶批次",
    "training.batch.how": (
        "一个批次是一个张量，所以较短的句子要用填充补到最长句子的长度；填充消耗计算，却什么也学不到。"
        "训练程序先按长度给句子排序（加一点随机噪声，使每轮的批次不同），"
        "然后在“批次大小 × 最长句子长度”不超过 {max_tokens} 个词元预算的前提下填满每个批次，最后打乱批次顺序。"
        "训练程序就是这样给 {train} 对训练句子分批的；这些数据没有随应用发布。"
    ),
    "training.batch.source.dev": (
        "下面的统计在这次训练用来评分的 {n} 对开发集句子上计算：用模型自己的分词器分词，"
        "再用训练程序自己的代码按这次训练的词元预算分批，和训练程序计算开发集损失时的分批完全相同。"
        "*随机*批次由同一个函数在关闭长度排序（随机顺序）的情况下生成，词元预算相同。"
    ),
    "training.batch.source.missing": (
        "这台机器上没有这次训练的开发集文件，所以下面的统计只能用应用自带的句子："
        "{n} 个示例句和探针句，每句配上模型自己的译文。这样的数量远远不够得出可靠的统计；"
        "有开发集文件时，本节会使用其中的句对。"
    ),
    "training.batch.axis": "张量位置（源语言 + 解码器输入）",
    "training.batch.real": "真实词元",
    "training.batch.padding": "填充",
    "training.batch.bucketed": "按长度排序（与训练程序相同）",
    "training.batch.random": "随机顺序，预算相同",
    "training.batch.fig": "{n} 对句子分批后的填充比例，每批最多 {max_tokens} 个词元",
    "training.batch.result": (
        "按长度排序时，这 {n} 对句子分成 {b_batches} 个批次，共 {b_slots} 个张量位置，其中 {b_pad} 是填充。"
        "按随机顺序时，它们分成 {r_batches} 个批次，共 {r_slots} 个位置，其中 {r_pad} 是填充："
        "同样的句子，计算量是 {ratio} 倍。分张量看（排序对随机）：解码器输入的填充是 {b_tgt} 对 {r_tgt}，"
        "源语言是 {b_src} 对 {r_src}：训练程序按目标句的长度排序，"
        "所以同一批次中{source}句子的长度只是大致相近。"
    ),
    # ---- 6 · BLEU
    "training.tab.bleu": "6 · BLEU",
    "training.bleu.intro": (
        "BLEU 把一个译文和参考译文比较：译文中的 1、2、3、4 元语法（n-gram）有多大比例出现在参考译文中"
        "（每个元语法最多按参考译文中出现的次数计），用几何平均合并，再乘以简短惩罚，"
        "这样短而保守的输出就拿不到高分。训练程序用的 sacrebleu 配置是 {signature}（日志中的 BLEU 签名）："
        "{tokenizer}本节使用同样的配置。请输入你对这句话的参考译文，按你自己的译法："
    ),
    "training.bleu.reference": "你的参考译文（{target}）",
    "training.bleu.tok.zh": "tok:zh 把中文切成单个汉字。",
    "training.bleu.tok.en": "tok:13a 在空格和标点处切分英文：一个词元就是一个单词或一个标点。",
    "training.bleu.cleaned.zh": "它会像开发集参考译文一样被清理并转换为简体字。",
    "training.bleu.cleaned.en": "它会像开发集参考译文一样被清理。",
    "training.bleu.placeholder": "输入你会怎样翻译上面这句话",
    "training.bleu.reference_help": "你自己对这句{source}的翻译。{cleaned}",
    "training.bleu.nosignature": "训练日志没有记录 BLEU 签名，因此本节无法按训练程序的方式打分。",
    "training.bleu.empty": "在上面输入一个参考译文，就能逐步看到模型译文相对于它的得分。",
    "training.bleu.normalised.zh": "你的参考译文，像开发集参考译文一样清理并转换为简体之后：",
    "training.bleu.normalised.en": "你的参考译文，像开发集参考译文一样清理之后：",
    "training.bleu.unsupported": "这里无法逐步重算这种 BLEU 配置：{error}",
    "training.bleu.hyp_tokens": "模型的译文（候选译文），按 sacrebleu 的分词：",
    "training.bleu.ref_tokens": "你的参考译文，按 sacrebleu 的分词：",
    "training.bleu.col.matches": "匹配数 / 元语法数",
    "training.bleu.col.precision": "精确率 pₙ（%）",
    "training.bleu.col.matched": "匹配的元语法",
    "training.bleu.smoothed": (
        "* 这一阶没有任何元语法匹配。签名中的 exp 平滑不记为 0（那会让整个分数变成 0），而记为 1/(2ᵏ · 元语法数)，"
        "k 是到这一阶为止没有匹配的阶数。"
    ),
    "training.bleu.zero.short": (
        "为什么是 0：译文不足 {n} 个词元，因此一个 {n} 元语法也没有。它的 {n} 元语法精确率是 0/0，按 0 计；"
        "几何平均里只要有一个因子为 0，结果（也就是 BLEU）就是 0。平滑只修补“有元语法但没有匹配”的阶数。"
        "按字符 n 元语法计算的 chrF 仍给这一对 {chrf}。"
    ),
    "training.bleu.zero.nomatch": (
        "为什么是 0：任何阶数的元语法都没有与参考译文匹配，平滑无从缩放，BLEU 为 0。"
        "按字符 n 元语法计算的 chrF 给这一对 {chrf}。"
    ),
    "training.bleu.check": "逐步计算：**{mine}**。sacrebleu 对同一对句子给出的分数：**{theirs}**。两者相同。",
    "training.bleu.mismatch": "逐步计算得到 {mine}，但 sacrebleu 给出 {theirs}：上面的重算有错误。",
    "training.bleu.noisy": (
        "为什么单句 BLEU 噪声很大：模型的译文只有 {total} 个 4 元语法，多匹配或少匹配一个 4 元语法就会让 p₄ 变化 {worth} 个点；"
        "一个词元（一个汉字或一个英文单词）不同就可能同时破坏 1 到 {orders} 阶的 {affected} 个元语法。一个正确但措辞与参考译文不同的译文可能得分接近 0，"
        "而一个参考译文永远列不全所有正确的说法。BLEU 是为整个测试集设计的。"
    ),
    "training.bleu.dev.header": "日志中的开发集 BLEU 是什么意思",
    "training.bleu.dev.text": (
        "日志中的 BLEU 是 {n} 对开发集句子上的**语料级** BLEU：先把所有句子的匹配数和元语法数加起来，再统一相除，"
        "所以没有哪一句能单独决定它。*未见过*的部分是开发集中与任何训练句对都相差超过一个词的句对（{unseen} 对）；"
        "发布哪个检查点由它决定。"
    ),
    "training.bleu.dev.best": "单次评估的最好结果：第 {step} 步（第 {epoch} 轮），BLEU {bleu}，未见过部分 {unseen}（贪心解码）",
    "training.bleu.dev.average": "第 {first}–{last} 轮权重的平均：BLEU {bleu}，未见过部分 {unseen}（贪心解码）{chosen}",
    "training.bleu.dev.chosen": "——更高，所以应用加载的就是这个平均模型",
    "training.bleu.dev.final": "发布的权重用束搜索（束宽 {beam}）：BLEU {bleu}，未见过部分 {unseen}",
    "training.bleu.dev.curves": "这次训练逐次评估的训练曲线和开发集曲线在“{page}”页面",
    # ---- 7 · BLEU 用于中文的局限
    "training.tab.bleuzh": "7 · BLEU 与 chrF",
    "training.bleuzh.intro": (
        "第 6 个标签页的开发集 BLEU 只是一个数字，背后有三个选择。**词元：** BLEU 统计相同的词元 n 元语法，而中文书写不用空格，"
        "所以训练程序用 sacrebleu 按 {signature} 打分：tok:zh 把中文切成单个汉字。**一个参考译文：** 开发集的每个句子只有"
        "一个参考译文，任何别的正确说法都会丢掉 n 元语法。**chrF** 改为统计相同的字符 n 元语法（最长 6），在 BLEU 的 4 元语法"
        "一个也对不上时仍给部分分数。下面是本应用自己的课堂句子（从未用于训练）中，模型译文与"
        "我们的参考译文不同的那些；默认显示的是不短于参考译文（BLEU 的简短惩罚不起作用）的句子中，chrF 比 BLEU 多给分最多的一句。读一读两个译文：模型的说法是错了，"
        "还是只是不同？"
    ),
    "training.bleuzh.intro.en": (
        "第 6 个标签页的开发集 BLEU 只是一个数字，背后有三个选择。**词元：** BLEU 统计相同的词元 n 元语法；训练程序用 sacrebleu "
        "按 {signature} 打分：tok:13a 在空格和标点处切分英文，一个词元就是一个完整的单词，“dream”和“dreams”算作不同。"
        "**一个参考译文：** 开发集的每个句子只有一个参考译文，任何别的正确说法都会丢掉 n 元语法。**chrF** 改为统计相同的字符 "
        "n 元语法（最长 6），在 BLEU 的 4 元语法一个也对不上时仍给部分分数。下面是本应用自己的课堂句子（从未用于训练）中，"
        "模型译文与我们的参考译文不同的那些；默认显示的是不短于参考译文（BLEU 的简短惩罚不起作用）的句子中，chrF 比 BLEU "
        "多给分最多的一句。读一读两个译文：模型的说法是错了，还是只是不同？"
    ),
    "training.bleuzh.scores.en": (
        "按单词计算的句子 BLEU：**{bleu}**；chrF：**{chrf}**。按 13a 切分，模型的译文是 {n13a} 个词元：【{words}】。"
    ),
    "training.bleuzh.pick": "句子（{total} 句中有 {n} 句的译文与参考译文不同）",
    "training.bleuzh.col.what": "译文",
    "training.bleuzh.col.text": "{target}",
    "training.bleuzh.reference": "我们唯一的参考译文",
    "training.bleuzh.model": "模型（束宽 {beam}）",
    "training.bleuzh.scores": (
        "按汉字计算的句子 BLEU：**{bleu}**；chrF：**{chrf}**。按汉字切分，模型的译文是这些词元：【{zh}】。"
        "换成 sacrebleu 的默认分词器（13a，只在空格和英文标点处切分），同一个译文只有 {n13a} 个词元：【{words}】；"
        "没有 4 元语法能对上，连 1 元语法也几乎对不上，BLEU 为 **{bleu13a}**。"
    ),
    "training.bleuzh.summary": (
        "在模型译得与参考译文不同的 {n} 句（共 {total} 句）课堂句子中，有 {higher} 句的 chrF 高于句子 BLEU："
        "chrF 并不总是更宽容（译错的词没有相同的字符），但只要有相同的字符，即使没有连续 4 个相同，它也不会降到 0。"
        "只有一个参考译文时，两个分数都分不清换种说法和译错：请读句子本身。"
    ),
    "training.bleuzh.all_exact": "模型对全部 {n} 个课堂句子的译文都与参考译文完全相同：没有可比较的。",
    # ---- 8 · 标签平滑与校准
    "training.tab.calib": "8 · 校准",
    "training.calib.intro": (
        "标签平滑（ε = {eps}，见第 4 个标签页）训练模型给正确词元 {top} 而不是 1 的概率，并给损失设了 {floor} 的下限："
        "它不鼓励模型过于肯定。那么模型的置信度名副其实吗？**可靠性曲线**在它从未训练过的句子上回答这个问题："
        "像训练时那样把开发集每一对的参考译文喂给解码器，在每个位置取模型最可能的下一个词元，按它的概率（**置信度**）"
        "把这些位置分箱。校准良好的模型在每个箱里答对的比例等于它在那里的置信度：曲线沿对角线走。"
        "低于对角线是过度自信，高于对角线是信心不足。"
    ),
    "training.calib.missing": "这个检查点的训练日志里还没有可靠性曲线：它在训练结束后用开发集计算（README 中说明了做法）。",
    "training.calib.fig": "{pairs} 对开发集句子上的可靠性（{positions} 个输出位置，教师强制）",
    "training.calib.confidence": "置信度（最可能词元的概率）",
    "training.calib.right": "答对的比例（即参考译文的词元）",
    "training.calib.model": "我们的模型",
    "training.calib.ideal": "完全校准",
    "training.calib.positions": "位置数",
    "training.calib.result": (
        "期望校准误差（ECE），即各位置到对角线的平均距离（每个箱按其位置数加权）：**{ece}**。"
        "在 {bins} 个箱中有 {over} 个，模型答对的比例低于它的置信度。置信度最高的箱（高于 {low}）占全部位置的 {share}："
        "平均置信度 {conf}，答对 {right}。"
    ),
    "training.calib.verdict.over": (
        "标签平滑在训练时给正确词元定的目标是 {top}；在新句子上，大多数箱里它仍然比实际答对的更有把握，"
        "反复见过训练句对的模型往往如此。正因为这样，翻译页的低置信度标记使用的是在开发集上测得的阈值。"
    ),
    "training.calib.verdict.under": (
        "标签平滑在训练时给正确词元定的目标是 {top}；在新句子上，大多数箱里它答对的比例不低于置信度："
        "可以看出标签平滑让模型不那么绝对。"
    ),
    "training.calib.how": "训练结束后在开发集上计算，保存在检查点的训练日志中。",
}
