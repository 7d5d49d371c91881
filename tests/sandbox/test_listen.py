"""``frontdesk sandbox listen``: a receiver that checks the vendor's signature with a five-minute
tolerance, refuses a replayed or malformed one, answers a bad ``Content-Length`` with one status
and no hang, and takes the secret from a file or the environment, never the command line."""

from __future__ import annotations

import io
import os
import socket
import threading
import time
from pathlib import Path

import pytest

from frontdesk.sandbox import cli
from frontdesk.sandbox.listen import Receiver, run
from frontdesk.sandbox.webhooks import sign

SECRET = "5e" * 32
BODY = b'{"event_fqn":"CONVERSATION_CLOSED","event_timestamp":"2026-01-05T09:00:00Z"}'


def raw_post(url: str, head: str, body: bytes = b"") -> bytes:
    """Send a request as written (headers included) and return the answer's status line."""
    host, port = url.split("//")[1].split("/")[0].split(":")
    with socket.create_connection((host, int(port)), timeout=5) as conn:
        conn.sendall(f"POST /hook HTTP/1.1\r\nHost: x\r\n{head}\r\n\r\n".encode() + body)
        conn.shutdown(socket.SHUT_WR)
        return conn.recv(200).split(b"\r\n")[0]


def test_signatures_are_checked_with_a_tolerance() -> None:
    with Receiver(secret=SECRET, tolerance=300) as receiver:
        now_ms = int(time.time() * 1000)
        for sent_at in (now_ms, now_ms - 3 * 365 * 86_400_000):  # now, three years ago
            head = (f"X-DIXA-SIGNATURE: {sign(SECRET, sent_at, BODY)}\r\n"
                    f"Content-Length: {len(BODY)}")
            assert raw_post(receiver.url, head, BODY).endswith(b" 200 OK")
        for forged in (f"t=nan,v1={'0' * 64}", f"t={now_ms}", "garbage"):
            raw_post(receiver.url, f"X-DIXA-SIGNATURE: {forged}\r\nContent-Length: "
                     f"{len(BODY)}", BODY)
    assert [r.signed for r in receiver.received] == [True, False, False, False, False]


@pytest.mark.parametrize(("length", "status"), [
    ("-1", b"400"), ("abc", b"400"), ("", b"400"), ("99999999999", b"413")])
def test_a_bad_length_is_one_answer_and_no_hang(length: str, status: bytes) -> None:
    with Receiver() as receiver:
        answer = raw_post(receiver.url, f"Content-Length: {length}", b"{}")
        assert answer.split(b" ")[1] == status
        # and the receiver still takes a good delivery
        assert raw_post(receiver.url, "Content-Length: 2", b"{}").endswith(b" 200 OK")
    assert len(receiver.received) == 1


def listen_with(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = cli.main(["listen", "--port", "0", *args])
    return code, capsys.readouterr().err


def test_the_secret_never_comes_from_the_command_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, err = listen_with(["--secret", SECRET], capsys)
    assert code == 2 and err.count("\n") == 1 and "--secret-file" in err and SECRET not in err
    loose = tmp_path / "secret"
    loose.write_text(SECRET)
    loose.chmod(0o644)
    code, err = listen_with(["--secret-file", str(loose)], capsys)
    assert code == 1 and err.count("\n") == 1 and "chmod 600" in err
    code, err = listen_with(["--tolerance", "nan"], capsys)
    assert code == 2 and "tolerance" in err


def test_the_secret_from_a_file_or_the_environment(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    import argparse

    private = tmp_path / "secret"
    private.write_text(SECRET + "\n")
    private.chmod(0o600)
    found = cli._listen_secret(argparse.Namespace(secret=None, secret_file=str(private)))
    assert found == SECRET
    monkeypatch.setenv(cli.WEBHOOK_SECRET_ENV, SECRET)
    assert cli._listen_secret(argparse.Namespace(secret=None, secret_file=None)) == SECRET
    assert cli.WEBHOOK_SECRET_ENV not in os.environ  # not handed on to anything started


class Printed(io.StringIO):
    """What ``listen`` prints, with an event set at each line."""

    def __init__(self) -> None:
        super().__init__()
        self.line = threading.Event()

    def write(self, text: str) -> int:
        written = super().write(text)
        self.line.set()
        return written

    def wait_for(self, text: str) -> None:
        while text not in self.getvalue():
            self.line.clear()
            if text in self.getvalue():
                return
            assert self.line.wait(10), f"never printed {text!r}: {self.getvalue()!r}"


def test_listen_prints_a_line_per_delivery() -> None:
    out = Printed()
    stop = threading.Event()
    thread = threading.Thread(target=run, args=("127.0.0.1", 0, SECRET),
                              kwargs={"show_body": False, "out": out, "stop": stop})
    thread.start()
    try:
        out.wait_for("listening for webhook deliveries at ")
        url = out.getvalue().split(" at ")[1].split()[0]
        head = (f"X-DIXA-SIGNATURE: {sign(SECRET, int(time.time() * 1000), BODY)}\r\n"
                f"X-Frontdesk-Event: ConversationClosed\r\nContent-Length: {len(BODY)}")
        assert raw_post(url, head, BODY).endswith(b" 200 OK")
        out.wait_for("signature ok")
    finally:
        stop.set()
        thread.join(10)
    assert "ConversationClosed" in out.getvalue()
