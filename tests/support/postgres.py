"""A throwaway PostgreSQL cluster for the poll store's tests: Debian's PostgreSQL binaries (package `postgresql`,
installed by .ci/run), a cluster made by initdb in a temporary folder, a server on a free port of 127.0.0.1.

initdb and postgres refuse to run as root: as root, both run as the `postgres` user that Debian's package creates
(runuser), in a folder given to that user. `unavailable()` says in words why no cluster can be made here (no
binaries, no psycopg, root without a `postgres` user), for a test to skip with.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

BIN_DIRS = sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)  # the newest version first
USER = "attention"  # the cluster's superuser; local connections are trusted (a throwaway cluster on 127.0.0.1)


def bin_dir() -> Path | None:
    found = [d for d in BIN_DIRS if (d / "initdb").is_file() and (d / "pg_ctl").is_file()]
    if found:
        return found[0]
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb and shutil.which("pg_ctl") else None


def run_as() -> list[str]:
    """The command prefix that runs PostgreSQL's programs: none for a user other than root, runuser as root."""
    if os.geteuid() != 0:
        return []
    return ["runuser", "-u", "postgres", "--"]


def unavailable() -> str | None:
    """Why no cluster can be made here, or None."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return 'psycopg is not installed (pip install "psycopg[binary]"; requirements.txt has it)'
    if bin_dir() is None:
        return "PostgreSQL's initdb and pg_ctl are not installed (Debian package postgresql; .ci/run installs it)"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root, and there is no postgres user to run initdb as (Debian's postgresql makes one)"
        if not shutil.which("runuser"):
            return "running as root, and runuser (util-linux) is missing to run initdb as postgres"
    return None


class Cluster:
    """initdb in a temporary folder, then start/stop/restart of its server on `port`; `url` to connect."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.bin = bin_dir()
        self.folder = Path(tempfile.mkdtemp(prefix="attention-pg-"))
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres")
        self.data = self.folder / "data"
        self.log = self.folder / "server.log"
        self.run(["initdb", "-D", str(self.data), "-A", "trust", "-U", USER, "-E", "UTF8", "--no-sync",
                  "--no-instructions"])

    @property
    def url(self) -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/postgres"

    def run(self, command: list[str]) -> None:
        subprocess.run([*run_as(), str(self.bin / command[0]), *command[1:]], check=True, capture_output=True,
                       timeout=120)

    def start(self) -> None:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c max_connections=100"
        self.run(["pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.log), "-w", "-t", "60", "start"])

    def stop(self, mode: str = "fast") -> None:
        self.run(["pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop"])

    def remove(self) -> None:
        try:
            self.stop("immediate")
        except subprocess.CalledProcessError:
            pass  # not running
        shutil.rmtree(self.folder, ignore_errors=True)


_SHARED: Cluster | None = None


def shared_cluster() -> Cluster:
    """One running cluster for this test process (made on first use, removed when the process exits)."""
    global _SHARED
    if _SHARED is None:
        import atexit

        from tests.support.app_server import free_port

        cluster = Cluster(free_port())
        atexit.register(cluster.remove)
        cluster.start()
        _SHARED = cluster
    return _SHARED


def empty_tables(url: str) -> None:
    """The poll tables, emptied (where a store has made them): each test starts from no polls."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as db:
        db.execute("DROP TABLE IF EXISTS votes, polls")
    from app_pages.state import poll_store

    with poll_store._READY_LOCK:
        poll_store._READY.discard(url)
