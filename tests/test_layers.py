"""What the import contracts cannot say: which frameworks a start-up actually loads.

The layer rules themselves (api and store never import Textual, the console never speaks HTTP,
the sandbox imports only the contract) are contracts in pyproject.toml, checked by
`lint-imports` in `make test`."""

from __future__ import annotations

import subprocess
import sys


def test_starting_the_console_does_not_load_the_sandbox_framework() -> None:
    code = (
        "import sys\n"
        "import frontdesk.cli, frontdesk.tui.app, frontdesk.store.session, frontdesk.launch\n"
        "bad = [m for m in ('fastapi', 'uvicorn', 'starlette', 'frontdesk.sandbox.app') "
        "if m in sys.modules]\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True, timeout=60)
    assert result.stdout.strip() == ""


def test_api_models_load_without_the_http_stack() -> None:
    code = ("import sys\nimport frontdesk.api.models\n"
            "print('httpx2' in sys.modules, 'textual' in sys.modules)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True, timeout=60)
    assert result.stdout.split() == ["False", "False"]
