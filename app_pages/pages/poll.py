"""Class poll: students join a poll the teacher started from a map (by its code or link) and vote; the teacher's
screen shows the live tally and reveals the model's answer. The screens are in polls.py, the shared state in
poll_store.py."""

from app_pages.shell import links, presentation
from app_pages.components import polls
from app_pages.shell.text import t


def page() -> None:
    links.link_page(polls.link_params())
    presentation.page_title(t("poll.title"), t("poll.intro"))
    polls.page()


page()
