"""docs/quality.md check 1 at the terminal: the whole console, run in a real pseudo-terminal, never
writes a customer's escape sequences.

The unit-level proof is ``tests/security/test_text_sanitiser.py``; this one is end to end.
Textual's headless mode (``App.run_test``) renders nothing to any output, so the console is
started as its own process (``frontdesk.launch.run_console``, as ``frontdesk`` does) on the slave
side of a pty, against a sandbox of this test with hostile text planted in every field the
service returns: end users' names, a subject, message bodies (Text, Markdown, Html), email
headers, tags, attachments, custom attribute values (a Text value pre-filling an input) and
definitions with their option labels, an agent's name (pre-filling the edit form), a team's
and a queue's name. The test reads every byte the console writes from the master side, keeps a
small model of the screen to know when to press the next key, walks every mode by writing keys
to the master — inbox → filter → thread → attributes panel → transfer and tag pickers →
People (an end user's profile, the agents, the agent edit form) → Team and its team picker →
Queues → Admin (tags, teams, queues, attribute definitions) — ends on a deliberate crash
(Textual's crash screen prints a traceback with locals), and then checks the raw bytes, crash
screen included: no escape of the customer's, and not the API key either (docs/quality.md check 4).
"""

from __future__ import annotations

import codecs
import contextlib
import fcntl
import os
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable, Iterator
from typing import Final

import hostile
import pytest
from rich.cells import cell_len

from frontdesk.sandbox.clock import ManualClock
from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL
from frontdesk.sandbox.server import SandboxServer

COLUMNS: Final = 160  # wide enough for the inbox's preview pane: more places to show text
ROWS: Final = 45
#: Longest wait for one screen change (the console starts, signs in and polls in this time).
STEP_TIMEOUT: Final = 30.0

#: The console, exactly as ``frontdesk`` opens it on a profile: a session on the target. One
#: thing is added: ``?`` (help) crashes it on purpose, with the session and its client as
#: locals, so the test also sees Textual's crash screen (a traceback with locals).
RUNNER: Final = """
import os, sys
from frontdesk.settings import Settings
from frontdesk.launch import Target, run_console
from frontdesk.tui.app import FrontdeskApp

def crash(self):
    session = self.session
    client = session.client
    raise RuntimeError("a deliberate crash, to show the crash screen")

FrontdeskApp.action_help = crash
target = Target("pty", os.environ["FD_TEST_URL"], None, os.environ["FD_TEST_KEY"],
                os.environ["FD_TEST_IDENTITY"])
sys.exit(run_console(target, Settings()))
"""

#: Escape sequences Textual itself writes that start like an OSC: only the pointer shape
#: (kitty's OSC 22, a fixed word). Anything else starting with ESC ] came from text.
TEXTUAL_OWN_OSC: Final = re.compile(r"\x1b\]22;[a-z-]+\x07")

_TOKEN: Final = re.compile(
    r"\x1b\[([0-9;?<>=$]*)([ -/]*)([@-~])"  # CSI
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"  # OSC
    r"|\x1b[^\[\]]"  # other two-character escapes
    r"|([^\x1b\n\r]+)|(\n)|(\r)"
)
_INCOMPLETE: Final = re.compile(r"\x1b(?:\[[0-9;?<>=$ -/]*|\][^\x07\x1b]*\x1b?)?\Z")


class Screen:
    """A minimal model of the terminal's cells: enough of VT100 for Textual's output
    (absolute cursor moves, text, newlines; colours and modes are ignored)."""

    def __init__(self, columns: int, rows: int) -> None:
        self.columns = columns
        self.rows = rows
        self.cells = [[" "] * columns for _ in range(rows)]
        self.x = 0
        self.y = 0
        self._pending = ""

    def feed(self, text: str) -> None:
        """Apply output; an escape sequence cut at the end waits for the next chunk."""
        text = self._pending + text
        cut = _INCOMPLETE.search(text)
        self._pending = text[cut.start():] if cut else ""
        if cut:
            text = text[:cut.start()]
        for match in _TOKEN.finditer(text):
            params, intermediate, final, chars, newline, carriage_return = match.groups()
            if final == "H" and not intermediate and params is not None and "?" not in params:
                numbers = [int(p) if p else 1 for p in params.split(";")] if params else []
                numbers += [1, 1]
                self.y, self.x = numbers[0] - 1, numbers[1] - 1
            elif chars:
                self._put(chars)
            elif newline:
                self.y += 1
            elif carriage_return:
                self.x = 0

    def _put(self, chars: str) -> None:
        for char in chars:
            width = cell_len(char)
            if 0 <= self.y < self.rows and 0 <= self.x < self.columns:
                self.cells[self.y][self.x] = char
                if width == 2 and self.x + 1 < self.columns:
                    self.cells[self.y][self.x + 1] = ""
            self.x += width

    @property
    def text(self) -> str:
        """The screen as lines of text."""
        return "\n".join("".join(row) for row in self.cells)


class PtyConsole:
    """The console as a process on a pseudo-terminal; every byte it writes is kept."""

    def __init__(self, sandbox: SandboxServer, identity: str) -> None:
        self.raw = bytearray()
        self.screen = Screen(COLUMNS, ROWS)
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        env = dict(os.environ, FD_TEST_URL=sandbox.base_url, FD_TEST_KEY=sandbox.key,
                   FD_TEST_IDENTITY=identity, TERM="xterm-256color", COLORTERM="truecolor",
                   TEXTUAL_ANIMATIONS="none",
                   # shutil.get_terminal_size, which Textual asks, prefers these to the pty's size
                   COLUMNS=str(COLUMNS), LINES=str(ROWS))
        for name in ("TEXTUAL", "TEXTUAL_DEVTOOLS_PORT", "FRONTDESK_API_KEY"):
            env.pop(name, None)
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-c", RUNNER], stdin=slave, stdout=slave, stderr=slave,
                env=env, start_new_session=True, close_fds=True)
        finally:
            os.close(slave)

    # ------------------------------------------------------------------ output

    def _read(self, timeout: float) -> bool:
        """Read what is there (waiting up to ``timeout``); False once the pty is closed."""
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return True
        try:
            chunk = os.read(self.master, 65536)
        except OSError:  # EIO: the console closed the terminal
            return False
        if not chunk:
            return False
        self.raw += chunk
        self.screen.feed(self._decoder.decode(chunk))
        return True

    def expect(self, what: str, predicate: Callable[[str], bool]) -> None:
        """Read until the screen satisfies ``predicate`` (fails with the screen shown)."""
        deadline = time.monotonic() + STEP_TIMEOUT
        while not predicate(self.screen.text):
            if time.monotonic() > deadline or not self._read(0.1):
                pytest.fail(f"the console never showed {what}; the screen:\n{self.screen.text}")

    def shows(self, *texts: str) -> None:
        """Read until every one of ``texts`` is on the screen."""
        self.expect(" and ".join(map(repr, texts)), lambda s: all(t in s for t in texts))

    def press(self, keys: str) -> None:
        """Type ``keys`` on the terminal (ESC for escape, CR for enter, \\x11 for ctrl+q)."""
        os.write(self.master, keys.encode())

    def click(self, label: str) -> None:
        """Click (SGR mouse report) on the first place ``label`` starts on the screen."""
        for y, line in enumerate(self.screen.text.splitlines()):
            x = line.find(label)
            if x >= 0:
                column = cell_len(line[:x]) + 1
                self.press(f"\x1b[<0;{column};{y + 1}M\x1b[<0;{column};{y + 1}m")
                return
        pytest.fail(f"{label!r} is not on the screen:\n{self.screen.text}")

    def finish(self) -> int:
        """Read to the end of the process's output; its exit status."""
        deadline = time.monotonic() + STEP_TIMEOUT
        while self._read(0.1) and time.monotonic() < deadline:
            if self.process.poll() is not None:
                while self._read(0.05):
                    ready, _, _ = select.select([self.master], [], [], 0)
                    if not ready:
                        break
                break
        return self.process.wait(STEP_TIMEOUT)

    def close(self) -> None:
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)
        with contextlib.suppress(OSError):
            os.close(self.master)

    @property
    def output(self) -> str:
        """Everything written, decoded (invalid UTF-8 shows as U+FFFD)."""
        return self.raw.decode("utf-8", "replace")


def listed(screen: str) -> list[int]:
    """The conversation ids in the inbox's list (left of the preview pane)."""
    return [int(found) for line in screen.splitlines()
            for found in re.findall(r"#(\d+)\s", line.split("▏", 1)[0])]


def footer(screen: str) -> str:
    """The last line: the keys of what has the focus."""
    return screen.rsplit("\n", 1)[-1]


@pytest.fixture
def terminal(sandbox: SandboxServer) -> Iterator[tuple[PtyConsole, hostile.Planted]]:
    """The console on a pty, on the seeded sandbox with hostile text planted."""
    now = ManualClock().now()
    planted = hostile.plant(sandbox, agent_email=DEMO_AGENT_EMAIL, now=now)
    hostile.plant_everywhere(sandbox, planted, agent_email=DEMO_AGENT_EMAIL, now=now)
    console = PtyConsole(sandbox, DEMO_AGENT_EMAIL)
    try:
        yield console, planted
    finally:
        console.close()


def assert_inert(written: str) -> None:
    """None of the customer's escapes is in what the console wrote."""
    assert "\ufffd" not in written, "the console wrote invalid UTF-8"
    # The only OSC the console writes is Textual's own pointer shape: no clipboard (52), no
    # title (0, 2), no hyperlink (8).
    assert "\x1b]" not in TEXTUAL_OWN_OSC.sub("", written), "an OSC reached the terminal"
    for sequence in hostile.FORBIDDEN_SEQUENCES:
        assert sequence not in written, f"{sequence!r} reached the terminal"
    for char in (*hostile.FORBIDDEN_CHARS, "\x9c"):
        assert char not in written, f"{char!r} reached the terminal"


def walk_the_other_modes(console: PtyConsole) -> None:
    """From the inbox: People, Team, Queues and Admin, each showing hostile text."""
    # People: the oldest end user first; its profile.
    console.press("4")
    console.shows("Mallory early ␛]52;c;ZXZpbA==␇ [@", "crm [@click=")
    console.press("\r")
    console.shows("Email        mallory.early@example.com")
    console.press("\x1b")
    console.expect("the end users again", lambda s: "Email        mallory.early" not in s)
    # The agents, filtered to the hostile one, and the edit form pre-filled with its name.
    console.press("t")
    console.shows("agents and admins", "Mallory ␛]2;pwned-title")
    console.press("/")
    console.shows("Filter agents")
    console.press("mallory.agent@example.com\r")
    console.shows("1 matching “mallory.agent@example.com”")
    console.press("E")
    console.shows("Change agent (only changed fields)", "⟨U+009B⟩6n ␀ ⟨U+202E⟩",
                  "mallory [@click=app.quit]press me[/]")
    console.press("\x1b")
    console.expect("the form closed", lambda s: "Change agent" not in s)
    # Team: the hostile agent among everyone; the team picker lists the hostile team.
    console.press("3")
    console.shows("Mallory ␛]2;pwned-title␛\\␛]5")
    console.press("t")
    console.expect("the team picker open", lambda s: "Dismiss" in footer(s))
    console.shows("mallory team")
    console.press("\x1b")
    console.expect("the team picker closed", lambda s: "Dismiss" not in footer(s))
    # Queues: the hostile queue's row.
    console.press("2")
    console.shows("mallory queue [@click=app.quit]pres")
    # Admin: tags, then teams, queues and the attribute definitions from its menu.
    console.press("5")
    console.shows("mallory [@click=app.quit]press me[/] [l")
    for section, shown in (("Teams", "mallory team [@click=app.quit]"),
                           ("Queues", "mallory queue [@click=app.qui"),
                           ("Custom attributes", "Mallory pick [@click=app.quit")):
        console.click(section)  # the admin menu's entry
        console.shows(shown)
    console.press("\x1b[B" * 4)  # the hostile definition: its options in the detail
    console.shows("About      described [@click=", "── mallory option [@click=app.quit]")


@pytest.mark.slow
def test_customer_escapes_never_reach_the_terminal(
        terminal: tuple[PtyConsole, hostile.Planted], sandbox: SandboxServer) -> None:
    console, planted = terminal
    cid = f"#{planted.conversation_id}"
    try:
        # The inbox, signed in, with its list.
        console.shows("● live", "Subject / last message")
        console.expect("conversations in the list", lambda s: bool(listed(s)))
        # Filter down to the hostile conversation: its row and its preview.
        console.press("/")
        console.expect("the filter line's keys in the footer",
                       lambda s: "filter" in s and "⏎ Open" not in footer(s))
        console.press(hostile.WORD)
        console.expect("only the hostile conversation in the list",
                       lambda s: listed(s) == [planted.conversation_id])
        console.expect("the preview of the hostile conversation",
                       lambda s: "[bold red]loud[/]" in s)
        console.press("\r")  # leave the filter line: the list has the keys again
        console.expect("the list's keys in the footer", lambda s: "⏎ Open" in footer(s))
        console.press("\r")  # open the highlighted conversation
        console.shows("Subject:", "text body", "html body", "markdown body", "📎")
        console.shows("(https://evil.example/steal?session=1)")  # a link's real target
        # The attributes panel: an input pre-filled with the order number, selects whose
        # options carry hostile labels.
        console.press("a")
        console.shows(f"Custom attributes of the conversation {cid}",
                      "ORD-1␛]52;c;U1RPTEVO␛\\␛]2;PWNED␛\\", "mallory option [@click=",
                      "nested [@click=")
        console.press("\x1b")
        console.expect("the panel closed", lambda s: "Custom attributes of" not in s)
        # The transfer picker, listing the hostile queue.
        console.press("T")
        console.shows("mallory queue [@click=app.quit]")
        console.press("\x1b")
        console.expect("the picker closed", lambda s: "mallory queue" not in s)
        # The tag picker, listing the hostile tag.
        console.press("t")
        console.shows(f"Tags of {cid}", "   mallory [@click=app.quit]")
        console.press("\x1b")
        console.expect("the picker closed", lambda s: "Tags of" not in s)
        console.press("\x1b")
        console.expect("the inbox again", lambda s: "Subject / last message" in s)
        walk_the_other_modes(console)
        console.press("?")  # the deliberate crash
        assert console.finish() != 0, "a crash must be a failing exit status"
        assert "a deliberate crash" in console.output, "no crash screen was shown"
    finally:
        # Checked even when the walk failed: escapes reaching the terminal make it fail.
        assert_inert(console.output)
    written = console.output
    # ... and the person can still see that something odd was sent.
    for name, placeholder in hostile.PLACEHOLDERS.items():
        assert placeholder in written, f"the placeholder for {name} was never shown"
    assert "\x1b]52;c;U1RPTEVO" not in written and "PWNED\x1b" not in written
    for literal in hostile.MARKUP.values():
        assert literal in written, f"{literal!r} did not show literally"
    # docs/quality.md check 4, on the screen and the crash screen: the API key was never written.
    assert sandbox.key not in written

