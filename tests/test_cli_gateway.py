"""``frontdesk login --gateway URL`` end to end: a real gateway in front of a real sandbox,
the in-memory keyring, and the console started on the profile it saved (the Textual app
replaced by a recorder)."""

from __future__ import annotations

from pathlib import Path

import keyring
import pytest

from frontdesk import cli, launch
from frontdesk.sandbox.server import SandboxServer
from frontdesk.settings import (
    API_KEY_ENV,
    KEYRING_SERVICE,
    Settings,
    load_settings,
    settings_path,
)
from gateway_harness import DEMO_AGENT_EMAIL, running_gateway


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_login_through_a_gateway_then_the_console_signs_in_through_it(
        sandbox: SandboxServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    seen: list[launch.Target] = []

    def console(target: launch.Target, settings: Settings) -> int:
        seen.append(target)
        return 0

    monkeypatch.setattr(launch, "run_console", console)
    with running_gateway(sandbox, tmp_path) as gateway:
        key = gateway.add_member(DEMO_AGENT_EMAIL, "agent")
        agent = gateway.agent(DEMO_AGENT_EMAIL)
        # --as has no place beside --gateway: the gateway says who you are
        code, _, err = run(capsys, "login", "--gateway", gateway.base_url, "--as", "x@y.z")
        assert code == 2 and "--gateway" in err
        # a key the gateway does not know: one line, nothing kept
        monkeypatch.setenv(API_KEY_ENV, "fdg_not-a-member")
        code, out, err = run(capsys, "login", "--gateway", gateway.base_url)
        assert code == 1 and "refused the key" in err
        assert len(err.strip().splitlines()) == 1 and "fdg_not-a-member" not in out + err
        assert load_settings().profiles == {}
        # the service itself is no gateway
        monkeypatch.setenv(API_KEY_ENV, sandbox.key)
        code, _, err = run(capsys, "login", "--gateway", sandbox.base_url)
        assert code == 1 and "is not a team gateway" in err
        # the member's personal key
        monkeypatch.setenv(API_KEY_ENV, key)
        code, out, err = run(capsys, "login", "--gateway", gateway.base_url, "--profile", "team")
        assert code == 0, err
        assert f"Signed in to {gateway.base_url} as {agent['email']} (agent)." in out
        assert key not in out + err
        profile = load_settings().profiles["team"]
        assert profile.gateway is True and profile.base_url == gateway.base_url
        assert profile.agent_id == agent["id"] and profile.key_source == "keyring"
        assert profile.integrations_url == gateway.integrations_url  # the listing, through it
        assert keyring.get_keyring().get_password(KEYRING_SERVICE, "team") == key
        code, out, _ = run(capsys, "profiles")
        assert f"{gateway.base_url} (gateway)" in out
        monkeypatch.delenv(API_KEY_ENV)
        code, _, err = run(capsys, "--profile", "team")
        assert code == 0, err
    assert [(t.base_url, t.integrations_url, t.gateway, t.identity) for t in seen] == [
        (gateway.base_url, gateway.integrations_url, True, agent["id"])]


def test_a_gateway_flag_that_is_not_true_or_false_is_said_in_one_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    path = settings_path()
    path.parent.mkdir(parents=True)
    path.write_text('[profiles.team]\nbase_url = "https://gw.example.com"\n'
                    'agent_email = "me@example.com"\ngateway = "yes"\n')
    code, out, err = run(capsys, "profiles")
    assert code == 1 and out == ""
    assert "gateway" in err and "true or false" in err
    assert len(err.strip().splitlines()) == 1
    path.write_text(path.read_text().replace('"yes"', "true"))
    code, out, _ = run(capsys, "profiles")
    assert code == 0 and "https://gw.example.com (gateway)" in out
