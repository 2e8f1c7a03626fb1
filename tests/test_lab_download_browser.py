"""The lab's Download CSV in a real browser during and after a run (issue 53: 404 four times in a 30-student run).

During a run the map of the run is redrawn every tick with new numbers: it offers them once the run stops, so no
button the browser shows points at a file Streamlit has already deleted. Every download clicked during and after
the run must arrive, holding the map's table."""

from __future__ import annotations

import re



from playwright.sync_api import expect

from i18n import strings
from tests.support.browser import main, visit

EN = strings("en")


def downloaded(page, button) -> str:
    with page.expect_download(timeout=30_000) as caught:
        button.click()
    download = caught.value
    assert download.failure() is None, download.failure()  # a 404 fails the download
    return open(download.path(), encoding="utf-8").read()


def test_every_csv_download_offered_during_and_after_a_lab_run_arrives(shared_page, streamlit_server):
    visit(shared_page, f"{streamlit_server}/lab?lang=en", EN["lab.title"])
    main(shared_page).get_by_role("button", name=EN["lab.train"]).click()
    expect(main(shared_page).get_by_text(EN["lab.numbers_when_stopped"])).to_be_visible()
    buttons = main(shared_page).get_by_role("button", name=EN["numbers.csv"])
    during = []
    while main(shared_page).get_by_text(EN["lab.numbers_when_stopped"]).count() and len(during) < 5:
        assert buttons.count() == 1  # the untrained model's map only: its numbers never change
        during.append(downloaded(shared_page, buttons.first))
    assert during and all(text == during[0] and "," in text for text in during)
    expect(main(shared_page).get_by_role("button", name=EN["lab.train"])).to_be_enabled(timeout=120_000)
    expect(main(shared_page).get_by_text(re.compile(r"^After \d+ steps"))).to_be_visible()
    expect(buttons).to_have_count(2)
    before, after = downloaded(shared_page, buttons.nth(0)), downloaded(shared_page, buttons.nth(1))
    assert before == during[0] and after != before
