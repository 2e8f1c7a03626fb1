"""Issue 62 item 6c: an HTML export of the deck leaves the server's log free of "missing ScriptRunContext!", in a
real browser against `streamlit run`. The export is a download button whose data is a callable, which Streamlit calls
when the button is clicked in a worker thread of its own (asyncio.to_thread in its backend operation handler), not
in a script run: building the file there read the session's language (t() → st.session_state) with no
ScriptRunContext, and Streamlit logged the warning for each read. decks.when_clicked gives that thread the
session's context while the file is built.
"""

from __future__ import annotations

import time


from app_pages.shell import registry
from i18n import strings
from tests.support.browser import GUARD, main, nav_links, open_session, pin_three, rerun

EN = strings("en")
WARNING = "missing ScriptRunContext"


def server_log() -> str:
    return GUARD.log.read_text(encoding="utf-8", errors="replace")


def test_an_html_export_logs_no_missing_script_run_context(browser, streamlit_server, tmp_path):
    context, page = open_session(browser, f"{streamlit_server}/translate?lang=en&s=I+have+a+dream.")
    try:
        pin_three(page)
        rerun(page, nav_links(page).nth([p.name for p in registry.PAGES].index("deck")).click)
        before = len(server_log())
        for i in range(2):
            with page.expect_download() as download:
                main(page).get_by_role("button", name=EN["deck.export"]).click()
            download.value.save_as(tmp_path / f"deck{i}.html")
            assert f"<title>{EN['deck.title']}" in (tmp_path / f"deck{i}.html").read_text(encoding="utf-8")
        time.sleep(1)  # the server writes its log as it goes: what the exports logged is there by now
        logged = server_log()[before:]
        assert WARNING not in logged, logged[-2000:]
    finally:
        context.close()
