"""``python -m bench [--quick] [--only NAME ...]``: every benchmark of the quality document's
performance budgets, a table, and ``bench/results.json``.

The parent builds (once, cached in ``bench/.cache/``) the seeded sandbox databases, starts
the sandbox servers the chosen benchmarks need (each a separate process), and runs every
benchmark in a child process of its own (``python -m bench --child NAME``), so that one
benchmark's imports, caches and garbage never weigh on the next, and a benchmark that fails
becomes a row saying why instead of ending the run. A full run runs them one at a time, but
for those paced by a rate-limited sandbox (:data:`PACED`), which run side by side at the end.
``--quick`` uses tiny sizes, one run, no large database and a smaller one for the small
(``common.quick_db``: one conversation in eight), all side by side, for the smoke test: it
checks the plumbing, not the budgets.

The thread, inbox and idle-console figures come from the other engineers' scripts
(``bench_thread.py``, ``bench_inbox.py``, ``bench_idle.py``), imported and called here.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .common import (
    CACHE,
    RESULTS,
    ROOT,
    SRC,
    BenchContext,
    Result,
    SandboxProcess,
    ServerInfo,
    failed,
    format_table,
    machine,
    measured,
    median,
    percentile,
    quick_db,
    sandbox_db,
)

Outcome = tuple[list[Result], dict[str, Any]]

# ---------------------------------------------------------------------- (b)(c)(e) thread


def run_thread(ctx: BenchContext) -> Outcome:
    """Thread open 50 / 10,000, a new message, keystroke → frame (``bench_thread.py``)."""
    from . import bench_thread as thread

    small_n, large_n, typing_n, keys = (10, 100, 50, 4) if ctx.quick else (50, 10_000, 5_000,
                                                                            40)
    runs = max(ctx.runs, 1)

    async def measure() -> dict[str, list[float]]:
        small = thread.make_wires(small_n)
        large = thread.make_wires(large_n)
        medium = thread.make_wires(typing_n)
        await thread.open_thread(small_n, small)  # warm imports, CSS and caches once
        got: dict[str, list[float]] = {"small": [], "large": [], "ratio": [], "append": [],
                                       "keys": []}
        for _ in range(runs):
            a = await thread.open_thread(small_n, small)
            b = await thread.open_thread(large_n, large)
            got["small"].append(a)
            got["large"].append(b)
            got["ratio"].append(b / a)
        got["append"] = [await thread.append_one(large) for _ in range(runs)]
        for _ in range(max(1, runs // 2)):
            got["keys"].extend(await thread.keystrokes(medium, keys=keys))
        return got

    got = asyncio.run(measure())
    ratio = median(got["ratio"])
    large_ms = median(got["large"])
    keys_median, keys_p90 = median(got["keys"]), percentile(got["keys"], 90)
    return [
        measured("thread.open.small", f"open a thread of {small_n:,} messages", got["small"],
                 budget="reference"),
        measured("thread.open.large", f"open a thread of {large_n:,} messages", got["large"],
                 budget="≤ 150 ms and ≤ 1.2 x the small one", ratio=ratio,
                 met=large_ms <= 150 and ratio <= 1.2,
                 note=f"ratio = median of per-run ratios (p10-p90 "
                      f"{percentile(got['ratio'], 10):.2f}-{percentile(got['ratio'], 90):.2f})"),
        measured("thread.append", "a new message arrives in an open thread", got["append"],
                 budget="≤ 30 ms", met=median(got["append"]) <= 30),
        measured("thread.keystroke", f"keystroke → frame, composer beside {typing_n:,} messages",
                 got["keys"], budget="median ≤ 17 ms, p90 ≤ 25 ms",
                 met=keys_median <= 17 and keys_p90 <= 25,
                 note=f"{len(got['keys'])} keys; p90 {keys_p90:.1f} ms"),
    ], {"samples": got}


# ---------------------------------------------------------------------- (d) inbox


def run_inbox(ctx: BenchContext) -> Outcome:
    """Inbox of 100,000: build, filter keystroke, cursor step (``bench_inbox.py``)."""
    from . import bench_inbox as inbox

    count = 500 if ctx.quick else 100_000
    fake = inbox.FakeInbox(count)
    got: dict[str, list[float]] = asyncio.run(inbox.measure(fake, max(ctx.runs, 1)))
    label = f"inbox {count:,}"
    both = [v + b for v, b in zip(got["view"], got["build"], strict=True)]
    rows = [
        measured("inbox.build", f"{label}: build (list + paint)", got["build"],
                 budget="≤ 300 ms", met=median(got["build"]) <= 300,
                 note="bench_inbox's build: set_rows of the whole view and one painted screen"),
        measured("inbox.view_build", f"{label}: store view + build", both,
                 budget="information", note="with bench_inbox's stand-in for the store's "
                                            "view (a sort of every record)"),
        measured("inbox.first_key", f"{label}: first filter keystroke", got["first keystroke"],
                 budget="≤ 50 ms", met=median(got["first keystroke"]) <= 50),
        measured("inbox.keystroke", f"{label}: filter keystroke", got["keystroke"],
                 budget="≤ 50 ms", met=median(got["keystroke"]) <= 50),
        measured("inbox.cursor", f"{label}: cursor step", got["cursor step"],
                 budget="≤ 10 ms", met=median(got["cursor step"]) <= 10),
        measured("inbox.page", f"{label}: page down", got["page down"], budget="≤ 10 ms",
                 met=median(got["page down"]) <= 10),
    ]
    if "rebuild, 1 changed" in got:
        rows.append(measured("inbox.rebuild", f"{label}: rebuild, 1 record changed",
                             got["rebuild, 1 changed"], budget="information"))
    return rows, {"samples": got}


# ---------------------------------------------------------------------- the registry


def _startup(ctx: BenchContext) -> Outcome:
    from . import bench_startup

    return bench_startup.run(ctx)


def _poll(ctx: BenchContext) -> Outcome:
    from . import bench_poll

    return bench_poll.run_unchanged(ctx)


def _idle(ctx: BenchContext) -> Outcome:
    from . import bench_poll

    return bench_poll.run_idle(ctx)


def _client(ctx: BenchContext) -> Outcome:
    from . import bench_client

    return bench_client.run(ctx)


def _memory(ctx: BenchContext) -> Outcome:
    from . import bench_memory

    return bench_memory.run(ctx)


def _slow_thread(ctx: BenchContext) -> Outcome:
    from . import bench_slow_thread

    return bench_slow_thread.run(ctx)


def _first_fill(ctx: BenchContext) -> Outcome:
    from . import bench_first_fill

    return bench_first_fill.run(ctx)


def _search(ctx: BenchContext) -> Outcome:
    from . import bench_search

    return bench_search.run(ctx)


def _local(ctx: BenchContext) -> Outcome:
    from . import bench_local

    return bench_local.run(ctx)


def _sandbox(ctx: BenchContext) -> Outcome:
    from . import bench_sandbox

    return bench_sandbox.run(ctx)


def _gateway(ctx: BenchContext) -> Outcome:
    from . import bench_gateway

    return bench_gateway.run(ctx)


def _team(ctx: BenchContext) -> Outcome:
    from . import bench_team

    return bench_team.run(ctx)


def _soak(ctx: BenchContext) -> Outcome:
    from . import bench_soak

    return bench_soak.run(ctx)


#: name → (what it measures, the function, the sandbox servers it needs)
BENCHMARKS: dict[str, tuple[str, Callable[[BenchContext], Outcome], tuple[str, ...]]] = {
    "startup": ("(a) cold start → first frame", _startup, ("small",)),
    "thread": ("(b)(c)(e) thread open, new message, keystroke", run_thread, ()),
    "inbox": ("(d) inbox of 100,000", run_inbox, ()),
    "poll": ("(f) a poll that changes nothing", _poll, ("small",)),
    "idle": ("(g) idle console requests, 429s, action wait", _idle, ("limited",)),
    "client": ("(h) client overhead per call, a long thread's read", _client,
               ("small", "big")),
    "memory": ("(i) console memory", _memory, ("big",)),
    "slow": ("(l) a thread opened over a slow service", _slow_thread, ()),
    "fill": ("(m) first start: the Queue view at the service's pace", _first_fill, ()),
    "search": ("(n) a text search: the results after one round trip", _search, ()),
    "sandbox": ("(j) sandbox throughput, small vs large", _sandbox, ("shipped", "small", "big")),
    "local": ("(k) draft save, remember 100,000, hostile bodies", _local, ()),
    "gateway": ("(o) the team gateway's added latency on a read", _gateway, ("small",)),
    "team": ("(p) a team of consoles on one gateway and one key", _team,
             ("team", "team_hooked")),
    "soak": ("(q) a soak of the gateway: 40 members, every answer checked", _soak, ("soak",)),
}

#: The benchmarks paced by a sandbox enforcing the service's budget (each its own): what they
#: measure is what the budget allows, barely this machine's speed, and they spend most of
#: their time waiting for it. A full run runs them side by side, after the others have run
#: one at a time, so that they add the longest of them to the run rather than their sum.
PACED = ("idle", "fill", "team", "soak")

#: the servers a benchmark needs with ``--quick`` besides its own (it starts none of its own)
QUICK_SERVERS: dict[str, tuple[str, ...]] = {"fill": ("small",), "search": ("small",)}


# ---------------------------------------------------------------------- child and parent


def child(name: str, context_file: Path, out_file: Path) -> int:
    """In a child process: run one benchmark, write its rows and details as JSON."""
    ctx = BenchContext.from_json(context_file.read_text())
    _, function, _ = BENCHMARKS[name]
    started = time.perf_counter()
    try:
        rows, details = function(ctx)
    except Exception as error:  # the table says what went wrong
        import traceback

        rows = [failed(f"{name}.error", BENCHMARKS[name][0], repr(error))]
        details = {"traceback": traceback.format_exc()}
    details["seconds"] = time.perf_counter() - started
    out_file.write_text(json.dumps({"rows": [r.to_json() for r in rows], "details": details},
                                   default=str))
    return 0


class Servers:
    """The sandbox servers of one run: all started together, stopped at the end."""

    def __init__(self, small_db: Path, large_db: Path | None, scratch: Path) -> None:
        self.small_db = small_db
        self.large_db = large_db
        self.scratch = scratch
        self.running: dict[str, SandboxProcess] = {}
        self.problems: dict[str, str] = {}

    def _name(self, name: str) -> str:
        return "small" if name == "big" and self.large_db is None else name

    def start(self, names: set[str]) -> None:
        """Start these servers (small, big, limited, team, shipped) side by side; wait for
        each. ``team`` is a second limited one: the team's consoles must not spend the budget
        the idle console is measured against when the benchmarks run side by side."""
        spawned: list[SandboxProcess] = []
        for name in sorted({self._name(n) for n in names}):
            if name == "small":
                process = SandboxProcess("small", self.small_db)
            elif name == "big":
                assert self.large_db is not None
                process = SandboxProcess("big", self.large_db)
            elif name == "shipped":
                process = SandboxProcess("shipped", self._copy(name), nodelay=False)
            elif name in ("limited", "team", "team_hooked", "soak"):  # each its own budget
                process = SandboxProcess(name, self._copy(name), rate_limit=True)
            else:
                raise KeyError(name)
            process.spawn()
            self.running[name] = process
            spawned.append(process)
        for process in spawned:
            try:
                process.wait()
            except RuntimeError as error:
                self.problems[process.name] = str(error)

    def get(self, name: str) -> ServerInfo:
        """Where the server ``name`` listens (it must have started)."""
        name = self._name(name)
        if name in self.problems:
            raise RuntimeError(self.problems[name])
        return self.running[name].info

    def _copy(self, name: str) -> Path:
        """A copy of the small database of its own, for a second server on it."""
        copy = self.scratch / f"{name}.db"
        if not copy.exists():
            shutil.copyfile(self.small_db, copy)
        return copy

    def stop(self) -> None:
        """Stop every server started."""
        for process in self.running.values():
            process.stop()
        self.running.clear()


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line."""
    options = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split(
        "\n\n")[0].replace("``", ""))
    options.add_argument("--quick", action="store_true",
                         help="tiny sizes, one run, no large database, benchmarks side by "
                              "side (a smoke test of the plumbing, not of the budgets)")
    options.add_argument("--only", action="append", default=[], metavar="NAME",
                         help="run only these benchmarks (repeat or comma-separate): "
                              + ", ".join(BENCHMARKS))
    options.add_argument("--runs", type=int, default=None,
                         help="runs per measurement (default 7; 1 with --quick)")
    options.add_argument("--out", type=Path, default=RESULTS,
                         help="where to write the JSON results (default bench/results.json)")
    options.add_argument("--child", default=None, help=argparse.SUPPRESS)
    options.add_argument("--context", type=Path, default=None, help=argparse.SUPPRESS)
    return options.parse_args(argv)


class Child:
    """One benchmark running in its own process."""

    def __init__(self, name: str, ctx: BenchContext, scratch: Path) -> None:
        self.name = name
        self.context_file = scratch / f"{name}.context.json"
        self.out_file = scratch / f"{name}.out.json"
        self.context_file.write_text(ctx.to_json())
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(SRC)]),
               "TZ": "UTC"}
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bench", "--child", name, "--context",
             str(self.context_file), "--out", str(self.out_file)], cwd=ROOT, env=env)

    def result(self, timeout: float = 1800) -> tuple[list[Result], dict[str, Any]]:
        """Wait for it; its rows and details (a failure becomes a row)."""
        what = BENCHMARKS[self.name][0]
        try:
            self.process.wait(timeout)
            produced = json.loads(self.out_file.read_text())
            rows = [Result.from_json(r) for r in produced["rows"]]
            details: dict[str, Any] = produced["details"]
        except (subprocess.TimeoutExpired, OSError, ValueError) as error:
            self.process.kill()
            rows, details = [failed(f"{self.name}.error", what, repr(error))], {}
        print(f"[bench] {self.name}: {time.perf_counter() - self.started:.1f} s",
              file=sys.stderr, flush=True)
        return rows, details


def main(argv: list[str] | None = None) -> int:
    """Run the chosen benchmarks, print the table, write the results."""
    args = parse(argv)
    if args.child:
        return child(args.child, args.context, args.out)
    names = [n.strip() for item in args.only for n in item.split(",") if n.strip()] \
        or list(BENCHMARKS)
    names = [n for n in names if n not in PACED] + [n for n in names if n in PACED]
    unknown = [n for n in names if n not in BENCHMARKS]
    if unknown:
        print(f"unknown benchmark(s): {', '.join(unknown)}; choose from "
              f"{', '.join(BENCHMARKS)}", file=sys.stderr)
        return 2
    runs = args.runs or (1 if args.quick else 7)
    needs_large = not args.quick and any("big" in BENCHMARKS[n][2] or n == "startup"
                                         for n in names)
    began = time.perf_counter()
    small_db = quick_db() if args.quick else sandbox_db("small")
    large_db = sandbox_db("large") if needs_large else None
    scratch = Path(tempfile.mkdtemp(prefix="frontdesk-bench-"))
    servers = Servers(small_db, large_db, scratch)
    results: list[Result] = []
    details: dict[str, Any] = {}
    try:
        quick_servers = QUICK_SERVERS if args.quick else {}
        servers.start({server for n in names
                       for server in BENCHMARKS[n][2] + quick_servers.get(n, ())})
        children: list[Child] = []
        for name in names:
            what, _, needed = BENCHMARKS[name]
            needed += quick_servers.get(name, ())
            try:
                infos = {n: servers.get(n) for n in needed}
            except RuntimeError as error:  # a server that did not start: say so, go on
                results.append(failed(f"{name}.server", what, f"sandbox: {error}"))
                continue
            ctx = BenchContext(quick=args.quick, runs=runs, cache=str(CACHE),
                               small_db=str(small_db),
                               large_db=None if large_db is None else str(large_db),
                               servers=infos)
            print(f"[bench] {name}: {what} …", file=sys.stderr, flush=True)
            children.append(Child(name, ctx, scratch))
            if not args.quick and name not in PACED:  # one at a time: none disturbs another
                rows, details[name] = children.pop().result()
                results.extend(rows)
        for running in children:
            rows, details[running.name] = running.result()
            results.extend(rows)
    finally:
        servers.stop()
        shutil.rmtree(scratch, ignore_errors=True)
    about = machine()
    report = {
        "machine": about,
        "quick": args.quick,
        "runs": runs,
        "seconds": round(time.perf_counter() - began, 1),
        "results": [r.to_json() for r in results],
        "details": details,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    partial = args.out.with_name(args.out.name + ".tmp")
    partial.write_text(json.dumps(report, indent=1, default=str) + "\n")
    os.replace(partial, args.out)
    print(f"\nfrontdesk benchmarks — {about['platform']}, {about['cpu_count']} CPUs "
          f"({about['cpu_model'] or about['machine']}), Python {about['python']}, "
          f"{about['date']}, load {about['load_average']}; {runs} run(s)"
          + (" — QUICK: tiny sizes, side by side; not the budgets" if args.quick else ""))
    print(format_table(results))
    missed = [r.metric for r in results if r.met is False]
    print(f"\n{len(missed)} budget(s) missed" + (": " + "; ".join(missed) if missed else "")
          + f". Written to {args.out}.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
