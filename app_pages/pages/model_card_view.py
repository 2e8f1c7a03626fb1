"""What the model card page shows, computed without drawing anything (model_card.py draws it): the checkpoint's model
card in the session's language (README.md or README.zh.md, written by `python -m cards`) laid out for the page, and
the confidence calibration in its training log. Plain data out; tests/test_model_card_view.py reads it without
Streamlit."""

from __future__ import annotations

import re
from dataclasses import dataclass

from app_pages.components.parts import Caption, Heading, Notice, Text
from app_pages.components.table_view import percent
from app_pages.shell.text import md_escape, narrow_tables, t
from model import TrainingLog

EMPTY_HEADER = re.compile(r"^\|(\s*\|)+\s*$")  # "| | |": a table's row of column names, every name empty
RULE = re.compile(r"^\|(\s*:?-+:?\s*\|)+\s*$")  # "|---|---|": the line under it


@dataclass(frozen=True)
class Model:
    """What the page reads of the session's model: its name as the sidebar shows it, whether it was trained here (else
    a converted Marian model), its card in the session's language (else English, else None), whether that language has
    a card of its own, and its training log."""

    label: str
    trained_here: bool
    card: str | None
    own_language: bool
    log: TrainingLog


@dataclass(frozen=True)
class Code:
    """A code block of the card, drawn wrapped (the retraining command is one long line)."""

    text: str


@dataclass(frozen=True)
class CardView:
    before: tuple  # the title, what the card is, and a notice where there is none or it is in English only
    card: tuple  # the card as Text and Code blocks in order
    calibration: tuple  # its header and what it measured, or that it was not measured


def key_values(lines: list[str]) -> list[str]:
    """`lines` with each table that has no column names (the card's summary: "| | |" over "| direction | … |"
    rows) as a list of "**key**: value" lines: Streamlit draws an empty header as an empty first row."""
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


def card_blocks(card: str) -> tuple:
    """The card's Markdown under the page's title: its own "# Model card: …" line dropped, its headings one level
    down (below the page's), its code blocks as Code, its wide tables cut to fit the page (the recipe study's) and its
    table without column names a list (key_values)."""
    lines = card.split("\n")[1:] if card.startswith("# ") else card.split("\n")
    blocks: list = []
    text: list[str] = []
    code: list[str] | None = None  # the lines of the open ``` block; None outside one
    for line in lines:
        if line.startswith("```") and code is None:
            blocks.append(Text("\n".join(narrow_tables(key_values(text)))))
            text, code = [], []
        elif line.startswith("```"):
            blocks.append(Code("\n".join(code)))
            code = None
        elif code is not None:
            code.append(line)
        else:
            text.append("#" + line if line.startswith("#") else line)
    blocks.append(Text("\n".join(narrow_tables(key_values(text)) + (code or []))))
    return tuple(blocks)


def calibration_parts(log: TrainingLog) -> tuple:
    """The thresholds the translate page marks by, and how often the translations and tokens on each side were right;
    a notice where the log holds none it can use (Calibration.usable)."""
    calibration = log.calibration
    header = Heading(t("card.calibration.header"), 2)
    if calibration is None or not calibration.usable:
        return header, Notice(t("card.calibration.missing"))
    token, sentence = calibration.token, calibration.sentence
    lines = [
        "- " + t("card.calibration.tokens", threshold=percent(token.threshold), below_n=f"{token.below.tokens:,}",
                 below_right=percent(token.below.right, 1), above_n=f"{token.above.tokens:,}",
                 above_right=percent(token.above.right, 1)),
        "- " + t("card.calibration.sentences", threshold=percent(sentence.threshold),
                 below_n=f"{sentence.below.translations:,}", below_exact=percent(sentence.below.exact, 1),
                 below_chrf=sentence.below.chrf, above_n=f"{sentence.above.translations:,}",
                 above_exact=percent(sentence.above.exact, 1), above_chrf=sentence.above.chrf),
    ]
    return (header, Text(t("card.calibration.intro", pairs=f"{calibration.pairs:,}", beam=calibration.beam)),
            Text("\n".join(lines)))


def view(model: Model) -> CardView:
    """The page for `model`, named by its direction as the sidebar names it ("中文 → English (zh-en)")."""
    before = [Heading(t("card.title", name=md_escape(model.label)), 1),
              Caption(t("card.intro" if model.trained_here else "card.intro_marian"))]
    if model.card is None:
        before.append(Notice(t("card.missing"), "warning"))
    elif not model.own_language:  # a Marian model, or a checkpoint with an English card only
        before.append(Caption(t("card.english_only")))
    return CardView(tuple(before), card_blocks(model.card) if model.card is not None else (),
                    calibration_parts(model.log))
