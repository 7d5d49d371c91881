"""Where to move a help-centre article: a collection or a category, or out of every one."""

from __future__ import annotations

from rich.text import Text

from ....store.knowledge import Node
from ....text import one_line
from ...registry import owns_bindings
from ...widgets.safe import Option
from ..shared.pickers import FilterPicker

__all__ = ["ParentPicker"]


@owns_bindings
class ParentPicker(FilterPicker[str | None]):
    """Where to move an article: a collection or a category, or out of every one."""

    HELP_NAME = "Move article"
    TITLE_TEXT = "Move the article to…"
    NOWHERE = "-"

    def __init__(self, places: list[Node]) -> None:
        super().__init__(id="knowledge-move")
        self.places = places

    def refill(self, typed: str) -> None:
        """The places whose title has what is typed."""
        words = typed.casefold().split()
        options = [Option(Text("  " * p.depth + one_line(p.title, 60)), id=p.id)
                   for p in self.places
                   if all(w in p.title.casefold() for w in words)]
        options.append(Option(Text("(out of every collection)", style="dim"),
                              id=self.NOWHERE))
        self.set_options(options)

    def choose(self) -> None:
        """Close with the place's id ("-": nowhere)."""
        chosen = self.highlighted_id()
        if chosen is not None:
            self.dismiss(chosen)
