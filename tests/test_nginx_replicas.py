"""docs/nginx-replicas.conf, the configuration docs/classroom.md gives for several replicas, in front of two real
`streamlit run app.py` servers: Debian's nginx accepts it (`nginx -t`), a page loads through it in Chromium and its
websocket (/_stcore/stream) is upgraded and runs the page, every request of one browser reaches one replica (the
attention_replica cookie), and new browsers are spread over both. The test changes only the ports and the listen
address of the file; it wraps the file in an http block of its own that logs which replica served each request.

Skips, saying why, where nginx or Chromium is missing (Debian packages nginx, chromium; .ci/run installs them).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
import urllib.request
from http.cookiejar import CookieJar
from pathlib import Path

import pytest

from tests.support.app_server import SERVER_START_S, free_port, running_app
from tests.support.chromium import CHROMIUM
from tests.support.paths import ROOT

CONFIG = ROOT / "docs" / "nginx-replicas.conf"
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").is_file() else None)

pytestmark = [
    pytest.mark.skipif(NGINX is None, reason="nginx is not installed (Debian package nginx; .ci/run installs it)"),
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} is not installed (Debian package chromium)"),
]


def nginx_config(folder: Path, port: int, replicas: list[int]) -> Path:
    """The repository's file with this test's ports, inside a main configuration of the test's own (its temporary
    paths and logs in `folder`; each request logged with its cookie, the replica that served it and its status)."""
    site = CONFIG.read_text()
    for default, replica in zip(("127.0.0.1:8501", "127.0.0.1:8502"), replicas, strict=True):
        assert default in site
        site = site.replace(default, f"127.0.0.1:{replica}")
    assert "listen 80;" in site and "/var/cache/nginx/attention " in site
    site = site.replace("listen 80;", f"listen 127.0.0.1:{port};")
    site = site.replace("/var/cache/nginx/attention ", f"{folder}/cache ")
    (folder / "replicas.conf").write_text(site)
    for temp in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (folder / temp).mkdir()
        os.chmod(folder / temp, 0o777)
    main = folder / "nginx.conf"
    main.write_text(f"""
{"user root;" if os.geteuid() == 0 else ""}
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log;
events {{ worker_connections 256; }}
http {{
    log_format replicas '$attention_replica $upstream_addr $status $upstream_cache_status $request_uri';
    access_log {folder}/access.log replicas;
    client_body_temp_path {folder}/client_body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    include {folder}/replicas.conf;
}}
""")
    return main


def served(folder: Path, cached: bool = False) -> list[tuple[str, ...]]:
    """The access log: (cookie, replica address, status, request) per request nginx has finished; with `cached`,
    nginx's cache status (HIT, MISS, or - for a request it does not cache) before the request."""
    lines = (folder / "access.log").read_text().splitlines() if (folder / "access.log").exists() else []
    fields = [line.split(" ", 4) for line in lines]
    return [tuple(f) if cached else (f[0], f[1], f[2], f[4]) for f in fields]


def test_the_documented_nginx_config_serves_two_replicas_with_sticky_sessions(browser, translator, tmp_path):
    from playwright.sync_api import expect

    from tests.support.browser import open_session, screenshot, translation

    folder = tmp_path / "nginx"
    folder.mkdir()
    os.chmod(tmp_path, 0o755)
    os.chmod(folder, 0o777)
    ports = [free_port(), free_port()]
    proxy_port = free_port()
    main = nginx_config(folder, proxy_port, ports)
    checked = subprocess.run([NGINX, "-t", "-c", str(main), "-p", str(folder)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    proxy = f"http://127.0.0.1:{proxy_port}"
    with running_app(tmp_path / "a.log", port=ports[0]), running_app(tmp_path / "b.log", port=ports[1]):
        nginx = subprocess.Popen([NGINX, "-c", str(main), "-p", str(folder), "-g", "daemon off;"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            deadline = time.monotonic() + SERVER_START_S
            while True:
                try:
                    with urllib.request.urlopen(f"{proxy}/_stcore/health", timeout=5) as response:
                        assert response.status == 200
                        break
                except OSError:
                    assert nginx.poll() is None, nginx.stderr.read().decode()
                    assert time.monotonic() < deadline, "nginx did not answer"
                    time.sleep(0.3)

            # Sticky: one browser (a cookie jar) reaches one replica however often it asks; new browsers both.
            replicas_seen = set()
            for browser_no in range(16):
                jar = CookieJar()
                opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
                for _ in range(4):
                    with opener.open(f"{proxy}/_stcore/health", timeout=10) as response:
                        assert response.status == 200
                (cookie,) = [c.value for c in jar if c.name == "attention_replica"]
                mine = {replica for key, replica, _, _ in served(folder) if key == cookie}
                assert len(mine) == 1, (cookie, mine)
                replicas_seen |= mine
            assert replicas_seen == {f"127.0.0.1:{port}" for port in ports}  # 16 browsers on one: chance 2^-15

            # A page through the proxy, in Chromium: its websocket is upgraded (101) and the page runs over it.
            context, page = open_session(browser, f"{proxy}/translate?s=I+have+a+dream.")
            try:
                expect(page.locator("[data-testid='stApp'][data-test-connection-state='CONNECTED']")).to_have_count(1)
                expect(translation(page)).to_have_text(translator.translate("I have a dream.").translation)
                screenshot(page, "nginx_replicas_translate")
                (cookie,) = [c["value"] for c in page.context.cookies() if c["name"] == "attention_replica"]
            finally:
                context.close()
            deadline = time.monotonic() + 30
            while not any(status == "101" for key, _, status, _ in served(folder) if key == cookie):
                assert time.monotonic() < deadline, "the websocket's request is not in nginx's log"
                time.sleep(0.3)  # nginx logs a websocket's request when it closes
            mine = [(replica, status, request) for key, replica, status, request in served(folder) if key == cookie]
            assert any(status == "101" and request.startswith("/_stcore/stream") for _, status, request in mine), mine
            assert len({replica for replica, _, _ in mine}) == 1, mine  # the page and its websocket: one replica

            # Streamlit's scripts: the browser's went through to a replica; another browser (whose own cache is
            # empty, unlike the tests' Chromium, which shares one) gets every one from nginx's cache, compressed.
            first = {request for _, _, _, cache, request in served(folder, cached=True)
                     if request.startswith("/static/") and cache == "MISS"}
            assert len(first) > 50, first  # a new browser asks for about a hundred of them
            for request in first:
                asked = urllib.request.Request(proxy + request, headers={"Accept-Encoding": "gzip"})
                with urllib.request.urlopen(asked, timeout=10) as response:
                    assert response.headers["X-Cache-Status"] == "HIT", request
                    if request.endswith((".js", ".css")):
                        assert response.headers["Content-Encoding"] == "gzip", request
        finally:
            nginx.terminate()
            nginx.wait(20)
    for log in ("a.log", "b.log"):
        assert "Traceback (most recent call last)" not in (tmp_path / log).read_text()
