"""AppTest: the Inside the Transformer page draws each kind of block from its view, and a link opens its block and
names it. What each block says and the numbers it shows (those of lessons/inside.py), in English and 中文:
tests/test_inside_view.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from app_pages.pages.inside_view import block_name
from app_pages.shell.text import in_language
from model import DEFAULT_CHECKPOINT

APP = str(Path(__file__).resolve().parent.parent / "app.py")
SENTENCE = "I have a dream."

pytestmark = pytest.mark.skipif(
    not (DEFAULT_CHECKPOINT / "model.safetensors").is_file(), reason=f"needs the shipped checkpoint in {DEFAULT_CHECKPOINT}"
)


def open_inside(lang: str = "en", **state) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=180)
    at.session_state["lang"] = lang
    at.session_state["sentence"] = SENTENCE
    for key, value in state.items():
        at.session_state[key] = value
    at.switch_page("app_pages/pages/inside.py")  # the first run draws Inside, not Start here first
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.mark.parametrize("block", ["tgt_embed", "enc.0.self_attn", "dec.0.ffn", "output"])
def test_each_kind_of_block_is_drawn(block):
    """Each kind of section drawn from its view (what it says and computes: tests/test_inside_view.py): the diagram
    and the block's figure, its pickers, a recomputation that agrees, no error."""
    at = open_inside(**{"inside.block": block})
    assert at.selectbox(key="inside.block").value == block
    assert len(at.get("plotly_chart")) >= 2, block  # the diagram and the block's own figure
    assert not at.error and at.success, (block, [e.value for e in at.error])
    token_key = "inside.src_token" if block.startswith("enc") else "inside.tgt_token"
    assert at.selectbox(key=token_key).value == 0
    with in_language("en"):
        assert at.header[0].value == block_name(block)


def test_a_link_opens_its_block_and_names_it():
    at = AppTest.from_file(APP, default_timeout=180)
    at.query_params.update({"block": "dec.1.self_attn", "s": SENTENCE})
    at.switch_page("app_pages/pages/inside.py")
    at.run()
    assert not at.exception
    assert at.header[0].value == "Decoder layer 2 · masked self-attention, add & norm"
    at.selectbox(key="inside.block").set_value("output").run()
    assert at.query_params["block"] in ("output", ["output"])  # the link says what is on screen
