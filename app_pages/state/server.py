"""Server-wide settings and the teacher's controls: which models exist, which device runs them, who may change that.

One server serves a class. Students choose among the models the server offers; only a teacher adds models
or picks the device, for every session at once. Set by environment variables when starting the app:

- ATTENTION_TEACHER_PASSCODE: teacher controls for whoever types it in the sidebar. Unset: only a browser on
  the server's own machine (localhost) gets them, so one person on a laptop has them with no setup. A browser that
  typed it keeps them (a signed cookie, TEACHER_COOKIE) across reloads and restarts for TEACHER_COOKIE_S, until the
  passcode changes.
- ATTENTION_COOKIE_SECRET: what signs that cookie. Unset: a random secret kept in the data folder (SECRET_FILE in
  ATTENTION_DATA_DIR), made on first use; several servers behind one address need the same value here.
- ATTENTION_MODELS_DIR: a folder of model folders (ours, or Marian saved with save_pretrained) offered besides
  checkpoints/. Models are listed from these folders, never typed as paths.
- ATTENTION_ALLOW_HUB=1: the teacher may add Hugging Face hub ids (downloaded once, with a time limit).
- ATTENTION_MAX_MODELS (default 4): models held in memory at once, least recently used evicted.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as LoadTimeout
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

import streamlit as st
import torch

from app_pages.state.poll_store import data_dir
from app_pages.state.state_keys import PASSCODE_SESSION, TEACHER
from model import CallGate, configure_torch_threads

ROOT = Path(__file__).resolve().parents[2]  # the repository: app_pages/state/server.py
CHECKPOINTS = ROOT / "checkpoints"
EXTRA_MODELS = Path(os.environ["ATTENTION_MODELS_DIR"]) if os.environ.get("ATTENTION_MODELS_DIR") else None
PASSCODE = os.environ.get("ATTENTION_TEACHER_PASSCODE", "")
ALLOW_HUB = os.environ.get("ATTENTION_ALLOW_HUB") == "1"
MAX_MODELS = max(1, int(os.environ.get("ATTENTION_MAX_MODELS") or 4))
LOAD_SECONDS = 60  # a hub download that takes longer gives up (offline, the hub's retries take ~48 s)
RETRY_AFTER_S = 600  # a failed hub id is not tried again for this long, however often sessions rerun
# Passcode guesses: without a limit, a script could try hundreds through the sidebar. Wrong passcodes count per
# browser (its BROWSER_COOKIE id, else its session) and per network address, each with a Limit: a number of free
# guesses, then every wrong one locks that key out twice as long as the last, up to a most; while any of a guess's keys
# is locked out no passcode is compared. A browser is held to BROWSER_LIMIT; its address (one address may be a whole
# class behind a router or one Wi-Fi) to the far looser ADDRESS_LIMIT, so one student's guesses lock out that student's
# browser but not the teacher's, while a script that drops its cookies still meets the address's limit. Kept in this
# process (guesses()): a restart forgets them.
BROWSER_COOKIE = "attention_browser"
TEACHER_COOKIE = "attention_teacher"
TEACHER_COOKIE_S = 12 * 60 * 60  # a school day: a reload or a restart keeps the teacher signed in, the next day asks
SECRET_ENV, SECRET_FILE = "ATTENTION_COOKIE_SECRET", "attention-cookie-secret"
TOKEN = re.compile(r"[0-9a-f]{32}")  # a browser id: what secrets.token_hex(16) gives
SIGNED = re.compile(r"([0-9]{1,12})\.([0-9a-f]{64})")  # a teacher cookie: expiry (Unix seconds) and its signature
# owner/name as the Hugging Face hub spells them; bounded, so no typed text reaches the file system as a path
HUB_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}/[A-Za-z0-9][A-Za-z0-9._-]{0,95}")

# Once per process, on first import, before the model's first op: torch applies the count to the importing thread
# at once and to every thread that starts parallel work afterwards (model/translation/threads.py). Set later, from
# one session's script thread, a thread that already ran torch work would keep its own count.
configure_torch_threads()


class Shared:
    """What every session of this server process sees: the teacher's hub models, the device, failed loads."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.hub_models: list[str] = []
        self.device = devices()[0]
        self.failed: dict[str, float] = {}  # hub id -> when it failed


@st.cache_resource(show_spinner=False)
def shared() -> Shared:
    return Shared()


@st.cache_resource(show_spinner=False)
def model_calls() -> CallGate:
    """The one limit on model work in this process: every model the app loads translates inside it (the lab's runs
    train in a process of their own, model/lab/worker.py), so a class's translations together never ask for more
    threads than the machine has cores (model/translation/threads.py); its size is cores ÷ the threads set above."""
    return CallGate()


@dataclass(frozen=True)
class Limit:
    """How a key's wrong passcodes are held back: `free` of them cost nothing, then each locks the key out twice as
    long as the last, from first_s up to most_s seconds."""

    free: int
    first_s: float
    most_s: float

    def lock_s(self, wrong: int) -> float:
        """The lockout the `wrong`-th wrong passcode in a row earns."""
        if wrong <= self.free:
            return 0.0
        return min(self.most_s, self.first_s * 2 ** min(wrong - self.free - 1, 32))


BROWSER_LIMIT = Limit(free=5, first_s=30, most_s=15 * 60)
ADDRESS_LIMIT = Limit(free=20, first_s=5, most_s=60)


class Guesses:
    """Wrong passcodes per key ("browser …", "address …") and until when each key is locked out, for every session
    of the server; thread-safe. A guess's keys are a dict of key -> its Limit. `clock` gives seconds (a test's own
    clock instead of time.monotonic)."""

    def __init__(self, clock=time.monotonic) -> None:
        self.clock = clock
        self._lock = threading.Lock()
        self._wrong: dict[str, int] = {}
        self._until: dict[str, float] = {}

    def wait(self, keys) -> float:
        """Seconds until all of `keys` may guess again: 0 when none is locked out."""
        now = self.clock()
        with self._lock:
            return max([0.0] + [self._until.get(key, now) - now for key in keys])

    def wrong(self, keys: dict[str, Limit]) -> float:
        """Count a wrong passcode for each of `keys`; returns the wait it earned (0 while guesses are free)."""
        now = self.clock()
        with self._lock:
            for key, limit in keys.items():
                n = self._wrong[key] = self._wrong.get(key, 0) + 1
                if limit.lock_s(n):
                    self._until[key] = now + limit.lock_s(n)
        return self.wait(keys)

    def right(self, keys) -> None:
        """The right passcode: `keys` start afresh."""
        with self._lock:
            for key in keys:
                self._wrong.pop(key, None)
                self._until.pop(key, None)


@st.cache_resource(show_spinner=False)
def guesses() -> Guesses:
    return Guesses()


def devices() -> list[str]:
    return ["cuda", "cpu"] if torch.cuda.is_available() else ["cpu"]


def model_folders() -> dict[str, Path]:
    """Offered model folders by name: checkpoints/ first, then ATTENTION_MODELS_DIR (a name there may not shadow one)."""
    found: dict[str, Path] = {}
    for folder in (CHECKPOINTS, EXTRA_MODELS):
        if folder is not None and folder.is_dir():
            for path in sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith(".")):
                found.setdefault(path.name, path)
    return found


def is_teacher() -> bool:
    """Whether this session may change server-wide settings (see the module's docstring). With a passcode, a session
    whose browser sent a valid teacher cookie when it connected is the teacher without typing it again."""
    if PASSCODE:
        if not st.session_state.get(TEACHER) and valid_teacher_cookie(st.context.cookies.get(TEACHER_COOKIE)):
            st.session_state[TEACHER] = True
        return bool(st.session_state.get(TEACHER))
    address = st.context.ip_address
    if address is None:
        # A browser on localhost, or a session no connection is left to ask (its websocket dropped during a run):
        # Streamlit says None for both. Only the first still has its connection's headers (Host, at least).
        return bool(st.context.headers)
    return not isinstance(address, str)  # not a string at all under AppTest's stand-in runtime (no browser)


_secret: list[bytes] = []  # this process's cookie secret, once read or made
_secret_lock = threading.Lock()


def cookie_secret() -> bytes:
    """What signs the teacher cookie: ATTENTION_COOKIE_SECRET; else SECRET_FILE in the data folder, made on first use
    (so a restart keeps the teacher signed in); else, where that folder cannot be written, a secret of this process
    alone (a restart then asks for the passcode again)."""
    if os.environ.get(SECRET_ENV):
        return os.environ[SECRET_ENV].encode("utf-8")
    with _secret_lock:
        if not _secret:
            _secret.append(stored_secret(data_dir() / SECRET_FILE) or secrets.token_bytes(32))
        return _secret[0]


def stored_secret(path: Path) -> bytes | None:
    """The secret in `path`, made there (readable by this user only) where there is none; None where it cannot be."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with suppress(FileExistsError):
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(descriptor, "w") as out:
                out.write(secrets.token_hex(32))
        found = path.read_text().strip()
    except OSError:
        return None
    return found.encode("ascii") if re.fullmatch(r"[0-9a-f]{64}", found) else None


def signature(expires: int) -> str:
    """The teacher cookie's signature of its expiry: keyed by the secret and the passcode, so a changed passcode
    makes every earlier cookie invalid."""
    key = hashlib.sha256(cookie_secret() + b"\0" + PASSCODE.encode("utf-8")).digest()
    return hmac.new(key, f"teacher {expires}".encode("ascii"), hashlib.sha256).hexdigest()


def teacher_cookie(now: float | None = None) -> str:
    """A teacher cookie's value, valid for TEACHER_COOKIE_S from `now` (the wall clock: it outlives this process)."""
    expires = int(time.time() if now is None else now) + TEACHER_COOKIE_S
    return f"{expires}.{signature(expires)}"


def valid_teacher_cookie(value, now: float | None = None) -> bool:
    """Whether `value` is a teacher cookie this server signed with its current passcode, not yet expired."""
    found = SIGNED.fullmatch(value) if isinstance(value, str) and PASSCODE else None
    if found is None or int(found[1]) <= (time.time() if now is None else now):
        return False
    return hmac.compare_digest(found[2], signature(int(found[1])))


def browser_id() -> str:
    """This browser's id among passcode guesses: the BROWSER_COOKIE it sent when this session connected, else this
    session's own (which the sidebar then writes into that cookie, so that a reload guesses as the same browser)."""
    sent = st.context.cookies.get(BROWSER_COOKIE)
    if isinstance(sent, str) and TOKEN.fullmatch(sent):
        return sent
    return st.session_state.setdefault(PASSCODE_SESSION, secrets.token_hex(16))


def guessing_as() -> dict[str, Limit]:
    """The keys this session's passcode guesses count under (Guesses), with their limits: its browser and its
    network address."""
    address = st.context.ip_address
    return {f"browser {browser_id()}": BROWSER_LIMIT,
            f"address {address if isinstance(address, str) else 'this machine'}": ADDRESS_LIMIT}


def unlock(entered: str) -> tuple[bool, float]:
    """A typed passcode: (whether it unlocked this session's teacher controls, seconds before this browser may guess
    again). Compared in constant time; not compared at all while the browser or its address is locked out."""
    keys = guessing_as()
    wait = guesses().wait(keys)
    if wait > 0:
        return False, wait
    if bool(PASSCODE) and hmac.compare_digest(entered.encode("utf-8"), PASSCODE.encode("utf-8")):
        st.session_state[TEACHER] = True
        guesses().right(keys)
        return True, 0.0
    return False, guesses().wrong(keys)


def hub_id_problem(name: str) -> str | None:
    """Why `name` cannot be added as a hub id (an i18n key under teacher.hub.*), or None when it can."""
    if not ALLOW_HUB:
        return "off"
    if not HUB_ID.fullmatch(name) or ".." in name or Path(name).exists():
        return "invalid"  # a local path must never be read as a hub id
    failed_at = shared().failed.get(name)
    if failed_at is not None and time.time() - failed_at < RETRY_AFTER_S:
        return "failed_recently"
    return None


def load_in_time(load, name: str):
    """load(name) within LOAD_SECONDS; a failure or a timeout is remembered (hub_id_problem) and re-raised."""
    pool = ThreadPoolExecutor(max_workers=1)
    try:
        return pool.submit(load, name).result(timeout=LOAD_SECONDS)
    except (LoadTimeout, Exception):
        with shared().lock:
            shared().failed[name] = time.time()
        raise
    finally:
        pool.shutdown(wait=False)  # a timed-out download finishes or fails in the background


def add_hub_model(name: str) -> None:
    with shared().lock:
        if name not in shared().hub_models:
            shared().hub_models.append(name)


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses that other devices on its network may reach (loopback left out): first the one
    its default route leaves from, then any others its host name resolves to. Nothing is sent anywhere: connecting a
    UDP socket only asks the kernel which interface a packet would leave from."""
    found: list[str] = []
    with suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1 (RFC 5737), the discard port: never a real peer
        found.append(probe.getsockname()[0])
    with suppress(OSError):
        found += [info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
    return [a for a in dict.fromkeys(found) if not a.startswith(("127.", "0."))]
