"""A crafted link's notice stays short: at most a few unknown names, then how many more (issue 53, item 7)."""

from __future__ import annotations

import pytest

from app_pages.shell.links import LINK_TEXT_SHOWN, UNKNOWN_SHOWN
from tests.support.apptest import opened


@pytest.mark.parametrize("lang, more", [("en", "195 more settings of the link were ignored"), ("zh", "另有 195 个设置被忽略")])
def test_two_hundred_unknown_link_keys_give_a_short_notice(lang, more):
    link = {f"k{i:03d}{'x' * 60}": "v" * 200 for i in range(200)}
    at = opened({**link, "lang": lang, "s": "I like my dog."})
    (notice,) = at.warning
    lines = notice.value.split("  \n")
    assert len(lines) == UNKNOWN_SHOWN + 1 and more in lines[-1]
    assert "k000" in lines[0] and "k005" not in notice.value  # the first few, in the link's order
    longest_plain_line = max(len(line.replace("\\", "")) for line in lines)
    assert longest_plain_line < 2 * LINK_TEXT_SHOWN + 120  # each name and value cut to LINK_TEXT_SHOWN characters
    assert len(notice.value) < 2_000  # HEAD's: 26,009 characters for 200 names
    assert at.get("plotly_chart"), "the page still draws"


def test_a_few_unknown_keys_are_each_named_with_no_count():
    at = opened({"a": "1", "b": "2", "s": "I like my dog."})
    (notice,) = at.warning
    assert notice.value.count("ignored") == 2 and "more" not in notice.value
