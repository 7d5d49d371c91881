"""An app whose first screen is a mode's screen: the whole first frame reaches the terminal
tens of milliseconds after the app is ready; at ready only the rows of one widget are sent.

Runs a one-label app with Textual's own driver on a pseudo-terminal (80x24), reads what it
writes, and prints, relative to the app's ``on_ready``: when the label first reaches the
terminal, how many of the 24 rows that write painted, and when all 24 rows have been
painted. In the app, it counts the frames Textual composed but dropped because the app was
still starting (``App._display`` while a batch update is open). Twice: the label composed by
the App itself, and the label on the first screen of a mode (``MODES``/``DEFAULT_MODE``).
Run: ``python repro_first_frame.py`` (Linux or macOS; no real terminal needed).
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import signal
import statistics
import struct
import termios
import time
from typing import Any

import textual
from textual.app import App, ComposeResult
from textual.screen import Screen
from textual.widgets import Static

LABEL = "FIRST-FRAME-LABEL"
ROWS = 24


class OnScreen(App[None]):
    """The label, composed by the App; tells the parent (a pipe) when it is ready and how
    many frames it composed but dropped (not sent: the app was starting)."""

    def __init__(self, report: int) -> None:
        super().__init__()
        self.report = report
        self.dropped = 0

    def compose(self) -> ComposeResult:
        yield Static(LABEL)

    def _display(self, screen: Screen[Any], renderable: Any) -> None:
        if renderable is not None and self._batch_count:
            self.dropped += 1
        super()._display(screen, renderable)

    def on_ready(self) -> None:
        os.write(self.report, f"{time.monotonic()} {self.dropped}\n".encode())


class Main(Screen[None]):
    def compose(self) -> ComposeResult:
        yield Static(LABEL)


class InMode(OnScreen):
    """The same label on the first screen of a mode."""

    MODES = {"main": Main}
    DEFAULT_MODE = "main"

    def compose(self) -> ComposeResult:
        return iter(())


def start(app: type[OnScreen]) -> tuple[float, int, int, float]:
    """Start ``app`` on a pseudo-terminal: (ms from ready to the label's first write, rows
    that write painted, frames dropped while starting, ms from ready to all rows painted)."""
    read_report, write_report = os.pipe()
    pid, terminal = pty.fork()
    if pid == 0:  # the app, on the pseudo-terminal
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, 80, 0, 0))
        os.environ["TERM"] = "xterm-256color"
        app(write_report).run()
        os._exit(0)
    ready, dropped = 0.0, -1
    label_at, label_rows, painted, all_at = 0.0, 0, set[int](), float("nan")
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and (len(painted) < ROWS or dropped < 0):
        readable, _, _ = select.select([terminal, read_report], [], [], 0.05)
        if read_report in readable:
            when, count = os.read(read_report, 1024).split()
            ready, dropped = float(when), int(count)
        if terminal in readable:
            data = os.read(terminal, 65536)
            rows = {int(row) for row in re.findall(rb"\x1b\[(\d+);1H", data)}
            if not label_at and LABEL.encode() in data:
                label_at, label_rows = time.monotonic(), len(rows)
            if label_at and len(painted) < ROWS:
                painted |= rows
                all_at = time.monotonic()
    if len(painted) < ROWS:
        all_at = float("nan")
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    for fd in (terminal, read_report, write_report):
        os.close(fd)
    return (label_at - ready) * 1000, label_rows, dropped, (all_at - ready) * 1000


def main() -> None:
    print(f"textual {textual.__version__}; ms after on_ready, 5 starts each")
    for app in (OnScreen, InMode):
        starts = [start(app) for _ in range(5)]
        print(f"{app.__name__}: frames dropped while starting {[s[2] for s in starts]}")
        print(f"    label first written {[round(s[0], 1) for s in starts]} ms, that write "
              f"painting {[s[1] for s in starts]} of {ROWS} rows")
        print(f"    all {ROWS} rows painted {[round(s[3], 1) for s in starts]} ms "
              f"(median {statistics.median(s[3] for s in starts):.1f})")


if __name__ == "__main__":
    main()
