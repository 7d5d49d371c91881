"""``frontdesk gateway …`` as a person runs it: a key file, members added and listed, and a
gateway served by a second process that sees revocation and rotation at once."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx2
import pytest

from frontdesk.cli.main import main
from frontdesk.sandbox.server import SandboxServer
from gateway_harness import DEMO_AGENT_EMAIL, PATIENCE


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["gateway", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def _key_file(folder: Path, key: str, mode: int = 0o600) -> Path:
    path = folder / "org.key"
    path.write_text(key + "\n")
    path.chmod(mode)
    return path


def test_members_are_added_listed_revoked_and_rotated_from_the_command_line(
        capsys: pytest.CaptureFixture[str], sandbox: SandboxServer, tmp_path: Path) -> None:
    db = str(tmp_path / "gw" / "gateway.db")
    loose = _key_file(tmp_path, sandbox.key, 0o644)
    code, _, err = _run(capsys, "add-member", DEMO_AGENT_EMAIL, "--role", "agent",
                        "--upstream", sandbox.base_url, "--upstream-key-file", str(loose),
                        "--db", db)
    assert code == 1 and "chmod 600" in err and sandbox.key not in err
    key_file = _key_file(tmp_path, sandbox.key)
    code, out, _ = _run(capsys, "add-member", DEMO_AGENT_EMAIL, "--role", "supervisor",
                        "--upstream", sandbox.base_url, "--upstream-key-file", str(key_file),
                        "--db", db)
    assert code == 0
    personal = out.splitlines()[-1]
    assert personal.startswith("fdg_") and " " not in personal
    assert personal.encode() not in Path(db).read_bytes()
    code, _, err = _run(capsys, "add-member", "nobody@example.com", "--role", "agent",
                        "--upstream", sandbox.base_url, "--upstream-key-file", str(key_file),
                        "--db", db)
    assert code == 1 and "no agent" in err
    code, out, _ = _run(capsys, "members", "--db", db)
    assert code == 0 and DEMO_AGENT_EMAIL in out and "supervisor" in out and "live" in out
    assert personal not in out
    assert _run(capsys, "set-role", DEMO_AGENT_EMAIL, "--role", "admin", "--db", db)[0] == 0
    assert "admin" in _run(capsys, "members", "--db", db)[1]
    assert _run(capsys, "revoke", DEMO_AGENT_EMAIL, "--db", db)[0] == 0
    assert "revoked" in _run(capsys, "members", "--db", db)[1]
    assert _run(capsys, "set-role", "nobody@example.com", "--role", "agent", "--db", db)[0] == 1
    code, out, _ = _run(capsys, "rotate", DEMO_AGENT_EMAIL, "--db", db)
    assert code == 0 and out.splitlines()[-1] != personal
    code, _, err = _run(capsys, "serve", "--upstream", sandbox.base_url, "--db", db)
    assert code == 2 and "FRONTDESK_UPSTREAM_KEY" in err


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _wait_until_serving(url: str, process: subprocess.Popen[bytes]) -> None:
    """Until the gateway answers its health check (or the process has ended)."""
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        assert process.poll() is None, "the gateway ended before it served"
        try:
            if httpx2.get(url + "/gateway/v1/health", timeout=5).status_code == 200:
                return
        except httpx2.TransportError:
            time.sleep(0.05)
    raise AssertionError("the gateway did not serve")


def test_a_served_gateway_sees_revocation_and_rotation_by_another_process_at_once(
        capsys: pytest.CaptureFixture[str], sandbox: SandboxServer, tmp_path: Path) -> None:
    db = str(tmp_path / "gw" / "gateway.db")
    key_file = _key_file(tmp_path, sandbox.key)
    code, out, _ = _run(capsys, "add-member", DEMO_AGENT_EMAIL, "--role", "agent",
                        "--upstream", sandbox.base_url, "--upstream-key-file", str(key_file),
                        "--db", db)
    assert code == 0
    personal = out.splitlines()[-1]
    port = _free_port()
    log = tmp_path / "serve.log"
    env = {**os.environ, "FRONTDESK_UPSTREAM_KEY": sandbox.key, "FRONTDESK_LOG": "DEBUG"}
    with log.open("wb") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "frontdesk", "gateway", "serve", "--upstream",
             sandbox.base_url, "--db", db, "--port", str(port), "--public-url",
             "https://gw.example.com"], env=env, stdout=output, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_serving(url, process)
        with httpx2.Client(base_url=url, timeout=PATIENCE) as http:
            me = http.get("/gateway/v1/me", headers={"Authorization": personal})
            assert me.status_code == 200 and me.json()["data"]["email"] == DEMO_AGENT_EMAIL
            assert _run(capsys, "revoke", DEMO_AGENT_EMAIL, "--db", db)[0] == 0
            assert http.get("/v1/tags", headers={"Authorization": personal}).status_code == 401
            rotated = _run(capsys, "rotate", DEMO_AGENT_EMAIL, "--db", db)[1].splitlines()[-1]
            assert http.get("/v1/tags", headers={"Authorization": rotated}).status_code == 200
            assert http.get("/v1/tags", headers={"Authorization": personal}).status_code == 401
            assert _run(capsys, "set-role", DEMO_AGENT_EMAIL, "--role", "supervisor",
                        "--db", db)[0] == 0
            me = http.get("/gateway/v1/me", headers={"Authorization": rotated})
            assert me.json()["data"]["role"] == "supervisor"
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(PATIENCE)
    text = log.read_text()
    assert "hearing the service's webhooks at https://gw.example.com/gateway/v1/webhooks" \
        in text
    assert "HTTP Request: GET" in text  # the DEBUG log was written: the keys are not in it
    assert sandbox.key not in text and personal not in text


def _self_signed(folder: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 and its key, in PEM files."""
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName(
                [x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
            .sign(key, hashes.SHA256()))
    cert_file, key_file = folder / "gateway.crt", folder / "gateway.key"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                           serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    key_file.chmod(0o600)
    return cert_file, key_file


def test_serve_speaks_tls_with_a_certificate_and_its_key(sandbox: SandboxServer,
                                                         tmp_path: Path) -> None:
    import ssl

    cert, key = _self_signed(tmp_path)
    port = _free_port()
    env = {**os.environ, "FRONTDESK_UPSTREAM_KEY": sandbox.key}
    process = subprocess.Popen(
        [sys.executable, "-m", "frontdesk", "gateway", "serve", "--upstream",
         sandbox.base_url, "--db", str(tmp_path / "gw" / "gateway.db"), "--port", str(port),
         "--tls-cert", str(cert), "--tls-key", str(key)],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    trust = ssl.create_default_context(cafile=str(cert))
    try:
        deadline = time.monotonic() + PATIENCE
        while True:
            assert process.poll() is None and time.monotonic() < deadline
            try:
                health = httpx2.get(f"https://127.0.0.1:{port}/gateway/v1/health",
                                   verify=trust, timeout=5)
                break
            except httpx2.ConnectError:
                time.sleep(0.05)
        assert health.status_code == 200 and health.json()["data"]["upstream"] == "ok"
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(PATIENCE)
