"""Knowledge in the console: the composer's article finder (ctrl+g: filter, preview, insert a
link or the text, in the conversation's language) and Admin → Knowledge (the tree, an
article's translations edited, published and unpublished with a question, a new article)."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from frontdesk.tui.app import FrontdeskApp
from frontdesk.tui.screens.admin.admin import AdminScreen
from frontdesk.tui.screens.admin.article import ArticleScreen
from frontdesk.tui.screens.admin.article_editor import ArticleEditor
from frontdesk.tui.screens.inbox.article_finder import ArticleFinder
from frontdesk.tui.screens.shared.confirm import ConfirmScreen
from frontdesk.tui.widgets.safe import DataTable, Input, OptionList, TextArea

Console = Any  # the `console` fixture of tests/tui/conftest.py
CLIPBOARD = "\x1b]52;c;ZXZpbA==\x07"  # OSC 52: write to the clipboard
CLEAR = "\x1b[2J"  # clear the screen


async def settle(pilot: Pilot[Any]) -> None:
    """Let every worker finish and the screen catch up."""
    for _ in range(3):
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def front(app: Any) -> Any:
    """The screen in front now (a call, so a type checker does not carry an earlier check)."""
    return app.screen


def app_of(pilot: Pilot[Any]) -> FrontdeskApp:
    app = pilot.app
    assert isinstance(app, FrontdeskApp)
    return app


def versions(console: Console, title: str) -> dict[str, str]:
    """language → 'draft' or 'draft+published' for the article with an English ``title``."""
    rows = console.sandbox.query(
        "SELECT t.language, group_concat(t.version, '+') AS v FROM knowledge_translations t "
        "WHERE t.article_id = (SELECT article_id FROM knowledge_translations "
        "WHERE title = ? LIMIT 1) GROUP BY t.language ORDER BY t.language", (title,))
    return {r["language"]: "+".join(sorted(str(r["v"]).split("+"))) for r in rows}


async def finder_inserts_a_link_or_the_text(console: Console, pilot: Pilot[Any]) -> None:
    cid = int(console.sandbox.query(
        "SELECT id FROM conversations WHERE channel = 'WidgetChat' AND state = 'Open' "
        "ORDER BY id LIMIT 1")[0]["id"])
    console.sandbox.call(lambda ctx: ctx.db.run(
        "UPDATE conversations SET language = 'da' WHERE id = ?", (cid,)))
    console.sandbox.call(lambda ctx: ctx.db.run(  # the service's text is hostile
        "UPDATE knowledge_translations SET title = ?, plaintext = ? WHERE title = ?",
        (f"Holiday {CLIPBOARD}[bold red]hours", f"Closed {CLEAR}[@click=app.quit]x",
         "Holiday opening hours")))
    app = app_of(pilot)
    screen = await console.open_thread(pilot, cid)
    composer = screen.composer
    await pilot.press("i", *"See ", "ctrl+g", *"ordre")  # typed while it reads
    await settle(pilot)
    finder = front(app)
    assert isinstance(finder, ArticleFinder) and finder.language == "da"
    assert not finder.reading and not finder.loading  # listed, nothing covering it
    assert finder.shown[0].title == "Hvor er min ordre?"  # a title match first
    preview = str(finder.query_one("#finder-preview").render())
    assert "sporingslink" in preview
    await pilot.press("enter")
    await settle(pilot)
    assert front(app) is screen
    assert composer.text.startswith("See https://help.acme-demo.example/da/articles/")

    await pilot.press("ctrl+g", *"escalate billing", "ctrl+t")  # internal: the text
    await settle(pilot)
    assert front(app) is screen
    assert "When to escalate to billing\n\nEscalate double charges" in composer.text
    assert "Deleting your account" not in {a.title for a in finder.articles or []}

    await pilot.press("ctrl+g", *"holiday")
    await settle(pilot)
    finder = front(app)
    shown = str(finder.query_one("#picker-options", OptionList).get_option_at_index(0)
                .prompt) + str(finder.query_one("#finder-preview").render())
    assert "\x1b" not in shown and "[bold red]" in shown and "␛[2J" in shown
    await pilot.press("ctrl+t")
    await settle(pilot)
    # inserted as it will be sent: the control characters dropped, nothing else changed
    assert "\x1b" not in composer.text and "Holiday ]52;c;ZXZpbA==" in composer.text

    await pilot.press("ctrl+g", *"no such words", "enter", "escape")
    await settle(pilot)
    assert front(app) is screen and "no such" not in composer.text


async def admin_knowledge_edit_publish_unpublish_new(console: Console,
                                                     pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    await pilot.press("5")
    await settle(pilot)
    admin = front(app)
    assert isinstance(admin, AdminScreen)
    await pilot.press("end", "enter")
    await settle(pilot)
    assert admin.section == "knowledge"
    table = admin.query_one("#knowledge-table", DataTable)
    keys = [str(k.value) for k in table.rows]
    assert len(keys) == 2 + 7 + 12

    await pilot.press("down", "down", "enter")  # the first article
    await settle(pilot)
    article = front(app)
    assert isinstance(article, ArticleScreen)
    assert article.language == "da" and set(article.drafts) == {"da", "de", "en"}
    await pilot.press("down", "down", "e")  # en
    await settle(pilot)
    editor = front(app)
    assert isinstance(editor, ArticleEditor)
    editor.query_one("#editor-title", Input).value = "Where is my parcel?"
    await pilot.press("ctrl+s")
    await settle(pilot)
    assert front(app) is article
    state = versions(console, "Where is my parcel?")
    assert state == {"da": "draft+published", "de": "draft+published",
                      "en": "draft+published"}
    assert article.drafts["en"].title == "Where is my parcel?"
    assert not article.drafts["en"].is_indexed_version  # edited since publishing
    await pilot.press("p")
    await settle(pilot)
    assert article.published["en"].title == "Where is my parcel?"

    await pilot.press("u")
    await settle(pilot)
    assert isinstance(front(app), ConfirmScreen)
    await pilot.press("n")  # asked, said no: nothing changes
    await settle(pilot)
    assert "en" in article.published
    await pilot.press("u", "y")
    await settle(pilot)
    assert "en" not in article.published
    assert versions(console, "Where is my parcel?")["en"] == "draft"
    await pilot.press("escape")
    await settle(pilot)
    assert front(app) is admin

    await pilot.press("n")
    await settle(pilot)
    editor = front(app)
    assert isinstance(editor, ArticleEditor)
    editor.query_one("#editor-title", Input).value = "Gift cards"
    editor.query_one("#editor-body", TextArea).load_text("Never expire.\n\nUse them online.")
    await pilot.press("ctrl+s")
    await settle(pilot)
    assert front(app) is admin
    [made] = console.sandbox.query(
        "SELECT html FROM knowledge_translations WHERE title = 'Gift cards'")
    assert made["html"] == "<p>Never expire.</p><p>Use them online.</p>"
    assert len(list(table.rows)) == len(keys) + 1


@pytest.mark.slow
async def test_knowledge_walked(console: Console) -> None:
    """Knowledge on one console: the composer's finder in a thread, then Admin → Knowledge
    (last: it leaves the console in Admin mode)."""
    await console.walk((120, 36),
                       finder_inserts_a_link_or_the_text,
                       admin_knowledge_edit_publish_unpublish_new)
