"""A stylesheet that parses each piece of CSS once per process, and the first frame's once
for every start after the first.

Textual keeps a parse cache per :class:`~textual.css.stylesheet.Stylesheet`, but drops it
whenever the variables are set (every ``refresh_css``: a theme, a mode's first screen, the
stylesheets added after the first frame) and parses into a fresh stylesheet on each
``reparse``. Before the console's first frame that parses its base CSS (the app's, the
screen's, every widget's defaults, the inbox's sheets) three or four times over. Here the
rules are kept per process, keyed by the CSS, where it came from and the variables it was
parsed with, so the same text with the same variables is parsed once; a change of theme
(other variables) parses afresh, as before.

Across processes the rules of the first frame are kept on disk too (:func:`read_parsed`,
:func:`write_parsed`): a console reads the rules its last run needed for its first frame
before it paints that frame, and once the frame is on screen writes them again if it had to
parse any. Only those: the rules parsed later (the other screens' stylesheets, loaded after
the first frame) would make the file longer to read before the frame, for nothing then. The
file is the console's own (0600, in its cache folder), keyed like the rules in memory (the
CSS text itself is part of each key, so changed CSS is parsed afresh) and stamped with the
Python and the Textual it was written with (a file of another is ignored, then written
again).
"""

from __future__ import annotations

import contextlib
import os
import pickle
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual.css.stylesheet import Stylesheet

if TYPE_CHECKING:
    from textual.css.model import RuleSet
    from textual.css.types import CSSLocation

__all__ = ["SharedStylesheet", "parsed_file", "read_parsed", "write_parsed"]

#: parsed rules kept at most (a few dozen sources, times the themes used in a session)
KEPT = 512


class SharedStylesheet(Stylesheet):
    """A :class:`Stylesheet` whose parsed rules are shared by every stylesheet of the
    process with the same variables (rules are never changed once parsed: Textual's own
    cache hands out the same lists again too)."""

    _parsed: ClassVar[dict[tuple[object, ...], list[RuleSet]]] = {}
    #: the keys of the rules used for a console's first frame, from :func:`read_parsed`
    #: until :meth:`first_frame_shown` (None: not recording)
    _first: ClassVar[set[tuple[object, ...]] | None] = None
    #: rules of the first frame were parsed (not read from the file of parsed rules)
    _unsaved: ClassVar[bool] = False

    def __init__(self, *, variables: dict[str, str] | None = None) -> None:
        super().__init__(variables=variables)
        self._variables_key = _key_of(self._variables)

    def set_variables(self, variables: dict[str, str]) -> None:
        """Textual's, keeping the rules parsed when the variables are the same."""
        key = _key_of(variables)
        if key == self._variables_key:
            self._variables = variables
            return
        super().set_variables(variables)
        self._variables_key = key

    def _parse_rules(self, css: str, read_from: CSSLocation, is_default_rules: bool = False,
                     tie_breaker: int = 0, scope: str = "") -> list[RuleSet]:
        key = (css, read_from, is_default_rules, tie_breaker, scope, self._variables_key)
        parsed = self._parsed
        rules = parsed.get(key)
        if rules is None:
            rules = super()._parse_rules(css, read_from, is_default_rules, tie_breaker, scope)
            if len(parsed) >= KEPT:
                parsed.clear()
            parsed[key] = rules
            if self._first is not None:
                SharedStylesheet._unsaved = True
        if self._first is not None:
            self._first.add(key)
        return rules

    @classmethod
    def first_frame_shown(cls) -> set[tuple[object, ...]]:
        """The first frame is on screen: the keys of the rules it used (for
        :func:`write_parsed`); the rules used from now on are not the first frame's."""
        first, cls._first = cls._first or set(), None
        return first

    def reparse(self) -> None:
        """Textual's ``reparse`` (a fresh stylesheet, swapped in once it parsed), with the
        fresh one sharing the parsed rules."""
        fresh = SharedStylesheet(variables=self._variables)
        for read_from, (css, is_defaults, tie_breaker, scope) in self.source.items():
            fresh.add_source(css, read_from=read_from, is_default_css=is_defaults,
                             tie_breaker=tie_breaker, scope=scope)
        try:
            fresh.parse()
        except Exception:  # cleanup, then re-raise: what was invalid is kept for Textual's report
            self._invalid_css.update(fresh._invalid_css)
            raise
        self._rules = fresh.rules
        self._rules_map = None
        self.source = fresh.source
        self._require_parse = False


def _key_of(variables: dict[str, str]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted(variables.items()))


# ---------------------------------------------------------------------- on disk


def parsed_file() -> Path:
    """Where the console keeps the rules it parsed (its cache folder)."""
    from ..settings import cache_dir

    return cache_dir() / "parsed-css.pickle"


def _stamp() -> tuple[object, ...]:
    """What the rules on disk were written with: the Python, and Textual's CSS modules as
    installed (their size and time: an upgrade writes them anew). Rules of another are
    ignored. (Textual's version is read from its metadata, which costs more than this.)"""
    import textual.css.model
    import textual.css.parse
    import textual.css.styles

    files = []
    for module in (textual.css.model, textual.css.parse, textual.css.styles):
        found = os.stat(module.__file__ or "")
        files.append((module.__name__, found.st_size, found.st_mtime_ns))
    return (sys.version_info[:2], tuple(files))


def read_parsed(path: Path) -> None:
    """A console starts: take the rules kept in ``path`` (written by :func:`write_parsed`)
    as parsed already, and note the rules used until its first frame is on screen
    (:meth:`SharedStylesheet.first_frame_shown`). A missing, unreadable or stale file is
    ignored (the CSS is parsed as it comes), and so is one this user does not own or others
    may write: unpickling runs what the file holds, so only the console's own is read."""
    SharedStylesheet._first = set()
    SharedStylesheet._unsaved = False
    try:
        with open(path, "rb") as handle:
            found = os.fstat(handle.fileno())
            if found.st_uid != os.getuid() or found.st_mode & 0o022:
                return  # not the console's own file (a pickle runs what it holds): parsed
            stamp, rules = pickle.load(handle)
        if stamp != _stamp() or not isinstance(rules, dict):
            return
    except Exception:  # a boundary: any failure to read means parsing afresh
        return
    kept: dict[Any, Any] = rules
    for key, value in kept.items():
        SharedStylesheet._parsed.setdefault(key, value)


def write_parsed(path: Path, first: set[tuple[object, ...]]) -> None:
    """Keep the rules of ``first`` (the keys the first frame used) in ``path`` when some
    had to be parsed: written whole to a file of its own beside it, then renamed, so a
    console starting meanwhile reads the old file or the new one, never half of one."""
    if not SharedStylesheet._unsaved:
        return
    SharedStylesheet._unsaved = False
    parsed = SharedStylesheet._parsed
    kept = {key: parsed[key] for key in first if key in parsed}
    partial = path.with_name(f"{path.name}.{os.getpid()}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(partial, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as handle:
            pickle.dump((_stamp(), kept), handle, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(partial, path)
    except Exception:  # a boundary: the rules are only a head start for the next run
        with contextlib.suppress(OSError):
            partial.unlink()
