"""Textual parses the same CSS text, with the same variables, several times while starting
one app: the rules parsed once are dropped and parsed again.

Counts the calls to Textual's CSS parser (``textual.css.stylesheet.parse``) per CSS source
while a small app starts, until its ``on_ready``, with the time they took; a parse of text
already parsed with the same variables (the same rules again) is counted apart. Run:
``python repro_css_reparse.py`` (headless, no terminal needed).
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import textual
import textual.css.stylesheet
from textual.app import App, ComposeResult
from textual.css.model import RuleSet
from textual.css.parse import parse as real_parse
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Input

parses: Counter[str] = Counter()  # per source
again: Counter[str] = Counter()  # per source: the same text with the same variables again
seen: set[tuple[str, str, str]] = set()
seconds = {"parsing": 0.0, "parsing again": 0.0}


def counting_parse(scope: str, css: str, read_from: Any, *args: Any,
                   **kwargs: Any) -> Iterator[RuleSet]:
    """Textual's parse, counted and timed per source."""
    started = time.perf_counter()
    rules = list(real_parse(scope, css, read_from, *args, **kwargs))
    took = time.perf_counter() - started
    source = str(read_from[1])
    key = (source, css, repr(kwargs.get("variable_tokens")))
    parses[source] += 1
    seconds["parsing"] += took
    if key in seen:
        again[source] += 1
        seconds["parsing again"] += took
    seen.add(key)
    return iter(rules)


textual.css.stylesheet.parse = counting_parse  # type: ignore[attr-defined]


class Main(Screen[None]):
    CSS = "Input { margin: 1; }"

    def compose(self) -> ComposeResult:
        yield Header()
        yield Input()
        yield DataTable()
        yield Footer()


class Small(App[None]):
    CSS = "Screen { background: $surface; }"
    MODES = {"main": Main}
    DEFAULT_MODE = "main"

    def on_ready(self) -> None:
        ready = time.perf_counter() - started
        print(f"textual {textual.__version__}: until on_ready ({ready * 1000:.0f} ms), "
              f"{len(parses)} CSS sources, {parses.total()} parses, "
              f"{again.total()} of them the same text with the same variables again")
        print(f"in the parser: {seconds['parsing'] * 1000:.1f} ms, "
              f"{seconds['parsing again'] * 1000:.1f} ms of it parsing again")
        for source, count in parses.most_common():
            if again[source]:
                print(f"    {source}: parsed {count}x, {again[source]}x with the same "
                      "variables")
        self.exit()


started = time.perf_counter()


async def main() -> None:
    async with Small().run_test() as pilot:
        await pilot.pause()


if __name__ == "__main__":
    asyncio.run(main())
