"""A student's tab without a browser: Streamlit's own websocket protocol, spoken by a few lines of asyncio.

A bare session connects to /_stcore/stream, asks for one page with a query string (as a browser opening a link
does), answers the server's auto-reruns (a fragment with run_every, such as the live lab's) and can press a button
by its label. It keeps what a person would look at: the markdown and headings the page wrote, its error boxes and
exceptions, and when each script run finished. It has no renderer, so it measures the server alone: the time from
opening the link to the server's "script finished" is the server's part of a student's wait.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from urllib.parse import urlencode, urlparse

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

FINISHED = {ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY}
MAX_MESSAGE = 64 * 2**20  # the largest figure the app sends is a few MB


@dataclass
class Seen:
    """What one session's pages showed."""

    texts: list[str] = field(default_factory=list)  # markdown, headings, captions, alerts: what a student reads
    errors: list[str] = field(default_factory=list)  # error boxes and exceptions
    buttons: dict[str, bool] = field(default_factory=dict)  # widget id (ending with its key) → enabled when last drawn
    charts: int = 0
    progress: list[str] = field(default_factory=list)  # the texts of progress bars (the live lab's status line)
    finished: list[float] = field(default_factory=list)  # perf_counter of each finished run (fragment runs too)

    def button(self, key: str) -> str:
        """The widget id of the button whose key is `key`."""
        return next(button for button in self.buttons if button.endswith(f"-{key}"))

    def enabled(self, key: str) -> bool:
        return self.buttons[self.button(key)]

    def shows(self, text: str) -> bool:
        return any(text in shown for shown in self.texts)


class BareSession:
    """One websocket session. Use as `async with BareSession(url) as s: await s.open("translate", {"s": ...})`."""

    def __init__(self, base_url: str) -> None:
        address = urlparse(base_url)
        self.url = f"ws://{address.netloc}{address.path.rstrip('/')}/_stcore/stream"
        self.seen = Seen()
        self._ws = None
        self._reader: asyncio.Task | None = None
        self._run_done = asyncio.Event()
        self._page = ""
        self._page_hash = ""  # the page's script hash, once the server has said it: later reruns name it, as a browser does
        self._query = ""
        self._reruns: dict[str, asyncio.Task] = {}  # fragment id → the task asking for it every few seconds
        self._announced: set[str] = set()  # fragments whose timer the whole-page run now under way set

    async def __aenter__(self) -> BareSession:
        self._ws = await websockets.connect(self.url, subprotocols=["streamlit"], max_size=MAX_MESSAGE,
                                            open_timeout=120, ping_interval=None)
        self._reader = asyncio.create_task(self._read())
        return self

    async def __aexit__(self, *exc) -> None:
        for task in (*self._reruns.values(), self._reader):
            task.cancel()
        await self._ws.close()

    async def open(self, page: str, params: dict[str, str] | None = None, timeout: float = 300.0) -> float:
        """Open `page` with `params` as its link's query string; seconds until its script run finished."""
        self._page, self._page_hash, self._query = page, "", urlencode(params or {})
        start = time.perf_counter()
        await self._rerun()
        await asyncio.wait_for(self._run_done.wait(), timeout)
        return time.perf_counter() - start

    async def press(self, key: str, timeout: float = 300.0) -> float:
        """Press the button whose widget key is `key`; seconds until the run it started finished."""
        widget = self.seen.button(key)
        start = time.perf_counter()
        await self._rerun(trigger=widget)
        await asyncio.wait_for(self._run_done.wait(), timeout)
        return time.perf_counter() - start

    async def _rerun(self, trigger: str | None = None, fragment: str | None = None) -> None:
        message = BackMsg()
        rerun = message.rerun_script
        rerun.query_string = self._query
        if self._page_hash:  # as a browser: the link's page name once, then the page's hash
            rerun.page_script_hash = self._page_hash
        else:
            rerun.page_name = self._page
        if trigger:
            state = rerun.widget_states.widgets.add()
            state.id, state.trigger_value = trigger, True
        if fragment:
            rerun.fragment_id, rerun.is_auto_rerun = fragment, True
        else:
            self._run_done.clear()
        await self._ws.send(message.SerializeToString())

    async def _read(self) -> None:
        async for raw in self._ws:
            message = ForwardMsg()
            message.ParseFromString(raw)
            kind = message.WhichOneof("type")
            if kind == "delta" and message.delta.WhichOneof("type") == "new_element":
                self._element(message.delta.new_element)
            elif kind == "script_finished" and message.script_finished in FINISHED:
                self.seen.finished.append(time.perf_counter())
                if message.script_finished == ForwardMsg.FINISHED_SUCCESSFULLY:
                    self._forget_timers()
                    self._run_done.set()
            elif kind == "navigation":  # st.navigation names the page this run drew
                self._page_hash = message.navigation.page_script_hash
            elif kind == "auto_rerun":
                fragment = message.auto_rerun.fragment_id
                self._announced.add(fragment)
                if fragment in self._reruns:
                    self._reruns[fragment].cancel()
                self._reruns[fragment] = asyncio.create_task(self._every(message.auto_rerun.interval, fragment))

    def _forget_timers(self) -> None:
        """After a whole-page run, as the browser does: only the fragments that run drew keep asking."""
        for fragment in set(self._reruns) - self._announced:
            self._reruns.pop(fragment).cancel()
        self._announced.clear()

    async def _every(self, seconds: float, fragment: str) -> None:
        """The browser's side of st.fragment(run_every=…): ask for the fragment again every `seconds`."""
        while True:
            await asyncio.sleep(seconds)
            await self._rerun(fragment=fragment)

    def _element(self, element) -> None:
        kind = element.WhichOneof("type")
        if kind == "markdown":
            self.seen.texts.append(element.markdown.body)
        elif kind == "heading":
            self.seen.texts.append(element.heading.body)
        elif kind == "alert":
            self.seen.texts.append(element.alert.body)
            if element.alert.format == element.alert.ERROR:
                self.seen.errors.append(element.alert.body)
        elif kind == "exception":
            self.seen.errors.append(f"{element.exception.type}: {element.exception.message}")
        elif kind == "button":
            self.seen.buttons[element.button.id] = not element.button.disabled
        elif kind == "progress":
            self.seen.progress.append(element.progress.text)
        elif kind == "plotly_chart":
            self.seen.charts += 1
