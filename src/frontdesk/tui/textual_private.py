"""Every private name of Textual the console relies on, in one list.

Textual's public API does not reach a few things the console does: reading keys a burst at a
time, parsing each stylesheet once, keeping what the service says inert in Textual's own
widgets. Each name used for them that Textual keeps private (a leading underscore, or a name
only a private module exports) is listed in :data:`PRIVATE_NAMES`: where it lives, what we do
with it and which behaviour of ours needs it; a name through which we patch a behaviour of
Textual's names that behaviour's report to Textual (``docs/textual-reports/``: what happens,
what was expected, a reproduction using Textual alone). A Textual upgrade may remove or
rename any of them without notice, so ``tests/tui/test_textual_private.py`` looks each one up
(and an override's parameters) and fails by its name; read that entry's module first when
upgrading, and its report: a behaviour Textual has fixed needs its patch no more.

The names imported from Textual's private modules are imported from here (re-exported below),
so the list is also where those imports are. The private attributes and the methods we
override are used where they belong (``tui/key_order.py``, ``tui/css_cache.py``, …): they
are listed, not wrapped. Everything else of Textual the console uses is public. Importing this
module costs nothing at start: Textual's app, driver and footer load these modules anyway.

The tests and the bench reach a little further (feeding a burst through the driver as the
terminal does, reading the frame's bytes): those names are listed here too, marked as theirs,
so that one list says everything an upgrade may break.
"""

from __future__ import annotations

from typing import NamedTuple

from textual._compositor import CompositorUpdate
from textual._context import active_app, active_message_pump
from textual._loop import loop_last
from textual._parser import ParseError
from textual._time import get_time
from textual._wait import wait_for_idle
from textual._xterm_parser import XTermParser
from textual.widgets._footer import FooterKey

__all__ = ["PRIVATE_NAMES", "CompositorUpdate", "FooterKey", "ParseError", "PrivateName",
           "XTermParser", "active_app", "active_message_pump", "get_time", "loop_last",
           "wait_for_idle"]


class PrivateName(NamedTuple):
    """One private name of Textual's that the console uses (a named tuple: a frozen
    dataclass costs some 5 M instructions to make, before the first frame)."""

    #: the module the test imports (where we take the name from)
    module: str
    #: the name in it: ``XTermParser``, or ``Class._attribute`` for an attribute of a class
    name: str
    #: what we do with it, and which behaviour of ours needs it
    why: str
    #: for a method we override, its parameters after ``self`` as our override is written
    overridden: tuple[str, ...] | None = None
    #: an attribute Textual's ``__init__`` sets on each instance (not found on the class)
    per_instance: bool = False
    #: the report to Textual of the behaviour this name lets us patch, from the project's root
    #: (a reproduction using Textual alone beside it); empty for a name that patches none
    report: str = ""


#: the reports to Textual (``docs/textual-reports/``) of the behaviours patched through them
_ESCAPE = "docs/textual-reports/escape-in-burst.md"
_KEY_ORDER = "docs/textual-reports/key-order.md"
_CSS = "docs/textual-reports/css-reparse.md"
_FIRST_FRAME = "docs/textual-reports/first-frame.md"
_FRAME_WRITTEN = "docs/textual-reports/frame-written.md"
_FOOTER = "docs/textual-reports/footer-fit.md"
_PLAIN_TEXT = "docs/textual-reports/plain-text.md"

PRIVATE_NAMES: tuple[PrivateName, ...] = (
    # keys a burst at a time (tui/key_order.py)
    PrivateName("textual._context", "active_message_pump",
                "OrderedKey.stop tells a screen passing every key on from a widget taking "
                "it: the next key of a burst goes only when this one is done",
                report=_KEY_ORDER),
    PrivateName("textual.message_pump", "MessagePump._message_queue",
                "OrderedKeysApp._screen_busy: the next held key waits until no message waits "
                "in the screen or its widgets (a burst acts as keys typed one by one)",
                report=_KEY_ORDER),
    # reading the terminal (tui/terminal_keys.py)
    PrivateName("textual._xterm_parser", "XTermParser",
                "EscapeFirstParser is Textual's terminal reader with Esc-then-key read as "
                "two keys and a bracketed paste read whole", report=_ESCAPE),
    PrivateName("textual._parser", "ParseError",
                "FrontdeskDriver.run_input_thread (Textual's own, parser swapped) ends "
                "reading on it, as Textual's does", report=_ESCAPE),
    PrivateName("textual._time", "get_time",
                "EscapeFirstParser times a lone Esc (ESCDELAY) on Textual's clock",
                report=_ESCAPE),
    PrivateName("textual._loop", "loop_last",
                "FrontdeskDriver.run_input_thread, as Textual's: the last read of the input "
                "ends the decoder", report=_ESCAPE),
    PrivateName("textual.drivers.linux_driver", "LinuxDriver._file", per_instance=True,
                why="FrontdeskDriver wraps the output its writer thread writes to, so that "
                "the console knows when its first frame has reached the terminal (the work "
                "that follows the frame waits for it: when_written)", report=_FRAME_WRITTEN),
    PrivateName("textual.drivers.linux_driver", "LinuxDriver._writer_thread",
                per_instance=True,
                why="FrontdeskDriver.writing: a mark is written only while the writer thread "
                "runs (Textual's write asserts it)", report=_FRAME_WRITTEN),
    # the first frame (tui/app.py)
    PrivateName("textual.app", "App._display",
                "FrontdeskApp.on_ready sends the first screen whole: for a mode's first "
                "screen Textual drops the frame composed while starting the app, and the "
                "whole screen follows its ready only after further refreshes",
                report=_FIRST_FRAME),
    PrivateName("textual.app", "App._background_screens",
                "FrontdeskApp.on_ready renders that frame as Textual's screen refresh does",
                report=_FIRST_FRAME),
    PrivateName("textual.screen", "Screen._compositor", per_instance=True,
                why="FrontdeskApp.on_ready renders the whole first frame with the screen's "
                "compositor (its render_update(full=True))", report=_FIRST_FRAME),
    PrivateName("textual.driver", "Driver._debug", per_instance=True,
                why="FrontdeskDriver hands the driver's debug flag to its parser, as "
                "Textual's run_input_thread does", report=_ESCAPE),
    # the footer (tui/screens/shared/base.py)
    PrivateName("textual.widgets._footer", "FooterKey",
                "FittedFooter measures and styles the footer's keys (only the keys that fit "
                "whole are shown)", report=_FOOTER),
    PrivateName("textual.widgets", "Footer._bindings_ready",
                "FittedFooter builds and rebuilds the keys only once the bindings are known, "
                "and skips a rebuild that would show the same keys", report=_FOOTER),
    # CSS parsed once per process (tui/css_cache.py, tui/app.py)
    PrivateName("textual.css.stylesheet", "Stylesheet._parse_rules",
                "SharedStylesheet keeps the rules parsed from each CSS text (a faster first "
                "frame)",
                overridden=("css", "read_from", "is_default_rules", "tie_breaker", "scope"),
                report=_CSS),
    PrivateName("textual.css.stylesheet", "Stylesheet._variables", per_instance=True,
                why="SharedStylesheet keys its rules by the variables; the app makes its "
                "stylesheet with the app's variables", report=_CSS),
    PrivateName("textual.css.stylesheet", "Stylesheet._rules", per_instance=True,
                why="SharedStylesheet.reparse swaps the fresh rules in, as Textual's does",
                report=_CSS),
    PrivateName("textual.css.stylesheet", "Stylesheet._rules_map", per_instance=True,
                why="SharedStylesheet.reparse drops the rules' index, as Textual's does",
                report=_CSS),
    PrivateName("textual.css.stylesheet", "Stylesheet._require_parse", per_instance=True,
                why="SharedStylesheet.reparse marks the rules parsed, as Textual's does",
                report=_CSS),
    PrivateName("textual.css.stylesheet", "Stylesheet._invalid_css", per_instance=True,
                why="SharedStylesheet.reparse keeps what was invalid for Textual's report",
                report=_CSS),
    # text from the service inert in Textual's widgets (tui/widgets/safe/)
    PrivateName("textual.widgets", "Checkbox._make_label", overridden=("label",),
                why="the safe Checkbox makes every label inert, however it is set",
                report=_PLAIN_TEXT),
    PrivateName("textual.widgets.option_list", "Option._set_prompt", overridden=("prompt",),
                why="the safe Option and Selection make every prompt inert, however it is "
                "set (an option made elsewhere too)", report=_PLAIN_TEXT),
    # the tests' and the bench's own (tests/tui/conftest.py, bench/)
    PrivateName("textual.app", "App._driver", per_instance=True,
                why="tests: a burst of keys is handed to the driver as one read of the "
                "terminal hands it (Console.burst), so the console's key order is tested "
                "as a person meets it; the bench reads its driver's writes"),
    PrivateName("textual._wait", "wait_for_idle",
                "tests: Textual's own wait, kept for a pilot outside a running app"),
    PrivateName("textual.pilot", "wait_for_idle",
                "tests: the pilot's presses and pauses wait for the console to settle "
                "(tests/pilot_waits.py), not for the whole test process to fall quiet"),
    PrivateName("textual.app", "wait_for_idle",
                "tests: as textual.pilot's, for the waits after each key pressed"),
    PrivateName("textual._context", "active_app",
                "tests: the app whose pilot waits (tests/pilot_waits.py)"),
    PrivateName("textual._compositor", "CompositorUpdate",
                "tests: the bytes a frame writes to the terminal (its render_segments) are "
                "checked for anything a customer's text could smuggle in"),
)
