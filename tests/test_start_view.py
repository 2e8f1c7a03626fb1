"""Start here's view, computed without Streamlit (app_pages/pages/start_view.py): its prepared links are computed from
the shipped models (the cross-attention head that links 梦想 and "dream" in each direction, the step that writes 谁),
keep presentation mode in the address to copy but not in the link opened here, start with the students' address, and
the sentences the session's model gets wrong are offered with its own translations. The checks that were AppTests of
the page; tests/test_app_start.py keeps one AppTest per language of the page as drawn."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import numpy as np
import pytest

from app_pages.components.parts import texts
from app_pages.pages import start_view
from app_pages.state import examples, server
from app_pages.shell.text import in_language, md_escape
from i18n import strings
from model import DEFAULT_BEAM
from model.translation.alignment import word_positions

BASE = "http://192.0.2.7:8501"  # TEST-NET-1: the students' address, as links.student_bases gives it
SENTENCE_ZH = "我有一个梦想。"
NAMES = {"en": ("Chinese", "English"), "zh": ("中文", "英文")}  # (source, target) of zh-en as each interface names them


@pytest.fixture(scope="module")
def translate(request):
    """(sentence, model) → the shipped model's translation at the app's default beam, as the page's translate gives."""
    found = {}

    def run(sentence: str, model: str):
        if model not in found:
            found[model] = request.getfixturevalue({"en-zh": "translator", "zh-en": "zh_translator"}[model])
        return found[model].translate(sentence, beam=DEFAULT_BEAM)
    return run


def offered() -> tuple[str, ...]:
    return tuple(server.model_folders())


def session(lang: str = "en", model: str = "en-zh", presenting: bool = False, **changes) -> start_view.Session:
    languages = ("zh", "en") if model == "zh-en" else ("en", "zh")
    return start_view.Session(**{"lang": lang, "presenting": presenting, "checkpoint": model, "languages": languages,
                                 "offered": offered(), "student_base": BASE, **changes})


def shown(translate, lang: str = "en", **changes) -> start_view.StartView:
    with in_language(lang):
        return start_view.view(session(lang, **changes), translate)


def query(address: str) -> dict:
    return parse_qs(urlsplit(address).query)


def directions() -> list[str]:
    return [name for name in ("en-zh", "zh-en") if name in offered()]


def test_a_prepared_link_opens_its_view_here_and_its_address_keeps_presentation_mode(translate):
    """The link opened here keeps the session's mode (no present in its query); the address to copy opens in
    presentation mode while the teacher presents, and only then."""
    presenting = shown(translate, presenting=True)
    cross = presenting.lessons[0]
    assert cross.page == "translate" and cross.query["kind"] == "cross" and "layer" in cross.query
    assert "present" not in cross.query
    addresses = [lesson.address for lesson in presenting.lessons]
    assert len(addresses) == 2 + len(directions())  # a cross-attention link per offered direction, decoding, Q·K·V
    assert all(query(a)["present"] == ["1"] for a in addresses)
    assert not [lesson for lesson in shown(translate).lessons if "present" in query(lesson.address)]


def test_the_links_are_computed_from_the_model_and_start_with_the_students_address(translator, translate):
    lessons = shown(translate).lessons
    addresses = [lesson.address for lesson in lessons]
    assert all(a.startswith(BASE + "/") for a in addresses) and not [a for a in addresses if "localhost" in a]
    assert {urlsplit(a).path.rsplit("/", 1)[1] for a in addresses} == {"translate", "decoding", "qkv"}
    crosses = [a for a in addresses if "/translate?" in a]
    assert sorted(query(a)["model"][0] for a in crosses) == directions()
    cross = next(a for a in crosses if query(a)["model"] == ["en-zh"])
    assert {"kind", "layer", "head"} <= set(query(cross))
    decoding = next(a for a in addresses if "/decoding?" in a)
    who = translator.translate("Who are you?")
    assert query(decoding)["step"] == [str(next(i for i, token in enumerate(who.output_tokens) if "谁" in token) + 1)]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_cross_caption_states_the_rule_that_chose_its_head_and_the_rows_as_the_map_labels_them(translator,
                                                                                                     translate, lang):
    """The head with the largest mean share over the rows that write 梦 and 想 of dream's weight; the rows named as the
    map labels them (each row writes the next token: 个 and 梦), not as the tokens they write."""
    example = examples.EXAMPLES[0]
    result = translator.translate(example.sentence)
    cols = word_positions(result.source_tokens, example.source_word)
    rows = word_positions(result.output_tokens[:-1], example.target_word)
    share = result.cross[:, :, rows][:, :, :, cols].sum(-1).mean(-1)  # (layers, heads): the caption's own rule
    layer, head = np.unravel_index(int(np.argmax(share)), share.shape)
    assert [result.target_tokens[i] for i in rows] == ["个", "梦"]
    cross = next(lesson for lesson in shown(translate, lang).lessons if lesson.query.get("model") == "en-zh")
    assert (cross.query["layer"], cross.query["head"]) == (layer + 1, head + 1)
    assert f"layer={layer + 1}" in cross.address and f"head={head + 1}" in cross.address
    caption = cross.caption
    assert f"{share[layer, head]:.2f}" in caption and str(layer + 1) in caption and example.target_word in caption
    assert "“个”" in caption and "“梦”" in caption, caption


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("model", ["en-zh", "zh-en"])
def test_where_it_goes_wrong_offers_the_session_models_own_failures_with_its_translations(translate, model, lang):
    """The session's model's failures, in the language it reads, with its translation of each: with zh-en chosen the
    section showed the English sentences and what en-zh made of them."""
    if model not in offered():
        pytest.skip(f"no {model} checkpoint")
    found = shown(translate, lang, model=model)
    source = "zh" if model == "zh-en" else "en"
    assert strings(lang)["start.wrong"] in texts(found.wrong)
    wrong = [s for pair in examples.WRONG_BY_LANGUAGE[source] for s in pair.sentences]
    others = {s for language, pairs in examples.WRONG_BY_LANGUAGE.items() if language != source
              for pair in pairs for s in pair.sentences}
    labels = [link.label for link in found.mistakes]
    assert labels == wrong and not others & set(labels + [lesson.label for lesson in found.lessons])
    assert all(link.page == "translate" and link.query["model"] == model for link in found.mistakes)
    for link in found.mistakes:
        assert md_escape(translate(link.label, model).translation) in link.caption


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_start_here_prepares_one_link_in_each_direction_titled_by_it(translate, lang):
    if "zh-en" not in offered():
        pytest.skip("no zh-en checkpoint")
    found = shown(translate, lang, model="zh-en")
    links = {lesson.query["model"]: lesson for lesson in found.lessons if lesson.page == "translate"}
    assert (links["en-zh"].query["s"], links["en-zh"].query["kind"]) == ("I have a dream.", "cross")
    assert (links["zh-en"].query["s"], links["zh-en"].query["kind"]) == (SENTENCE_ZH, "cross")
    assert f"s={SENTENCE_ZH}" in links["zh-en"].address  # readable on a slide: the characters, not %-escapes
    assert links["en-zh"].label.startswith("English → 中文 (en-zh)")
    assert links["zh-en"].label.startswith("中文 → English (zh-en)")
    source, target = NAMES[lang]
    intro = texts(found.before).split("\n")[1]
    assert intro.index(source) < intro.index(target), intro  # this session's model reads Chinese


def test_the_address_note_says_what_students_open_or_that_only_this_machine_can(translate):
    notes = {name: texts(shown(translate, **changes).before) for name, changes in {
        "local": {"local_only": True}, "localhost": {"own_base": "http://localhost:8501"},
        "same": {"own_base": BASE}}.items()}
    en = strings("en")
    assert en["start.local_only"] in notes["local"]
    assert en["start.student_base"].format(own=md_escape("http://localhost:8501"), students=md_escape(BASE)) in \
        notes["localhost"]
    assert en["start.student_base"].split("{")[0] not in notes["same"] and en["start.local_only"] not in notes["same"]


def test_the_guide_quotes_the_worked_examples_numbers(translate):
    said = texts(shown(translate).before)
    for number in ("112", "96", "0.88", "0.12"):
        assert number in said, number
