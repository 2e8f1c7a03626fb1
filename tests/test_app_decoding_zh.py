"""Decoding, Guess first, What-if, Replay, the class poll and the slide deck with a Chinese source and an English
target (the zh-en model), in both interface languages (streamlit.testing).

Each test that needs the zh-en checkpoint asks for the zh_translator fixture, which skips without it. The model is
retrained from time to time, so they check structure and wording (which language each line names, what the charts
are titled, that English pieces are explained), never its translation.
"""

from __future__ import annotations

import json
import re

import pytest
from streamlit.testing.v1 import AppTest

from app_pages.components import polls
from app_pages.state import state_keys
from app_pages.state.poll_store import PollStore
from i18n import strings
from model import WORD_START
from tests.support.paths import ROOT

SENTENCE = "我有一个梦想。"
LANGUAGES = {"en": ("Chinese", "English"), "zh": ("中文", "英文")}  # (source, target) named in each interface
ENGLISH_SENTENCE = re.compile(r"English sentence|英文句子")  # what no line may call a Chinese source


def app(page: str, lang: str, sentence: str = SENTENCE, query: dict | None = None, **state) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.session_state[state_keys.SENTENCE] = sentence
    at.session_state[state_keys.CHECKPOINT] = "zh-en"
    at.session_state[state_keys.LANG] = lang
    for name, value in state.items():
        at.session_state[name.replace("__", ".")] = value
    at.query_params.update(query or {})
    at.switch_page(page)
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def texts(at: AppTest) -> str:
    return "\n".join(str(e.value) for kind in ("title", "markdown", "caption", "success", "warning", "error", "info")
                     for e in at.get(kind))


def chart(at: AppTest, name: str) -> dict:
    (found,) = [c for c in at.get("plotly_chart") if c.proto.id.endswith(name)]
    return json.loads(found.proto.spec)


def axis_title(spec: dict, axis: str) -> str:
    return plain(spec["layout"][axis]["title"]["text"])


def plain(title: str) -> str:
    """A title without its line breaks or spaces, to compare with the text it was made from (a figure breaks it
    where its width needs: "keys (Chinese<br>source tokens)", "键（中文<br>源句词元）")."""
    return "".join(title.replace("<br>", "").split())


def keys_of(lang: str, side: str, language: str) -> str:
    """ "keys (Chinese source tokens)" in `lang`, as plain() leaves it."""
    words = strings(lang)
    return plain(words["axis.keys_of"].format(tokens=words[f"axis.{side}_tokens"].format(language=language)))


def tick_texts(spec: dict, axis: str) -> list[str]:
    return list(spec["layout"][axis].get("ticktext") or [])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_decoding_names_chinese_as_the_source_and_english_as_the_target(zh_translator, lang):
    """The page drawn at a middle step in each language: the intro, the sentence's line and the cross-attention's
    title name Chinese as the source, no line calls it an English sentence, the charts' axes name their languages.
    What every step's view says and draws (first, middle, last step; the beam tree's pieces and path):
    tests/test_decoding_view_zh.py."""
    step = max(1, len(zh_translator.translate(SENTENCE).steps) // 2)
    at = app("app_pages/pages/decoding.py", lang, decoding__step=step)
    text, words, (source, target) = texts(at), strings(lang), LANGUAGES[lang]
    colon = ":" if lang == "en" else "："
    assert f"**{source}{colon}** {SENTENCE} → **{target}{colon}**" in text
    assert words["decoding.cross_title"].format(source=source) in text
    assert words["decoding.intro"].format(source=source) in text
    assert not ENGLISH_SENTENCE.search(text), ENGLISH_SENTENCE.search(text)
    cross, mask = chart(at, "decoding.chart.cross"), chart(at, "decoding.chart.mask")
    assert tick_texts(cross, "xaxis")[:len(SENTENCE)] == list(SENTENCE)
    assert axis_title(cross, "xaxis") == keys_of(lang, "source", source)
    assert axis_title(mask, "xaxis") == keys_of(lang, "target", target)
    assert words["tokens.word_start"] in text
    assert chart(at, "decoding.chart.candidates") and chart(at, "decoding.chart.beam")


def test_a_typed_english_word_is_found_as_its_word_start_piece(zh_translator):
    """Pieces are "▁dream": a student types "dream" (or "▁dream") and means that piece."""
    vocab = zh_translator.tgt_tok
    for word in ("I", "have", "a", "you"):
        token_id = zh_translator.target_token_id(word)
        assert token_id is not None and vocab.tokens([token_id]) == [WORD_START + word], word
        assert zh_translator.target_token_id(WORD_START + word) == token_id
        assert zh_translator.target_token_id(" " + word) == token_id
    assert zh_translator.target_token_id("I have") is None  # two words are two tokens


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_what_if_takes_an_english_word(zh_translator, lang):
    at = app("app_pages/pages/decoding.py", lang, decoding__step=1)
    words = strings(lang)
    assert at.text_input(key="whatif.typed").label == words["whatif.type.en"]
    at.text_input(key="whatif.typed").input("you").run()
    at.button(key="whatif.run").click().run()
    assert not at.exception and not at.warning, [w.value for w in at.warning]
    chips = [m.value for m in at.markdown if m.value.startswith((":red-badge[", ":violet-badge["))]
    assert ":red-badge[▁you]" in chips or ":violet-badge[▁you]" in chips, chips
    at.text_input(key="whatif.typed").input("zzqxv").run()  # no English word: several pieces
    at.button(key="whatif.run").click().run()
    (warning,) = at.warning
    assert warning.value == words["whatif.bad.en"].format(token="zzqxv")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_guess_first_offers_the_pieces_in_word_order_then_reveals(zh_translator, lang):
    at = app("app_pages/pages/decoding.py", lang, decoding__step=1)
    at.toggle(key="decoding.guess").set_value(True).run()
    pick = next(w for w in at.get("button_group") if getattr(w, "key", None) == "decoding.guessing.pick")
    plain = [option.lstrip(WORD_START).casefold() for option in pick.options]
    assert plain == sorted(plain), pick.options  # ▁ aside: "▁a" with the a's, not after every letter
    assert "?" in texts(at)  # the translation stays hidden
    pick.set_value(0).run()
    at.button(key="decoding.guessing.reveal").click().run()
    assert not at.exception
    assert at.success or at.info


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_poll_on_a_chinese_sentence_asks_about_its_characters(zh_translator, monkeypatch, tmp_path, lang):
    monkeypatch.setenv("ATTENTION_DATA_DIR", str(tmp_path))
    result = zh_translator.translate(SENTENCE)
    code = polls.start(result, 1, 2, 1, "zh")
    assert PollStore().poll(code).question["source"] == "zh"
    source = LANGUAGES[lang][0]
    student = app("app_pages/pages/poll.py", lang, query={"code": code}, poll__voter="ana")
    heading = next(m.value for m in student.markdown if m.value.startswith("#### "))
    assert strings(lang)["poll.question"].split("{source}")[1].rstrip("?？") in heading
    assert source in heading and not ENGLISH_SENTENCE.search(texts(student))
    # The written token is read as a word: no ▁ in the question.
    assert WORD_START not in heading
    options = student.radio(key=polls.CHOICE).options
    assert options[:len(SENTENCE)] == list(SENTENCE)
    teacher = app("app_pages/pages/poll.py", lang, query={"code": code, "view": "tally"})
    tally = chart(teacher, "poll.tally")
    axis = strings(lang)["poll.axis.options"].format(source=source)
    assert tally["layout"]["xaxis"]["title"]["text"].startswith(axis)


def test_a_poll_stored_without_its_language_reads_as_english(monkeypatch, tmp_path, translator):
    monkeypatch.setenv("ATTENTION_DATA_DIR", str(tmp_path))
    code = PollStore().create({"kind": "cross", "layer": 0, "head": 0, "sentence": "I have a dream.", "query": "<s>",
                               "writes": "我", "row": 0, "weight": 0.5}, ["▁I", "▁have"], 0)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update({"code": code})
    at.switch_page("app_pages/pages/poll.py")
    at.run()
    assert not at.exception
    assert "which token of the English sentence" in texts(at)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_replay_reads_the_chinese_probes_from_the_log(zh_translator, lang):
    log = zh_translator.training_log or {}
    if not log.get("snapshots"):
        pytest.skip("this zh-en checkpoint has no attention snapshots yet")
    at = app("app_pages/pages/replay.py", lang, replay__snapshot=len(log["snapshots"]) - 1)  # trained: ▁ pieces
    probes = at.selectbox(key="replay.probe").options
    assert probes == log["probes"] and all(re.search(r"[\u4e00-\u9fff]", p) for p in probes)
    text = texts(at)
    assert f"“{probes[0]}”" in text
    assert strings(lang)["tokens.word_start"] in text  # the map's English target pieces, explained
    # The map's axes are titled short in its narrow column (issue 60); the caption under it names the tokens.
    words = strings(lang)
    source = words["axis.source_tokens"].format(language=LANGUAGES[lang][0])
    assert any(source in c.value and words["axis.keys"] in c.value for c in at.caption), source
    assert not ENGLISH_SENTENCE.search(text)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_pinned_decoding_step_is_a_slide(zh_translator, lang):
    at = app("app_pages/pages/decoding.py", lang, decoding__step=2)
    at.button(key="decoding.pin").click().run()
    assert not at.exception
    (slide,) = at.session_state[state_keys.DECK]
    assert slide.query["model"] == "zh-en" and slide.query["s"] == SENTENCE
    deck = app("app_pages/pages/deck.py", lang, deck__slides=[slide], deck__mode="present")
    spec = chart(deck, "deck.chart")
    assert tick_texts(spec, "xaxis")[:len(SENTENCE)] == list(SENTENCE)
    assert axis_title(spec, "xaxis") == keys_of(lang, "source", LANGUAGES[lang][0])
    (title,) = [m.value for m in deck.markdown if m.value.startswith("#### ")]
    assert strings(lang)["deck.decoding_title"].split("{step}")[0] in title and SENTENCE[:3] in title


def test_a_probe_without_its_sentence_in_the_log_is_read_back_from_its_tokens():
    from lessons.replay import sentence_of

    assert sentence_of(["▁I", "▁have", "▁a", "▁dre", "am", ".", "</s>"]) == "I have a dream."
    assert sentence_of(list(SENTENCE) + ["</s>"]) == SENTENCE  # characters together, not "我 有 一 …"
