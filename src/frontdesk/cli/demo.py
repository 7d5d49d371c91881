"""``frontdesk demo``: the console on a seeded local sandbox."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .common import Fail, parse
from .logs import Logs, file_logging
from .run import run_console

if TYPE_CHECKING:
    from ..settings import Settings


def _seed(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {value!r}") from None
    if number < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return number


def demo_main(argv: Sequence[str]) -> int:
    """``frontdesk demo``: the console on a seeded local sandbox; prints nothing unless it
    fails."""
    parser = argparse.ArgumentParser(
        prog="frontdesk demo",
        description="Open the console on a local sandbox of the service with a lively demo "
        "organisation (simulated customers and colleagues). Its data is kept between runs "
        "in the data directory ('frontdesk locate').")
    parser.add_argument("--reset", action="store_true",
                        help="start from a fresh demo organisation (forget the previous one)")
    parser.add_argument("--chaos", action="store_true",
                        help="make the sandbox misbehave: latency, 503s, 429s, lost answers")
    parser.add_argument("--seed", type=_seed, default=1, metavar="N",
                        help="seed of a new demo organisation (default 1)")
    args = parse(parser, argv)
    from ..settings import ConfigError, load_settings

    try:
        settings = load_settings()
    except ConfigError as error:
        raise Fail(1, str(error)) from None
    with file_logging() as logs:
        return run_demo(settings, logs, reset=args.reset, chaos=args.chaos, seed=args.seed)


def run_demo(settings: Settings, logs: Logs, *, reset: bool = False, chaos: bool = False,
              seed: int = 1) -> int:
    """Start the demo sandbox in the background and the console on it."""
    from .. import launch

    if reset:
        launch.reset_demo()
    with launch.demo_sandbox(chaos=chaos, seed=seed) as target:
        logs.protect(target.api_key())
        return run_console(target, settings)
