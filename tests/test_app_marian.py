"""AppTest: with a Marian model chosen, every page shows that model's numbers, and the side-by-side page shows both."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from app_pages.shell import registry
from app_pages.state.examples import DEFAULT_SENTENCE
from i18n import strings
from lessons.masks import EXPOSURE_EXAMPLES
from model import Translator
from tests.support.apptest import open_page as open_teaching_page, page_text
from tests.support.tables import as_read
from tests.support.tiny_marian import LANGUAGE, save_tiny_marian
from viz.teaching_inside import architecture_blocks

pytest.importorskip("transformers")
pytest.importorskip("sentencepiece")

APP = str(Path(__file__).resolve().parent.parent / "app.py")
EN = strings("en")
TITLES = {"start": "start.title", "translate": "translate.title", "decoding": "decoding.title",
          "compare": "compare.title", "model_card": "card.title", "qkv": "qkv.title", "masks": "masks.title", "positional": "positional.title",
          "scaling": "scaling.title", "multihead": "multihead.title", "inside": "inside.title", "anatomy": "anatomy.title",
          "training": "training.title", "replay": "replay.title", "lab": "lab.title",
          "explanation": "explain.title", "patching": "patching.title", "poll": "poll.title", "deck": "deck.title",
          "corpus": "corpus.title"}
PAGES = [page.name for page in registry.PAGES]
# Where the text `shown` names is on tabs after the first: each is opened in turn.
SHOWN_IN_TAB = {"qkv": ("live",), "masks": ("exposure",), "explanation": ("heads", "importance")}


@pytest.fixture(scope="module")
def marian_folder(tmp_path_factory):
    """A tiny Marian model in a models folder the server offers (ATTENTION_MODELS_DIR): its name is the choice."""
    from app_pages.state import server

    folder = save_tiny_marian(tmp_path_factory.mktemp("app-marian") / "tiny-marian", languages=True)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(server, "EXTRA_MODELS", folder.parent)
        yield folder.name


def open_page(page: str, marian_folder: str, tab: str | None = None, **state) -> AppTest:
    at = open_teaching_page(page, tab=tab, **{"checkpoint": marian_folder, **state})
    assert not at.error, [e.value for e in at.error]
    return at


@pytest.fixture(scope="module")
def shown(marian_folder) -> dict[str, tuple[str, ...]]:
    """Per page, text that only the chosen Marian model's own numbers produce, from the model loaded here apart from
    the app: its translation, sizes and shapes; or, where a page explains our training run, why it shows nothing."""
    from app_pages.state import server

    ours = Translator.from_checkpoint(server.EXTRA_MODELS / marian_folder, device="cpu")
    result = ours.translate(DEFAULT_SENTENCE, language=LANGUAGE)  # the sidebar's first target language
    c, s, params = ours.config, len(result.source_tokens), f"{sum(ours.parameter_counts.values()):,}"
    # the masks page's exposure example: a random model parts from the reference on the first sentence already
    exposure = ours.translate(EXPOSURE_EXAMPLES[0][0], language=LANGUAGE).translation
    return {
        "start": (), "scaling": (), "poll": (), "deck": (),  # nothing on them depends on the model (a new deck is empty)
        "translate": (f"### {result.translation}", f"checkpoint {marian_folder}"),
        "decoding": (f"**Chinese:** {result.translation}", f"of {len(result.steps)}: the model writes"),
        "compare": (f"**{marian_folder}**", result.translation),
        "model_card": ("A Marian (opus-mt) translation model", f"{params} parameters"),
        "qkv": (f"over all {s} queries of the head",),
        "masks": (f"the model's translation: **{exposure}**",),
        "positional": (f"this model's d_model = {c.d_model}",),
        "multihead": (f"shape ({c.n_encoder_layers}, {c.n_heads}, {s}, {s})",),
        "anatomy": (f"Counted in the loaded model: {params}",),
        "inside": (f"Recomputed for all {s} tokens and {c.d_model} dimensions",),
        "training": (f"{marian_folder} has no training log",),
        "replay": (f"{marian_folder} has no attention snapshots",),
        "lab": (f"(the translation model: {params})",),
        # the shipped model's log holds both: only a model without them says so
        "explanation": ("This checkpoint has no dev-set agreement yet", "This checkpoint has no head importance yet"),
        "patching": ("is a converted Marian model",),
        "corpus": ("is a converted Marian model",),
    }


def test_every_page_lists_under_test(shown):
    assert set(PAGES) == set(shown) == set(TITLES)


@pytest.mark.parametrize("page", PAGES)
def test_every_page_shows_a_marian_models_own_numbers(page, marian_folder, shown):
    texts = []
    for tab in SHOWN_IN_TAB.get(page, (None,)):
        at = open_page(page, marian_folder, tab=tab)
        assert at.selectbox(key="checkpoint").value == marian_folder  # the sidebar says which model the page shows
        assert as_read(at.title[0].value) == EN[TITLES[page]].format(name=marian_folder)
        texts.append(as_read(page_text(at)))
    text = "\n".join(texts)
    assert [snippet for snippet in shown[page] if snippet not in text] == []


def test_in_chinese_a_marian_models_card_is_its_english_one_under_a_chinese_note(marian_folder):
    at = open_page("model_card", marian_folder, lang="zh")
    assert strings("zh")["card.english_only"] in [c.value for c in at.caption]
    assert "A Marian (opus-mt) translation model" in as_read(page_text(at))


def test_the_sidebar_offers_the_models_target_languages(marian_folder):
    at = open_page("translate", marian_folder)
    language = at.selectbox(key="target_language")
    assert language.value == ">>cmn_Hans<<" and ">>yue_Hant<<" in language.options


def test_side_by_side_shows_both_models_translations_and_maps(marian_folder):
    at = open_page("compare", marian_folder, **{"compare.left": "en-zh", "compare.right": marian_folder})
    shown = "\n".join(m.value for m in at.markdown)
    assert "**en\\-zh**" in shown and "**tiny\\-marian**" in shown  # both models, by name
    # ours, after its name on one line (the random Marian's output is whatever it is)
    assert [m.value for m in at.markdown if m.value.endswith(" 我有一个梦想。")]
    assert len(at.get("plotly_chart")) == 2
    # ours has 3 layers and 8 heads, the tiny Marian 2 and 4: picking layer 3, head 8 clamps the Marian side
    at.session_state["compare.layer"], at.session_state["compare.head"] = 2, 7
    at.run()
    captions = "\n".join(c.value for c in at.caption)
    assert "2 layers and 4 heads: showing layer 2" in captions


@pytest.mark.parametrize("typed", ["/etc", "../checkpoints/en-zh", "a" * 99 + "/" + "b" * 99, "owner/name; rm -rf /"])
def test_a_teacher_can_only_add_valid_hub_ids_and_never_a_path(typed, monkeypatch):
    from app_pages.state import server

    monkeypatch.setattr(server, "ALLOW_HUB", True)
    loads = []
    monkeypatch.setattr(server, "load_in_time", lambda load, name: loads.append(name))
    at = AppTest.from_file(APP, default_timeout=240)
    at.run()
    assert at.text_input(key="sidebar.add_model").max_chars == 200  # a browser cannot send a longer entry
    at.text_input(key="sidebar.add_model").input(typed).run()
    assert not at.exception and not loads, "nothing typed that is not a hub id is ever loaded"
    assert any("is not a Hugging Face id" in c.value for c in at.sidebar.caption)
    assert typed not in at.selectbox(key="checkpoint").options


def test_a_hub_id_that_fails_is_not_retried_on_every_rerun(monkeypatch):
    from app_pages.state import server

    monkeypatch.setattr(server, "ALLOW_HUB", True)
    monkeypatch.setattr(server.shared(), "failed", {})
    calls = []

    def fail(load, name):
        calls.append(name)
        server.shared().failed[name] = __import__("time").time()
        raise OSError("offline")

    monkeypatch.setattr(server, "load_in_time", fail)
    at = AppTest.from_file(APP, default_timeout=240)
    at.run()
    at.text_input(key="sidebar.add_model").input("Helsinki-NLP/opus-mt-xx-yy").run()
    assert any("could not be loaded" in c.value for c in at.sidebar.caption)
    at.text_input(key="sidebar.add_model").input("Helsinki-NLP/opus-mt-xx-yy").run()
    assert calls == ["Helsinki-NLP/opus-mt-xx-yy"] and not at.exception
    assert any("failed to load a few minutes ago" in c.value for c in at.sidebar.caption)


def test_a_hub_model_a_teacher_adds_is_offered_to_every_session(monkeypatch, marian_folder):
    from app_pages.state import server

    monkeypatch.setattr(server, "ALLOW_HUB", True)
    monkeypatch.setattr(server.shared(), "hub_models", [])
    monkeypatch.setattr(server, "load_in_time", lambda load, name: None)
    teacher = AppTest.from_file(APP, default_timeout=240)
    teacher.run()
    teacher.text_input(key="sidebar.add_model").input("Helsinki-NLP/opus-mt-en-zh").run()
    assert teacher.session_state["checkpoint"] == "Helsinki-NLP/opus-mt-en-zh"
    student = AppTest.from_file(APP, default_timeout=240)
    student.run()
    assert "Helsinki-NLP/opus-mt-en-zh" in student.selectbox(key="checkpoint").options


def test_students_get_no_server_controls_and_a_passcode_unlocks_them(monkeypatch):
    from app_pages.state import server

    monkeypatch.setattr(server, "PASSCODE", "s3cret code")
    at = AppTest.from_file(APP, default_timeout=240)
    at.run()
    assert not [s for s in at.selectbox if s.key == "teacher.device"]
    at.text_input(key="teacher.passcode").input("guess").run()
    assert any("not the passcode" in c.value for c in at.sidebar.caption)
    assert not [s for s in at.selectbox if s.key == "teacher.device"]
    at.text_input(key="teacher.passcode").input("s3cret code").run()
    assert at.selectbox(key="teacher.device").value == server.shared().device and not at.exception
    monkeypatch.setattr(server, "PASSCODE", "")
    monkeypatch.setattr(server, "is_teacher", lambda: False)  # a browser on another machine, no passcode set
    other = AppTest.from_file(APP, default_timeout=240)
    other.run()
    assert not other.sidebar.expander and not [t for t in other.text_input if t.key == "sidebar.add_model"]


def test_the_decoding_page_shows_a_marian_models_beams(marian_folder):
    """The step's charts and the beam tree are the chosen Marian model's own, recomputed here with a Translator
    loaded apart from the app: the source tokens start with the language tag, the candidates are the first step's,
    and the tree's first column holds the three hypotheses beam search kept, with their log-probabilities."""
    from app_pages.state import server
    from viz.labels import joined_text, token_labels

    at = open_page("decoding", marian_folder, beam=3)
    charts = {chart.key: json.loads(chart.proto.spec) for chart in at.get("plotly_chart")}
    assert at.session_state["decoding.step"] == 1  # the page opens on the first step
    language = at.session_state["target_language"]
    result = Translator.from_checkpoint(server.EXTRA_MODELS / marian_folder).translate(
        DEFAULT_SENTENCE, beam=3, language=language)
    assert result.source_tokens[0] == language
    assert charts["decoding.chart.cross"]["data"][0]["customdata"] == token_labels(result.source_tokens)
    step = result.steps[0]
    candidates = [c.token for c in step.candidates]
    candidates += [] if step.chosen.token in candidates else [step.chosen.token]
    assert charts["decoding.chart.candidates"]["data"][0]["customdata"] == token_labels(candidates)
    (kept,) = [trace for trace in charts["decoding.chart.beam"]["data"]  # the nodes (the legend's swatch has no data)
               if trace.get("name") == EN["beam.kept"] and trace.get("customdata")]
    drawn = sorted((text, round(logprob, 4)) for text, logprob, *_ in kept["customdata"])
    searched = sorted((joined_text(h.tokens), round(h.logprob, 4)) for h in result.beam_steps[0].kept)
    assert drawn == searched and len(drawn) == 3


@pytest.mark.slow
def test_inside_the_transformer_recomputes_every_block_of_a_marian_model(marian_folder):
    """Swish, PE in halves, one shared table, a logits bias: each block's NumPy recomputation still agrees."""
    for block in architecture_blocks(2, 2):
        at = open_page("inside", marian_folder, **{"inside.block": block})
        assert at.success and not at.warning, (block, [w.value for w in at.warning])


def test_anatomy_counts_a_marian_models_parameters_from_its_config(marian_folder):
    """One shared embedding table and the logits bias: the formulas' total is what the loaded model holds."""
    at = open_page("anatomy", marian_folder)
    (total,) = [s.value for s in at.success if s.value.startswith("Total from the formulas")]
    formula, model = re.findall(r"[\d,]+(?=\.)", total)[:2]
    assert formula == model
    assert "does not apply" in "\n".join(m.value for m in at.markdown)  # its d_ff is 2H, not 4H


def test_without_the_optional_packages_the_sidebar_says_how_to_get_them(monkeypatch):
    from app_pages.shell import sidebar

    monkeypatch.setattr(sidebar, "marian_available", lambda: False)
    at = AppTest.from_file(APP, default_timeout=240)
    at.run()
    assert not at.exception
    assert any("pip install -r requirements-marian.txt" in c.value for c in at.sidebar.caption)
    assert not [w for w in at.text_input if w.key == "sidebar.add_model"]
