"""Message bodies as Rich renderables: Markdown, HTML email and plain text.

Pure functions, no widgets, one module per kind of thing drawn (the ``markdown`` blocks and
their ``inline`` spans, email ``from_html``, ``bodies`` by content type, ``times``).
Everything here works on text a customer wrote, so:

* the text goes through :func:`frontdesk.text.clean` first (and HTML is cleaned again after
  its entities are decoded, since ``&#27;`` decodes to ESC);
* the result is a :class:`rich.text.Text` built from plain strings and spans: no Rich or
  Textual markup is ever parsed, so ``[bold]`` or ``[@click=app.quit]`` shows literally;
* links are never hyperlinks (no OSC 8, no ``link`` style): a Markdown link shows as
  ``text (target)`` with the real target, its host in ASCII (see
  :func:`frontdesk.text.link_label`).

Markdown is converted by a small hand-written renderer rather than ``rich.markdown``: Rich's
renders through a console at a fixed width (about 3 ms for a ten-line message, against about
0.1 ms here) and Textual would then have to wrap the result again.  Block structure is read
line by line (quotes, lists, headings, rules, fenced code), inline constructs by regular
expressions (bold, italic, bold italic, strikethrough, inline code, links, autolinks, bare
URLs, backslash escapes).  Each inline search is bounded by the last place its closing
delimiter can be, so hostile input such as thousands of unclosed ``**`` stays linear rather
than quadratic; very long lines are shown without inline formatting, deep nesting is capped.

Lines are kept as the author wrote them (a single newline is a line break, as in chat), not
joined into paragraphs as strict Markdown would.
"""

from __future__ import annotations

from .bodies import BODY_CACHE_SIZE, body_cache_clear, render_body, render_body_cached
from .from_html import html_to_markdown_text
from .markdown import markdown_to_text
from .times import exact_time, format_duration

__all__ = [
    "BODY_CACHE_SIZE",
    "body_cache_clear",
    "exact_time",
    "format_duration",
    "html_to_markdown_text",
    "markdown_to_text",
    "render_body",
    "render_body_cached",
]
