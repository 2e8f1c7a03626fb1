"""跨语料库：一个头在许多句子上的查询和键（AttentionViz），一种注意力的所有头，在语料库中搜索一个词元（exBERT）。"""

STRINGS = {
    "nav.corpus": "跨语料库",
    "corpus.title": "跨语料库：一个头，每个句子",
    "corpus.intro": (
        "把一个语料库中每个句子在某个头上的所有查询和所有键画在同一张图里（AttentionViz 的画法）。按位置注意的头画出一条按位置排列的带子；"
        "匹配同一个词的头画出一簇簇的点，每个词的查询落在这个词的键上。把鼠标移到点上，可以看到它在句子中的词元；点击它，"
        "就在“翻译与注意力探索”页面中以这个头打开那个句子。"
    ),
    "corpus.view": "视图",
    "corpus.view.head": "一个头",
    "corpus.view.matrix": "所有头",
    "corpus.view.search": "搜索词元",
    "corpus.method": "投影方法",
    "corpus.colour": "着色依据",
    "corpus.colour.role": "查询 / 键",
    "corpus.colour.position": "位置",
    "corpus.colour.token": "词元",
    "corpus.query": "查询",
    "corpus.key": "键",
    "corpus.position": "位置（0 首，1 末）",
    "corpus.other_tokens": "其他词元",
    "corpus.head_title": "{kind}，第 {layer} 层，第 {head} 个头。",
    "corpus.chart_title": "{method}：来自 {sentences} 个句子的 {queries} 个查询和 {keys} 个键。",
    "corpus.hover.query": "查询“{token}”，位置 {position}",
    "corpus.hover.key": "键“{token}”，位置 {position}",
    "corpus.hover.sentence": "语料库第 {n} 句",
    "corpus.adjusted": (
        "键平移了 {shift}，使其中心与查询的中心重合；查询乘以 {c}、键除以 {c}，使两者的平均长度相同：softmax 的每一行都不变。"
        "这张图在多大程度上保留了模型的分数：在同一句子内的 {pairs} 个查询–键对上，q·k 与图中距离的相关系数，"
        "原始向量为 {raw}，调整后的向量为 {adjusted}（−1：查询打分最高的键总是画得最近；0：距离什么也说明不了）。"
    ),
    "corpus.click_hint": "点击一个点，就在“翻译与注意力探索”页面中以这个头打开它的句子。",
    "corpus.download": "下载点的 CSV",
    "corpus.panel": "L{layer} H{head}\nr {r}",
    "corpus.matrix_title": "{kind}：每个头的 PCA 投影，取 {total} 个句子中的 {sentences} 个。",
    "corpus.matrix_hint": (
        "每张小图是一个头的 PCA 投影（r：调整后 q·k 与距离的相关系数）。行为相似的头看起来也相似。点击某个头的一个点，单独打开这个头。"
    ),
    "corpus.projecting": "正在用 {method} 投影 {points} 个点（只算一次，之后保存在磁盘上）… {{seconds}} 秒",
    "corpus.projecting_matrix": "正在用 PCA 投影所有 {heads} 个头（只算一次，之后保存在磁盘上）… {{seconds}} 秒",
    "corpus.running": "正在让模型读完语料库（只算一次，之后保存在磁盘上）：{done} / {total} 个句子",
    "corpus.search_token": "词元",
    "corpus.search_help": "选择这种注意力的查询中出现的一个词元（最常见的在前），或输入一个词：它会按这种注意力的查询的方式切分成词元。",
    "corpus.search_summary": (
        "**{tokens}** 作为查询出现了 {n} 次。它权重最大的键是：{counts}。下面按最大键的权重从大到小列出其中最重的 {shown} 次。"
    ),
    "corpus.search_none": "在语料库中，这种注意力的查询里没有 **{tokens}**。",
    "corpus.count.same_token": "别处的同一个词元 {n} 次",
    "corpus.count.itself": "它自己 {n} 次",
    "corpus.count.next": "下一个词元 {n} 次",
    "corpus.count.previous": "上一个词元 {n} 次",
    "corpus.count.full_stop": "句号 {n} 次",
    "corpus.count.end": "</s> {n} 次",
    "corpus.col.weight": "最大权重",
    "corpus.col.sentence": "词元在句子中",
    "corpus.col.keys": "权重最大的键",
    "corpus.col.number": "句子",
    "corpus.open_sentence": "句子",
    "corpus.open": "在“翻译与注意力探索”页面中以这个头打开",
    "corpus.which": (
        "语料库：{n} 个句子，从{source}译成{target}：{gold} 个黄金句对（Tatoeba，CC-BY 2.0 FR，出处见 "
        "evaluation/alignment/pairs.tsv）、{examples} 个为本应用编写的例句和你的 {user} 个句子。解码器注意力和交叉注意力"
        "用每个句对的参考译文做教师强制（你的句子：用模型自己的译文）。"
    ),
    "corpus.turned": "这些句对是英译中的句对反过来用。",
    "corpus.user_title": "加入你自己的句子",
    "corpus.user_label": "你的句子，每行一句",
    "corpus.user_help": "最多 {n} 句，每句最多 {chars} 个字符，用模型读取的语言。读不了的行会被略去，页面会说明是哪几行。",
    "corpus.user_add": "加入语料库",
    "corpus.problem.empty": "已略去：第 {lines} 行是空的。",
    "corpus.problem.too_long": "已略去：第 {lines} 行超过 {limit} 个字符。",
    "corpus.problem.too_many": "已略去：第 {lines} 行超出了前 {limit} 句。",
    "corpus.problem.markup": "已略去：第 {lines} 行含有标记（<…> 或 &…;），句子用不到它们。",
    "corpus.problem.emoji": "已略去：第 {lines} 行含有表情符号或图形符号，模型从没读过它们。",
    "corpus.problem.other_script": "已略去：第 {lines} 行不是这个模型读取的语言。",
    "corpus.teach_title": "这张图说明什么、不说明什么，以及两个头的解读",
    "corpus.limit.cluster": (
        "一簇点是这个头放在一起的一组查询和键：查询离某个键近，说明这个头给这一对打分高。它画的是分数，不是意思："
        "它说明这个头在比较什么，而不是这些词是什么意思。"
    ),
    "corpus.limit.distance": (
        "投影到二维会扭曲距离：图上靠近的点，在这个头的 {d_k} 维空间里可能相距很远。图下的相关系数说明距离在多大程度上跟随 q·k；"
        "接近 0 时，不要从距离中读出任何东西。"
    ),
    "corpus.limit.tsne": (
        "t-SNE 和 UMAP 保留的是邻居，不是距离：簇的大小和簇之间的间隔没有多少意义，换一个随机种子它们就会移动。"
        "PCA 忠实地保留方差最大的两个方向，但也只保留这两个方向。"
    ),
    "corpus.limit.adjust": (
        "和 AttentionViz 一样，键被平移到查询上，两者缩放到相同的平均长度：给一个查询的每个分数加上同一个数，softmax 不变；"
        "q 乘以 c、k 除以 c，q·k 也不变。所以注意力没有改变，查询和键可以放在同一张图里比较。"
    ),
    "corpus.limit.forced": (
        "解码器注意力和交叉注意力是把参考译文作为解码器输入（教师强制）读出的；“翻译与注意力探索”页面显示的是模型自己的译文，"
        "所以在那里打开的句子，解码器一侧可能不同。"
    ),
    "corpus.readings_pending": "正在根据这个语料库计算两个头的解读…",
    "corpus.reading.positional": (
        "**一个按位置注意的头：{head}** 在语料库的 {queries} 个查询中，{share} % 把最大的权重放在{offset}上。"
        "按位置着色：这些点按它们在句子中的位置排列，不管是什么词。"
    ),
    "corpus.reading.matching": (
        "**一个匹配词元的头：{head}** 在它的 {queries} 个查询中，有 {share} % 在整个语料库里打分最高的键就是查询自己的词元"
        "（碰巧的概率：{chance} %）。按词元着色：每个词的查询落在这个词的键上。"
    ),
    "corpus.reading.no_positional": (
        "**在这个语料库上没有按位置注意的头。** 最接近的是 {head}：{share} % 的最大权重落在同一个偏移上，"
        "低于成为这种头所需的 {threshold} %。"
    ),
    "corpus.reading.no_matching": (
        "**在这个语料库上没有头达到 {threshold} % 的匹配；匹配最多的是 {head}** 在它的 {queries} 个查询中，有 {share} % "
        "在整个语料库里打分最高的键就是查询自己的词元（碰巧的概率：{chance} %）。按词元着色：一个词的查询落在这个词的键上的地方，"
        "就是它在匹配。"
    ),
    "corpus.offset.itself": "查询自己的位置",
    "corpus.offset.previous": "上一个词元",
    "corpus.offset.next": "下一个词元",
    "corpus.show_head": "显示这个头",
    "corpus.roles_title": (
        "**这个语料库上的每个头。** 按位置：至少 {positional} % 的最大权重落在同一个偏移上。"
        "匹配：至少 {matching} % 的查询打分最高的键是它们自己的词元。"
    ),
    "corpus.roles_line": "{kind}：按位置 {positional}；匹配 {matching}；都不是 {neither}。",
    "corpus.not_trained_here": "这个页面需要在这里训练的模型（en-zh 或 zh-en）：{checkpoint} 是转换来的 Marian 模型。请在侧边栏选择我们的模型。",
    "corpus.error": "无法显示这个语料库：{why}",
}
