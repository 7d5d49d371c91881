"""What every benchmark shares: statistics, result rows, the table, the machine, the cached
sandbox databases and sandbox servers in child processes.

Statistics are medians with a spread of p10-p90 (linear interpolation, like numpy's default),
because timings on a shared machine have long tails that a mean would smear over everything.
Sandbox databases are built once into ``bench/.cache/`` (git-ignored) and reused; a server is
always a separate process (``frontdesk sandbox serve``), so its CPU never shares a GIL with
what is measured.
"""

from __future__ import annotations

import contextlib
import json
import os
import platform
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
CACHE = ROOT / "bench" / ".cache"
RESULTS = ROOT / "bench" / "results.json"
SEED = 7
KEY = "sbx_bench_key_0123456789"

if str(SRC) not in sys.path:
    sys.path.insert(0, str(SRC))

Scale = Literal["small", "large"]


# ---------------------------------------------------------------------- statistics


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0-100) of ``values``, linearly interpolated."""
    if not values:
        raise ValueError("no values")
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def median(values: Sequence[float]) -> float:
    """The median of ``values``."""
    return percentile(values, 50)


def time_ms(fn: Callable[[], object]) -> float:
    """Milliseconds one call of ``fn`` takes (``perf_counter``)."""
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def runs_of(fn: Callable[[], float], runs: int, warmup: int = 0) -> list[float]:
    """``fn()`` (which returns one sample) ``runs`` times after ``warmup`` discarded calls."""
    for _ in range(warmup):
        fn()
    return [fn() for _ in range(runs)]


# ---------------------------------------------------------------------- results


@dataclass
class Result:
    """One row of the table: a measured value against its budget.

    ``met`` is None for rows that are information (a reference, a breakdown) rather than a
    budget. ``ratio`` is the median against a reference measured in the same run.
    """

    key: str
    metric: str
    unit: str
    budget: str
    median: float | None
    p10: float | None = None
    p90: float | None = None
    n: int = 0
    ratio: float | None = None
    met: bool | None = None
    note: str = ""
    samples: list[float] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The row as JSON (samples rounded, to keep the file readable)."""
        data = asdict(self)
        data["samples"] = [round(s, 4) for s in self.samples]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Result:
        """A row read back from a child's output."""
        return cls(**data)


def measured(key: str, metric: str, samples: Sequence[float], *, unit: str = "ms",
             budget: str = "", met: bool | None = None, ratio: float | None = None,
             note: str = "") -> Result:
    """A row from raw samples: median and p10-p90 over them."""
    values = list(samples)
    if not values:
        return Result(key, metric, unit, budget, None, note=note or "no samples")
    return Result(key, metric, unit, budget, median(values), percentile(values, 10),
                  percentile(values, 90), len(values), ratio, met, note, values)


def failed(key: str, metric: str, error: str, budget: str = "") -> Result:
    """A row for a benchmark that could not run (the table says why)."""
    return Result(key, metric, "", budget, None, met=None, note=error)


def _number(value: float | None, unit: str) -> str:
    if value is None:
        return "—"
    if unit in ("count", "") and float(value).is_integer():
        return f"{value:,.0f}"
    magnitude = abs(value)
    if magnitude >= 1000:
        return f"{value:,.0f}"
    if magnitude >= 100:
        return f"{value:.0f}"
    if magnitude >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def format_table(results: Iterable[Result]) -> str:
    """The results as a plain-text table: metric, budget, median, spread, ratio, met."""
    header = ("metric", "budget", "median", "spread p10-p90", "ratio", "met?")
    rows: list[tuple[str, ...]] = []
    notes: list[str] = []
    for row in results:
        unit = "" if row.unit in ("count", "") else " " + row.unit
        spread = "—" if row.p10 is None or row.p90 is None or row.n < 2 else \
            f"{_number(row.p10, row.unit)}-{_number(row.p90, row.unit)}"
        met = "—" if row.met is None else ("yes" if row.met else "NO")
        ratio = "—" if row.ratio is None else f"{row.ratio:.2f}x"
        rows.append((row.metric, row.budget or "—",
                     _number(row.median, row.unit) + (unit if row.median is not None else ""),
                     spread, ratio, met))
        if row.note:
            notes.append(f"  {row.metric}: {row.note}")
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(widths[i]) for i, cell in enumerate(header)).rstrip(),
             "  ".join("-" * w for w in widths)]
    for r in rows:
        lines.append("  ".join(cell.ljust(widths[i]) for i, cell in enumerate(r)).rstrip())
    if notes:
        lines += ["", "notes:", *notes]
    return "\n".join(lines)


def machine() -> dict[str, Any]:
    """What the numbers were measured on."""
    try:
        load: list[float] | None = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        load = None
    cpu_model = ""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu_model = line.split(":", 1)[1].strip()
                break
    return {
        "platform": platform.platform(),
        "machine": platform.machine(),
        "cpu_model": cpu_model,
        "cpu_count": os.cpu_count(),
        "usable_cpus": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
        else os.cpu_count(),
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "load_average": load,
    }


# ---------------------------------------------------------------------- memory


def rss_mb() -> tuple[float, float]:
    """This process's resident set size now and at its peak, in MB (MiB)."""
    with contextlib.suppress(OSError):
        now = peak = 0.0
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                now = int(line.split()[1]) / 1024
            elif line.startswith("VmHWM:"):
                peak = int(line.split()[1]) / 1024
        if now:
            return now, peak
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak_kib / 1024, peak_kib / 1024


def cpu_seconds(pid: int) -> float | None:
    """CPU time (user + system) a process has used so far, from /proc (None elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# ---------------------------------------------------------------------- sandbox databases


def sandbox_db(scale: Scale, cache: Path = CACHE) -> Path:
    """The cached seeded demo organisation at ``scale`` (built once; ~20 s for large).

    Built into a temporary file and renamed, so two benchmark runs never share a half-built
    database.
    """
    cache.mkdir(parents=True, exist_ok=True)
    path = cache / f"sandbox-{scale}.db"
    if path.exists() and db_meta(path, "seeded") is not None:
        return path
    from frontdesk.sandbox.seed import ensure_seeded

    partial = cache / f"sandbox-{scale}.db.building-{os.getpid()}"
    started = time.perf_counter()
    print(f"building the {scale} sandbox database (once) …", file=sys.stderr, flush=True)
    ensure_seeded(partial, seed=SEED, scale=scale)
    with contextlib.closing(sqlite3.connect(partial)) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.execute("PRAGMA journal_mode=DELETE")
    for suffix in ("-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            Path(str(partial) + suffix).unlink()
    os.replace(partial, path)
    print(f"  built {path.name} in {time.perf_counter() - started:.1f} s", file=sys.stderr,
          flush=True)
    return path


#: ``--quick`` keeps one conversation in this many of the small organisation …
QUICK_EVERY = 8
#: … of at most this many messages (its longest thread is the benchmarks' long thread)
QUICK_LONGEST = 40


def quick_db(cache: Path = CACHE) -> Path:
    """The ``--quick`` run's database (built once from the small one): the small organisation
    with one conversation in :data:`QUICK_EVERY` (none longer than :data:`QUICK_LONGEST`
    messages), with their messages, tags, ratings, activity and attributes; every agent,
    queue, tag and end user kept.

    Every benchmark that reads or fills an inbox does a request per conversation on both
    sides, so this is what a smoke run of the plumbing is spared most; full runs never use it.
    """
    small = sandbox_db("small", cache)
    path = cache / "sandbox-quick.db"
    stamp = f"{int(small.stat().st_mtime)} {QUICK_EVERY} {QUICK_LONGEST}"
    if path.exists() and db_meta(path, "quick_from") == stamp:
        return path
    partial = cache / f"sandbox-quick.db.building-{os.getpid()}"
    shutil.copyfile(small, partial)
    with contextlib.closing(sqlite3.connect(partial)) as conn:
        conn.execute("PRAGMA foreign_keys = ON")
        with conn:
            conn.execute("DELETE FROM conversations WHERE id % ? != 0 OR id IN (SELECT "
                         "conversation_id FROM messages GROUP BY conversation_id "
                         "HAVING count(*) > ?)", (QUICK_EVERY, QUICK_LONGEST))
            conn.execute("DELETE FROM activity_log WHERE conversation_id NOT IN "
                         "(SELECT id FROM conversations)")
            conn.execute("DELETE FROM custom_attribute_values WHERE entity_type = "
                         "'Conversation' AND entity_id NOT IN "
                         "(SELECT CAST(id AS TEXT) FROM conversations)")
            conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('quick_from', ?)",
                         (stamp,))
        conn.execute("VACUUM")
        conn.execute("ANALYZE")
    os.replace(partial, path)
    return path


def db_meta(path: Path, key: str) -> str | None:
    """A value of the sandbox database's ``meta`` table (None when missing or unreadable)."""
    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
            row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    except sqlite3.Error:
        return None
    return None if row is None else str(row[0])


def db_rows(path: Path, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
    """Rows of a read-only query on a sandbox database."""
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
        conn.row_factory = sqlite3.Row
        return list(conn.execute(sql, params).fetchall())


def conversation_wires(path: Path, limit: int) -> list[dict[str, Any]]:
    """Up to ``limit`` conversations of a sandbox database as the service sends them (without
    custom attributes), newest id first."""
    from frontdesk.sandbox import shapes

    rows = db_rows(path, "SELECT * FROM conversations ORDER BY id DESC LIMIT ?", (limit,))
    return [shapes.conversation(None, row, custom_attributes=False)  # type: ignore[arg-type]
            for row in rows]


def message_wires(path: Path, conversation_id: int) -> list[dict[str, Any]]:
    """A conversation's messages as the service sends them, oldest first."""
    from frontdesk.sandbox import shapes

    rows = db_rows(path, "SELECT * FROM messages WHERE conversation_id = ? "
                         "ORDER BY created_at, id", (conversation_id,))
    return [shapes.message(row) for row in rows]


# ---------------------------------------------------------------------- sandbox servers


def demo_agent_email() -> str:
    """The seeded demo agent's e-mail (``frontdesk.sandbox.seed.names``), read without
    importing the seed package: that brings in the whole sandbox (fastapi and its models,
    some 0.15 s of CPU) into every benchmark process that needs no more than this name."""
    import importlib.util

    import frontdesk.sandbox

    path = Path(frontdesk.sandbox.__file__).parent / "seed" / "names.py"
    spec = importlib.util.spec_from_file_location("frontdesk.sandbox.seed.names", path)
    assert spec is not None and spec.loader is not None
    names = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(names)
    return str(names.DEMO_AGENT_EMAIL)


def free_port() -> int:
    """A loopback port nobody listens on right now."""
    from frontdesk.launch import free_port as launch_free_port

    return launch_free_port()


@dataclass
class ServerInfo:
    """Where a sandbox server listens, for a child benchmark process."""

    name: str
    base_url: str
    key: str
    db_path: str
    rate_limit: bool
    pid: int = 0

    @property
    def integrations_url(self) -> str:
        """The deprecated endpoint listing's base URL."""
        return self.base_url + "/integrations"


#: ``frontdesk sandbox serve`` with TCP_NODELAY on every accepted connection. The sandbox
#: binds its own socket (``socket.socket(AF_INET, SOCK_STREAM)``, protocol 0), and asyncio
#: sets TCP_NODELAY only on sockets whose protocol is IPPROTO_TCP, so as shipped every answer
#: after the first on a keep-alive connection waits ~40 ms (Nagle's algorithm against the
#: client's delayed ACK). The benchmarks of the console and the client run against this
#: launcher so that they measure the software, not that stall; the sandbox benchmark
#: measures the shipped server too.
NODELAY_LAUNCHER = """
import asyncio.base_events, socket, sys
def _set_nodelay(sock):
    if sock.family in (socket.AF_INET, socket.AF_INET6) and sock.type == socket.SOCK_STREAM:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
asyncio.base_events._set_nodelay = _set_nodelay
from frontdesk.cli import main
sys.exit(main(sys.argv[1:]))
"""


#: the sandbox in a process of its own, with TCP_NODELAY (as :data:`NODELAY_LAUNCHER` says
#: why), every answer late and (unless "0") the service's budget enforced; its arguments are
#: the database, the key, the port, the latency and the budget. Prints "ready" when it is.
LATE_SANDBOX = """
import asyncio.base_events, socket, sys
def _set_nodelay(sock):
    if sock.family in (socket.AF_INET, socket.AF_INET6) and sock.type == socket.SOCK_STREAM:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
asyncio.base_events._set_nodelay = _set_nodelay
from frontdesk.sandbox.server import SandboxServer
server = SandboxServer(sys.argv[1], keys=[sys.argv[2]], simulator=False,
                       rate_limit=sys.argv[5] == "1", port=int(sys.argv[3])).start()
if float(sys.argv[4]) > 0:
    server.faults.latency(float(sys.argv[4]), count=None)
print("ready", flush=True)
sys.stdin.read()
server.close()
"""


@contextlib.contextmanager
def late_sandbox(db_path: Path, latency: float, *, rate_limit: bool = False) -> Iterator[str]:
    """A sandbox on ``db_path`` in a child process (:data:`LATE_SANDBOX`), every answer
    ``latency`` seconds late (none at 0), the service's budget enforced when ``rate_limit``:
    its base URL, until the block ends."""
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-c", LATE_SANDBOX, str(db_path), KEY, str(port), str(latency),
         "1" if rate_limit else "0"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(SRC)})
    try:
        assert server.stdout is not None and server.stdout.readline().strip() == b"ready"
        yield f"http://127.0.0.1:{port}"
    finally:
        server.communicate(b"", timeout=30)


class SandboxProcess:
    """``frontdesk sandbox serve`` on a cached database, in a child process (no simulator);
    with ``nodelay`` (the default), through :data:`NODELAY_LAUNCHER`."""

    def __init__(self, name: str, db_path: Path, *, rate_limit: bool = False,
                 key: str = KEY, nodelay: bool = True) -> None:
        self.name = name
        self.db_path = db_path
        self.rate_limit = rate_limit
        self.key = key
        self.nodelay = nodelay
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def info(self) -> ServerInfo:
        """Where it listens."""
        return ServerInfo(self.name, f"http://127.0.0.1:{self.port}", self.key,
                          str(self.db_path), self.rate_limit,
                          self.process.pid if self.process is not None else 0)

    def spawn(self) -> None:
        """Start the process (``wait`` until it answers)."""
        self.port = free_port()
        launcher = ["-c", NODELAY_LAUNCHER] if self.nodelay else ["-m", "frontdesk"]
        command = [sys.executable, *launcher, "sandbox", "serve", "--db",
                   str(self.db_path), "--port", str(self.port), "--api-key", self.key,
                   "--seed", str(SEED), "--no-simulator"]
        if not self.rate_limit:
            command.append("--no-rate-limit")
        env = {**os.environ, "PYTHONPATH": str(SRC)}
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, env=env)

    def wait(self, timeout: float = 90.0) -> ServerInfo:
        """Wait until the spawned server answers; where it listens."""
        import httpx2

        assert self.process is not None, "spawn first"
        deadline = time.monotonic() + timeout
        url = self.info.base_url + "/v1/tags"
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the {self.name} sandbox exited ({self.process.returncode})")
            with contextlib.suppress(httpx2.HTTPError), httpx2.Client(verify=False) as probe:
                # one client per try (a refused connection may leave it unusable); without
                # certificates to load, as the URL is plain HTTP: each load costs ~20 ms of CPU
                if probe.get(url, headers={"Authorization": self.key},
                             timeout=2).status_code == 200:
                    return self.info
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"the {self.name} sandbox did not answer within {timeout:g} s")

    def start(self, timeout: float = 90.0) -> ServerInfo:
        """Start it and wait until it answers; returns where it listens."""
        self.spawn()
        return self.wait(timeout)

    def stop(self) -> None:
        """Stop it (SIGTERM, then SIGKILL after 10 s)."""
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


# ---------------------------------------------------------------------- console homes


@contextlib.contextmanager
def home_copy(template: Path | None = None) -> Iterator[Path]:
    """A temporary FRONTDESK_HOME (a copy of ``template`` when given), removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="frontdesk-bench-home-"))
    home = folder / "home"
    try:
        if template is not None and template.exists():
            shutil.copytree(template, home)
        else:
            home.mkdir()
        yield home
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# ---------------------------------------------------------------------- the run's context


@dataclass
class BenchContext:
    """What a child benchmark process is told: sizes, runs, databases and servers."""

    quick: bool
    runs: int
    cache: str
    small_db: str
    large_db: str | None
    servers: dict[str, ServerInfo] = field(default_factory=dict)

    def to_json(self) -> str:
        """The context as JSON (passed to a child in a file)."""
        data = asdict(self)
        return json.dumps(data)

    @classmethod
    def from_json(cls, text: str) -> BenchContext:
        """The context read back in the child."""
        data = json.loads(text)
        servers = {k: ServerInfo(**v) for k, v in data.pop("servers").items()}
        return cls(servers=servers, **data)

    def server(self, name: str) -> ServerInfo:
        """A server the parent started for this benchmark."""
        try:
            return self.servers[name]
        except KeyError:
            raise RuntimeError(f"no {name!r} sandbox was started for this benchmark") from None

    @property
    def big_db(self) -> Path:
        """The database with the long thread (large, or small with --quick)."""
        return Path(self.large_db or self.small_db)


def big_thread_id(path: Path) -> int:
    """The id of the database's longest thread (``meta.big_thread_id`` at large scale)."""
    value = db_meta(path, "big_thread_id")
    if value is not None:
        return int(value)
    rows = db_rows(path, "SELECT conversation_id, count(*) AS n FROM messages "
                         "GROUP BY conversation_id ORDER BY n DESC LIMIT 1")
    return int(rows[0]["conversation_id"])
