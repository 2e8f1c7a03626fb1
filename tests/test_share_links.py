"""Every link given to a class points where students reach the app (issue 62, item 1): ATTENTION_PUBLIC_URL where set,
else the address the teacher's browser used unless only this machine opens it, else this server's LAN address; never
the teacher's own localhost. link_values.app_bases decides, links.share_links builds every such link (Start here's
prepared links, the poll's join address, an exported deck's slide links), in-process here;
tests/test_share_links_browser.py reads them in a browser.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from app_pages.shell import link_values, links
from app_pages.state import server
from tests.support.apptest import opened

START = "app_pages/pages/start.py"
LAN = "192.0.2.7"  # TEST-NET-1: an address no test reaches
PUBLIC = "https://class.example.org/attention"


def test_the_public_address_wins_then_the_browsers_unless_it_is_this_machine_then_the_lan():
    bases = link_values.app_bases
    assert bases(PUBLIC + "/", "http://127.0.0.1:8501/", [LAN], 8501, "") == [PUBLIC]
    assert bases(None, "http://192.0.2.9:8501/guide", [LAN], 8501, "") == ["http://192.0.2.9:8501"]
    for own in ("http://127.0.0.1:8611/", "http://localhost:8611/translate", "http://0.0.0.0:8611/", "http://[::1]:8611/"):
        assert bases(None, own, [LAN, "10.0.0.3"], 8611, "/att") == [f"http://{LAN}:8611/att", "http://10.0.0.3:8611/att"]
    assert bases(None, "http://127.0.0.1:8611/", [], 8611, "") == ["http://127.0.0.1:8611"]  # nothing better known


def test_a_shared_link_names_its_page_and_keeps_chinese_readable():
    link = link_values.shared_link("http://192.0.2.7:8611/", "translate", {"s": "我有一个梦想。", "kind": "cross",
                                                                          "model": "zh-en"})
    assert link == "http://192.0.2.7:8611/translate?s=我有一个梦想。&kind=cross&model=zh-en"
    assert link_values.shared_link(PUBLIC, "qkv", {}) == f"{PUBLIC}/qkv"
    spaced = link_values.shared_link(PUBLIC, "translate", {"s": "I have a dream.", "x": "a&b=c"})
    assert parse_qs(urlsplit(spaced).query) == {"s": ["I have a dream."], "x": ["a&b=c"]}  # reads back as written


@pytest.fixture()
def lan(monkeypatch):
    monkeypatch.setattr(server, "lan_addresses", lambda: [LAN])
    monkeypatch.delenv(links.PUBLIC_URL, raising=False)


def start_links(at) -> list[str]:
    return [code.value for code in at.main.code]  # the sidebar's own: test_every_view_gives_its_link_for_students


@pytest.mark.parametrize("public", [None, PUBLIC])
def test_start_heres_prepared_links_open_where_students_are(lan, monkeypatch, public):
    """AppTest's session has no browser address (as a teacher on localhost): the LAN address, or the public one."""
    if public:
        monkeypatch.setenv(links.PUBLIC_URL, public)
    at = opened({}, page=START)
    shown = start_links(at)
    base = public or f"http://{LAN}:8501"  # AppTest's server.port: Streamlit's default
    assert shown and all(link.startswith(base + "/") for link in shown), shown
    assert {urlsplit(link).path.rsplit("/", 1)[1] for link in shown} >= {"translate", "decoding", "qkv"}
    assert not [link for link in shown if "localhost" in link or "127.0.0.1" in link]


QUESTION = {"kind": "cross", "layer": 0, "head": 0, "sentence": "I have a dream.", "query": "我", "writes": "有",
            "row": 1, "weight": 0.5, "source": "en"}


@pytest.mark.parametrize("public", [None, PUBLIC])
def test_every_view_gives_its_link_for_students(lan, monkeypatch, public):
    """The sidebar's box: the view on screen (its page and every setting the address bar holds) at the address
    students reach, in the session's language; the teacher's own address is AppTest's localhost."""
    if public:
        monkeypatch.setenv(links.PUBLIC_URL, public)
    view = {"s": "我有一个梦想。", "model": "zh-en", "kind": "cross", "layer": "2", "head": "5", "lang": "zh"}
    at = opened(view)
    (link,) = [code.value for code in at.sidebar.code]
    base = public or f"http://{LAN}:8501"
    assert link.startswith(base + "/translate?") and "s=我有一个梦想。" in link  # readable Chinese
    assert {k: v[0] for k, v in parse_qs(urlsplit(link).query).items()}.items() >= view.items()
    assert at.sidebar.caption[-1].value == "给学生的本视图链接"
    at.sidebar.selectbox(key="checkpoint").set_value("en-zh").run()  # the box follows the view
    (link,) = [code.value for code in at.sidebar.code]
    assert "model=en-zh" in link


@pytest.mark.parametrize("public", [None, PUBLIC])
def test_the_poll_and_start_here_give_one_and_the_same_address(lan, monkeypatch, tmp_path, public):
    from app_pages.state.poll_store import PollStore

    if public:
        monkeypatch.setenv(links.PUBLIC_URL, public)
    monkeypatch.setenv("ATTENTION_DATA_DIR", str(tmp_path))
    code = PollStore().create(QUESTION, ["▁I", "▁have", "▁a", "▁dream", ".", "</s>"], 3)
    cross = next(link for link in start_links(opened({}, page=START)) if "/translate?" in link)
    join = start_links(opened({"code": code, "view": "tally"}, page="app_pages/pages/poll.py"))
    base = public or f"http://{LAN}:8501"
    assert cross.startswith(base + "/translate?") and join == [f"{base}/poll?code={code}&lang=en"]


def exported_links() -> None:
    """An AppTest script: a deck of two slides exported (decks.document) in the session's language; each slide's
    link (label and address) shown as a code block."""
    import re

    import plotly.graph_objects as go
    import streamlit as st

    from app_pages.components import decks
    from lessons.deck import Slide

    deck = [Slide("translate", {"s": "我有一个梦想。", "model": "zh-en", "kind": "cross", "layer": "2", "head": "5"},
                  "Where 梦想 looks"),
            Slide("decoding", {"s": "I have a dream.", "model": "en-zh", "step": "2", "layer": "average",
                               "head": "average"}, "Step 2")]
    document = decks.document(deck, [go.Figure(), go.Figure()])
    for href, label in re.findall(r'<a class="view" href="([^"]+)">([^<]+)</a>', document):
        st.code(f"{label} {href}", language=None)


@pytest.mark.parametrize("public, lang", [(None, "en"), (PUBLIC, "zh")])
def test_an_exported_decks_slides_link_to_their_views_where_students_are(lan, monkeypatch, public, lang):
    """Each slide of the deck's HTML file links to its view at the address students use (ATTENTION_PUBLIC_URL, else
    the LAN address), in the teacher's language, its label in that language, the link escaped for HTML."""
    from streamlit.testing.v1 import AppTest

    from i18n import translate_key

    if public:
        monkeypatch.setenv(links.PUBLIC_URL, public)
    at = AppTest.from_function(exported_links, default_timeout=60)
    at.session_state["lang"] = lang
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    base = public or f"http://{LAN}:8501"
    label = translate_key(lang, "deck.open")
    assert [code.value for code in at.code] == [
        f"{label} {base}/translate?lang={lang}&amp;s=我有一个梦想。&amp;model=zh-en&amp;kind=cross&amp;layer=2&amp;head=5",
        f"{label} {base}/decoding?lang={lang}&amp;s=I+have+a+dream.&amp;model=en-zh&amp;step=2&amp;layer=average"
        "&amp;head=average"]
