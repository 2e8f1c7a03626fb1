"""Decoding's what-if states what evaluation/omissions.py measured of its source-coverage flag on the session's
model (evaluation/omissions.json, under the SHA-256 of the weights), in both directions and both languages; a model
not measured says so (streamlit.testing)."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from app_pages.state import state_keys
from evaluation.omissions import stored
from tests.support.paths import ROOT

# (sentence, a token to force at step 2) per shipped model
MODELS = {"en-zh": ("I have a dream.", "我"), "zh-en": ("我有一个梦想。", "you")}


def coverage_caption(model: str, lang: str) -> str:
    sentence, token = MODELS[model]
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.session_state[state_keys.SENTENCE] = sentence
    at.session_state[state_keys.CHECKPOINT] = model
    at.session_state[state_keys.LANG] = lang
    at.session_state["decoding.step"] = 1
    at.switch_page("app_pages/pages/decoding.py")
    at.run()
    at.text_input(key="whatif.typed").input(token).run()
    at.button(key="whatif.run").click().run()
    assert not at.exception, [e.message for e in at.exception]
    return next(c.value for c in at.caption if "{" not in c.value and ("1;" in c.value or "1；" in c.value))


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("model", sorted(MODELS))
def test_the_coverage_flag_is_said_to_catch_what_was_measured(model, lang):
    checkpoint = ROOT / "checkpoints" / model
    if not (checkpoint / "model.safetensors").is_file():
        pytest.skip(f"needs the shipped checkpoint in {checkpoint}")
    found = stored(checkpoint)
    assert found is not None, "evaluation/omissions.json has no measurement of these weights"
    text = coverage_caption(model, lang)
    share = f"{found['deleted_flagged'] / found['deleted']:.0%}"
    if lang == "en":
        assert (f"in {found['pairs']} gold-aligned pairs" in text
                and f"it flagged {found['deleted_flagged']} of {found['deleted']} deleted words ({share})" in text
                and f"{found['kept_flagged']} of {found['kept']} kept ones" in text)
        more = "more" if found["median_deleted"] > found["median_kept"] else "less"
        assert f"received {more} of the averaged attention" in text
        assert "The flag is weak" not in text
    else:
        assert (f"在 {found['deleted']} 个被删的词中只提示了 {found['deleted_flagged']} 个（{share}）" in text
                and f"{found['pairs']} 对人工对齐的句对" in text)
        assert "这个提示很弱" not in text
    assert f"{found['median_deleted']:.2f}" in text and f"{found['median_kept']:.2f}" in text
    assert "。 " not in text, "Chinese sentences run on without a space"


def test_a_model_not_measured_says_so(monkeypatch):
    import app_pages.components.whatif as whatif

    monkeypatch.setattr(whatif, "stored", lambda checkpoint: None)
    assert "has not been measured on this model" in coverage_caption("en-zh", "en")
