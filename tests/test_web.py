"""``frontdesk web``: the console in a browser tab, guarded as a holder of the user's key.

The server runs as the user runs it (a process of its own) in front of a real sandbox; the
guards are checked over HTTP, and the console itself in a real headless Chromium (Debian's
package, which ``make test`` installs) that loads the page, sees the inbox arrive over the
WebSocket and sends keys to it.
"""

from __future__ import annotations

import base64
import json
import os
import re
import selectors
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import parse_qs, urlsplit

import httpx2
import pytest

from frontdesk.cli.web import TOKEN_COOKIE
from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL
from frontdesk.sandbox.server import SandboxServer

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
#: a terminal's control sequences (colours, cursor moves) between the painted words
_ESCAPES = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")
#: the longest a step may take on a busy machine before the test gives up on it
PATIENCE = 90.0


class Served(NamedTuple):
    origin: str
    token: str


@pytest.fixture
def served(sandbox: SandboxServer, tmp_path: Path) -> Iterator[Served]:
    """``frontdesk web`` for the seeded demo agent on ``sandbox``, until the test ends."""
    env = {**os.environ, "FRONTDESK_HOME": str(tmp_path / "home"),
           "FRONTDESK_API_KEY": sandbox.key}
    env.pop("TEXTUAL_DRIVER", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "frontdesk", "web", "--",
         "--base-url", sandbox.base_url, "--as", DEMO_AGENT_EMAIL],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        line = _first_line(process)
        url = next(word for word in line.split() if word.startswith("http://"))
        parts = urlsplit(url)
        yield Served(f"{parts.scheme}://{parts.netloc}", parse_qs(parts.query)["token"][0])
    finally:
        process.terminate()
        try:
            process.wait(PATIENCE)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _first_line(process: subprocess.Popen[bytes]) -> str:
    """What the server prints once it listens (or the reason it ended)."""
    assert process.stdout is not None
    with selectors.DefaultSelector() as waiting:
        waiting.register(process.stdout, selectors.EVENT_READ)
        if not waiting.select(PATIENCE):
            pytest.fail("frontdesk web printed nothing")
    line = process.stdout.readline().decode()
    if not line:
        assert process.stderr is not None
        pytest.fail(f"frontdesk web ended: {process.stderr.read().decode()[-2000:]}")
    return line


def test_the_page_and_the_console_open_only_for_the_holder_of_the_token(
        served: Served) -> None:
    """Another user of the machine (no token), another web site in the same browser (another
    Origin) and a rebound DNS name (another Host) are all refused; the token's holder gets
    the page and keeps the token as a same-site, script-proof cookie."""
    with httpx2.Client(base_url=served.origin, timeout=PATIENCE) as client:
        assert client.get("/").status_code == 403
        assert client.get("/", params={"token": "guess"}).status_code == 403
        rebound = client.get("/", params={"token": served.token},
                             headers={"Host": "attacker.example"})
        assert rebound.status_code == 403
        page = client.get("/", params={"token": served.token})
        assert page.status_code == 200 and "textual-terminal" in page.text
        cookie = page.headers["set-cookie"]
        assert cookie.startswith(f"{TOKEN_COOKIE}={served.token}")
        assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
        upgrade = {"Connection": "Upgrade", "Upgrade": "websocket",
                   "Sec-WebSocket-Version": "13",
                   "Sec-WebSocket-Key": base64.b64encode(b"frontdesk-tests!").decode()}
        with_cookie = {"Cookie": f"{TOKEN_COOKIE}={served.token}"}
        elsewhere = client.get("/ws", headers={**upgrade, **with_cookie,
                                               "Origin": "https://attacker.example"})
        assert elsewhere.status_code == 403
    with httpx2.Client(base_url=served.origin, timeout=PATIENCE) as stranger:
        no_cookie = stranger.get("/ws", headers={**upgrade, "Origin": served.origin})
        assert no_cookie.status_code == 403


def _browser_required() -> None:
    if CHROMIUM.exists() and CHROMEDRIVER.exists():
        return
    message = f"needs {CHROMIUM} and {CHROMEDRIVER} (Debian's chromium, chromium-driver)"
    if os.environ.get("FRONTDESK_BROWSER_TEST") == "required":
        pytest.fail(message + ": `make test` installs them")
    pytest.skip(message)


def test_the_console_runs_in_a_browser_tab(served: Served) -> None:
    """Chromium opens the printed address: the inbox arrives over the WebSocket, and a key
    pressed in the page reaches the console (the help opens)."""
    _browser_required()
    os.environ.setdefault("SE_OFFLINE", "true")  # Selenium must not look for drivers online
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--window-size=1280,800"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    browser = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    try:
        browser.get(f"{served.origin}/?token={served.token}")
        _until_painted(browser, "Mine")
        # xterm.js takes keys through its hidden text area, as a person's typing does
        browser.find_element(By.CSS_SELECTOR, ".xterm-helper-textarea").send_keys("?")
        _until_painted(browser, "What the marks in the lists mean")
    finally:
        browser.quit()


def _until_painted(browser: Any, text: str) -> None:
    """Wait until the console has sent ``text`` to the page (its frames, as the browser
    received them over the WebSocket, without their escape sequences)."""
    seen = ""
    deadline = time.monotonic() + PATIENCE
    while text not in seen:
        if time.monotonic() > deadline:
            pytest.fail(f"{text!r} never reached the page; it got {seen[-500:]!r}")
        for entry in browser.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            if message["method"] != "Network.webSocketFrameReceived":
                continue
            frame = message["params"]["response"]
            data = frame["payloadData"]
            seen += _ESCAPES.sub("", base64.b64decode(data).decode("utf-8", "replace")
                                 if frame["opcode"] == 2 else data)
        time.sleep(0.1)  # polling the browser's log: the wait is for the text, not a time
