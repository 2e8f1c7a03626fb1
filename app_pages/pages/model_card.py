"""The checkpoint's model card in the session's language (README.md or README.zh.md, written by the trainer) and the
confidence calibration in its log."""

import re

import streamlit as st

from app_pages.state import direction, models, state_keys
from app_pages.shell.text import language, md_escape, narrow_tables, t
from app_pages.components import table_view
from model import TrainingLog, calibration_of


EMPTY_HEADER = re.compile(r"^\|(\s*\|)+\s*$")  # "| | |": a table's row of column names, every name empty
RULE = re.compile(r"^\|(\s*:?-+:?\s*\|)+\s*$")  # "|---|---|": the line under it


def key_values(lines: list[str]) -> list[str]:
    """`lines` with each table that has no column names (the card's summary: "| | |" over "| direction | … |"
    rows) as a list of "**key**: value" lines: Streamlit drew its empty header as an empty first row."""
    out: list[str] = []
    index = 0
    while index < len(lines):
        if EMPTY_HEADER.match(lines[index]) and index + 1 < len(lines) and RULE.match(lines[index + 1]):
            index += 2
            while index < len(lines) and lines[index].startswith("|"):
                key, value = (cell.strip() for cell in lines[index].strip().strip("|").split("|", 1))
                out.append(f"- **{key}**: {value}")
                index += 1
        else:
            out.append(lines[index])
            index += 1
    return out


def show_card(card: str) -> None:
    """The card's Markdown under this page's title: its own "# Model card: …" line dropped, its headings one level
    down (below the page's), its code blocks wrapped (the retraining command is one long line), its wide tables
    cut to fit the page (the recipe study's) and its table without column names a list (key_values)."""
    lines = card.split("\n")[1:] if card.startswith("# ") else card.split("\n")
    text: list[str] = []
    code: list[str] | None = None  # the lines of the open ``` block; None outside one
    for line in lines:
        if line.startswith("```") and code is None:
            st.markdown("\n".join(narrow_tables(key_values(text))))
            text, code = [], []
        elif line.startswith("```"):
            st.code("\n".join(code), language=None, wrap_lines=True)
            code = None
        elif code is not None:
            code.append(line)
        else:
            text.append("#" + line if line.startswith("#") else line)
    st.markdown("\n".join(narrow_tables(key_values(text)) + (code or [])))


translator = models.translator()
# named by its direction, as the sidebar names it: "中文 → English (zh-en)"
st.title(t("card.title", name=md_escape(direction.label(st.session_state[state_keys.CHECKPOINT]))))
st.caption(t("card.intro" if translator.capabilities.trained_here else "card.intro_marian"))
card = translator.card_in(language())
if card is None:
    st.warning(t("card.missing"))
else:
    if language() not in translator.cards:  # a Marian model, or a checkpoint with an English card only
        st.caption(t("card.english_only"))
    show_card(card)

st.header(t("card.calibration.header"))
# calibration_of: the thresholds the translate page marks by, None unless both lie strictly between 0 and 1
calibration = TrainingLog.from_dict(translator.training_log).calibration
if calibration is None or calibration_of(translator.training_log) is None:
    st.info(t("card.calibration.missing"))
else:
    token, sentence = calibration.token, calibration.sentence
    pct = table_view.percent
    st.markdown(t("card.calibration.intro", pairs=f"{calibration.pairs:,}", beam=calibration.beam))
    st.markdown("\n".join([
        "- " + t("card.calibration.tokens", threshold=pct(token.threshold), below_n=f"{token.below.tokens:,}",
                 below_right=pct(token.below.right, 1), above_n=f"{token.above.tokens:,}",
                 above_right=pct(token.above.right, 1)),
        "- " + t("card.calibration.sentences", threshold=pct(sentence.threshold),
                 below_n=f"{sentence.below.translations:,}", below_exact=pct(sentence.below.exact, 1),
                 below_chrf=sentence.below.chrf, above_n=f"{sentence.above.translations:,}",
                 above_exact=pct(sentence.above.exact, 1), above_chrf=sentence.above.chrf),
    ]))
