"""A stylesheet that parses each piece of CSS once per process.

Textual keeps a parse cache per :class:`~textual.css.stylesheet.Stylesheet`, but drops it
whenever the variables are set (every ``refresh_css``: a theme, a mode's first screen, the
stylesheets added after the first frame) and parses into a fresh stylesheet on each
``reparse``. Before the console's first frame that parses its base CSS (the app's, the
screen's, every widget's defaults, the inbox's sheets) three or four times over. Here the
rules are kept per process, keyed by the CSS, where it came from and the variables it was
parsed with, so the same text with the same variables is parsed once; a change of theme
(other variables) parses afresh, as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.css.stylesheet import Stylesheet

if TYPE_CHECKING:
    from textual.css.model import RuleSet
    from textual.css.types import CSSLocation

__all__ = ["SharedStylesheet"]

#: parsed rules kept at most (a few dozen sources, times the themes used in a session)
KEPT = 512


class SharedStylesheet(Stylesheet):
    """A :class:`Stylesheet` whose parsed rules are shared by every stylesheet of the
    process with the same variables (rules are never changed once parsed: Textual's own
    cache hands out the same lists again too)."""

    _parsed: ClassVar[dict[tuple[object, ...], list[RuleSet]]] = {}

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
        return rules

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
