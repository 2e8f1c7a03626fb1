"""Names in a Chinese sentence that the Chinese → English model cannot read, so that the page can say so.

The English-reading model swaps a name it never learned for one it knows (names.py); the Chinese-reading one reads
every name as the characters it is written in, and Tatoeba's Chinese sides hold almost no names but 汤姆, 玛丽 and
约翰: 李明是我的好朋友。 comes out as "It's my friend's wrong.", 我叫爱丽丝。 as "I love Mary.", 王先生 as "Pride".
A Chinese name has no capital letter to find it by, so this is a guess from three kinds of evidence:

- a foreign name in its usual transliteration (CC-CEDICT's, cedict_names.tsv: 爱丽丝), but the carriers the model
  learned (names.CARRIERS: 汤姆, 玛丽, 约翰);
- one of the most common surnames before a title (王先生, 李老师) or after 叫 / 姓 (我叫李明, 他姓王);
- one of them, with one or two more characters, opening a clause and followed by what follows a subject
  (李明是…, 张伟在…, 王小红今天…), unless the characters make an everyday word (王子, 孙子, 熊猫).

It finds names, not every name (a surname outside the list, a name in the middle of a clause), and may take a rare
word for one: the page calls them likely names.
"""

from __future__ import annotations

import re
from functools import cache

from .names import CARRIERS, read_table

# The commonest surnames of the 2020 census, in its order (about 85 % of the population), less those that open
# common words too often to be told from a name without a dictionary (高, 马, 黄, 周, 林, 何, 金, 白, 方, 石, 田, 江,
# 钱, 汤, 叶, 许, 谢, 常, 文, 万, 龙, 夏, 余, 于, 任, 史, 毛, 武, 曾, 易, 康, 雷, 段, 孔, 陆, 苏, 程, 丁, 胡, 朱, 钟).
SURNAMES = ("王李张刘陈杨赵吴徐孙郭罗梁宋郑韩唐冯董萧曹袁邓傅沈彭吕卢蒋蔡贾魏薛阎潘杜戴汪姜范姚谭廖邹熊"
            "郝崔邱秦顾侯邵孟尹黎贺赖龚")
TITLES = ("先生", "女士", "小姐", "太太", "夫人", "老师", "医生", "大夫", "经理", "教授", "同学", "阿姨", "叔叔", "师傅",
          "老板", "警官", "律师")
# What follows a subject in an everyday sentence: a verb or adverb the name is the subject of, or the clause's end.
AFTER_SUBJECT = ("是", "在", "说", "和", "跟", "今天", "昨天", "明天", "也", "都", "很", "不", "没", "要", "会", "想",
                 "喜欢", "去", "来", "有", "给", "住", "的", "，", "。", "！", "？", "、")
# Everyday words that a listed surname or a transliteration opens, which the rules would take for a name (the ones
# Tatoeba's 27,998 Chinese sentences showed: 麦克风 is a microphone, not Mike).
WORDS = ("王子", "王国", "王后", "孙子", "孙女", "熊猫", "张开", "杨树", "李子", "陈旧", "顾客", "秦朝", "唐朝", "宋朝",
         "范围", "杜鹃", "戴上", "罗马", "董事", "麦克风", "马拉松")
_SURNAME = f"[{SURNAMES}]"
_TITLED = re.compile(rf"({_SURNAME}(?:{'|'.join(TITLES)}))")
_INTRODUCED = re.compile(rf"(?:叫|姓)({_SURNAME}[\u4e00-\u9fff]{{0,2}}?)(?=[，。！？、,.!?]|$)")
_OPENING = re.compile(rf"(?:^|[，。！？、；,.!?;]|和|跟)({_SURNAME}[\u4e00-\u9fff]{{1,2}}?)"
                      rf"(?={'|'.join(AFTER_SUBJECT)}|$)")


@cache
def _transliterations() -> tuple[tuple[str, bool], ...]:
    """The table's Chinese names, each with whether the model learned it (the carriers): the learned ones first, so
    that 爱玛 is not found in 爱玛丽 ("love Mary"), then the others longest first (爱丽丝 before 丽丝)."""
    known = {chinese for _, chinese in CARRIERS}
    names = {c for c in read_table().values() if len(c) > 1} | known
    return tuple((name, name in known) for name in sorted(names, key=lambda name: (name not in known, -len(name))))


def unread_names(text: str) -> list[str]:
    """The likely personal names in Chinese `text` that the Chinese → English model cannot read, in order, each once."""
    taken: dict[int, tuple[str, bool]] = {}  # start → (name, learned)

    def free(start: int, name: str) -> bool:
        return not any(start < s + len(other) and s < start + len(name) for s, (other, _) in taken.items()) \
            and not any(text.startswith(word, start) for word in WORDS)

    for name, learned in _transliterations():
        for match in re.finditer(re.escape(name), text):
            if free(match.start(), name):
                taken[match.start()] = (name, learned)
    for pattern in (_TITLED, _INTRODUCED, _OPENING):
        for match in pattern.finditer(text):
            if free(match.start(1), match.group(1)):
                taken[match.start(1)] = (match.group(1), False)
    return list(dict.fromkeys(name for start, (name, learned) in sorted(taken.items()) if not learned))
