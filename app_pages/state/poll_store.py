"""A class poll's shared state: polls and votes in one SQLite file, so every browser session of the server (and the
server after a restart) sees the same tally. No Streamlit here: the page (poll.py) and the tests use it alike.

The file is `attention-polls.sqlite3` in the folder ATTENTION_DATA_DIR names (default: the system's temporary folder).
Its folder is made and its tables created (WAL mode on) once per file and process (`PollStore.__init__` remembers
which files are ready); after that every call opens its own connection for one short transaction (sessions are
threads, and a connection must not cross threads; WAL mode lets students vote while the teacher's tally reads).
A folder or file that cannot be made, opened or written raises StoreUnavailable, which names the file and SQLite's
reason, for the page to say in words. A poll lives EXPIRES_S seconds; a voter (one id per browser: polls.py keeps it
in a cookie) votes once per poll (a unique constraint, not a check before an insert); a vote is the index of one of
the poll's options, taken until the answer is revealed (reveal closes voting; reopen opens it again); codes are
CODE_LENGTH letters and digits no one confuses when read off a projector.

Past one machine (several app processes behind a load balancer): with ATTENTION_POLL_DB=postgresql://… set,
`PollStore()` is a PostgresPollStore instead, the same tables and the same methods on a PostgreSQL database every
process shares (psycopg 3, imported only then: the app runs without it while the variable is unset). Its tables are
made once per address and process (under an advisory lock, so replicas starting together do not race); a
transaction takes a connection from a small per-process pool (checked alive first, so a restarted database costs no
error). A missing psycopg, an address that cannot be read and a server that cannot be reached raise StoreUnavailable
too, with the address shown without its password.
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
from urllib.parse import urlsplit

FILE_NAME = "attention-polls.sqlite3"
EXPIRES_S = 2 * 60 * 60  # a lesson's length
KEEP_EXPIRED_S = 24 * 60 * 60  # expired polls are deleted a day later, when another poll is started
CODE_ALPHABET = "ACDEFHJKMNPRTUVWXY34679"  # no 0/O, 1/I/L, 2/Z, 5/S, 6/G, 8/B
CODE_LENGTH = 5
CODE = re.compile(f"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}")
MAX_OPTIONS, MAX_TEXT = 256, 200  # a poll's options and the length of any text it stores
MAX_VOTER = 64
DB_ENV = "ATTENTION_POLL_DB"  # postgresql://user:password@host:port/database: the store every replica shares
DB_SCHEMES = ("postgresql", "postgres")
CONNECT_TIMEOUT_S = 5  # an unreachable database server: said after this long, not after libpq's default (forever)
POOL_IDLE = 8  # idle connections kept per database and process

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


_READY: set[Path | str] = set()  # poll files (and database addresses) whose tables this process has made
_READY_LOCK = threading.Lock()


class StoreUnavailable(Exception):
    """The poll file cannot be made, opened or written: `path`, and the reason SQLite or the OS gave. For the shared
    database (PostgresPollStore), `path` is its address without the password and `database` is True."""

    def __init__(self, path: Path | str, reason: str, database: bool = False) -> None:
        super().__init__(f"{path}: {reason}")
        self.path, self.reason, self.database = path, reason, database


def database_url() -> str | None:
    """ATTENTION_POLL_DB (read at each call), or None where it is unset or empty: then polls live in SQLite."""
    return os.environ.get(DB_ENV, "").strip() or None


def public_address(url: str) -> str:
    """The database's address as a message may show it: scheme://user@host:port/database, never a password (nor
    the query, where libpq also accepts one)."""
    scheme = url.partition("://")[0] if "://" in url else "postgresql"
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        host = f"[{host}]" if ":" in host else host
        port = f":{parts.port}" if parts.port else ""
        user = f"{parts.username}@" if parts.username else ""
    except ValueError:  # a port that is not a number, a bracket left open
        return f"{scheme}://…"
    return f"{scheme}://{user}{host}{port}{parts.path}"


def scrub(text: str, url: str) -> str:
    """`text` (a driver's message) on one line, with the address's password, if it appears, masked."""
    secrets_in_url = set()
    try:
        if urlsplit(url).password:
            secrets_in_url.add(urlsplit(url).password)
    except ValueError:
        pass
    secrets_in_url.update(re.findall(r"password=([^&\s]+)", url))
    for secret in secrets_in_url:
        text = text.replace(secret, "***")
    text = re.sub(r"(://[^:/@\s]*:)[^@\s]*@", r"\1***@", text)  # a URL's user:password@
    text = re.sub(r"(password\s*=\s*)\S+", r"\1***", text)
    return " ".join(text.split())


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
    """Polls and votes in the SQLite file at `path` (default: data_dir()/FILE_NAME). `PollStore()` with no path
    while ATTENTION_POLL_DB is set gives the shared PostgreSQL store instead (PostgresPollStore): the pages call
    `PollStore()` and need not know which."""

    integrity_errors: tuple[type[Exception], ...] = (sqlite3.IntegrityError,)

    def __new__(cls, path: Path | str | None = None, *args, **kwargs):
        if cls is PollStore and path is None and database_url() is not None:
            cls = PostgresPollStore
        return super().__new__(cls)

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
            while True:  # a code already taken inserts nothing (the primary key): draw another
                code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
                made = db.execute("INSERT INTO polls (code, created, expires, question, options, answer) "
                                  "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (code) DO NOTHING",
                                  (code, now, now + EXPIRES_S, about, json.dumps(options), answer))
                if made.rowcount == 1:
                    return code

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
        (not an option's index), "bad_voter", "twice" (this voter already voted in this poll), "closed" (the answer
        is revealed: a vote then would only pad the tally with the answer everyone sees)."""
        poll = self.poll(code)
        if poll is None:
            return "no_poll"
        if not isinstance(choice, int) or isinstance(choice, bool) or not 0 <= choice < len(poll.options):
            return "bad_choice"
        if not isinstance(voter, str) or not 0 < len(voter) <= MAX_VOTER:
            return "bad_voter"
        try:  # the insert itself asks that the poll be still unrevealed, and the unique constraint on (code, voter)
            with self.transaction() as db:  # decides a second vote: no check before the insert that a reveal beats
                made = db.execute("INSERT INTO votes (code, voter, choice, voted) "
                                  "SELECT ?, ?, CAST(? AS INTEGER), CAST(? AS DOUBLE PRECISION) "
                                  "WHERE EXISTS (SELECT 1 FROM polls WHERE code = ? AND revealed = 0) "
                                  "ON CONFLICT (code, voter) DO NOTHING",
                                  (poll.code, voter, choice, self.clock(), poll.code)).rowcount
        except self.integrity_errors:  # the poll was deleted since it was read (the foreign key)
            return "no_poll"
        if made == 1:
            return "voted"
        return "twice" if self.choice_of(poll.code, voter) is not None else "closed"

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
        """Show the model's answer to everyone in this poll, and close its voting."""
        with self.transaction() as db:
            db.execute("UPDATE polls SET revealed = 1 WHERE code = ?", (code,))

    def reopen(self, code: str) -> None:
        """Hide the answer again and take votes again (the teacher's choice, after a reveal)."""
        with self.transaction() as db:
            db.execute("UPDATE polls SET revealed = 0 WHERE code = ?", (code,))

    def again(self, code: str) -> str | None:
        """A new poll on the same question, options and answer, open and unrevealed; its code (None where `code`
        names no open poll)."""
        poll = self.poll(code)
        return None if poll is None else self.create(poll.question, poll.options, poll.answer)


# ---------------------------------------------------------------- the shared store: PostgreSQL

PG_SCHEMA = (  # SCHEMA's tables in PostgreSQL's types (times as DOUBLE PRECISION: REAL would keep 2 minutes' detail)
    """CREATE TABLE IF NOT EXISTS polls (
        code TEXT PRIMARY KEY,
        created DOUBLE PRECISION NOT NULL,
        expires DOUBLE PRECISION NOT NULL,
        question TEXT NOT NULL,
        options TEXT NOT NULL,
        answer INTEGER,
        revealed INTEGER NOT NULL DEFAULT 0
    )""",
    """CREATE TABLE IF NOT EXISTS votes (
        code TEXT NOT NULL REFERENCES polls(code) ON DELETE CASCADE,
        voter TEXT NOT NULL,
        choice INTEGER NOT NULL,
        voted DOUBLE PRECISION NOT NULL,
        UNIQUE (code, voter)
    )""",
)
MIGRATE_LOCK = 0x61747470  # pg_advisory_xact_lock's key while tables are made: replicas starting together wait
_IDLE: dict[str, list] = {}  # idle connections per database address, this process's pool
_IDLE_LOCK = threading.Lock()


def _psycopg(url: str):
    """The psycopg module, imported on first use; StoreUnavailable (in words) where it is not installed."""
    try:
        import psycopg
    except ImportError as exc:
        raise StoreUnavailable(public_address(url), f"{DB_ENV} names a PostgreSQL database, but this server has no "
                               'PostgreSQL driver: install psycopg (pip install "psycopg[binary]")', True) from exc
    return psycopg


class _Statements:
    """A PostgreSQL connection as the shared methods use sqlite3's: execute(sql with ? placeholders, params)."""

    def __init__(self, connection) -> None:
        self.connection = connection

    def execute(self, sql: str, params=()):
        return self.connection.execute(sql.replace("?", "%s"), params)


class PostgresPollStore(PollStore):
    """Polls and votes in the PostgreSQL database at `url` (default: ATTENTION_POLL_DB), shared by every app process
    that names it: the same tables, rules and methods as the SQLite store. `path` is the address without its
    password (what messages show)."""

    def __init__(self, url: str | None = None, clock=time.time) -> None:
        self.url = url or database_url() or ""
        self.path = public_address(self.url)
        self.clock = clock
        if self.url.partition("://")[0].lower() not in DB_SCHEMES:
            raise StoreUnavailable(self.path, f"{DB_ENV} must be a postgresql:// address "
                                   "(postgresql://user:password@host:port/database)", True)
        try:
            urlsplit(self.url).port
        except ValueError as exc:  # a port that is not a number, a bracket left open
            raise StoreUnavailable(self.path, f"the address in {DB_ENV} cannot be read ({scrub(str(exc), self.url)})",
                                   True) from None
        self.psycopg = _psycopg(self.url)
        self.integrity_errors = (self.psycopg.IntegrityError,)
        with _READY_LOCK:
            if self.url not in _READY:
                self._migrate()
                _READY.add(self.url)

    def _migrate(self) -> None:
        with self.transaction() as db:
            db.execute("SELECT pg_advisory_xact_lock(?)", (MIGRATE_LOCK,))
            for statement in PG_SCHEMA:
                db.execute(statement)

    def _unavailable(self, exc: Exception, connecting: bool) -> StoreUnavailable:
        """The driver's error in words, without the password."""
        said = scrub(str(exc), self.url) or type(exc).__name__
        if connecting and isinstance(exc, self.psycopg.ProgrammingError):
            said = f"the address in {DB_ENV} cannot be read ({said})"
        elif connecting:
            said = f"the PostgreSQL server cannot be reached or refused the connection ({said})"
        else:
            said = f"PostgreSQL: {said}"
        return StoreUnavailable(self.path, said, True)

    def _connection(self):
        """An idle connection of this process's pool that still answers, else a new one."""
        while True:
            with _IDLE_LOCK:
                connection = _IDLE.get(self.url, []).pop() if _IDLE.get(self.url) else None
            if connection is None:
                break
            try:
                connection.execute("SELECT 1")  # a restarted database closed it: take another
                return connection
            except self.psycopg.Error:
                connection.close()
        kwargs = {} if "connect_timeout" in self.url else {"connect_timeout": CONNECT_TIMEOUT_S}
        try:
            return self.psycopg.connect(self.url, autocommit=True, application_name="attention-polls", **kwargs)
        except (self.psycopg.Error, ValueError) as exc:  # ValueError: psycopg reads some bad addresses itself
            raise self._unavailable(exc, connecting=True) from None

    def _release(self, connection) -> None:
        if connection.closed or connection.broken:
            return
        with _IDLE_LOCK:
            idle = _IDLE.setdefault(self.url, [])
            if len(idle) < POOL_IDLE:
                idle.append(connection)
                return
        connection.close()

    @contextmanager
    def transaction(self):
        """One transaction on a pooled connection: committed on leaving, rolled back on an error. A database that
        cannot be reached or used raises StoreUnavailable; a broken rule still raises psycopg.IntegrityError."""
        connection = self._connection()
        try:
            with connection.transaction():
                yield _Statements(connection)
        except self.psycopg.IntegrityError:
            self._release(connection)
            raise
        except self.psycopg.Error as exc:
            connection.close()
            if isinstance(exc, self.psycopg.errors.UndefinedTable):  # dropped under the server: made again next time
                with _READY_LOCK:
                    _READY.discard(self.url)
            raise self._unavailable(exc, connecting=False) from None
        except BaseException:
            self._release(connection)
            raise
        else:
            self._release(connection)
