"""An app cannot learn when a frame has reached the terminal: Textual's writer thread writes
it on its own time, and no event, callback or awaitable says when it is done.

A one-screen app runs with Textual's own driver on a pseudo-terminal (80x24). Once started,
it changes its whole screen (23 rows of coloured words) and, from
``call_after_refresh`` (the last public point after that frame is rendered), begins its
next piece of work: none, 300 ms of Python, or about 300 ms of one call into C that keeps
the interpreter (as a large import, a regular expression compiled or a schema built in an
extension does). The parent reads the terminal and prints, five times each way, when the
end of the new screen was read from it, relative to that point, and how long the work took.
Run: ``python repro_frame_written.py`` (Linux or macOS; no real terminal needed).
"""

from __future__ import annotations

import fcntl
import os
import pty
import select
import signal
import statistics
import struct
import termios
import time

import textual
from textual.app import App, ComposeResult
from textual.widgets import Static

WORK = 0.3
#: the new screen: 23 rows of words in changing colours, then a mark
COLOURS = ["red", "green", "yellow", "blue", "magenta", "cyan"]
CHANGED = "\n".join(" ".join(f"[{COLOURS[(row + word) % 6]}]word{word:02}[/]"
                               for word in range(11)) for row in range(23)) + " CHANGED-END"
END = b"CHANGED-END"


def python_work() -> None:
    began = time.monotonic()
    while time.monotonic() - began < WORK:
        sum(range(1000))


def c_work() -> None:
    # one call into C of about WORK seconds: the interpreter is not given up inside it
    began = time.monotonic()
    sum(range(1_000_000))
    sum(range(int(1_000_000 * WORK / (time.monotonic() - began))))


WAYS = {"no work": None, "300 ms of Python": python_work, "300 ms in C": c_work}


class OneScreen(App[None]):
    """Changes its text once started, then works; tells the parent (a pipe) when the work
    began and ended."""

    def __init__(self, report: int, way: str) -> None:
        super().__init__()
        self.report, self.way = report, way

    def compose(self) -> ComposeResult:
        yield Static("starting")

    def on_ready(self) -> None:
        self.set_timer(0.2, self.change)  # once the start's own frames are out

    def change(self) -> None:
        self.query_one(Static).update(CHANGED)
        self.call_after_refresh(self.work)

    def work(self) -> None:
        began = time.monotonic()
        work = WAYS[self.way]
        if work is not None:
            work()
        os.write(self.report, f"{began} {time.monotonic()}\n".encode())


def start(way: str) -> tuple[float, float]:
    """Run the app on a pseudo-terminal: (ms from the after-refresh point to the new text
    read from the terminal, ms the work took)."""
    read_report, write_report = os.pipe()
    pid, terminal = pty.fork()
    if pid == 0:  # the app, on the pseudo-terminal
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        os.environ["TERM"] = "xterm-256color"
        OneScreen(write_report, way).run()
        os._exit(0)
    began = ended = read_at = float("nan")
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and (read_at != read_at or began != began):
        readable, _, _ = select.select([terminal, read_report], [], [], 0.05)
        if read_report in readable:
            began, ended = map(float, os.read(read_report, 1024).split())
        if terminal in readable and END in os.read(terminal, 65536):
            read_at = time.monotonic()
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    for fd in (terminal, read_report, write_report):
        os.close(fd)
    return (read_at - began) * 1000, (ended - began) * 1000


def main() -> None:
    print(f"textual {textual.__version__}; ms after call_after_refresh, 5 runs each way")
    for way in WAYS:
        runs = [start(way) for _ in range(5)]
        print(f"{way}: the new screen read from the terminal after "
              f"{[round(run[0], 1) for run in runs]} ms (median "
              f"{statistics.median(run[0] for run in runs):.1f}); the work took "
              f"{[round(run[1]) for run in runs]} ms")


if __name__ == "__main__":
    main()
