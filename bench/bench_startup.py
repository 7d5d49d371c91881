"""Cold start → first frame: ``frontdesk`` on cached data against a bare Textual app.

Each sample is a fresh Python process (this file run as a script, so that the probe adds
nothing but standard-library imports to what the app itself loads). The parent reads
``time.time()`` just before it spawns the process and passes it in argv, so interpreter
start-up and every import count; the probe wraps ``App._display`` and,
at the first frame of the first real screen, turns the frame into the bytes a terminal would
get (headless Textual skips that step), reads the clock, prints the elapsed milliseconds as
JSON and leaves with ``os._exit``. Both apps run with ``App.run(headless=True)``.

* bare: an ``App`` with a Header, a Label and a Footer (the floor);
* frontdesk: ``launch.run_console`` on a FRONTDESK_HOME whose local store was filled by a
  console session against the small sandbox (its inbox, names, snapshots) — the cached data
  of an agent's console; its service is a port that accepts connections and never answers,
  so a first frame that waited on the network would take the client's 15 s timeout;
* frontdesk, 20,000 cached: the same with a working set of 20,000 conversations (the most
  the inbox reads at start), under the same budget, its starts in the same alternation.
* frontdesk, key file / environment variable: the same cached data, started through
  ``cli.main`` as a person starts it — the default profile with its key in a 0600 key file,
  and ``--base-url URL --as EMAIL`` with ``FRONTDESK_API_KEY`` — against the small sandbox,
  so the key check before the console opens gets its answer, and ``frontdesk demo`` started a
  second time (its sandbox seeded and its cache filled once beforehand) — each its own row.

Runs alternate bare and frontdesk so that drift in the machine's load hits both alike.
Budget: frontdesk ≤ 1.2 x bare on every path (docs/quality.md). Also reports whether fastapi
or uvicorn were imported before the first frame (they must not be).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .common import BenchContext, Result, ServerInfo

SIZE = (120, 40)
BUDGET = 1.2


def probe(kind: str, started: float, base_url: str, identity: str) -> None:
    """In the timed process: run the app headless, report the first real frame and exit."""
    import textual.app as textual_app
    from textual.screen import Screen

    original_display = textual_app.App._display
    original_run = textual_app.App.run

    def display(self: Any, screen: Any, renderable: Any) -> None:
        original_display(self, screen, renderable)
        if renderable is None or screen is not self.screen:
            return
        if self.MODES and type(screen) is Screen:
            return  # the default screen, before the app switched to its first mode
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

    textual_app.App._display = display  # type: ignore[method-assign]
    textual_app.App.run = run  # type: ignore[method-assign]

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


def _command(kind: str, base_url: str, identity: str, *flags: str) -> list[str]:
    return [sys.executable, *flags, str(Path(__file__).resolve()), "--probe", kind,
            repr(time.time()), base_url, identity]


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
    from .common import demo_agent_email, failed, home_copy, measured, median

    DEMO_AGENT_EMAIL = demo_agent_email()

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

        def frontdesk_once(source: Path) -> dict[str, Any]:
            with home_copy(source) as home:
                return spawn("frontdesk", home, base_url, DEMO_AGENT_EMAIL)

        homes = path_homes(template, small)
        path_env: dict[str, dict[str, str]] = {
            "keyfile": {}, "env": {"FRONTDESK_API_KEY": small.key}, "demo": {}}
        if not ctx.quick:
            homes["demo"] = demo_home(template)

        def path_once(kind: str) -> dict[str, Any]:
            with home_copy(homes[kind]) as home:
                return spawn(kind, home, small.base_url, DEMO_AGENT_EMAIL,
                             extra_env=path_env[kind])

        # 20,000 cached: made before the runs, so that its starts alternate with the others
        key_20k, metric_20k = "startup.frontdesk_20k", "cold start → first frame, 20,000 cached"
        big_home: Path | None = None
        big_failure: Result | None = None
        if not ctx.quick and ctx.large_db is not None:
            try:
                big = Path(tempfile.mkdtemp(prefix="frontdesk-bench-startup-20k-"))
                stack.callback(shutil.rmtree, big, True)
                shutil.copytree(template / "home", big / "home")
                prepare_home(big / "home", small, DEMO_AGENT_EMAIL, extra=20_000,
                             big_db=Path(ctx.large_db))
                frontdesk_once(big / "home")
                big_home = big / "home"
            except Exception as error:  # reported as the row's failure
                big_failure = failed(key_20k, metric_20k, repr(error),
                                     budget=f"≤ {BUDGET} x bare")
        if not ctx.quick:  # warm the OS's file cache and the bytecode of both once
            spawn("bare", None, base_url, DEMO_AGENT_EMAIL)
            frontdesk_once(template / "home")
            for kind in homes:
                path_once(kind)
        bare: list[float] = []
        console: list[float] = []
        ratios: list[float] = []
        by_path: dict[str, list[float]] = {kind: [] for kind in homes}
        last: dict[str, Any] = {}
        path_last: dict[str, dict[str, Any]] = {}
        big_reports: list[dict[str, Any]] = []
        for _ in range(runs):
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
        ratio = median(console) / median(bare)
        details["frontdesk_first_frame"] = last
        details["per_run_ratios"] = ratios
        heavy = bool(last.get("fastapi") or last.get("uvicorn"))
        results.append(measured("startup.bare", "cold start → first frame, bare Textual",
                                bare, budget="reference (≈ 450 ms)"))
        results.append(measured(
            "startup.frontdesk", "cold start → first frame, frontdesk", console,
            budget=f"≤ {BUDGET} x bare", ratio=ratio, met=ratio <= BUDGET and not heavy,
            note=f"{last.get('rows')} cached conversations on {last.get('screen')}; "
                 + ("fastapi/uvicorn imported!" if heavy else "no fastapi/uvicorn")
                 + f"; {last.get('modules')} modules loaded"))
        for kind, metric in (("keyfile", "cold start → first frame, key in a key file"),
                             ("env", "cold start → first frame, --base-url with "
                                     "FRONTDESK_API_KEY"),
                             ("demo", "cold start → first frame, frontdesk demo (second)")):
            if kind not in homes:
                continue
            path_ratio = median(by_path[kind]) / median(bare)
            report = path_last.get(kind, {})
            results.append(measured(
                f"startup.{kind}", metric, by_path[kind], budget=f"≤ {BUDGET} x bare",
                ratio=path_ratio, met=path_ratio <= BUDGET,
                note=("the demo's sandbox starts after the first frame; " if kind == "demo"
                      else "the key checked with the service (it answers); ")
                     + f"{report.get('rows')} cached conversations on {report.get('screen')}; "
                     f"{report.get('modules')} modules loaded"))
        if big_reports:
            samples = [r["ms"] for r in big_reports]
            big_ratio = median(samples) / median(bare)
            results.append(measured(
                key_20k, metric_20k, samples, budget=f"≤ {BUDGET} x bare", ratio=big_ratio,
                met=big_ratio <= BUDGET,
                note=f"{big_reports[-1].get('rows')} conversations in the first view"))
        if big_failure is not None:
            results.append(big_failure)
        if ratio > BUDGET and not ctx.quick:  # a quick run's figures mean nothing
            with home_copy(template / "home") as home:
                details["slowest_imports_ms"] = slowest_imports(home, base_url,
                                                                DEMO_AGENT_EMAIL)
    return results, details


if __name__ == "__main__":
    if len(sys.argv) == 6 and sys.argv[1] == "--probe":
        probe(sys.argv[2], float(sys.argv[3]), sys.argv[4], sys.argv[5])
    print("run the start-up benchmark with: python -m bench --only startup", file=sys.stderr)
    raise SystemExit(2)
