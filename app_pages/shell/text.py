"""What the user reads in running text: sentences and lists joined as the session's language writes them, wide
Markdown tables cut to fit, and the training log's machine in words. The lookup itself (t, language, md_escape)
lives one layer down, in state/language.py, where state can read it too."""

from __future__ import annotations

import re

from app_pages.state.language import WORD_JOINER, in_language, language, md_escape, t

__all__ = ["WORD_JOINER", "hardware_name", "in_language", "language", "listing", "md_escape", "narrow_tables",
           "sentences", "t"]


def sentences(parts) -> str:
    """Sentences of the session's language run together as that language writes them: a space after an English full
    stop, none after 。 (a space there reads as a gap in Chinese). Empty parts are left out."""
    return ("" if language() == "zh" else " ").join(part for part in parts if part)


def listing(items) -> str:
    """A list in running text in the session's language: "a, b, c" in English, "a、b、c" in Chinese (the 顿号, not a
    comma and a space)."""
    return ("、" if language() == "zh" else ", ").join(str(item) for item in items)


def hardware_name(hardware: str | None) -> str:
    """The training log's machine ("x86_64 CPU, 2 threads", written by model/training/train.py) in the session's language;
    a GPU's name stays as its maker wrote it."""
    found = re.fullmatch(r"(\S+) CPU, (\d+) threads?(.*)", hardware or "")
    if not found:
        return hardware or "—"
    return t("hardware.cpu", machine=found[1], threads=found[2]) + found[3]


# The most columns a Markdown table may have in the page's column at 1280×800: Streamlit pads every cell, so a
# table of more (the recipe study has 15) runs past the window.
MAX_TABLE_COLUMNS = 9


def narrow_tables(lines: list[str], max_columns: int = MAX_TABLE_COLUMNS, keep: int = 2) -> list[str]:
    """Markdown lines with each table of more than `max_columns` columns cut into tables that each repeat its first
    `keep` columns (what names a row) and take the next of the others in order; a table's short Chinese words are
    kept on one line."""
    out: list[str] = []
    table: list[str] = []
    for line in [*lines, ""]:
        if line.startswith("|"):
            table.append(line)
            continue
        if table:
            out += _fit_table(table, max_columns, keep)
            table = []
        out.append(line)
    return out[:-1]


# A run of at most five Chinese characters (a table's label, header or verdict) that a browser should not break:
# Chinese breaks between any two characters, and a table gives a column of short ones as little room as it can.
CJK_WORD = re.compile(r"(?<![\u4e00-\u9fff])[\u4e00-\u9fff]{2,5}(?![\u4e00-\u9fff])")


def _words_whole(row: str) -> str:
    """A table row whose short Chinese words cannot break (a word joiner, invisible, between their characters)."""
    return CJK_WORD.sub(lambda word: WORD_JOINER.join(word[0]), row)


def _fit_table(table: list[str], max_columns: int, keep: int) -> list[str]:
    """One table's rows (its short Chinese words whole), or several tables' separated by blank lines; columns whose
    headers start with the same word (dev BLEU, dev chrF) stay in the same table."""
    table = [_words_whole(row) for row in table]
    rows = [[cell.strip() for cell in row.strip().strip("|").split("|")] for row in table]
    head = rows[0]
    if len(head) <= max_columns:
        return table
    groups: list[list[int]] = []  # runs of columns whose headers share a first word
    for i in range(keep, len(head)):
        if groups and head[groups[-1][-1]].split(" ")[0] == head[i].split(" ")[0]:
            groups[-1].append(i)
        else:
            groups.append([i])
    parts: list[list[int]] = [[]]
    for group in groups:
        if parts[-1] and len(parts[-1]) + len(group) > max_columns - keep:
            parts.append([])
        parts[-1] += group
    out: list[str] = []
    for part in parts:
        columns = [*range(keep), *part]
        out += ["| " + " | ".join(row[i] for i in columns) + " |" for row in rows] + [""]
    return out[:-1]
