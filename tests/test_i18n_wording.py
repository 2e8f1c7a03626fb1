"""Slips a line-by-line reading of both languages found, kept from coming back: every key a page asks for exists in
en and zh, an English count agrees with its noun ("1 slide", "2 slides"), a page named in the text or in a link is
one of the app's pages by its title, and the Chinese uses one term per concept with full-width punctuation."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from i18n import LANGUAGES, strings, translate_key
from app_pages.shell import navigation

ROOT = Path(__file__).resolve().parents[1]
EN, ZH = strings("en"), strings("zh")
SCRIPTS = [*sorted((ROOT / "app_pages").rglob("*.py")), ROOT / "app.py"]


def t_calls() -> list[tuple[str, ast.Call]]:
    """Every t(...) call in the pages and their components, with where it is."""
    calls = []
    for path in SCRIPTS:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "t" and node.args:
                calls.append((f"{path.relative_to(ROOT)}:{node.lineno}", node))
    return calls


def test_every_key_a_page_asks_for_exists_in_both_languages():
    literal = {call.args[0].value: where for where, call in t_calls()
               if isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str)}
    assert len(literal) > 500  # the scan does find the pages' calls
    assert {key: where for key, where in literal.items() if key not in EN or key not in ZH} == {}


def test_every_key_a_page_builds_starts_like_a_key_of_both_languages():
    """t(f"inside.tensor.{n}"): some key in each language starts with "inside.tensor."."""
    prefixes = {call.args[0].values[0].value: where for where, call in t_calls()
                if isinstance(call.args[0], ast.JoinedStr) and isinstance(call.args[0].values[0], ast.Constant)}
    assert prefixes
    assert {p: w for p, w in prefixes.items() if not any(k.startswith(p) for k in EN) or not any(k.startswith(p) for k in ZH)} == {}


# (key, its other values, the count's name, what it reads for 1, for 2): counts that can be 1 on screen.
COUNTS = [
    ("deck.imported", {}, "n", "Imported 1 slide.", "Imported 2 slides."),
    ("poll.agreed", {"agreed": 1}, "votes", "1 of 1 vote chose it.", "1 of 2 votes chose it."),
    ("decoding.lp.result", {"beam": 4, "own": "1.0"}, "n", "finished this 1 hypothesis", "finished these 2 hypotheses"),
    ("decoding.lp.winner", {"alpha": "0.6", "text": "好"}, "n", "(1 token)", "(2 tokens)"),
    ("multihead.width", {"hidden": 8, "heads": 8}, "d", "= 1 number per head", "= 2 numbers per head"),
    ("positional.rot.check", {"k": 3, "d": 16, "err": "1e-16"}, "n", "for the 1 position", "for all 2 positions"),
    ("inside.out.banned", {"ids": "0"}, "n", "the 1 token id the", "the 2 token ids the"),
    ("training.bleuzh.scores", {"bleu": "1", "chrf": "2", "zh": "a", "words": "a", "bleu13a": "0"}, "n13a",
     "output is 1 token:", "output is 2 tokens:"),
]


@pytest.mark.parametrize(("key", "values", "count", "one", "two"), COUNTS, ids=[c[0] for c in COUNTS])
def test_an_english_count_agrees_with_its_noun(key, values, count, one, two):
    assert one in translate_key("en", key, **values, **{count: 1})
    assert one in translate_key("en", key, **values, **{count: "1"})  # a count the page formatted itself
    assert two in translate_key("en", key, **values, **{count: 2})
    assert "|" not in translate_key("zh", key, **values, **{count: 1})


# A page named in the text: 'the page “Masks”', 'the “Masks” page', '“掩码”页面', '“对比”或“掩码”页面'.
PAGE_MENTION = {
    "en": re.compile(r"page “([^”{]+)”|“([^”{]+)” page"),
    "zh": re.compile(r"[“「]([^”」{]+)[”」](?:或[“「]([^”」{]+)[”」])?(?:页面|页)"),
}


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_a_page_named_in_the_text_is_one_of_the_apps_pages(lang):
    text = strings(lang)
    titles = {v for k, v in text.items() if k.startswith("nav.") and not k.startswith("nav.section.")}
    named = {(key, name) for key, v in text.items() for m in PAGE_MENTION[lang].finditer(v) for name in m.groups() if name}
    assert named  # the pattern does find the mentions
    assert {(key, name) for key, name in named if name not in titles} == set()


# A link drawn now (navigation.page_link) or returned by a view for draw_parts to draw (parts.Link).
LINKING = re.compile(r"(page_link|\bLink)$")


def test_a_link_whose_label_names_its_page_names_it_by_its_title():
    """navigation.page_link("qkv", t(key, page=t("nav.qkv"))): a label that mentions a page takes its title from the
    navigation ("the Q·K·V page" named a page the sidebar calls "Q, K, V walkthrough")."""
    labels = []
    for path in SCRIPTS:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and LINKING.search(ast.unparse(node.func)) and len(node.args) == 2:
                label = node.args[1]
                if isinstance(label, ast.Call) and isinstance(label.args[0], ast.Constant):
                    labels.append((node.args[0].value, label.args[0].value, {kw.arg: ast.unparse(kw.value) for kw in label.keywords}))
    naming = [(page, key, kw) for page, key, kw in labels if re.search(r"\bpage\b", EN[key])]
    assert naming
    for page, key, kw in naming:
        assert "{page}" in EN[key] and "{page}" in ZH[key], key
        assert kw.get("page") == f"t('nav.{page}')", (key, kw)


# One word for one thing on the Chinese pages (issue 25's reading, and the sidebar's and explorer's terms).
BANNED_ZH = {
    "元组": "n-gram: 元语法",
    "后归一化": "post-norm: 后置归一化",
    "前归一化": "pre-norm: 前置归一化",
    "隐藏数": "hidden size: 隐藏维度",
    "源端": "source: 源语言",
    "目标端": "target: 目标语言",
    "源词元": "source token: 源语言词元",
    "目标词元": "target token: 目标语言词元",
    "汇聚点": "attention sink: 汇点",
    "都关注所有源语言词元": "a claim about every head that the maps do not make",
    "平均而言什么都不变": "dropout: 期望值保持不变",
    "「": "quotation marks: “”",
    "」": "quotation marks: “”",
    "（query）": "query: 查询",
    "（key）": "key: 键",
}
BANNED_ZH_PATTERNS = {
    r"(?<![A-Za-z_])nats?(?![A-Za-z_])": "nat: 奈特",
    r"个束(?!宽)": "beam size: 束宽 n",
    r"(?<!个)头 ?\{": "a head: 第 {head} 个头",
    r"[\u3400-\u9fff]\s*[,:;!?]|[,:;!?]\s*[\u3400-\u9fff]": "half-width punctuation in a Chinese sentence",
    r"[\u3400-\u9fff] “|” [\u3400-\u9fff]": "a space beside a Chinese quotation mark",
}


def test_chinese_uses_one_term_per_concept():
    found = {(key, word) for key, v in ZH.items() for word in BANNED_ZH if word in v}
    found |= {(key, m[0]) for key, v in ZH.items() for p in BANNED_ZH_PATTERNS for m in re.finditer(p, v)}
    assert found == set()


def test_chinese_forms_the_issue_asked_for():
    assert ZH["inside.norm.header"] == "残差连接与层归一化（Add & Norm）"
    assert "期望值保持不变" in ZH["training.dropout.text"]
    assert ZH["explorer.head_n"] == "第 {n} 个头"
    assert "后置归一化" in ZH["inside.norm.post"] and "前置归一化" in ZH["inside.norm.post"]
    assert "奈特" in ZH["anatomy.axis.loss"]


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_numbers_the_app_computes_are_not_typed_into_the_text(lang):
    """Start here quoted the worked example's 112, 96, ÷ 8, 0.88 and 0.12 as typed text, and the sidebar the hub's
    10-minute retry: each comes from the code (lessons.worked_example, app_pages.state.server.RETRY_AFTER_S)."""
    text = strings(lang)
    assert {"a", "b", "root", "wa", "wb"} <= {f for f in re.findall(r"\{(\w+)", text["start.steps"])}
    assert not re.search(r"\b(112|96|0\.88|0\.12)\b", text["start.steps"])
    assert "{minutes}" in text["teacher.hub.failed"] and "10" not in text["teacher.hub.failed"]


# The axis titles of attention maps: the explorer's, the teaching pages' and the gold-alignment map's.
MAP_AXES = {"queries": ("axis.encoder_self.queries", "axis.decoder_self.queries", "axis.cross.queries",
                        "teach.axis.queries", "axis.step_query", "explain.align.rows"),
            "keys": ("axis.encoder_self.keys", "axis.decoder_self.keys", "axis.cross.keys", "teach.axis.keys",
                     "explain.align.cols")}
WORDS = {"queries": {"en": "quer", "zh": "查询"}, "keys": {"en": "key", "zh": "键"}}


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
@pytest.mark.parametrize("side", sorted(MAP_AXES))
def test_an_attention_maps_axes_say_which_tokens_are_queries_and_which_keys(side, lang):
    text = strings(lang)
    assert [key for key in MAP_AXES[side] if WORDS[side][lang] not in text[key]] == []


# Teaching slips (issue 48), per language: (key, the wrong claim that must be gone, the corrected one).
SLIPS = {
    "en": [
        ("multihead.why.text", "cannot put nearly all of its weight on two keys at once",
         "cannot give each of two keys nearly all of its weight"),
        ("positional.ext.alternatives", "q·k depends on i − j only", "q·k depends on position only through i − j"),
        ("positional.ext.alternatives", "a penalty −m·\\|i − j\\| added to each score |",
         "m a fixed slope per head, not learned"),
        ("anatomy.dead.note", "cannot come back", "may lift it above 0 again"),
        ("scaling.emb.init", "kept them near that size", "median row is {raw} long"),
        ("training.toy.text", "diverges once lr ≥", "swings between ±w₂ forever, above that it diverges"),
        ("training.lr.text", "is about lrate in size", "roughly bounded by lrate"),
        ("whatif.flag.measured", "<never said>", "No flag does not mean nothing was omitted"),
        ("whatif.flag.unmeasured", "<never said>", "no flag does not mean nothing was omitted"),
        ("whatif.none", "<never said>", "That does not mean nothing was omitted."),
    ],
    "zh": [
        ("multihead.why.text", "不能同时把几乎全部权重放在两个键上", "不能同时给两个键各自几乎全部的权重"),
        ("positional.ext.alternatives", "q·k 只取决于 i − j", "q·k 对位置的依赖只通过 i − j"),
        ("positional.ext.alternatives", "惩罚 −m·\\|i − j\\| |", "m 是每个头固定的斜率，不经学习"),
        ("anatomy.dead.note", "再也回不来", "可能重新越过 0 而再次激活"),
        ("scaling.emb.init", "大致保持这个大小", "源语言嵌入表每行长度的中位数是 {raw}"),
        ("training.toy.text", "一旦 lr ≥", "来回摆动、永不收敛，再大就发散"),
        ("training.lr.text", "大约就是 lrate 那么大", "大致不超过 lrate"),
        ("whatif.flag.measured", "<never said>", "没有提示并不表示没有遗漏"),
        ("whatif.flag.unmeasured", "<never said>", "没有提示并不表示没有遗漏"),
        ("whatif.none", "<never said>", "这并不表示没有遗漏"),
    ],
}


@pytest.mark.parametrize("lang", sorted(SLIPS))
def test_teaching_slips_are_gone_and_the_corrected_claims_are_there(lang):
    text = strings(lang)
    assert [(key, wrong) for key, wrong, _ in SLIPS[lang] if wrong in text[key]] == []
    assert [(key, right) for key, _, right in SLIPS[lang] if right not in text[key]] == []


def test_chinese_slips_a_reading_found_are_gone():
    """开发集 everywhere (not "dev 集"), no space between 个头 and the Chinese after it, a space around a digit."""
    found = {(key, m[0]) for key, v in ZH.items()
             for m in re.finditer(r"dev ?集|个头 (?=[\u3400-\u9fff])|用0", v)}
    assert found == set()
