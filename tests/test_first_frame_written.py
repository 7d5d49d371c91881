"""The work that follows the console's first frame waits until that frame has been written to
the terminal (``FrontdeskApp.on_ready`` / ``after_first_frame``).

On a real terminal the check runs the console in a pseudo-terminal of the test's, with
Textual's own driver and writer thread: the app writes a mark of its own (a window title, which
changes nothing on screen) the moment its after-frame work begins, and the test reads that the
whole first frame of the inbox came before the mark. Before, that work began right after the
first frame was composed — a frame Textual never sent, as the app was still starting — and
held the interpreter while the frame waited.
"""

from __future__ import annotations

import contextlib
import os
import re
import select
import signal
import subprocess
import sys
from itertools import pairwise
from pathlib import Path

import pytest

from frontdesk.startup import FIRST_FRAME
from frontdesk.tui.app import FrontdeskApp

ROOT = Path(__file__).resolve().parent.parent
COLUMNS, ROWS = 100, 30
MARK = b"frontdesk-after-first-frame"

#: the console with the mark written as its after-frame work begins (no session: the first
#: frame and what follows it are the app's own)
CONSOLE = f"""
from frontdesk.tui.app import FrontdeskApp
from frontdesk.tui.terminal_keys import terminal_writer


class Marked(FrontdeskApp):
    def after_first_frame(self) -> None:
        write = terminal_writer(self)
        if write is not None:
            write("\\x1b]2;{MARK.decode()}\\x07")
        super().after_first_frame()


Marked(None).run()
"""

CURSOR_MOVE = re.compile(rb"\x1b\[(\d+);(\d+)H")


def whole_frame_before(data: bytes, end: int, marker: bytes) -> bool:
    """Whether ``data[:end]`` holds a whole frame showing ``marker``: after it, the move to
    the last row's start and the cursor move Textual ends a frame with."""
    found = data.find(marker, 0, end)
    if found < 0:
        return False
    moves = [(int(m.group(1)), int(m.group(2)), m.end())
             for m in CURSOR_MOVE.finditer(data, found, end)]
    return any(row == ROWS and column == 1 and later[2] <= end
               for (row, column, _), later in pairwise(moves))


def read_until(master: int, process: subprocess.Popen[bytes], wanted: bytes) -> bytes:
    """What the console writes to its terminal, until ``wanted`` is in it (or it ended)."""
    data = b""
    while wanted not in data:
        ready, _, _ = select.select([master], [], [], 1.0)
        if not ready:
            assert process.poll() is None, f"the console ended: {data[-600:]!r}"
            continue
        try:
            chunk = os.read(master, 1 << 16)
        except OSError:
            chunk = b""
        assert chunk, f"the console ended: {data[-600:]!r}"
        data += chunk
    return data


@pytest.mark.timeout(120)
@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal and Textual's Linux driver")
def test_after_frame_work_begins_once_the_whole_first_frame_is_on_the_terminal(
        tmp_path: Path) -> None:
    import fcntl
    import struct
    import termios

    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
    env = {**os.environ, "TERM": "xterm-256color", "FRONTDESK_HOME": str(tmp_path),
           "PYTHONPATH": str(ROOT / "src")}
    for name in ("COLUMNS", "LINES", "TEXTUAL_DRIVER"):
        env.pop(name, None)
    try:
        process = subprocess.Popen([sys.executable, "-c", CONSOLE], stdin=slave, stdout=slave,
                                   stderr=slave, env=env, cwd=tmp_path, start_new_session=True)
    finally:
        os.close(slave)
    try:
        data = read_until(master, process, MARK)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        os.close(master)
    assert whole_frame_before(data, data.index(MARK), b"Inbox"), data[-1200:]


async def test_without_a_terminal_the_after_frame_work_follows_the_first_frame() -> None:
    """Headless (tests, a browser tab's driver) there is no writer to wait for."""
    begun: list[bool] = []

    class Told(FrontdeskApp):
        def after_first_frame(self) -> None:
            begun.append(True)
            super().after_first_frame()

    app = Told(None)
    async with app.run_test(size=(COLUMNS, ROWS)) as pilot:
        await pilot.pause()
        await pilot.pause()
        assert begun  # asked once by the inbox after its first refresh (and by a timer later)
        assert FIRST_FRAME.is_set()
