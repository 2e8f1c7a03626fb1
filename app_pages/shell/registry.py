"""Every page of the app, listed once: its script, the navigation section it is listed under, its icon and its
address. app.py builds the navigation from it; page links, Start here's prepared links, the browser benchmark and
tests read it. Plain data (no Streamlit), so that code outside the app can read it too.
"""

from __future__ import annotations

from dataclasses import dataclass

EXPLORE, LEARN = "nav.section.explore", "nav.section.learn"  # the sections' i18n keys, in the order listed


@dataclass(frozen=True)
class Page:
    name: str  # its script app_pages/pages/<name>.py, and its title's i18n key nav.<name>
    section: str
    # Material icons ship with Streamlit's own font; emoji would need a colour-emoji font on the server.
    icon: str
    url_path: str = ""  # its address when that is not its name

    @property
    def script(self) -> str:
        return f"app_pages/pages/{self.name}.py"

    @property
    def address(self) -> str:
        return self.url_path or self.name


PAGES = (
    Page("start", EXPLORE, ":material/school:", url_path="guide"),  # served at /: a newcomer's first screen
    Page("translate", EXPLORE, ":material/translate:"),
    Page("decoding", EXPLORE, ":material/stairs:"),
    Page("compare", EXPLORE, ":material/compare:"),
    Page("explanation", EXPLORE, ":material/fact_check:"),
    Page("patching", EXPLORE, ":material/swap_horiz:"),  # activation patching between two sentences
    Page("corpus", EXPLORE, ":material/scatter_plot:"),  # a head's queries and keys over a corpus (AttentionViz)
    Page("model_card", EXPLORE, ":material/description:"),
    Page("poll", EXPLORE, ":material/how_to_vote:"),  # students vote on their own devices (polls.py)
    Page("deck", EXPLORE, ":material/slideshow:"),  # views pinned under attention maps, presented or saved (decks.py)
    Page("qkv", LEARN, ":material/calculate:"),
    Page("masks", LEARN, ":material/grid_on:"),
    Page("positional", LEARN, ":material/waves:"),
    Page("scaling", LEARN, ":material/straighten:"),
    Page("multihead", LEARN, ":material/view_module:"),
    Page("inside", LEARN, ":material/schema:"),
    Page("anatomy", LEARN, ":material/account_tree:"),
    Page("training", LEARN, ":material/model_training:"),
    Page("replay", LEARN, ":material/history:"),
    Page("lab", LEARN, ":material/science:"),
)
PAGE = {page.name: page for page in PAGES}
FIRST = "start"  # the page served at /
# Addresses besides a page's place in the menu, kept so that links written with them work: /home opens translate;
# /start is Start here's own name (the first screen lives at /).
MOVED = {"home": "translate", "start": "start"}
