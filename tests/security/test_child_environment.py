"""No process the console starts inherits the API key.

The console opens links in the user's browser (and may start other helpers); each of them is a
child process that would inherit the environment, ``FRONTDESK_API_KEY`` included. The proof
starts the console as the command line does (``frontdesk --base-url … --as …`` with the key in
the environment), and from inside it opens a link the way Textual does (``webbrowser.open``)
with a real browser command (``BROWSER``) that writes down the environment it was given.
"""

from __future__ import annotations

import os
import shlex
import sys
import webbrowser
from pathlib import Path

import pytest

from frontdesk import cli
from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL
from frontdesk.sandbox.server import SandboxServer
from frontdesk.settings import API_KEY_ENV, SANDBOX_KEYS_ENV
from frontdesk.tui.app import FrontdeskApp

BROWSER = """\
import json, os, sys
with open(sys.argv[1], "w") as out:
    json.dump({"url": sys.argv[2], "env": dict(os.environ)}, out)
"""


def test_child_processes_never_inherit_the_key(
        sandbox: SandboxServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    import json

    script = tmp_path / "browser.py"
    script.write_text(BROWSER)
    seen = tmp_path / "seen.json"
    monkeypatch.setenv("BROWSER", " ".join(
        shlex.quote(part) for part in (sys.executable, str(script), str(seen))) + " %s")
    monkeypatch.setattr(webbrowser, "_tryorder", None)  # read BROWSER again
    monkeypatch.setattr(webbrowser, "_browsers", {})
    monkeypatch.setenv(API_KEY_ENV, sandbox.key)
    monkeypatch.setenv(SANDBOX_KEYS_ENV, "sbx_another-secret")
    monkeypatch.setenv("FRONTDESK_TEST_MARKER", "inherited")

    def run(app: FrontdeskApp) -> None:
        # What Textual's driver does for ``App.open_url``, from inside the running console.
        assert webbrowser.open("https://example.com/help")

    monkeypatch.setattr(FrontdeskApp, "run", run)
    code = cli.main(["--base-url", sandbox.base_url, "--as", DEMO_AGENT_EMAIL])
    assert code == 0, capsys.readouterr().err
    child = json.loads(seen.read_text())
    assert child["url"] == "https://example.com/help"
    assert child["env"].get("FRONTDESK_TEST_MARKER") == "inherited"  # the rest is inherited
    assert API_KEY_ENV not in child["env"]
    assert SANDBOX_KEYS_ENV not in child["env"]
    assert not any(sandbox.key in value for value in child["env"].values())
    assert API_KEY_ENV not in os.environ  # gone from the console's own environment
