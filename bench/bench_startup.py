"""Cold start → first frame: ``frontdesk`` on cached data against a bare Textual app.

Each sample is a fresh Python process (this file run as a script, so that the probe adds
nothing but standard-library imports to what the app itself loads). The parent reads
``time.time()`` just before it spawns the process and passes it in argv, so interpreter
start-up and every import count. Three ways of measuring, the same for both apps:

* headless (``startup.*``): ``App.run(headless=True)``, ``App._display`` wrapped: at the first
  frame composed for the first real screen the probe turns the frame into terminal bytes,
  reads the clock, prints the elapsed milliseconds as JSON and leaves with ``os._exit``. A
  frame composed is not one a person sees: Textual sends none to a terminal while it is still
  starting the app, which is when frontdesk's first screen composes its first frame — hence
  the terminal rows;
* on a terminal (``startup.terminal.*``): the app as a person runs it, with Textual's own
  driver, on a pseudo-terminal the bench owns (``TERM=xterm-256color``, 100x30); the clock
  stops when the bench has read the whole first frame from the terminal (text only the first
  real screen shows, then the rest of that frame: :func:`frame_end`), and the bench kills
  the process. Textual asks the terminal about synchronized output and in-band resizes, and
  waits for no answer (none is given: frames come unbracketed);
* instructions (``startup.instructions``): valgrind counts every instruction of the process
  from launch until the probe leaves, right after the writer thread has written its first
  whole frame (a layout of the whole screen, sent) to the terminal — a figure the machine's
  load does not move.

The paths:

* bare: an ``App`` with a Header, a Label and a Footer (the floor);
* frontdesk: ``launch.run_console`` on a FRONTDESK_HOME whose local store was filled by a
  console session against the small sandbox (its inbox, names, snapshots) — the cached data
  of an agent's console; its service is a port that accepts connections and never answers,
  so a first frame that waited on the network would take the client's 15 s timeout; the
  filled home is then started once on a terminal, until the console has kept the CSS rules
  of its first frame there (:func:`keep_first_frame_rules`), as earlier starts leave it;
* frontdesk, 20,000 / 100,000 cached: the same with a working set of 20,000 or 100,000
  conversations (the inbox reads 20,000 at most at start), under the same budget, its starts
  in the same alternation (100,000 on the terminal only).
* frontdesk, key file / environment variable: the same cached data, started through
  ``cli.main`` as a person starts it — the default profile with its key in a 0600 key file,
  and ``--base-url URL --as EMAIL`` with ``FRONTDESK_API_KEY`` — against the small sandbox,
  so the key check after the first frame gets its answer, and ``frontdesk demo`` started a
  second time (its sandbox seeded and its cache filled once beforehand, then started once on
  a terminal, which keeps its first frame's CSS rules as a person's first demo does) — each
  its own row.

Runs alternate bare and frontdesk so that drift in the machine's load hits both alike.
``FRONTDESK_BENCH_STARTUP`` (a comma-separated list of ``headless``, ``terminal`` and
``instructions``; all three by default) runs only those measures: ``instructions`` alone
takes about a minute, where the whole benchmark takes many.
Budget: frontdesk ≤ 1.2 x bare on every path (docs/quality.md), instructions ≤ 1.12 x bare.
Also reports whether fastapi or uvicorn were imported before the first frame (they must not
be).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .common import BenchContext, Result, ServerInfo

SIZE = (120, 40)
BUDGET = 1.2
#: the measures a run makes (``FRONTDESK_BENCH_STARTUP`` chooses some)
MEASURES = ("headless", "terminal", "instructions")


def chosen_measures() -> frozenset[str]:
    """The measures to make: those ``FRONTDESK_BENCH_STARTUP`` names (comma-separated), or
    every one of :data:`MEASURES`; an unknown name is an error, not a silent empty run."""
    named = {part.strip() for part in os.environ.get("FRONTDESK_BENCH_STARTUP", "").split(",")
             if part.strip()}
    unknown = named - set(MEASURES)
    if unknown:
        raise ValueError(f"FRONTDESK_BENCH_STARTUP: unknown measure(s) {sorted(unknown)}; "
                         f"choose from {', '.join(MEASURES)}")
    return frozenset(named or MEASURES)


def probe(kind: str, started: float, base_url: str, identity: str,
          mode: str = "headless") -> None:
    """In the timed process: run the app, report the first real frame and exit.

    ``headless``: Textual headless, the frame turned into terminal bytes and timed here;
    ``terminal``: the app as a person runs it, on the pseudo-terminal the bench reads (the
    bench times the frame's bytes and ends the process); ``count``: the same, leaving as soon
    as the first real frame has been written to the terminal (for valgrind's count).
    """
    import textual.app as textual_app
    from textual.screen import Screen

    if mode != "headless":
        import fcntl
        import termios

        # the terminal is the session's, as a terminal emulator's shell has it
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    original_display = textual_app.App._display
    original_run = textual_app.App.run

    def display(self: Any, screen: Any, renderable: Any) -> None:
        original_display(self, screen, renderable)
        if renderable is None or screen is not self.screen:
            return
        if self.MODES and type(screen) is Screen:
            return  # the default screen, before the app switched to its first mode
        if mode == "count":
            if self._batch_count or type(renderable).__name__ != "LayoutUpdate":
                # painted while the app was starting (Textual sends it to no terminal), or a
                # part of the screen: the first frame a person sees is a whole one, sent
                return
            self._driver._writer_thread.stop()  # it writes what is queued, the frame last
            os._exit(0)
        render = getattr(renderable, "render_segments", None)
        if render is not None:
            render(self.console)
        elapsed = (time.time() - started) * 1000
        listing = getattr(screen, "conversation_list", None)
        report = {
            "ms": elapsed,
            "screen": type(screen).__name__,
            "rows": getattr(listing, "total_count", None),
            "modules": len(sys.modules),
            "fastapi": "fastapi" in sys.modules,
            "uvicorn": "uvicorn" in sys.modules,
        }
        os.write(1, (json.dumps(report) + "\n").encode())
        os._exit(0)

    def run(self: Any, *args: Any, **kwargs: Any) -> Any:
        kwargs["headless"] = True
        kwargs["size"] = SIZE
        return original_run(self, *args, **kwargs)

    if mode == "headless":
        textual_app.App._display = display  # type: ignore[method-assign]
        textual_app.App.run = run  # type: ignore[method-assign]
    elif mode == "count":
        textual_app.App._display = display  # type: ignore[method-assign]

    if kind == "bare":
        from textual.app import App, ComposeResult
        from textual.widgets import Footer, Header, Label

        class Bare(App[None]):
            """The floor: a Header, a Label and a Footer."""

            BINDINGS = [("q", "quit", "Quit")]

            def compose(self) -> ComposeResult:
                yield Header()
                yield Label("Hello")
                yield Footer()

        Bare().run()
    elif kind == "keyfile":
        from frontdesk import cli

        cli.main([])  # the default profile, its key in a 0600 key file (checked first)
    elif kind == "demo":
        from frontdesk import cli

        cli.main(["demo"])  # a second start: the demo's sandbox and cache are there
    elif kind == "env":
        from frontdesk import cli

        # FRONTDESK_API_KEY is set: the key is checked with the service first
        cli.main(["--base-url", base_url, "--as", identity])
    else:
        from frontdesk import launch
        from frontdesk.settings import Settings

        # the key is read when the console connects, as one kept in the keyring is
        target = launch.Target("bench", base_url, None, None, identity,
                               read_key=lambda: "sbx_bench_startup_key")
        launch.run_console(target, Settings())
    os.write(1, b'{"error": "the app ended before its first frame"}\n')
    os._exit(3)


# ---------------------------------------------------------------------- the benchmark

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"


@contextlib.contextmanager
def silent_service() -> Iterator[str]:
    """A loopback port that accepts connections and never answers; yields its URL."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        sock.close()


async def _fill_home(server: Any, identity: str, profile: str = "bench") -> None:
    """A console session against the small sandbox, polled until its inbox is complete;
    quitting saves what the next start paints from."""
    from frontdesk.api.client import ApiClient
    from frontdesk.api.pacing import Pacer
    from frontdesk.launch import local_store_path
    from frontdesk.settings import Settings
    from frontdesk.store.local import LocalStore
    from frontdesk.store.session import Session
    from frontdesk.tui.app import FrontdeskApp

    client = ApiClient(server.base_url, server.key, server.integrations_url,
                       pacer=Pacer(enabled=False))
    session = Session(client=client, local=LocalStore(local_store_path(profile)),
                      settings=Settings(), profile=profile, identity=identity)
    app = FrontdeskApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        for _ in range(40):
            version = session.inbox.version
            await session.live.refresh("inbox")
            await pilot.pause()
            if session.inbox.version == version:
                break
        await session.live.refresh("presence:me")
        await session.live.refresh("hours")
        await pilot.pause()


def prepare_home(folder: Path, server: ServerInfo, identity: str, extra: int = 0,
                 big_db: Path | None = None) -> None:
    """Fill ``folder`` (a FRONTDESK_HOME) as an agent's console leaves it; with ``extra``,
    add that many conversations of ``big_db`` to the working set."""
    from .common import conversation_wires

    previous = os.environ.get("FRONTDESK_HOME")
    os.environ["FRONTDESK_HOME"] = str(folder)
    try:
        asyncio.run(_fill_home(server, identity))
        if extra and big_db is not None:
            from frontdesk.api.models import Conversation
            from frontdesk.launch import local_store_path
            from frontdesk.settings import Settings
            from frontdesk.store.local import LocalStore
            from frontdesk.store.session import Session

            records = [Conversation.model_validate(w) for w in conversation_wires(big_db, extra)]
            local = LocalStore(local_store_path("bench"))
            try:
                local.remember(records, "inbox")
                # as a console that has seen them leaves its inbox when it quits
                session = Session(connect=_no_service, local=local, settings=Settings(),
                                  profile="bench", identity=identity)
                session.inbox.read_the_rest()
                session.inbox.save()
            finally:
                local.close()
    finally:
        if previous is None:
            os.environ.pop("FRONTDESK_HOME", None)
        else:
            os.environ["FRONTDESK_HOME"] = previous


def _no_service() -> Any:
    raise RuntimeError("no service while the home is prepared")


def path_homes(template: Path, server: ServerInfo) -> dict[str, Path]:
    """Homes for the key-file and environment-variable starts, made from the filled home
    ``template / "home"``: the same cached data under the profile each start uses, against
    ``server`` (a service that answers, so the key check has its answer)."""
    from frontdesk import cli, launch
    from frontdesk.settings import Profile, Settings, save_settings, write_key_file

    homes = {"keyfile": template / "home-keyfile", "env": template / "home-env"}
    key_file = template / "bench.key"
    previous = os.environ.get("FRONTDESK_HOME")
    try:
        for kind, home in homes.items():
            shutil.copytree(template / "home", home)
            os.environ["FRONTDESK_HOME"] = str(home)
            source = launch.local_store_path("bench")
            if kind == "keyfile":
                write_key_file(key_file, server.key)
                save_settings(Settings(default_profile="bench", profiles={
                    "bench": Profile(name="bench", base_url=server.base_url,
                                            agent_email=_identity(), key_source="file",
                                            key_file=str(key_file))}))
            else:
                target = launch.local_store_path(cli.console.script_profile_name(server.base_url))
                for suffix in ("", "-wal", "-shm"):
                    found = Path(str(source) + suffix)
                    if found.exists():
                        found.rename(str(target) + suffix)
    finally:
        if previous is None:
            os.environ.pop("FRONTDESK_HOME", None)
        else:
            os.environ["FRONTDESK_HOME"] = previous
    return homes


def demo_home(folder: Path) -> Path:
    """A FRONTDESK_HOME where the demo has run once: its sandbox seeded, its key kept, the
    demo console's cache filled (what ``frontdesk demo`` starts from the second time)."""
    from frontdesk import launch
    from frontdesk.sandbox.server import SandboxServer

    home = folder / "home-demo"
    home.mkdir()
    previous = os.environ.get("FRONTDESK_HOME")
    os.environ["FRONTDESK_HOME"] = str(home)
    try:
        db_path, _ = launch.demo_paths()
        server = SandboxServer(db_path, keys=[launch._demo_key(db_path)], seed=1,
                               rate_limit=False)
        server.start()
        try:
            asyncio.run(_fill_home(server, launch.DEMO_IDENTITY, profile="demo"))
        finally:
            server.stop()
    finally:
        if previous is None:
            os.environ.pop("FRONTDESK_HOME", None)
        else:
            os.environ["FRONTDESK_HOME"] = previous
    return home


def _identity() -> str:
    from .common import demo_agent_email

    return demo_agent_email()


def _env() -> dict[str, str]:
    """The probes' environment: the sources on the path, and bytecode written and used.

    Without bytecode every start would compile frontdesk's sources again (Textual's come
    compiled from its wheel): an installed console has its bytecode, so the warm-up start
    writes it (some environments set ``PYTHONDONTWRITEBYTECODE``; it is dropped here).
    """
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _command(kind: str, base_url: str, identity: str, *flags: str,
             mode: str = "headless", prefix: tuple[str, ...] = ()) -> list[str]:
    return [*prefix, sys.executable, *flags, str(Path(__file__).resolve()), "--probe", kind,
            repr(time.time()), base_url, identity, mode]


#: the pseudo-terminal's size (columns, rows)
TERMINAL = (100, 30)
#: text only the first real screen shows: the inbox's title bar, the bare app's label
MARKERS = {"bare": b"Hello"}
INBOX_MARKER = b"Inbox"
#: a cursor move (CSI row ; column H): each row of a full frame starts with one, and the
#: frame ends with one (the cursor put back)
CURSOR_MOVE = re.compile(rb"\x1b\[(\d+);(\d+)H")


def frame_end(data: bytes, marker: bytes, rows: int = TERMINAL[1]) -> int | None:
    """Where the first full frame showing ``marker`` ends in ``data`` (the bytes the terminal
    got so far), or None while it is not all there.

    Textual writes a whole-screen frame as one write: each row after a cursor move to its
    start, top to bottom, then a cursor move to where the cursor belongs (then the end of
    synchronized output, when the terminal said it supports it). So the frame is complete
    once, after the marker, the last row's move and the move after it have arrived."""
    found = data.find(marker)
    if found < 0:
        return None
    last_row = False
    for move in CURSOR_MOVE.finditer(data, found):
        if last_row:
            end = move.end()
            if data.startswith(SYNC_END, end):
                end += len(SYNC_END)
            return end
        last_row = int(move.group(1)) == rows and int(move.group(2)) == 1
    return None


SYNC_END = b"\x1b[?2026l"
#: how long a start on a terminal is left running after its first frame, at most, for what
#: the console does once the frame is on screen (:func:`keep_first_frame_rules`)
SETTLE_SECONDS = 5.0


def _wait_settled(master: int, settled: Callable[[], bool]) -> None:
    """Keep reading the terminal (so the console never blocks writing) until ``settled()``
    or :data:`SETTLE_SECONDS` have passed."""
    import select

    deadline = time.monotonic() + SETTLE_SECONDS
    while not settled() and time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.05)
        if ready:
            try:
                os.read(master, 1 << 16)
            except OSError:  # the console ended
                return


def keep_first_frame_rules(kind: str, home: Path, base_url: str, identity: str,
                           extra_env: dict[str, str] | None = None) -> None:
    """Start the console once on a terminal in ``home`` itself and leave it running until it
    has kept the CSS rules of its first frame (``tui/css_cache.py`` writes them once that
    frame is on screen, when it had to parse some): the cache a person's earlier starts on
    their terminal left. The homes are filled by a headless session, whose first frame
    needs fewer rules (Textual's toast rack and tooltip come after it there); without this,
    every timed start would parse those again, which no second start on a terminal does."""
    kept = home / "cache" / "parsed-css.pickle"

    def stamp() -> tuple[int, int] | None:
        try:
            found = kept.stat()
        except OSError:
            return None
        return found.st_mtime_ns, found.st_size

    before = stamp()
    _on_terminal(kind, home, base_url, identity, marker=INBOX_MARKER, timeout=60.0,
                 extra_env=extra_env, settled=lambda: stamp() != before)


def spawn_terminal(kind: str, home: Path | None, base_url: str, identity: str, *,
                   marker: bytes, timeout: float = 60.0,
                   extra_env: dict[str, str] | None = None) -> float:
    """One cold start on a pseudo-terminal of the bench's: milliseconds from launch until the
    bench has read the first full frame showing ``marker`` from the terminal; then the
    process is ended (it is killed: what it does after the frame is not timed)."""
    return _on_terminal(kind, home, base_url, identity, marker=marker, timeout=timeout,
                        extra_env=extra_env)[0]


def _on_terminal(kind: str, home: Path | None, base_url: str, identity: str, *,
                 marker: bytes | None, timeout: float, extra_env: dict[str, str] | None,
                 mode: str = "terminal", prefix: tuple[str, ...] = (),
                 settled: Callable[[], bool] | None = None
                 ) -> tuple[float, bytes, int | None]:
    """Run a probe on a fresh pseudo-terminal (``TERM=xterm-256color``, :data:`TERMINAL`),
    reading all it writes. With ``marker``: until the first full frame showing it has been
    read (then the process group is killed; with ``settled``, only once it says so or
    :data:`SETTLE_SECONDS` later); without: until the process ends. Returns the
    milliseconds from launch to that moment, the bytes read and the exit status (None when
    killed)."""
    import fcntl
    import select
    import signal
    import struct
    import termios

    env = {**_env(), **(extra_env or {}), "TERM": "xterm-256color"}
    for name in ("COLUMNS", "LINES", "TERM_PROGRAM", "TMUX", "COLORTERM"):
        env.pop(name, None)
    if home is not None:
        env["FRONTDESK_HOME"] = str(home)
    master, slave = os.openpty()
    columns, rows = TERMINAL
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    command = _command(kind, base_url, identity, mode=mode, prefix=prefix)
    started = float(command[-4])  # the launch time the probe is given
    try:
        process = subprocess.Popen(command, stdin=slave, stdout=slave, stderr=slave, env=env,
                                   cwd=ROOT, start_new_session=True, close_fds=True)
    finally:
        os.close(slave)
    data = bytearray()
    deadline = time.monotonic() + timeout
    status: int | None = None
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise RuntimeError(f"{kind} on a terminal: no first frame in {timeout:.0f} s; "
                                   f"it wrote {bytes(data[-400:])!r}")
            ready, _, _ = select.select([master], [], [], min(left, 1.0))
            if not ready:
                continue
            try:
                chunk = os.read(master, 1 << 16)
            except OSError:  # the terminal's other side is closed: the process ended
                chunk = b""
            if chunk:
                data += chunk
                if marker is not None and frame_end(bytes(data), marker) is not None:
                    elapsed = (time.time() - started) * 1000
                    if settled is not None:
                        _wait_settled(master, settled)
                    break
                continue
            status = process.wait(max(deadline - time.monotonic(), 1.0))
            elapsed = (time.time() - started) * 1000
            if marker is not None:
                raise RuntimeError(f"{kind} on a terminal ended (exit {status}) before its "
                                   f"first frame: {bytes(data[-600:])!r}")
            break
    finally:
        if process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        os.close(master)
    return elapsed, bytes(data), status


def spawn(kind: str, home: Path | None, base_url: str, identity: str,
          timeout: float = 60.0, extra_env: dict[str, str] | None = None) -> dict[str, Any]:
    """One cold start in a fresh process; its report."""
    env = {**_env(), **(extra_env or {})}
    if home is not None:
        env["FRONTDESK_HOME"] = str(home)
    done = subprocess.run(_command(kind, base_url, identity), capture_output=True,
                          timeout=timeout, env=env, cwd=ROOT, check=False)
    lines = done.stdout.decode(errors="replace").strip().splitlines()
    if not lines:
        raise RuntimeError(f"{kind} probe printed nothing (exit {done.returncode}): "
                           + done.stderr.decode(errors="replace")[-400:])
    report: dict[str, Any] = json.loads(lines[-1])
    if "error" in report:
        raise RuntimeError(f"{kind} probe: {report['error']}")
    return report


def slowest_imports(home: Path, base_url: str, identity: str, count: int = 12
                    ) -> list[tuple[str, float]]:
    """The slowest imports (cumulative ms, two levels deep) of one frontdesk cold start,
    from ``python -X importtime``: where start-up time goes."""
    env = {**_env(), "FRONTDESK_HOME": str(home)}
    done = subprocess.run(_command("frontdesk", base_url, identity, "-X", "importtime"),
                          capture_output=True, timeout=60, env=env, cwd=ROOT, check=False)
    rows: list[tuple[str, float]] = []
    for line in done.stderr.decode(errors="replace").splitlines():
        if not line.startswith("import time:"):
            continue
        parts = line[len("import time:"):].split("|")
        if len(parts) != 3 or not parts[1].strip().isdigit():
            continue
        name = parts[2]
        depth = (len(name) - len(name.lstrip())) // 2
        if depth <= 1:
            rows.append((name.strip(), int(parts[1]) / 1000))
    rows.sort(key=lambda item: item[1], reverse=True)
    return rows[:count]


def run(ctx: BenchContext) -> tuple[list[Result], dict[str, Any]]:
    """Alternate bare and frontdesk cold starts; the table's rows and details."""
    from .common import demo_agent_email, home_copy, measured, median

    DEMO_AGENT_EMAIL = demo_agent_email()

    measures = chosen_measures()
    headless, terminal = "headless" in measures, "terminal" in measures
    #: the homes of the other paths and the large ones serve the headless and terminal rows
    other_homes = not ctx.quick and bool(measures & {"headless", "terminal"})
    runs = max(ctx.runs, 1)
    small = ctx.server("small")
    details: dict[str, Any] = {}
    results: list[Result] = []
    with contextlib.ExitStack() as stack:
        base_url = stack.enter_context(silent_service())
        template = Path(tempfile.mkdtemp(prefix="frontdesk-bench-startup-"))
        stack.callback(shutil.rmtree, template, True)
        if ctx.quick:  # no cached data: the plumbing only
            (template / "home").mkdir()
        else:
            prepare_home(template / "home", small, DEMO_AGENT_EMAIL)
            keep_first_frame_rules("frontdesk", template / "home", base_url, DEMO_AGENT_EMAIL)

        def frontdesk_once(source: Path) -> dict[str, Any]:
            with home_copy(source) as home:
                return spawn("frontdesk", home, base_url, DEMO_AGENT_EMAIL)

        homes = path_homes(template, small)
        path_env: dict[str, dict[str, str]] = {
            "keyfile": {}, "env": {"FRONTDESK_API_KEY": small.key}, "demo": {}}
        if other_homes:
            homes["demo"] = demo_home(template)
            # its first frame's rules kept as a person's first demo on a terminal keeps them
            # (the other homes are copies of ``template / "home"``, which has them)
            keep_first_frame_rules("demo", homes["demo"], small.base_url, DEMO_AGENT_EMAIL)

        def path_once(kind: str) -> dict[str, Any]:
            with home_copy(homes[kind]) as home:
                return spawn(kind, home, small.base_url, DEMO_AGENT_EMAIL,
                             extra_env=path_env[kind])

        # on a terminal: every path, each with a fresh copy of its home
        def terminal_once(name: str) -> float:
            if name == "bare":
                return spawn_terminal("bare", None, base_url, DEMO_AGENT_EMAIL,
                                      marker=MARKERS["bare"])
            kind, source, url, extra = "frontdesk", template / "home", base_url, {}
            if name in homes:
                kind, source, url, extra = name, homes[name], small.base_url, path_env[name]
            elif name in big_homes:
                source = big_homes[name]
            with home_copy(source) as home:
                return spawn_terminal(kind, home, url, DEMO_AGENT_EMAIL, marker=INBOX_MARKER,
                                      extra_env=extra)

        # 20,000 and 100,000 cached: made before the runs, so that their starts alternate with
        # the others (the 100,000 only on a terminal: the inbox reads 20,000 of them at start)
        key_20k, metric_20k = "startup.frontdesk_20k", "cold start → first frame, 20,000 cached"
        big_homes: dict[str, Path] = {}
        big_failures: list[Result] = []
        if other_homes and ctx.large_db is not None:
            big_homes, big_failures = cached_homes(stack, template / "home", small,
                                                   Path(ctx.large_db), frontdesk_once)
        big_home = big_homes.get("frontdesk_20k") if headless else None
        terminal_names = ["frontdesk", *homes, *big_homes] if terminal else []
        if not ctx.quick:  # warm the OS's file cache and the bytecode of both once
            spawn("bare", None, base_url, DEMO_AGENT_EMAIL)
            frontdesk_once(template / "home")
            for kind in homes:
                path_once(kind)
            for name in ("bare", *terminal_names):
                terminal_once(name)
        bare: list[float] = []
        console: list[float] = []
        ratios: list[float] = []
        by_path: dict[str, list[float]] = {kind: [] for kind in homes}
        last: dict[str, Any] = {}
        path_last: dict[str, dict[str, Any]] = {}
        big_reports: list[dict[str, Any]] = []
        terminal_bare: list[float] = []
        on_terminal: dict[str, list[float]] = {name: [] for name in terminal_names}
        for _ in range(runs):
            if headless:
                sample = spawn("bare", None, base_url, DEMO_AGENT_EMAIL)["ms"]
                last = frontdesk_once(template / "home")
                bare.append(sample)
                console.append(last["ms"])
                ratios.append(last["ms"] / sample)
                for kind in homes:
                    path_last[kind] = path_once(kind)
                    by_path[kind].append(path_last[kind]["ms"])
                if big_home is not None:
                    big_reports.append(frontdesk_once(big_home))
            for name in terminal_names:  # bare again before each: alternating on the terminal
                terminal_bare.append(terminal_once("bare"))
                on_terminal[name].append(terminal_once(name))
        ratio = median(console) / median(bare) if console else 0.0
        details["frontdesk_first_frame"] = last
        details["per_run_ratios"] = ratios
        results += keyring_rows(bare, console, last)
        results += path_rows(bare, by_path, path_last)
        if big_reports:
            samples = [r["ms"] for r in big_reports]
            big_ratio = median(samples) / median(bare)
            results.append(measured(
                key_20k, metric_20k, samples, budget=f"≤ {BUDGET} x bare", ratio=big_ratio,
                met=big_ratio <= BUDGET,
                note=f"{big_reports[-1].get('rows')} conversations in the first view"))
        results += terminal_rows(terminal_bare, on_terminal)
        results += big_failures
        results += instructions_rows(ctx, measures, template / "home", base_url,
                                     DEMO_AGENT_EMAIL, details)
        if ratio > BUDGET and not ctx.quick:  # a quick run's figures mean nothing
            with home_copy(template / "home") as home:
                details["slowest_imports_ms"] = slowest_imports(home, base_url,
                                                                DEMO_AGENT_EMAIL)
    return results, details


def keyring_rows(bare: list[float], console: list[float], last: dict[str, Any]
                 ) -> list[Result]:
    """The headless rows of the bare app and of the keyring path's start (none when no
    headless start was made)."""
    from .common import measured, median

    if not console:
        return []
    ratio = median(console) / median(bare)
    heavy = bool(last.get("fastapi") or last.get("uvicorn"))
    return [
        measured("startup.bare", "cold start → first frame, bare Textual", bare,
                 budget="reference (≈ 450 ms)"),
        measured("startup.frontdesk", "cold start → first frame, frontdesk", console,
                 budget=f"≤ {BUDGET} x bare", ratio=ratio, met=ratio <= BUDGET and not heavy,
                 note=f"{last.get('rows')} cached conversations on {last.get('screen')}; "
                      + ("fastapi/uvicorn imported!" if heavy else "no fastapi/uvicorn")
                      + f"; {last.get('modules')} modules loaded"),
    ]


def cached_homes(stack: contextlib.ExitStack, template: Path, server: ServerInfo,
                 big_db: Path, warm: Any) -> tuple[dict[str, Path], list[Result]]:
    """Homes with 20,000 and 100,000 conversations of ``big_db`` added to the working set
    (each started once by ``warm``); a failure row for each that could not be made."""
    from .common import demo_agent_email, failed

    homes: dict[str, Path] = {}
    failures: list[Result] = []
    for name, extra_rows in (("frontdesk_20k", 20_000), ("frontdesk_100k", 100_000)):
        try:
            big = Path(tempfile.mkdtemp(prefix=f"frontdesk-bench-startup-{name}-"))
            stack.callback(shutil.rmtree, big, True)
            shutil.copytree(template, big / "home")
            prepare_home(big / "home", server, demo_agent_email(), extra=extra_rows,
                         big_db=big_db)
            warm(big / "home")
            homes[name] = big / "home"
        except Exception as error:  # reported as the row's failure
            failures.append(failed(f"startup.terminal.{name}", TERMINAL_METRICS[name],
                                   repr(error), budget=f"≤ {BUDGET} x bare"))
    return homes, failures


def path_rows(bare: list[float], by_path: dict[str, list[float]],
              last: dict[str, dict[str, Any]]) -> list[Result]:
    """The headless rows of the key file, environment and demo starts."""
    from .common import measured, median

    results: list[Result] = []
    for kind, metric in (("keyfile", "cold start → first frame, key in a key file"),
                         ("env", "cold start → first frame, --base-url with "
                                 "FRONTDESK_API_KEY"),
                         ("demo", "cold start → first frame, frontdesk demo (second)")):
        if not by_path.get(kind):  # a path not started headless
            continue
        path_ratio = median(by_path[kind]) / median(bare)
        report = last.get(kind, {})
        results.append(measured(
            f"startup.{kind}", metric, by_path[kind], budget=f"≤ {BUDGET} x bare",
            ratio=path_ratio, met=path_ratio <= BUDGET,
            note=("the demo's sandbox starts after the first frame; " if kind == "demo"
                  else "the key checked with the service (it answers); ")
                 + f"{report.get('rows')} cached conversations on {report.get('screen')}; "
                 f"{report.get('modules')} modules loaded"))
    return results


#: each path's terminal row: its name in the table
TERMINAL_METRICS = {
    "frontdesk": "first frame on a terminal, frontdesk (key read when connecting)",
    "keyfile": "first frame on a terminal, key in a key file",
    "env": "first frame on a terminal, --base-url with FRONTDESK_API_KEY",
    "demo": "first frame on a terminal, frontdesk demo (second)",
    "frontdesk_20k": "first frame on a terminal, 20,000 cached",
    "frontdesk_100k": "first frame on a terminal, 100,000 cached",
}


def terminal_rows(bare: list[float], paths: dict[str, list[float]]) -> list[Result]:
    """The terminal's rows: bare, then each path against the median of every bare start
    (none when nothing was started on a terminal)."""
    from .common import measured, median

    if not bare:
        return []

    columns, rows = TERMINAL
    how = (f"launch → the whole first frame read from a {columns}x{rows} pseudo-terminal "
           "(TERM=xterm-256color, Textual's own driver)")
    results = [measured("startup.terminal.bare", "first frame on a terminal, bare Textual",
                        bare, budget="reference", note=how)]
    for name, samples in paths.items():
        ratio = median(samples) / median(bare) if samples else None
        results.append(measured(
            f"startup.terminal.{name}", TERMINAL_METRICS[name], samples,
            budget=f"≤ {BUDGET} x bare", ratio=ratio,
            met=ratio is not None and ratio <= BUDGET,
            note="alternating with the bare start on the same terminal"))
    return results


# ---------------------------------------------------------------------- instructions

INSTRUCTION_BUDGET = 1.12
#: valgrind's cheapest count of instructions: cachegrind without its cache and branch models
VALGRIND = ("valgrind", "--tool=cachegrind", "--cache-sim=no", "--branch-sim=no")


def count_instructions(kind: str, home: Path | None, base_url: str, identity: str,
                       marker: bytes) -> float:
    """Instructions one cold start executes from launch until its first whole frame has been
    written to the terminal (the probe leaves right then), counted by valgrind over the whole
    process; in millions."""
    folder = Path(tempfile.mkdtemp(prefix="frontdesk-bench-count-"))
    try:
        log = folder / "valgrind.log"
        _, data, status = _on_terminal(
            kind, home, base_url, identity, marker=None, timeout=600.0, extra_env=None,
            mode="count", prefix=(*VALGRIND, f"--cachegrind-out-file={folder / 'out.%p'}",
                                  f"--log-file={log}"))
        found = re.findall(r"I\s+refs:\s+([\d,]+)", log.read_text(errors="replace"))
        if status != 0 or not found:
            raise RuntimeError(f"{kind} under valgrind: exit {status}; "
                               + log.read_text(errors="replace")[-400:])
        if frame_end(data, marker) is None:
            raise RuntimeError(f"{kind} under valgrind left before its whole first frame")
        return int(found[-1].replace(",", "")) / 1e6
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def instructions_rows(ctx: BenchContext, measures: frozenset[str], template: Path,
                      base_url: str, identity: str, details: dict[str, Any]) -> list[Result]:
    """The instructions row, when ``measures`` has it."""
    if "instructions" not in measures:
        return []
    return [instructions_row(ctx, template, base_url, identity, details)]


def instructions_row(ctx: BenchContext, template: Path, base_url: str, identity: str,
                     details: dict[str, Any]) -> Result:
    """Instructions to the first frame, frontdesk (the keyring path's start) against bare: a
    figure the machine's load does not move. Three samples each (one in a quick run)."""
    from .common import failed, home_copy, measured, median

    key, metric = "startup.instructions", "instructions, launch → first frame written"
    if shutil.which(VALGRIND[0]) is None:
        return failed(key, metric, "valgrind is not installed",
                      budget=f"≤ {INSTRUCTION_BUDGET} x bare")
    bare: list[float] = []
    console: list[float] = []
    for _ in range(1 if ctx.quick else 3):
        bare.append(count_instructions("bare", None, base_url, identity, MARKERS["bare"]))
        with home_copy(template) as home:
            console.append(count_instructions("frontdesk", home, base_url, identity,
                                              INBOX_MARKER))
    ratio = median(console) / median(bare)
    details["instructions_millions"] = {"bare": bare, "frontdesk": console}
    return measured(key, metric, console, unit="M instr", budget=f"≤ {INSTRUCTION_BUDGET} x "
                    "bare", ratio=ratio, met=ratio <= INSTRUCTION_BUDGET,
                    note=f"bare {median(bare):.0f} M; valgrind --tool=cachegrind "
                         "--cache-sim=no over the whole process, which leaves once the "
                         "first whole frame is written to its pseudo-terminal")


if __name__ == "__main__":
    if len(sys.argv) in (6, 7) and sys.argv[1] == "--probe":
        probe(sys.argv[2], float(sys.argv[3]), sys.argv[4], sys.argv[5], *sys.argv[6:])
    print("run the start-up benchmark with: python -m bench --only startup", file=sys.stderr)
    raise SystemExit(2)
