"""A class poll's shared state: polls and votes in one SQLite file, so every browser session of the server (and the
server after a restart) sees the same tally. No Streamlit here: the page (poll.py) and the tests use it alike.

The file is `attention-polls.sqlite3` in the folder ATTENTION_DATA_DIR names (default: the system's temporary folder).
Its folder is made and its tables created (WAL mode on) once per file and process (`PollStore.__init__` remembers
which files are ready); after that every call opens its own connection for one short transaction (sessions are
threads, and a connection must not cross threads; WAL mode lets students vote while the teacher's tally reads).
A folder or file that cannot be made, opened or written raises StoreUnavailable, which names the file and SQLite's
reason, for the page to say in words. A poll lives EXPIRES_S seconds; a voter (one id per browser: polls.py keeps it
in a cookie) votes once per poll (a unique constraint, not a check before an insert); a vote is the index of one of
the poll's options; codes are CODE_LENGTH letters and digits no one confuses when read off a projector.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import sqlite3
import tempfile
import threading
import time
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path

FILE_NAME = "attention-polls.sqlite3"
EXPIRES_S = 2 * 60 * 60  # a lesson's length
KEEP_EXPIRED_S = 24 * 60 * 60  # expired polls are deleted a day later, when another poll is started
CODE_ALPHABET = "ACDEFHJKMNPRTUVWXY34679"  # no 0/O, 1/I/L, 2/Z, 5/S, 6/G, 8/B
CODE_LENGTH = 5
CODE = re.compile(f"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}")
MAX_OPTIONS, MAX_TEXT = 256, 200  # a poll's options and the length of any text it stores
MAX_VOTER = 64

SCHEMA = """
CREATE TABLE IF NOT EXISTS polls (
    code TEXT PRIMARY KEY,
    created REAL NOT NULL,
    expires REAL NOT NULL,
    question TEXT NOT NULL,      -- JSON: what the question is about (kind, layer, head, sentence, query token)
    options TEXT NOT NULL,       -- JSON list of the options' labels
    answer INTEGER,              -- the model's answer (an option's index), shown once revealed
    revealed INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS votes (
    code TEXT NOT NULL REFERENCES polls(code) ON DELETE CASCADE,
    voter TEXT NOT NULL,
    choice INTEGER NOT NULL,
    voted REAL NOT NULL,
    UNIQUE (code, voter)
);
"""


_READY: set[Path] = set()  # poll files whose folder and tables this process has made
_READY_LOCK = threading.Lock()


class StoreUnavailable(Exception):
    """The poll file cannot be made, opened or written: `path`, and the reason SQLite or the OS gave."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path, self.reason = path, reason


def data_dir() -> Path:
    """The folder of the poll file: ATTENTION_DATA_DIR, else the system's temporary folder (read at each call)."""
    return Path(os.environ.get("ATTENTION_DATA_DIR") or tempfile.gettempdir())


def read_code(text: str) -> str | None:
    """A typed or linked code as stored (upper case, spaces and dashes dropped), or None when it cannot be one."""
    if not isinstance(text, str) or len(text) > 3 * CODE_LENGTH:
        return None
    code = re.sub(r"[\s-]", "", text).upper()
    return code if CODE.fullmatch(code) else None


@dataclass(frozen=True)
class Poll:
    code: str
    created: float
    expires: float
    question: dict
    options: list[str]
    answer: int | None
    revealed: bool


class PollStore:
    """Polls and votes in the SQLite file at `path` (default: data_dir()/FILE_NAME)."""

    def __init__(self, path: Path | str | None = None, clock=time.time) -> None:
        self.path = Path(path) if path is not None else data_dir() / FILE_NAME
        self.clock = clock
        with _READY_LOCK:
            if self.path not in _READY:
                self._migrate()
                _READY.add(self.path)

    def _migrate(self) -> None:
        """The folder, the tables and WAL mode (a setting the file keeps), made where missing."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreUnavailable(self.path, exc.strerror or str(exc)) from exc
        with self.transaction() as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(SCHEMA)

    @contextmanager
    def transaction(self):
        """One connection, one transaction: committed on leaving, rolled back on an error, then closed. A file that
        cannot be opened or written (a read-only or full disk) raises StoreUnavailable; a broken rule (a second
        vote, a code taken) still raises sqlite3.IntegrityError for the caller to read."""
        try:
            with closing(sqlite3.connect(self.path, timeout=10)) as db:
                db.execute("PRAGMA foreign_keys=ON")
                with db:
                    yield db
        except sqlite3.IntegrityError:
            raise
        except sqlite3.DatabaseError as exc:  # OperationalError among them: read-only, full, not a database
            if "no such table" in str(exc):  # the file was deleted under the server: the next store makes it again
                with _READY_LOCK:
                    _READY.discard(self.path)
            raise StoreUnavailable(self.path, str(exc)) from exc

    def create(self, question: dict, options: list[str], answer: int | None) -> str:
        """A new poll open for EXPIRES_S seconds; returns its code."""
        options = [str(option)[:MAX_TEXT] for option in options]
        if not 2 <= len(options) <= MAX_OPTIONS:
            raise ValueError(f"a poll has 2 to {MAX_OPTIONS} options, got {len(options)}")
        if answer is not None and not 0 <= answer < len(options):
            raise ValueError(f"the answer {answer} is not one of the {len(options)} options")
        about = json.dumps({k: str(v)[:MAX_TEXT] if isinstance(v, str) else v for k, v in question.items()})
        now = self.clock()
        with self.transaction() as db:
            db.execute("DELETE FROM polls WHERE expires < ?", (now - KEEP_EXPIRED_S,))
            while True:
                code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
                try:
                    db.execute("INSERT INTO polls (code, created, expires, question, options, answer) "
                               "VALUES (?, ?, ?, ?, ?, ?)", (code, now, now + EXPIRES_S, about, json.dumps(options), answer))
                    return code
                except sqlite3.IntegrityError:  # that code is taken: draw another
                    continue

    def poll(self, code: str) -> Poll | None:
        """The open poll with this code; None for a code that is malformed, unknown or expired."""
        code = read_code(code)
        if code is None:
            return None
        with self.transaction() as db:
            row = db.execute("SELECT code, created, expires, question, options, answer, revealed FROM polls "
                             "WHERE code = ? AND expires > ?", (code, self.clock())).fetchone()
        if row is None:
            return None
        return Poll(row[0], row[1], row[2], json.loads(row[3]), json.loads(row[4]), row[5], bool(row[6]))

    def vote(self, code: str, voter: str, choice: int) -> str:
        """One voter's answer: "voted", or why not — "no_poll" (malformed, unknown or expired code), "bad_choice"
        (not an option's index), "bad_voter", "twice" (this voter already voted in this poll)."""
        poll = self.poll(code)
        if poll is None:
            return "no_poll"
        if not isinstance(choice, int) or isinstance(choice, bool) or not 0 <= choice < len(poll.options):
            return "bad_choice"
        if not isinstance(voter, str) or not 0 < len(voter) <= MAX_VOTER:
            return "bad_voter"
        try:
            with self.transaction() as db:
                db.execute("INSERT INTO votes (code, voter, choice, voted) VALUES (?, ?, ?, ?)",
                           (poll.code, voter, choice, self.clock()))
        except sqlite3.IntegrityError:
            return "twice"
        return "voted"

    def choice_of(self, code: str, voter: str) -> int | None:
        """The option this voter chose in this poll, or None."""
        with self.transaction() as db:
            row = db.execute("SELECT choice FROM votes WHERE code = ? AND voter = ?", (code, voter)).fetchone()
        return None if row is None else row[0]

    def counts(self, code: str) -> list[int]:
        """Votes per option, in the options' order (all zero for a poll that is not open)."""
        poll = self.poll(code)
        if poll is None:
            return []
        found = [0] * len(poll.options)
        with self.transaction() as db:
            for choice, n in db.execute("SELECT choice, COUNT(*) FROM votes WHERE code = ? GROUP BY choice",
                                        (poll.code,)):
                found[choice] = n
        return found

    def reveal(self, code: str) -> None:
        """Show the model's answer to everyone in this poll."""
        with self.transaction() as db:
            db.execute("UPDATE polls SET revealed = 1 WHERE code = ?", (code,))
