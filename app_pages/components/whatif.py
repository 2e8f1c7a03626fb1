"""What if? Under Decoding's step: force a token at this step (one of its candidates, or a typed token that is one
token of the target vocabulary), let the model continue from that prefix with the same search, and compare the two
outputs (what each lacks of the other marked, once the two are aligned) and how much attention each source token
received in each (source coverage).
"""

from __future__ import annotations

import streamlit as st

from app_pages.components import attention_view, charts, chips
from app_pages.state import direction, models, translations, widget_state
from app_pages.shell.text import listing, md_escape, sentences, t
from evaluation.omissions import stored
from lessons.classroom import Coverage, coverage, token_edits
from model import TranslationResult
from viz.decoding import coverage_chart
from viz.options import Room

PICK, TYPED, FORCED, REFUSED = "whatif.pick", "whatif.typed", "whatif.forced", "whatif.refused"
COVERAGE_PX = (720, 340)  # below the step's charts, under the fold: wide enough for a sentence's source tokens
TYPED_CHARS = 24  # one Chinese character, or one English word (a target piece such as "▁understand")


def target() -> str:
    """The language the model writes, as the what-if's hints name a typed token: "zh" (a character) or "en" (a word)."""
    return "en" if direction.current()[1] == "en" else "zh"


def special(token: str) -> bool:
    return token.startswith("<") and token.endswith(">")


def force(result: TranslationResult, position: int) -> None:
    """Continue from here: the typed token if any (refused unless it is one vocabulary token), else the picked one."""
    typed = (st.session_state.get(TYPED) or "").strip()
    token_id = models.translator().target_token_id(typed) if typed else st.session_state.get(PICK)
    st.session_state[REFUSED] = typed if typed and token_id is None else None
    if token_id is None:
        st.session_state.pop(FORCED, None)
        return
    prefix = tuple(step.chosen.token_id for step in result.steps[:position]) + (token_id,)
    st.session_state[FORCED] = (result.source_text, result.translation, position, prefix)


def section(result: TranslationResult, position: int) -> None:
    """The what-if controls for step `position` (0-based) and, once a token is forced there, the comparison."""
    st.markdown("#### " + t("whatif.title", step=position + 1))
    st.caption(t("whatif.help", beam=result.beam_size))
    options = {c.token_id: c.token for c in result.steps[position].candidates if not special(c.token)}
    widget_state.keep_valid(PICK, list(options))
    with st.container(horizontal=True, vertical_alignment="bottom", key="whatif.controls"):
        st.pills(t("whatif.pick"), list(options), format_func=options.get, key=PICK)
        st.text_input(t(f"whatif.type.{target()}"), key=TYPED, max_chars=TYPED_CHARS, width=300,
                      value=st.session_state.setdefault(TYPED, ""))
        st.button(t("whatif.run"), key="whatif.run", icon=":material/alt_route:", on_click=force,
                  args=(result, position))
    refused = st.session_state.get(REFUSED)
    if refused:
        st.warning(t(f"whatif.bad.{target()}", token=md_escape(refused)), icon=":material/block:")
    request = st.session_state.get(FORCED)
    if request is not None and request[:3] == (result.source_text, result.translation, position):
        comparison(result, translations.forced_result(request[3]), position)


def comparison(result: TranslationResult, forced: TranslationResult, position: int) -> None:
    """The original output above the forced one, each marking in red what the other lacks once the two are aligned
    (a dropped token is a change too), then both translations' source coverage."""
    edits = token_edits(result.output_tokens, forced.output_tokens)
    st.markdown("**" + t("whatif.original") + "**")
    chips.token_chips(result.output_tokens, color="violet", marked=edits.dropped, key="whatif.original")
    st.markdown("**" + t("whatif.forced", token=md_escape(forced.output_tokens[position]), step=position + 1) + "**")
    chips.token_chips(forced.output_tokens, color="violet", marked=edits.added, key="whatif.continued")
    st.caption(t("whatif.changed", dropped=sum(edits.dropped), n_original=len(edits.dropped),
                 gone=marked_list(result.output_tokens, edits.dropped), added=sum(edits.added),
                 n_forced=len(edits.added), new=marked_list(forced.output_tokens, edits.added)))
    before, after = coverage(result.cross), coverage(forced.cross)
    st.markdown("**" + t("whatif.coverage_title") + "**")
    charts.chart(coverage_chart(
        result.source_tokens, before.received, after.received,
        names=(t("whatif.original"), t("whatif.forced", token=forced.output_tokens[position], step=position + 1)),
        key_title=attention_view.axis_names("cross", direction.current())[1], value_label=t("whatif.axis.received"),
        room=Room(*COVERAGE_PX),
    ), key="whatif.coverage")
    st.caption(sentences([t("whatif.coverage_help", even_original=f"{before.even:.2f}", even_forced=f"{after.even:.2f}"),
                          flag_measured()]))
    for which, cov in (("original", before), ("forced", after)):
        omissions(result.source_tokens, cov, which)


def flag_measured() -> str:
    """What evaluation/omissions.py measured of the flag on this model's weights: how many words deleted on purpose
    from gold references it caught, and what share the deleted and the kept words received."""
    found = stored(models.translator().checkpoint)
    if found is None:
        return t("whatif.flag.unmeasured")
    more = found["median_deleted"] > found["median_kept"]
    return t("whatif.flag.measured", pairs=found["pairs"], deleted=found["deleted"], caught=found["deleted_flagged"],
             share=f"{found['deleted_flagged'] / found['deleted']:.0%}", kept=found["kept"],
             alarms=found["kept_flagged"], compared=t("whatif.flag.more" if more else "whatif.flag.less"),
             median_deleted=f"{found['median_deleted']:.2f}", median_kept=f"{found['median_kept']:.2f}")


def marked_list(tokens: list[str], marked: list[bool]) -> str:
    """The marked tokens, escaped, in order ("none" when there are none)."""
    return " ".join(md_escape(token) for token, mark in zip(tokens, marked) if mark) or t("ex.none")


def omissions(source_tokens: list[str], cov: Coverage, which: str) -> None:
    """The source tokens one translation's coverage flags as possible omissions (under OMISSION_SHARE × even: the
    strings say "a quarter")."""
    flagged = [md_escape(token) for token, low in zip(source_tokens, cov.omitted) if low]
    values = dict(which=t(f"whatif.which.{which}"), threshold=f"{cov.threshold:.2f}")
    if flagged:
        st.markdown(":orange[:material/warning:] " + t("whatif.omitted", tokens=listing(flagged), **values))
    else:
        st.caption(t("whatif.none", **values))
