"""Start here's prepared links in a real browser, with ATTENTION_PUBLIC_URL unset (issue 62, item 1; set:
tests/test_teacher_browser.py): the server listens on every interface and the teacher's browser uses 127.0.0.1, as on
the teacher's laptop; the link Start here gives is this machine's LAN address, and a student's own browser opens
exactly that link and lands on the view it names. The poll's join address is the same address
(tests/test_poll_browser.py opens it).

Screenshots (1280×800): share_*.png under SCREENSHOTS=DIR, when it is set, for a person to look at.
"""

from __future__ import annotations

import subprocess
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.support.app_server import free_port, running_app

from playwright.sync_api import expect

from tests.support.browser import MAIN, screenshot
from tests.support.poll import own_browser

SENTENCE = "I have a dream."


def test_start_heres_link_is_the_lan_address_and_a_student_opens_its_view(browser, tmp_path):
    lan = subprocess.run(["hostname", "-I"], capture_output=True, text=True).stdout.split()
    if not lan:
        pytest.skip("this machine has no LAN address")
    port = free_port()
    with running_app(tmp_path / "server.log", port=port, address="0.0.0.0") as server:
        teacher_context, teacher = own_browser(browser, f"{server}/")
        contexts = [teacher_context]
        try:
            links = [c.strip() for c in teacher.locator(f"{MAIN} [data-testid='stCode'] code").all_inner_texts()]
            cross = next(link for link in links if "/translate?" in link and "model=en-zh" in link)
            host = urlsplit(cross).hostname
            assert host in lan and all(link.startswith(f"http://{host}:{port}/") for link in links), links
            assert not [link for link in links if "127.0.0.1" in link or "localhost" in link]
            caption = teacher.locator(MAIN).get_by_text("Your address bar starts with", exact=False)
            expect(caption).to_be_visible()
            said = caption.inner_text().replace("\u2060", "")  # md_escape's word joiners: no URL becomes a link
            assert f"starts with http://127.0.0.1:{port}," in said and f"views at http://{host}:{port} " in said
            screenshot(teacher, "share_start_here_links", teacher.locator(f"{MAIN} [data-testid='stCode']"))
            query = parse_qs(urlsplit(cross).query)
            student_context, student = own_browser(browser, cross)  # exactly what the teacher would paste
            contexts.append(student_context)
            expect(student).to_have_url(f"http://{host}:{port}/translate?" + urlsplit(student.url).query)
            student.wait_for_selector(f"{MAIN} .js-plotly-plot .main-svg")
            expect(student.locator(f"{MAIN} textarea").first).to_have_value(SENTENCE)
            landed = parse_qs(urlsplit(student.url).query)  # the app writes what is on screen into the address
            assert {name: landed.get(name) for name in ("kind", "layer", "head", "s")} == {
                name: query[name] for name in ("kind", "layer", "head", "s")}
            screenshot(student, "share_student_opened_link")
        finally:
            for context in contexts:
                context.close()
    assert "Traceback (most recent call last)" not in (tmp_path / "server.log").read_text()
