"""The budgets of the console's own work, with no service in the way: saving a draft,
remembering a large inbox in the local store, and rendering hostile message bodies.

* draft: ``LocalStore.save_draft`` of a growing text, once per keystroke as the composer does
  (budget: median ≤ 1 ms);
* remember: ``LocalStore.remember`` of 100,000 conversations in one call (budget ≤ 3 s);
* hostile markdown / HTML: ``render.markdown_to_text`` of each input built to make a naive
  parser go quadratic, and ``render.render_body`` of deeply nested HTML (budget: the slowest
  ≤ 500 ms and ≤ 2 s).

The tests check what these do (the draft saved, every row remembered, the text rendered and
bounded); only here are they timed.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

from .common import BenchContext, Result, measured, median

DRAFT_BUDGET_MS = 1.0
REMEMBER_BUDGET_S = 3.0
MARKDOWN_BUDGET_MS = 500.0
HTML_BUDGET_MS = 2000.0

AGENT = "4c1b1b3e-2a65-4f33-9e55-0d1c55a9b1a2"


def hostile_markdown() -> list[str]:
    """Bodies that make a backtracking Markdown parser slow (the cases the tests render)."""
    return [
        "**a " * 1250,
        "*a " * 1666,
        "_a " * 1666,
        "~~a " * 1250,
        "*" * 5000,
        "".join("`" * i + "a" for i in range(1, 90)),
        "[" * 4000 + "] (x)",
        "**_~~`[" * 700,
        "**_" * 800 + "x" + "_**" * 800,
        ("**a " * 200 + "\n") * 100,
        ">" * 50_000 + " deep",
        (" " * 20_000 + "- item\n") * 5,
        "word " * 20000,
    ]


def nested_html(depth: int) -> str:
    """HTML nested ``depth`` levels in three ways at once."""
    return "<blockquote>" * depth + "<ul><li>" * depth + "x" + "<b>" * depth + "y"


def draft_saves(folder: Path, count: int) -> list[float]:
    """Milliseconds per ``save_draft`` of a text one character longer each time."""
    from frontdesk.store.local import LocalStore

    timings: list[float] = []
    with LocalStore(folder / "drafts.db") as store:
        for n in range(count):
            started = time.perf_counter()
            store.save_draft(9, "x" * n)
            timings.append((time.perf_counter() - started) * 1000)
    return timings


def remember_seconds(folder: Path, count: int, runs: int) -> list[float]:
    """Seconds for ``remember`` of ``count`` conversations into a fresh store, per run."""
    from pydantic import TypeAdapter

    from frontdesk.api.models import Conversation
    from frontdesk.store.local import LocalStore

    body = "[" + ",".join(
        f'{{"id":{i},"_type":"ChatConversation","requesterId":"{AGENT}",'
        '"channel":"WidgetChat","createdAt":"2026-01-05T08:00:00.000Z","state":"Open"}'
        for i in range(1, count + 1)
    ) + "]"
    records = TypeAdapter(list[Conversation]).validate_json(body)
    timings: list[float] = []
    for run in range(runs):
        with LocalStore(folder / f"remember-{run}.db") as store:
            started = time.perf_counter()
            store.remember(records, "inbox")
            timings.append(time.perf_counter() - started)
    return timings


def render_worst(runs: int, scale: float) -> tuple[list[float], list[float]]:
    """Per run: the slowest hostile Markdown body and the nested HTML, in milliseconds."""
    from frontdesk.tui.render import markdown_to_text, render_body

    bodies = [body[: max(1, int(len(body) * scale))] for body in hostile_markdown()]
    html = nested_html(max(10, int(5_000 * scale)))
    markdown_to_text(bodies[0])  # imports and caches once
    worst: list[float] = []
    nested: list[float] = []
    for _ in range(runs):
        slowest = 0.0
        for body in bodies:
            started = time.perf_counter()
            markdown_to_text(body)
            slowest = max(slowest, (time.perf_counter() - started) * 1000)
        worst.append(slowest)
        started = time.perf_counter()
        render_body("Html", html)
        nested.append((time.perf_counter() - started) * 1000)
    return worst, nested


def run(ctx: BenchContext) -> tuple[list[Result], dict[str, Any]]:
    """Every row of the local budgets."""
    runs = max(ctx.runs, 1)
    saves, conversations, scale = (50, 2_000, 0.05) if ctx.quick else (1_000, 100_000, 1.0)
    with tempfile.TemporaryDirectory(prefix="bench-local-") as scratch:
        folder = Path(scratch)
        drafts = draft_saves(folder, saves)
        remember = remember_seconds(folder, conversations, runs)
    markdown, html = render_worst(runs, scale)
    rows = [
        measured("local.draft", "save a draft (per keystroke)", drafts,
                 budget=f"median ≤ {DRAFT_BUDGET_MS:g} ms",
                 met=median(drafts) <= DRAFT_BUDGET_MS),
        measured("local.remember", f"remember {conversations:,} conversations", remember,
                 unit="s", budget=f"≤ {REMEMBER_BUDGET_S:g} s",
                 met=median(remember) <= REMEMBER_BUDGET_S),
        measured("local.markdown", "hostile Markdown body (the slowest)", markdown,
                 budget=f"≤ {MARKDOWN_BUDGET_MS:g} ms",
                 met=median(markdown) <= MARKDOWN_BUDGET_MS),
        measured("local.html", "HTML nested 5,000 deep", html,
                 budget=f"≤ {HTML_BUDGET_MS:g} ms", met=median(html) <= HTML_BUDGET_MS),
    ]
    return rows, {"samples": {"draft": drafts, "remember": remember, "markdown": markdown,
                              "html": html}}
