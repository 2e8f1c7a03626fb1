"""What a link may carry: a piece of session state with its reader and writer, and the readers that refuse a value
the app cannot use (a link is typed, pasted, or crafted by anyone); and where a link to share with a class points
(app_bases, shared_link), plain functions of the server's addresses that links.share_links feeds."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import quote_plus, urlencode, urlsplit

from app_pages.shell.text import listing
from model import MAX_CHARS

LOOPBACK = ("localhost", "127.", "::1", "0.0.0.0")  # what a browser on this machine may use, and no other device can


@dataclass(frozen=True)
class Param:
    """A piece of session state that a link carries: its session-state key, and how it is read from and written to the URL.

    read raises BadLinkValue for a value the app cannot use.
    """

    key: str
    read: Callable[[str], object]
    write: Callable[[object], str] = str


class BadLinkValue(ValueError):
    """A link's value the app cannot use, said to the user in their language: i18n key link.why.<key> and its values
    (never Python's own message, such as "invalid literal for int()")."""

    def __init__(self, key: str, **values) -> None:
        super().__init__(key)
        self.key, self.values = key, values


def number_in(low: int, high: int, offset: int = 0) -> Callable[[str], int]:
    """A reader of whole numbers low..high as the URL writes them; offset turns a 1-based number into an index."""
    def read(text: str) -> int:
        try:
            value = int(text)  # ValueError for "abc", "1.5", "1e9"
        except ValueError:
            raise BadLinkValue("number", low=low, high=high) from None
        if not low <= value <= high:
            raise BadLinkValue("number", low=low, high=high)
        return value - offset
    return read


def decimal_in(low: float, high: float, decimals: int = 2) -> Callable[[str], float]:
    """A reader of numbers low..high as the URL writes them, rounded to `decimals` places (a slider's step)."""
    def refused() -> BadLinkValue:
        return BadLinkValue("decimal", low=f"{low:g}", high=f"{high:g}")

    def read(text: str) -> float:
        try:
            value = float(text)  # ValueError for "abc"; "nan" and "inf" are refused below
        except ValueError:
            raise refused() from None
        if not (math.isfinite(value) and low <= value <= high):
            raise refused()
        return round(value, decimals)
    return read


def one_of(options) -> Callable[[str], str]:
    def read(text: str) -> str:
        if text not in options:
            raise BadLinkValue("choice", options=listing(options))
        return text
    return read


def sentence(text: str) -> str:
    if len(text) > MAX_CHARS:
        raise BadLinkValue("long", n=MAX_CHARS)
    return text


def flag(text: str) -> bool:
    return one_of(("0", "1"))(text) == "1"


def loopback(host: str) -> bool:
    return host.startswith(LOOPBACK)


def app_bases(public: str | None, browser_url: str | None, lan: list[str], port: int, base_path: str) -> list[str]:
    """Where students open this app, best first: `public` (ATTENTION_PUBLIC_URL) where set; else the address the
    teacher's browser used, unless only this machine reaches it (localhost); else this server's LAN addresses at its
    port; else, with none found, the teacher's own address (it then works on this machine only)."""
    if public:
        return [public.rstrip("/")]
    parts = urlsplit(browser_url or "")
    if parts.hostname and not loopback(parts.hostname):
        return [f"{parts.scheme}://{parts.netloc}{base_path}"]
    if lan:
        return [f"http://{address}:{port}{base_path}" for address in lan]
    return [f"{parts.scheme}://{parts.netloc}{base_path}"] if parts.hostname else [base_path or "/"]


def readable(value: str, safe: str = "", encoding: str | None = None, errors: str | None = None) -> str:
    """quote_plus for a query value, Chinese left as it is: "s=我有一个梦想。" reads on a slide where
    "%E6%88%91…" does not; a browser encodes it when it opens the address."""
    return "".join(char if ord(char) > 127 else quote_plus(char, safe) for char in str(value))


def shared_link(base: str, page_address: str, values: dict) -> str:
    """The link to the page at `page_address` of the app at `base` with `values` in its query string (readable)."""
    query = urlencode(values, quote_via=readable)
    return f"{base.rstrip('/')}/{page_address}" + (f"?{query}" if query else "")
