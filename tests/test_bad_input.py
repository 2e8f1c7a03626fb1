"""Whatever a student types, and whatever state the checkpoint is in: a clear message, nothing breaks.

The same inputs go through the Python API, the CLI and the app. Loader
details (every broken-checkpoint message) are tests/test_checkpoint.py's;
here is what a user of the CLI and the app sees.
"""

from __future__ import annotations

import ast

import json
import unicodedata

import pytest
import torch
from streamlit.testing.v1 import AppTest

from app_pages.state import server, state_keys
from app_pages.shell.text import md_escape
from model import InputError, save_checkpoint
from model.loading.checkpoint import CONFIG, WEIGHTS
from model.translation.cli import main as cli
from model.translation.translator import MAX_BEAM, MAX_CHARS
from tests.support.apptest import app
from tests.support.paths import CHECKPOINT, ROOT
from tests.support.tables import shown_tables
from tests.support.tiny import tiny_model, tokenizers

PASTE = "I have a dream that one day this nation will rise up. " * 1900  # > 100,000 characters
NOTHING_TO_TRANSLATE = {
    "empty": "",
    "blank": "   \n\t  ",
    "zero-width": "\u200b\u200c\u200d\ufeff\u2060",
    "control": "\x00\x07\x1b\x7f",
    "bidi marks": "\u202e\u2066\u2069",
    "word-start marks": "▁▁ ▁",
}
TRANSLATABLE = {
    "punctuation only": "?!...,;:",
    "emoji": "😀🙈👍🏽👨‍👩‍👧",
    "Arabic": "مرحبا بالعالم",
    "Cyrillic": "Привет, как дела?",
    "Chinese into the English box": "我有一个梦想。",
    "mixed scripts": "Hello мир 世界 مرحبا 😀",
    "script tag": "<script>alert(1)</script>",
    "img onerror": "<img src=x onerror=alert(1)>",
    "Markdown": "**bold** [link](javascript:alert(1)) $x^2$ # heading",
    "special-token names": "a <pad> </s> <s> <unk> b",
    "very long word": "pneumonoultramicroscopicsilicovolcanoconiosis" * 3,
    "no spaces": "Ihaveadreamthatonedaythisnationwillriseup",
    "control inside text": "hel\x00lo\u200b wor\x1b[31mld",
    "full-width": "ＨＥＬＬＯ，ｗｏｒｌｄ",
}
SPECIALS = {"<pad>", "<unk>", "<s>", "</s>"}


def invisible_or_control(ch: str) -> bool:
    return unicodedata.category(ch) in {"Cc", "Cf", "Cs", "Co", "Cn"}


# --- Python API -------------------------------------------------------------------------------


@pytest.mark.parametrize("text", NOTHING_TO_TRANSLATE.values(), ids=NOTHING_TO_TRANSLATE.keys())
def test_nothing_to_translate_is_a_clear_input_error(translator, text):
    with pytest.raises(InputError, match="empty or has only invisible characters"):
        translator.translate(text)


@pytest.mark.parametrize("text", TRANSLATABLE.values(), ids=TRANSLATABLE.keys())
def test_odd_but_real_text_translates(translator, text):
    result = translator.translate(text)
    c = translator.config
    assert result.source_tokens[-1] == "</s>" and not SPECIALS & set(result.source_tokens[:-1])
    assert len(result.source_tokens) <= c.max_len and len(result.target_tokens) <= c.max_len
    assert result.cross.shape == (c.n_decoder_layers, c.n_heads, len(result.target_tokens), len(result.source_tokens))
    assert not any(invisible_or_control(ch) for ch in result.source_text + result.translation)
    # The input fits, so nothing was cut from it; a model looping on odd input may still hit the output limit. Chinese
    # to this model reading English is said to be no translation, Chinese among English words to be unfamiliar.
    said = {"Chinese into the English box": ["not_english"], "mixed scripts": ["mixed_chinese"]}.get(
        next(k for k, v in TRANSLATABLE.items() if v == text), [])
    assert [n.key for n in result.notices] in (said, [*said, "output_cut"])


def test_markup_is_kept_as_text(translator):
    result = translator.translate("<script>alert(1)</script>")
    assert result.source_text == "<script>alert(1)</script>"
    assert "<" in result.source_tokens and "script" in "".join(result.source_tokens)


def test_a_100000_character_paste_is_truncated_with_a_notice(translator):
    assert len(PASTE) > 100_000
    result = translator.translate(PASTE)
    assert len(result.source_text) <= MAX_CHARS
    assert len(result.source_tokens) == translator.config.max_len  # 127 tokens + </s>
    assert any(f"{MAX_CHARS} characters" in str(n) for n in result.notices)
    assert any("truncated" in str(n) for n in result.notices)


def test_generated_tokens_are_capped(translator):
    result = translator.translate("no " * 60)
    assert len(result.target_tokens) <= translator.config.max_len


@pytest.mark.parametrize("value", [None, 42, b"bytes", ["a list"]])
def test_non_text_is_an_input_error(translator, value):
    with pytest.raises(InputError, match="must be a string"):
        translator.translate(value)


@pytest.mark.parametrize("settings", [{"beam": 0}, {"beam": MAX_BEAM + 1}, {"top_k": 0}, {"top_k": -1}])
def test_bad_settings_are_input_errors(translator, settings):
    with pytest.raises(InputError):
        translator.translate("Hello.", **settings)


# --- Broken checkpoints ----------------------------------------------------------------------------

# Config files that lie: each must fail as one sentence before anything is built (no traceback, no 8-GB allocation).
LYING_CONFIGS = {
    "n_heads 0": {"n_heads": 0}, "layers 2.5": {"n_encoder_layers": 2.5}, "layers '3'": {"n_encoder_layers": "3"},
    "dropout 2": {"dropout": 2.0}, "dropout 'high'": {"dropout": "high"}, "d_ff 2**31": {"d_ff": 2**31},
    "max_len 1e9": {"max_len": 1e9}, "max_len 2,000,000": {"max_len": 2_000_000}, "eos 99999": {"eos_id": 99999},
    "bos -5": {"bos_id": -5},
}
BREAKAGES = ("missing weights", "truncated", "corrupt", "config mismatch", "pickle that runs code", *LYING_CONFIGS)


def broken_checkpoint(folder, how: str, marker) -> None:
    """A tiny checkpoint in `folder`, then broken in one of the BREAKAGES ways."""
    src, tgt = tokenizers()
    save_checkpoint(folder, tiny_model(), src, tgt)
    weights = folder / WEIGHTS
    if how == "missing weights":
        weights.unlink()
    elif how == "truncated":
        weights.write_bytes(weights.read_bytes()[:1000])
    elif how == "corrupt":
        weights.write_bytes(b"\x00not a tensor file" * 64)
    elif how in LYING_CONFIGS:
        config = json.loads((folder / CONFIG).read_text())
        (folder / CONFIG).write_text(json.dumps({**config, **LYING_CONFIGS[how]}))
    elif how == "config mismatch":
        config = json.loads((folder / CONFIG).read_text())
        (folder / CONFIG).write_text(json.dumps({**config, "d_ff": config["d_ff"] * 2}))
    else:

        class RunsCode:
            def __reduce__(self):
                return (marker.write_text, ("code ran",))

        torch.save({"w": RunsCode()}, weights)


EXPECTED_MESSAGE = {
    "missing weights": "missing model.safetensors",
    "truncated": "corrupt or truncated",
    "corrupt": "corrupt or truncated",
    "config mismatch": "does not match config.json",
    "pickle that runs code": "corrupt or truncated",
    **{how: "is not a valid model config" for how in LYING_CONFIGS},
}


@pytest.mark.parametrize("how", BREAKAGES)
def test_cli_refuses_a_broken_checkpoint_with_a_message(tmp_path, capsys, how):
    folder, marker = tmp_path / "ck", tmp_path / "ran"
    broken_checkpoint(folder, how, marker)
    assert cli(["--checkpoint", str(folder), "Hello."]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and EXPECTED_MESSAGE[how] in err and "retrain" in err
    assert "Traceback" not in err and err.count("\n") == 1
    assert not marker.exists()


# --- CLI ---------------------------------------------------------------------------------------------


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    code = cli(["--checkpoint", str(CHECKPOINT), *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("text", NOTHING_TO_TRANSLATE.values(), ids=NOTHING_TO_TRANSLATE.keys())
def test_cli_nothing_to_translate(capsys, text):
    code, out, err = run_cli(capsys, text)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and ("empty" in err) and err.count("\n") == 1


@pytest.mark.parametrize("name", ["emoji", "mixed scripts", "script tag", "img onerror", "Markdown", "no spaces"])
def test_cli_translates_odd_text(capsys, name):
    code, out, err = run_cli(capsys, TRANSLATABLE[name])
    said = "note: Part of the sentence is in Chinese characters" if name == "mixed scripts" else ""
    assert code == 0 and out.strip() and err.startswith(said) and err.count("\n") == bool(said)


def test_cli_truncates_a_100000_character_line_with_a_note(tmp_path, capsys):
    path = tmp_path / "paste.txt"
    path.write_text(PASTE + "\n\n" + TRANSLATABLE["script tag"] + "\n", encoding="utf-8")
    code, out, err = run_cli(capsys, "--file", str(path))
    lines = out.split("\n")
    assert code == 2  # the blank line is reported by the exit status, not by a crash
    assert len(lines) == 4 and lines[0] and lines[1] == "" and lines[2]  # one output line per input line
    assert f"note: Input was longer than {MAX_CHARS} characters" in err and "truncated" in err


def test_cli_rejects_bad_settings_and_files(tmp_path, capsys):
    assert run_cli(capsys, "--beam", "0", "Hello.")[0] == 2
    code, _, err = run_cli(capsys, "--beam", str(MAX_BEAM + 1), "Hello.")
    assert code == 2 and "beam size" in err
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\xff\xfe\x00bad")
    code, _, err = run_cli(capsys, "--file", str(binary))
    assert code == 2 and "cannot read" in err


# --- App -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "   \n\t  ", "\u200b\u200d\ufeff"], ids=["empty", "blank", "zero-width"])
def test_app_warns_about_nothing_to_translate(text):
    at = app()
    at.text_area(key="translate.input").input(text)
    at.button(key="translate.submit").click().run()
    assert not at.exception
    (warning,) = at.warning
    assert "empty or has only invisible characters" in warning.value
    assert not at.get("plotly_chart")  # no map of some other sentence


def test_app_truncates_on_the_server_whatever_the_browser_sends():
    """A crafted client can send 100,000 characters past the browser's max_chars: the server cuts them."""
    at = app()
    at.text_area(key="translate.input").set_value(PASTE)  # set_value skips the browser's max_chars, input() would not
    at.button(key="translate.submit").click().run()
    assert not at.exception
    assert len(at.session_state[state_keys.SENTENCE]) <= MAX_CHARS
    notices = [n.value for n in at.info]
    assert any("truncated" in n for n in notices), notices
    assert at.get("plotly_chart")


def test_chinese_interface_says_input_errors_and_notices_in_chinese():
    at = app()
    at.session_state[state_keys.LANG] = "zh"
    at.run()
    at.text_area(key="translate.input").input("\u200b ")
    at.button(key="translate.submit").click().run()
    (warning,) = at.warning
    assert warning.value == "请输入一个句子：文本为空，或只有不可见字符。"
    at.text_area(key="translate.input").set_value(PASTE)
    at.button(key="translate.submit").click().run()
    notices = [n.value for n in at.info]
    assert any(n.startswith("输入超过模型的 127 个源语言词元，已截断为") for n in notices), notices


@pytest.mark.parametrize("how", BREAKAGES)
def test_app_shows_a_broken_checkpoint_message_not_a_traceback(tmp_path, monkeypatch, how):
    marker = tmp_path / "ran"
    broken_checkpoint(tmp_path / "checkpoints" / f"broken-{how.replace(' ', '-')}", how, marker)
    monkeypatch.setattr(server, "CHECKPOINTS", tmp_path / "checkpoints")
    at = app()
    (error,) = at.error
    assert "The model could not be loaded" in error.value
    assert EXPECTED_MESSAGE[how].replace(".", "\\.") in error.value  # shown escaped: a path is not Markdown
    assert "retrain" in error.value and "Traceback" not in error.value
    assert not marker.exists()


def test_app_without_any_checkpoint_says_so(tmp_path, monkeypatch):
    monkeypatch.setattr(server, "CHECKPOINTS", tmp_path / "nothing here")
    at = app()
    (error,) = at.error
    assert "no checkpoint folder" in error.value


# Cells as a token, a sentence or a label could hold them: Markdown that would be bold, a link, a heading, LaTeX.
TABLE_TEXT = {"**bold**": "[x](https://evil.example)", "# heading": "evil.example", "$x^2$": "- item"}
TABLE_SCRIPT = f"""
import pandas as pd
from app_pages.components import table_view
frame = pd.DataFrame({{"numbers": ["1,024", "−0.1234", "−∞"], "text": {list(TABLE_TEXT.values())!r}}},
                     index=pd.Index({list(TABLE_TEXT)!r}, name="_who_"))
table_view.table(frame)
"""


def test_a_tables_text_is_sent_escaped_and_its_numbers_as_they_are():
    """st.table renders every cell, header and index label as Markdown: table_view.table escapes each text, so the page
    shows it as written (tests.support.tables reads it back), and leaves plain numbers alone."""
    at = AppTest.from_string(TABLE_SCRIPT, default_timeout=60).run()
    (raw,) = [el.value for el in at.table]
    assert list(raw["numbers"]) == ["1,024", "−0.1234", "−∞"]
    assert list(raw["text"]) == [md_escape(v) for v in TABLE_TEXT.values()] != list(TABLE_TEXT.values())
    assert list(raw.index) == [md_escape(k) for k in TABLE_TEXT] and raw.index.name == md_escape("_who_")
    (shown,) = shown_tables(at)
    assert list(shown["text"]) == list(TABLE_TEXT.values()) and list(shown.index) == list(TABLE_TEXT)


def test_every_table_is_the_one_escaping_table():
    """No page shows a table but through table_view.table (its escaping, one look): st.table once, there, and no
    st.dataframe (whose grid costs every page that shows one a 486-KB script on its first load)."""
    paths = [ROOT / "app.py", *(ROOT / "app_pages").rglob("*.py")]
    sources = {path.name: path.read_text(encoding="utf-8") for path in paths}
    assert not [name for name, code in sources.items() if "st.dataframe(" in code or "st.data_editor(" in code]
    tables = [(name, code.count("st.table(")) for name, code in sources.items() if "st.table(" in code]
    assert tables == [("table_view.py", 1)]


def test_no_page_or_figure_code_can_render_html():
    """User and model text reach the page only through escaped Markdown and Plotly labels, never raw HTML."""
    scripts = ROOT / "app_pages" / "shell" / "page_scripts.py"
    sources = [ROOT / "app.py", *(ROOT / "app_pages").rglob("*.py"), *(ROOT / "viz").glob("*.py")]
    for path in sources:
        code = path.read_text(encoding="utf-8")
        for risky in ("unsafe_allow_html", "components.html", "components.v1", *(() if path == scripts else ("st.html(",))):
            assert risky not in code, f"{path.name} uses {risky}"
    # The one module that may: each st.html call is given a constant of that module, never a value from outside.
    tree = ast.parse(scripts.read_text(encoding="utf-8"))
    constants = {t.id for node in tree.body if isinstance(node, ast.Assign) for t in node.targets}
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and ast.unparse(n.func) == "st.html"]
    assert calls and all(isinstance(c.args[0], ast.Name) and c.args[0].id in constants for c in calls)
    assert not [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.args.args]  # no parameters to pass text in


def test_app_renders_markup_in_the_sentence_as_text():
    at = app(TRANSLATABLE["img onerror"])
    assert all(not m.proto.allow_html for m in at.markdown)
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)
    ticks = spec["layout"]["xaxis"]["ticktext"]
    assert "&lt;" in ticks and "<" not in ticks  # escaped: Plotly would read "<" as the start of a tag
