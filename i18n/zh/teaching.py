"""What the teaching pages share (teach.*); each page's own strings are in its module: qkv, masks, positional, scaling,
multihead, anatomy."""

STRINGS: dict[str, str] = {
    # ---- 各教学页面共用
    "teach.sentence.caption": "你的句子（在“翻译与注意力探索”页面设置）和模型的译文：",
    "teach.pick.kind": "注意力类型",
    "teach.pick.layer": "层",
    "teach.pick.head": "头",
    "teach.pick.query": "查询词元",
    "teach.axis.keys": "键（被关注的词元）",
    "teach.axis.queries": "查询（发出关注的词元）",
    "teach.masked": "灰色 = 被掩码（−∞）",
    "teach.dims": "第 {a}–{b} 维",
    "teach.sep": "、",
}
