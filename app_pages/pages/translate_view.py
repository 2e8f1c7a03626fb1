"""What the translate page shows, computed from the model, its translation and the session's choices without drawing
anything (translate.py draws it): the heading and the sentence box's examples (Heading), the translation and how far
to trust it, token by token, and what the model knows (TranslateView), and the explorer's map of one kind, layer and
head in one of four views (ExplorerView). Plain data out: texts, figures, the explorer's charts as
attention_view.MapChart; tests/test_translate_view.py reads them without Streamlit."""

from __future__ import annotations

from dataclasses import dataclass

import plotly.graph_objects as go

from app_pages.components import attention_view, chips, rollout_view
from app_pages.components.attention_view import Languages, MapChart, MapView
from app_pages.components.table_view import line_digits, percent, percents_apart
from app_pages.shell import screen
from app_pages.shell.text import language, listing, md_escape, sentences, t
from app_pages.state import direction, examples, models, translations
from model import Confidence, TrainingLog, TranslationResult, Translator, unread_names, word_link

VIEWS = ("head", "grid", "lines", rollout_view.VIEW)
ALL_QUERIES = -1  # the query box's "all" option: a box whose value is None shows Streamlit's "Choose an option"
LINES = "explorer.chart.lines"  # the head view's chart, a click on which focuses a query


def source_and_target(translator: Translator) -> dict[str, str]:
    """The languages `translator` reads and writes, named in the session's language: {"source": …, "target": …}."""
    config = translator.config
    return {"source": direction.language_name(config.source_language),
            "target": direction.language_name(config.target_language)}


@dataclass(frozen=True)
class Heading:
    """Above the translation: the page's title and its introduction (the title's tooltip: the map starts on the
    first screen), the sentence box's label (the language to type in) and the example sentences beside the box."""

    title: str
    intro: str
    input_label: str
    examples: list[str]


def heading(translator: Translator) -> Heading:
    """The heading for `translator`: its introduction says whether this project trained it; its example sentences
    are those offered for the language it reads, else its first sentence."""
    names = source_and_target(translator)
    intro = "translate.intro" if translator.capabilities.trained_here else "translate.intro_marian"
    source = translator.config.source_language
    pills = [e.sentence for e in examples.for_language(source)] or [examples.default_sentence(source)]
    return Heading(t("translate.title"), t(intro, **names), t("translate.input_in", source=names["source"]), pills)


@dataclass(frozen=True)
class Verdict:
    """The translation as a Markdown heading with its tooltip (`help`: the confidence's evidence, why a name went
    unread), and the line under it: how far to trust the translation as a whole, and any names the model read as
    others or could not read; `unsure`: that line is an orange one, not a caption."""

    heading: str
    help: str
    line: str
    unsure: bool


@dataclass(frozen=True)
class TokenConfidence:
    """The output tokens with the model's probability for each, those below the calibrated `threshold` marked
    (`low`), and the legend that says what the marks mean ("" where the checkpoint has no calibration)."""

    title: str
    tokens: list[str]
    probs: list[float]
    low: list[bool]
    threshold: float | None
    legend: str


@dataclass(frozen=True)
class TokenDetails:
    """Under the explorer: the run's settings, the tokens the model read and wrote under their titles, what ▁ and
    byte tokens are where they show, and one line on what the model learned from and how well it scores (`knows`,
    beside a link to its card labelled `card_link`)."""

    confidence: TokenConfidence
    about: str
    source_title: str
    source_tokens: list[str]
    target_title: str
    target_tokens: list[str]
    tokens_note: str
    knows: str
    card_link: str


@dataclass(frozen=True)
class TranslateView:
    """What the page shows of one translation beside the sentence box and under the explorer."""

    verdict: Verdict
    details: TokenDetails
    notices: list[translations.NoticeLine]  # above the verdict: the sentence was in the wrong language, or cut


def view(translator: Translator, result: TranslationResult, marks: Confidence) -> TranslateView:
    """The page's view of `result`, `translator`'s translation, with `marks`, its confidence (model.assess)."""
    return TranslateView(verdict(translator, result, marks), details(translator, result, marks),
                         translations.notice_lines(result))


def verdict(translator: Translator, result: TranslationResult, c: Confidence) -> Verdict:
    """The translation and how far to trust it against the checkpoint's calibration; a score and its threshold
    never read as the same percentage (percents_apart)."""
    heading_md = "### " + md_escape(result.translation or "∅")
    names, why = names_lines(translator, result)
    if c.calibration is None:
        return Verdict(heading_md, "\n\n".join(filter(None, (t("translate.translation"), why))),
                       t("confidence.uncalibrated", score=percent(c.score)) + names, False)
    sentence = c.calibration.sentence
    score, threshold = percents_apart(c.score, sentence.threshold)
    values = {"score": score, "threshold": threshold,
              "below_exact": percent(sentence.below.exact), "above_exact": percent(sentence.above.exact)}
    evidence = sentences([t("confidence.unsure" if c.unsure else "confidence.sure", **values), beam_note(result, c)])
    help_text = "\n\n".join(filter(None, (t("translate.translation"), evidence, why)))
    if c.unsure:  # a line, not a box: the map below stays on the first screen
        return Verdict(heading_md, help_text,
                       ":orange-background[:material/help: " + t("confidence.unsure_short", **values) + "]" + names,
                       True)
    return Verdict(heading_md, help_text, t("confidence.sure_short", **values) + names, False)


def names_lines(translator: Translator, result: TranslationResult) -> tuple[str, str]:
    """(the line under the confidence about names, what the tooltip adds), "" for none: names read as others
    (en→zh), or, in a Chinese source of a model trained here, likely names it cannot read (a translation that
    makes no sense of 李明 then says why); one short line, so the map below stays on the first screen."""
    note = translations.names_note(result)
    if note:
        return "  \n" + md_escape(note), ""
    unread = unread_names(result.source_text) \
        if translator.capabilities.trained_here and translator.config.source_language == "zh" else []
    if not unread:
        return "", ""
    return "  \n" + md_escape(t("translate.names_unread", names=listing(unread))), t("translate.names_unread_help")


def beam_note(result: TranslationResult, c: Confidence) -> str:
    """At which beam the thresholds were measured, and whether this translation used another (where they were not)."""
    measured = 1 if c.calibration.beam is None else c.calibration.beam
    if measured == result.beam_size:
        return t("confidence.beam_same", beam=measured)
    return t("confidence.beam_other", measured=measured, beam=result.beam_size)


def token_confidence(result: TranslationResult, c: Confidence) -> TokenConfidence:
    """The output tokens' probabilities, the unsure ones marked, with the calibrated line's legend."""
    title = "**" + t("confidence.title") + "**"
    if c.calibration is None:
        return TokenConfidence(title, result.output_tokens, c.probs, c.low, None, "")
    token = c.calibration.token
    legend = sentences([
        t("confidence.legend", threshold=percent(token.threshold, line_digits(token.threshold)),
          pairs=f"{c.calibration.pairs:,}", below_right=percent(token.below.right),
          above_right=percent(token.above.right)),
        beam_note(result, c)])
    return TokenConfidence(title, result.output_tokens, c.probs, c.low, token.threshold, legend)


def details(translator: Translator, result: TranslationResult, c: Confidence) -> TokenDetails:
    """What the model read and wrote, token by token, how sure it was of each, and what it knows."""
    names = source_and_target(translator)
    about = t("translate.details", checkpoint=md_escape(result.checkpoint.rsplit("/", 1)[-1]), device=result.device,
              beam=result.beam_size, S=len(result.source_tokens), T=len(result.target_tokens))
    tokens = result.source_tokens + result.target_tokens
    note = sentences([t("translate.tokens_help"), chips.word_start_note(tokens), chips.byte_note(tokens)])
    return TokenDetails(
        token_confidence(result, c), about,
        "**" + t("translate.source_tokens", n=len(result.source_tokens), language=names["source"]) + "**",
        result.source_tokens,
        "**" + t("translate.target_tokens", n=len(result.target_tokens), language=names["target"]) + "**",
        result.target_tokens, note, model_knows(translator), t("knows.card_link"))


def dev_score(log: dict) -> dict | None:
    """The most honest score the training log holds (TrainingLog.honest_score), with the set and the decoding named."""
    score = TrainingLog.from_dict(log).honest_score
    if score is None:
        return None
    decoding = t("knows.greedy") if score.beam is None else t("knows.beam", beam=score.beam)
    sets = {"test": "knows.set_test", "test_seen": "knows.set_test_seen", "unseen": "knows.set_unseen",
            "dev": "knows.set_dev"}
    return {"bleu": score.bleu, "decoding": decoding,
            "set": t(sets[score.set], pairs="" if score.pairs is None else f"{score.pairs:,}")}


def model_knows(translator: Translator) -> str:
    """One line on what the model learned from and how well it scores (all from its training log); a model trained
    elsewhere: its card says on what."""
    if not translator.capabilities.trained_here:
        return t("knows.marian", name=md_escape(models.model_label(translator.checkpoint)))
    log = TrainingLog.from_dict(translator.training_log)
    names, pairs, bt = source_and_target(translator), log.real_pairs, log.backtranslation
    if bt is not None:
        data = t("knows.data_bt", pairs=f"{pairs:,}", synthetic=f"{bt.mix.synthetic:,}", **names)
    else:
        data = t("knows.data", pairs=f"{pairs:,}", **names) if pairs else t("knows.data_unknown", **names)
    parts = [data]
    score = dev_score(translator.training_log)
    if score:
        parts.append(t("knows.score", **score))
    parts.append(t("knows.limits"))
    return t("knows.sep").join(parts)


@dataclass(frozen=True)
class ExplorerSettings:
    """What the session chose in the explorer: the attention `kind`, the `view` (VIEWS), the layer and head (ALL:
    the heads' average; a rollout averages them itself), whether "Guess first" hides the map (`guessing`), the head
    view's focused `query` (None: every query) and threshold; the session's model (`checkpoint`, its `languages`);
    the room its maps may take (screen.map_limits: `limits`; `lines_limits` under the head view's extra row;
    `guess_limits` for the hidden map) and whether numbers go under them (none in presentation mode)."""

    kind: str
    view: str
    layer: int
    head: int
    guessing: bool
    query: int | None
    min_weight: float
    checkpoint: str
    languages: Languages
    limits: dict
    lines_limits: dict
    guess_limits: dict
    numbers: bool


@dataclass(frozen=True)
class Hint:
    """Under a pill's translation, one line on what to look for (`text`, Markdown), computed from the result's
    cross-attention, and the head it names (`head`: (layer, head)), which a button opens; `head` None where the
    translation lacks the word, and the line says so."""

    text: str
    head: tuple[int, int] | None


@dataclass(frozen=True)
class ExplorerView:
    """One map of the translation as the explorer shows it: the settings it was computed from, the pickers'
    counts (`layers`, `heads`), the map picked (`shown`) and its `title`; by view, `one_head` (the head view's map
    and the grid's opened one, unless "Guess first" hides it), `grid` (every layer and head as small maps), `lines`
    (the head view's lines, with its query picker's labels `queries`); the caption under it, the pill's hint, and
    `result` for the components that draw from it (the hidden map, the rollout, the poll)."""

    settings: ExplorerSettings
    layers: int
    heads: int
    shown: MapView
    title: str
    one_head: MapChart | None
    grid: go.Figure | None
    lines: MapChart | None
    queries: dict[int, str]
    caption: str
    hint: Hint | None
    result: TranslationResult


def explorer_view(result: TranslationResult, s: ExplorerSettings) -> ExplorerView:
    """The explorer's view of `result` with the choices `s`."""
    shown = MapView.of(result, s.kind, s.layer, s.head, s.languages)
    layers, heads = shown.weights.shape[:2]
    one_head = None
    if s.view in ("head", "grid") and not s.guessing:  # the grid's pin saves the grid
        key = "explorer.chart.head" if s.view == "head" else "explorer.chart.opened"
        one_head = attention_view.map_chart_of(shown, key, sentence=result.source_text, model=s.checkpoint,
                                               view=s.view, numbers=s.numbers, title=shown.title(),
                                               present_max_px=screen.explorer_present_px(), **s.limits)
    grid = shown.grid_figure(**s.limits) if s.view == "grid" else None
    lines = lines_chart(result, shown, s) if s.view == "lines" else None
    queries = {ALL_QUERIES: t("explorer.focus_all"), **{i: f"{i}: {q}" for i, q in enumerate(shown.queries)}}
    tokens = [*shown.queries, *shown.keys]  # ▁ is explained where this map shows it: English pieces, either side
    caption = sentences([attention_view.kind_help(s.kind, s.languages), t(f"view.{s.view}.help"),
                         chips.word_start_note(tokens), chips.byte_note(tokens)])
    return ExplorerView(s, layers, heads, shown, shown.title(), one_head, grid, lines, queries, caption,
                        None if s.guessing else example_hint(result, s.languages[0]), result)


def lines_chart(result: TranslationResult, shown: MapView, s: ExplorerSettings) -> MapChart:
    """The head view's lines above the threshold (only the focused query's, where set); its numbers are every
    weight of the head it draws (the threshold only hides lines)."""
    figure = shown.lines_figure(s.query, s.min_weight, **s.lines_limits)
    pin = attention_view.pinned_view(s.kind, s.layer, s.head, result.source_text, s.checkpoint, "lines", s.query,
                                     s.min_weight)
    numbers = attention_view.numbers_of(shown.picked(), shown, result.source_text) if s.numbers else None
    return MapChart(figure, LINES, screen.explorer_present_px(extra_rows=1), numbers, pin)


def example_hint(result: TranslationResult, source: str) -> Hint | None:
    """For a pill's sentence (of a model reading `source`), what to look for; None for any other sentence (and
    while "Guess first" is on: the hint names where a word looks most)."""
    example = next((e for e in examples.for_language(source) if e.sentence == result.source_text), None)
    if example is None:
        return None
    link = word_link(result, example.source_word, example.target_word)
    if link is None:
        return Hint(t("example.missing", target=md_escape(example.target_word), source=md_escape(example.source_word)),
                    None)
    return Hint(examples.example_line(example, link, language()), (link.layer, link.head))

