"""The thread view: windowed mounting, anchoring, appends, echoes, keys, hostile content."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from rich.segment import Segment
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.message import Message as TextualMessage

from frontdesk.api.models.messages import Message
from frontdesk.tui.textual_private import CompositorUpdate
from frontdesk.tui.widgets.message_view import MessageView
from frontdesk.tui.widgets.thread_view import NewMessagesIndicator, ThreadView

STYLES = Path(__file__).resolve().parents[2] / "styles" / "thread.tcss"
NOW = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
SIZE = (100, 40)

HOSTILE = (
    "\x1b]52;c;ZXZpbA==\x07 \x1b]0;title\x07 \x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\ "
    "\x1b[2J \x1b[6n \x9b6n \x00 \u202e [bold red]x[/] [@click=app.quit] "
    "[link=http://evil]y[/link] [/foo] [click](http://evil.example)"
)
FORBIDDEN = ("\x1b", "\x9b", "\x9d", "\x00", "\u202e", "\x07")
LITERALS = ("[bold red]x[/]", "[@click=app.quit]", "[link=http://evil]y[/link]", "[/foo]")


def make_message(
    i: int,
    *,
    prefix: str = "m",
    direction: str = "Inbound",
    body: str | None = None,
    kind: str = "Markdown",
    external_id: str | None = None,
    **attributes: Any,
) -> Message:
    """A message created ``i`` minutes after a fixed start."""
    data: dict[str, Any] = {
        "_type": attributes.pop("_type", "ChatAttributes"),
        "direction": direction,
        "content": {"_type": kind, "value": body if body is not None else f"body {prefix}{i}"},
        **attributes,
    }
    return Message.model_validate(
        {
            "id": f"{prefix}{i:05d}",
            "authorId": "customer-1" if direction == "Inbound" else "agent-7",
            "externalId": external_id,
            "createdAt": (NOW - timedelta(days=30) + timedelta(minutes=i)).isoformat(),
            "attributes": data,
        }
    )


def thread_of(count: int, prefix: str = "m") -> list[Message]:
    return [
        make_message(i, prefix=prefix, direction="Inbound" if i % 2 else "Outbound")
        for i in range(count)
    ]


NAMES = {"customer-1": "Ann Customer", "agent-7": "Bob Agent"}


class ThreadApp(App[None]):
    """A tiny app holding a ThreadView; records the messages the views post."""

    CSS_PATH = str(STYLES)

    def __init__(self, names: Callable[[str], str] = NAMES.__getitem__) -> None:
        super().__init__()
        self.names = names
        self.posted: list[TextualMessage] = []

    def compose(self) -> ComposeResult:
        yield ThreadView(names=self.names, clock=lambda: NOW)

    def on_message_view_copy_requested(self, message: MessageView.CopyRequested) -> None:
        self.posted.append(message)

    def on_message_view_anonymize_requested(self, message: MessageView.AnonymizeRequested) -> None:
        self.posted.append(message)

    def on_message_view_open_attachment(self, message: MessageView.OpenAttachment) -> None:
        self.posted.append(message)


def plain(view: MessageView) -> str:
    """The text a message view renders."""
    content = view.content
    assert isinstance(content, Text)
    return content.plain


def screen_lines(app: App[Any]) -> list[str]:
    """The text of every line of the current frame."""
    return [
        "".join(segment.text for segment in strip)
        for strip in app.screen._compositor.render_strips()
    ]


def visible(app: App[Any], view: MessageView) -> bool:
    return view in app.screen._compositor.visible_widgets


def body_on_screen(app: App[Any], text: str) -> bool:
    return any(text in line for line in screen_lines(app))


async def settle(pilot: Any, times: int = 3) -> None:
    for _ in range(times):
        await pilot.pause()


# ------------------------------------------------------------------ opening --


async def test_long_thread_mounts_a_window_and_opens_at_the_newest() -> None:
    app = ThreadApp()
    async with app.run_test(size=SIZE) as pilot:
        thread = app.query_one(ThreadView)
        thread.set_messages(thread_of(10_000))
        await settle(pilot)
        views = list(app.query(MessageView))
        assert 0 < len(views) <= 100
        assert thread.window[1] == 10_000
        assert views[-1].message.id == "m09999"
        assert visible(app, views[-1])
        assert body_on_screen(app, "body m9999")
        assert thread.scroll_y == thread.max_scroll_y
        assert thread.pinned_to_bottom


async def test_a_scrollbar_shown_after_the_view_is_pinned_starts_where_the_view_is() -> None:
    """A thread opened at its end whose scrollbar comes only afterwards (the layout decided it
    later, a pane beside it closed) shows its thumb at the end, not at the top."""
    app = ThreadApp()
    async with app.run_test(size=SIZE) as pilot:
        thread = app.query_one(ThreadView)
        thread.styles.overflow_y = "hidden"  # no scrollbar while the thread opens
        thread.set_messages(thread_of(300))
        await settle(pilot)
        assert thread.pinned_to_bottom and thread.scroll_y == thread.max_scroll_y > 0
        assert not thread.show_vertical_scrollbar
        thread.styles.overflow_y = "auto"
        await settle(pilot)
        assert thread.show_vertical_scrollbar
        assert thread.vertical_scrollbar.position == thread.scroll_y == thread.max_scroll_y


async def test_set_messages_replaces_the_thread() -> None:
    app = ThreadApp()
    async with app.run_test(size=SIZE) as pilot:
        thread = app.query_one(ThreadView)
        thread.set_messages(thread_of(100))
        await settle(pilot)
        thread.set_messages(thread_of(3, prefix="x"))
        await settle(pilot)
        ids = [view.message.id for view in app.query(MessageView)]
        assert ids == ["x00000", "x00001", "x00002"]
        assert len(thread.messages) == 3


async def test_scrolling_to_the_top_loads_older_and_keeps_the_anchor() -> None:
    app = ThreadApp()
    async with app.run_test(size=SIZE) as pilot:
        thread = app.query_one(ThreadView)
        thread.set_messages(thread_of(10_000))
        await settle(pilot)
        first_before = thread.window[0]
        anchor = thread.message_views[0]
        thread.scroll_home(animate=False, immediate=True)
        await settle(pilot)
        assert thread.window[0] < first_before
        assert thread.message_views[0] is not anchor
        # The message that was at the top of the view is still there, on the same row.
        assert anchor.region.y == thread.content_region.y
        assert visible(app, anchor)
        assert len(thread.message_views) <= 120
        assert not thread.pinned_to_bottom


async def test_k_at_the_top_loads_the_older_batch_and_moves_to_it() -> None:
    app = ThreadApp()
    async with app.run_test(size=SIZE) as pilot:
        thread = app.query_one(ThreadView)
        thread.set_messages(thread_of(1_000))
        await settle(pilot)
        first = thread.message_views[0]
        first_index = thread.window[0]
        first.focus()
        await settle(pilot)
        await pilot.press("k")
        await settle(pilot)
        assert thread.window[0] < first_index
        focused = thread.focused_message
        assert focused is not None
        assert focused.id == f"m{first_index - 1:05d}"


async def test_far_travel_keeps_the_widget_count_bounded() -> None:
    class SmallWindow(ThreadView):
        WINDOW = 10
        BATCH = 10
        MAX_MOUNTED = 30

    class SmallApp(ThreadApp):
        def compose(self) -> ComposeResult:
            yield SmallWindow(names=self.names, clock=lambda: NOW)

    app = SmallApp()
    async with app.run_test(size=(80, 20)) as pilot:
        thread = app.query_one(ThreadView)
        thread.set_messages(thread_of(500))
        await settle(pilot)
        for _ in range(12):
            thread.scroll_home(animate=False, immediate=True)
            await settle(pilot)
        assert thread.window[0] < 500 - 100
        assert len(thread.message_views) <= 30
        assert len(app.query(MessageView)) <= 30
        lo, hi = thread.window
        assert [v.message.id for v in thread.message_views] == [f"m{i:05d}" for i in range(lo, hi)]
        # and back down: the newest is mounted again, the far top unmounted
        for _ in range(40):
            thread.scroll_end(animate=False, immediate=True)
            await settle(pilot)
            if thread.window[1] == 500:
                break
        assert thread.window[1] == 500
        assert len(thread.message_views) <= 30


async def test_g_jumps_to_the_oldest_and_G_back_to_the_newest() -> None:
    app = ThreadApp()
    async with app.run_test(size=SIZE) as pilot:
        thread = app.query_one(ThreadView)
        thread.set_messages(thread_of(10_000))
        await settle(pilot)
        thread.focus()
        await pilot.press("g")
        await settle(pilot)
        assert thread.window[0] == 0
        assert thread.message_views[0].message.id == "m00000"
        assert visible(app, thread.message_views[0])
        assert body_on_screen(app, "body m0")
        assert len(app.query(MessageView)) <= 100
        focused = thread.focused_message
        assert focused is not None and focused.id == "m00000"
        await pilot.press("G")
        await settle(pilot)
        assert thread.window[1] == 10_000
        assert visible(app, thread.message_views[-1])
        focused = thread.focused_message
        assert focused is not None and focused.id == "m09999"


async def test_j_and_k_move_the_focus() -> None:
    app = ThreadApp()
    async with app.run_test(size=SIZE) as pilot:
        thread = app.query_one(ThreadView)
        thread.set_messages(thread_of(20))
        await settle(pilot)
        thread.focus()
        await pilot.press("k")
        focused = thread.focused_message
        assert focused is not None and focused.id == "m00019"
        await pilot.press("k", "k", "up")
        focused = thread.focused_message
        assert focused is not None and focused.id == "m00016"
        await pilot.press("j", "down")
        focused = thread.focused_message
        assert focused is not None and focused.id == "m00018"


# ---------------------------------------------------------------- appending --


async def test_append_at_the_bottom_follows() -> None:
    app = ThreadApp()
    async with app.run_test(size=SIZE) as pilot:
        thread = app.query_one(ThreadView)
        thread.set_messages(thread_of(200))
        await settle(pilot)
        before = thread.message_views[:-1]
        thread.append([make_message(500, prefix="n", body="fresh news")])
        await settle(pilot)
        assert thread.message_views[-1].message.id == "n00500"
        assert visible(app, thread.message_views[-1])
        assert body_on_screen(app, "fresh news")
        assert thread.scroll_y == thread.max_scroll_y
        assert thread.unseen == 0
        assert not app.query_one(NewMessagesIndicator).has_class("-visible")
        assert thread.message_views[: len(before)] == before  # nothing re-mounted


async def test_append_when_scrolled_up_does_not_move_and_shows_the_indicator() -> None:
    app = ThreadApp()
    async with app.run_test(size=SIZE) as pilot:
        thread = app.query_one(ThreadView)
        thread.set_messages(thread_of(200))
        await settle(pilot)
        thread.scroll_to(y=thread.max_scroll_y - 20, animate=False, immediate=True)
        await settle(pilot)
        scroll_y = thread.scroll_y
        thread.append([make_message(500, prefix="n", body="fresh news")])
        thread.append([make_message(501, prefix="n", body="more news")])
        await settle(pilot)
        assert thread.scroll_y == scroll_y
        assert not body_on_screen(app, "more news")
        indicator = app.query_one(NewMessagesIndicator)
        assert indicator.has_class("-visible")
        assert "↓ 2 new" in str(indicator.visual)
        assert body_on_screen(app, "↓ 2 new")
        thread.focus()
        await pilot.press("G")
        await settle(pilot)
        assert body_on_screen(app, "more news")
        assert not indicator.has_class("-visible")
        assert thread.unseen == 0


async def test_duplicates_are_ignored() -> None:
    app = ThreadApp()
    async with app.run_test(size=SIZE) as pilot:
        thread = app.query_one(ThreadView)
        messages = thread_of(10)
        thread.set_messages(messages)
        await settle(pilot)
        thread.append([messages[3], messages[9]])
        new = make_message(50, prefix="n")
        thread.append([new, new])
        thread.append([new])
        await settle(pilot)
        ids = [view.message.id for view in app.query(MessageView)]
        assert ids == [m.id for m in messages] + ["n00050"]
        assert len(thread.messages) == 11


async def test_duplicate_ids_in_set_messages_keep_the_first() -> None:
    app = ThreadApp()
    async with app.run_test(size=SIZE) as pilot:
        thread = app.query_one(ThreadView)
        messages = thread_of(5)
        thread.set_messages([*messages, messages[2]])
        await settle(pilot)
        thread.append([make_message(9, prefix="n")])
        await settle(pilot)
        ids = [view.message.id for view in app.query(MessageView)]
        assert ids == [m.id for m in messages] + ["n00009"]


async def test_pending_echo_is_shown_then_replaced_in_place() -> None:
    app = ThreadApp()
    async with app.run_test(size=SIZE) as pilot:
        thread = app.query_one(ThreadView)
        thread.set_messages(thread_of(30))
        await settle(pilot)
        echo = make_message(
            99, prefix="local", direction="Outbound", body="my reply", external_id="ext-1"
        )
        thread.add_pending(echo)
        await settle(pilot)
        pending = thread.message_views[-1]
        assert pending.has_class("-pending")
        assert "sending…" in plain(pending)
        assert visible(app, pending)
        thread.set_pending_status("ext-1", "failed: 503, will retry", failed=True)
        await settle(pilot)
        assert pending.has_class("-failed")
        assert "failed: 503, will retry" in plain(pending)
        # Another customer message arrives first: it goes above the echo.
        thread.append([make_message(100, prefix="c", body="customer again")])
        await settle(pilot)
        assert thread.message_views[-1] is pending
        real = make_message(
            101, prefix="real", direction="Outbound", body="my reply", external_id="ext-1"
        )
        thread.append([real])
        await settle(pilot)
        views = list(app.query(MessageView))
        assert not any(view.has_class("-pending") for view in views)
        assert views[-1].message.id == "real00101"
        assert views[-2].message.id == "c00100"
        assert "sending…" not in plain(views[-1])
        # the echo again (a late retry) is ignored: the message is there
        thread.add_pending(echo)
        await settle(pilot)
        assert not any(view.has_class("-pending") for view in app.query(MessageView))


# --------------------------------------------------------------------- keys --


async def test_keys_post_requests_for_the_focused_message() -> None:
    app = ThreadApp()
    async with app.run_test(size=SIZE) as pilot:
        thread = app.query_one(ThreadView)
        attachment = {"url": "https://files.example/a.pdf?x=1", "prettyName": "a.pdf"}
        messages = [*thread_of(5), make_message(5, attachments=[attachment])]
        thread.set_messages(messages)
        await settle(pilot)
        thread.message_views[-1].focus()
        await pilot.press("y", "A", "o")
        await settle(pilot)
        kinds = [type(message) for message in app.posted]
        assert kinds == [
            MessageView.CopyRequested,
            MessageView.AnonymizeRequested,
            MessageView.OpenAttachment,
        ]
        copy, anonymize, open_ = app.posted
        assert isinstance(copy, MessageView.CopyRequested)
        assert copy.message.id == "m00005"
        assert isinstance(anonymize, MessageView.AnonymizeRequested)
        assert anonymize.message.id == "m00005"
        assert isinstance(open_, MessageView.OpenAttachment)
        assert open_.url == "https://files.example/a.pdf?x=1"
        assert app.is_running


async def test_every_binding_has_a_thread_id() -> None:
    for widget in (ThreadView, MessageView):
        bindings = [b for b in widget.BINDINGS if isinstance(b, Binding)]
        assert len(bindings) == len(widget.BINDINGS)
        for binding in bindings:
            assert binding.id is not None and binding.id.startswith("thread.")
            assert binding.description


async def test_bindings_can_be_remapped_by_id() -> None:
    app = ThreadApp()
    app.set_keymap({"thread.copy": "c"})
    async with app.run_test(size=SIZE) as pilot:
        thread = app.query_one(ThreadView)
        thread.set_messages(thread_of(3))
        await settle(pilot)
        thread.message_views[-1].focus()
        await pilot.press("c")
        await settle(pilot)
        assert [type(m) for m in app.posted] == [MessageView.CopyRequested]


# ------------------------------------------------------------------ content --


async def test_header_direction_time_and_exact_time_on_focus() -> None:
    app = ThreadApp()
    async with app.run_test(size=SIZE) as pilot:
        thread = app.query_one(ThreadView)
        recent = make_message(0, direction="Inbound", body="hello")
        recent = recent.model_copy(update={"created_at": NOW - timedelta(minutes=5)})
        agent = make_message(1, direction="Outbound", body="hi")
        note = make_message(2, direction="Internal", body="note")
        thread.set_messages([recent, agent, note])
        await settle(pilot)
        first, second, third = thread.message_views
        assert first.has_class("-inbound")
        assert second.has_class("-outbound")
        assert third.has_class("-internal")
        header = plain(first).split("\n")[0]
        assert header.startswith("◀ Ann Customer")
        assert "customer" in header and "5 min ago" in header
        assert plain(second).startswith("▶ Bob Agent")
        assert plain(third).startswith("◆ ")
        assert first.exact_time.startswith(
            (NOW - timedelta(minutes=5)).astimezone().strftime("%Y-%m-%d %H:%M")
        )
        first.focus()
        await settle(pilot)
        assert first.exact_time in plain(first)
        assert "5 min ago" not in plain(first)
        second.focus()
        await settle(pilot)
        assert "5 min ago" in plain(first)


async def test_unknown_author_falls_back_to_a_short_id() -> None:
    def names(author_id: str) -> str:
        raise KeyError(author_id)

    app = ThreadApp(names=names)
    async with app.run_test(size=SIZE) as pilot:
        thread = app.query_one(ThreadView)
        thread.set_messages([make_message(0)])
        await settle(pilot)
        assert plain(thread.message_views[0]).startswith("◀ customer-1")


async def test_email_headers_attachments_and_calls() -> None:
    app = ThreadApp()
    async with app.run_test(size=SIZE) as pilot:
        thread = app.query_one(ThreadView)
        headers: dict[str, Any] = {
            "from": {"email": "ann@example.com", "name": "Ann"},
            "to": [{"email": "support@example.com"}],
            "cc": [{"email": "boss@example.com", "name": "Boss"}],
            "subject": "Order 42",
            "attachments": [
                {"url": "https://files.example/x/invoice.pdf", "prettyName": "Invoice"},
                {"url": "https://files.example/y/photo.jpg"},
            ],
        }
        email = make_message(0, _type="EmailAttributes", kind="Html", body="<p>Hi</p>", **headers)
        call = make_message(1, _type="PhoneAttributes", body="", duration=200)
        thread.set_messages([email, call])
        await settle(pilot)
        text = plain(thread.message_views[0])
        assert "From: Ann <ann@example.com>" in text
        assert "To: support@example.com" in text
        assert "Cc: Boss <boss@example.com>" in text
        assert "Subject: Order 42" in text
        assert "📎 1. Invoice  https://files.example/x/invoice.pdf" in text
        assert "📎 2. photo.jpg  https://files.example/y/photo.jpg" in text
        assert "📞 call, 3 min 20 s" in plain(thread.message_views[1])


async def test_html_email_is_converted() -> None:
    app = ThreadApp()
    async with app.run_test(size=SIZE) as pilot:
        thread = app.query_one(ThreadView)
        html = (
            "<html><head><style>p{}</style></head><body><script>alert('x')</script>"
            "<p>Dear <b>team</b>,</p><p>see <a href='http://evil.example/x'>this page</a></p>"
            "</body></html>"
        )
        thread.set_messages([make_message(0, kind="Html", body=html)])
        await settle(pilot)
        text = plain(thread.message_views[0])
        assert "Dear team," in text
        assert "this page (http://evil.example/x)" in text
        assert "alert" not in text
        assert "<p>" not in text
        assert body_on_screen(app, "this page (http://evil.example/x)")


def _check_frame(app: App[Any]) -> None:
    """No raw control, bidi or link in the frame, and the terminal bytes carry none."""
    strips = app.screen._compositor.render_strips()
    for strip in strips:
        for segment in strip:
            assert isinstance(segment, Segment)
            for char in FORBIDDEN:
                assert char not in segment.text
            if segment.style is not None:
                assert not segment.style.link
    update = app.screen._compositor.render_update(full=True)
    assert isinstance(update, CompositorUpdate)
    raw = update.render_segments(app.console)
    for sequence in ("\x1b]", "\x1b[2J", "\x1b[6n", "\x9b", "\x00", "\u202e", "\x07"):
        assert sequence not in raw
    # What is left once Textual's own CSI sequences (styles, cursor moves) are removed
    # holds no escape at all.
    assert "\x1b" not in re.sub(r"\x1b\[[0-9;:?]*[A-Za-z]", "", raw)


async def test_hostile_content_is_inert_and_literal() -> None:
    app = ThreadApp(names=lambda _author: "Eve " + HOSTILE)
    async with app.run_test(size=(160, 60)) as pilot:
        thread = app.query_one(ThreadView)
        sender: dict[str, Any] = {"from": {"email": HOSTILE, "name": HOSTILE}}
        messages = [
            make_message(0, body=HOSTILE, kind="Markdown"),
            make_message(1, body=HOSTILE, kind="Text"),
            make_message(2, body=f"<p>{HOSTILE}</p>", kind="Html"),
            make_message(
                3,
                _type="EmailAttributes",
                body="x",
                kind="Text",
                subject=HOSTILE,
                **sender,
                attachments=[{"url": "https://files.example/" + HOSTILE, "prettyName": HOSTILE}],
            ),
        ]
        thread.set_messages(messages)
        await settle(pilot)
        assert app.is_running
        for view in thread.message_views:
            text = plain(view)
            for char in FORBIDDEN:
                assert char not in text
            for literal in LITERALS:
                assert literal in text
            assert "⟨U+202E⟩" in text
            assert "␛" in text
            visual_text = str(view.visual)
            for char in FORBIDDEN:
                assert char not in visual_text
        markdown_view = thread.message_views[0]
        assert "click (http://evil.example)" in plain(markdown_view)
        _check_frame(app)
        # Clicking the text with [@click=app.quit] triggers nothing.
        for view in thread.message_views:
            await pilot.click(view)
            await pilot.click(view, offset=(20, 1))
        await settle(pilot)
        assert app.is_running
        thread.message_views[0].focus()
        await settle(pilot)
        _check_frame(app)
        # A hostile message arriving later, and a hostile echo.
        thread.append([make_message(4, body=HOSTILE)])
        thread.add_pending(make_message(5, body=HOSTILE, external_id="e"), status=HOSTILE)
        await settle(pilot)
        assert app.is_running
        _check_frame(app)
        svg = app.export_screenshot()
        for char in FORBIDDEN:
            assert char not in svg


async def test_exact_time_on_hover() -> None:
    app = ThreadApp()
    async with app.run_test(size=SIZE) as pilot:
        thread = app.query_one(ThreadView)
        thread.set_messages([make_message(0), make_message(1)])
        await settle(pilot)
        first = thread.message_views[0]
        await pilot.hover(first)
        await settle(pilot)
        assert first.exact_time in plain(first)
        await pilot.hover(thread.message_views[1])
        await settle(pilot)
        assert first.exact_time not in plain(first)


async def test_relative_times_refresh_with_the_clock() -> None:
    now = [NOW]

    class ClockApp(ThreadApp):
        def compose(self) -> ComposeResult:
            yield ThreadView(names=self.names, clock=lambda: now[0])

    app = ClockApp()
    async with app.run_test(size=SIZE) as pilot:
        thread = app.query_one(ThreadView)
        message = make_message(0).model_copy(update={"created_at": NOW - timedelta(minutes=2)})
        thread.set_messages([message])
        await settle(pilot)
        view = thread.message_views[0]
        assert "2 min ago" in plain(view)
        thread.refresh_times()
        assert not view.refresh_time()  # nothing changed: no re-render
        now[0] = NOW + timedelta(hours=3)
        thread.refresh_times()
        await settle(pilot)
        assert "3 h ago" in plain(view)


async def test_unknown_variants_and_missing_fields_render() -> None:
    app = ThreadApp()
    async with app.run_test(size=SIZE) as pilot:
        thread = app.query_one(ThreadView)
        odd = Message.model_validate(
            {
                "id": "odd",
                "authorId": "someone-with-a-very-long-identifier",
                "createdAt": NOW.isoformat(),
                "attributes": {"_type": "CarrierPigeonAttributes[bold]"},
            }
        )
        too_large = Message.model_validate(
            {
                "id": "big",
                "authorId": "customer-1",
                "createdAt": NOW.isoformat(),
                "attributes": {
                    "_type": "EmailAttributes",
                    "direction": "Inbound",
                    "emailContent": {
                        "_type": "TooLarge",
                        "file": {"url": "https://files.example/mail.eml"},
                    },
                },
            }
        )
        thread.set_messages([odd, too_large])
        await settle(pilot)
        first, second = thread.message_views
        assert first.has_class("-other")
        assert "CarrierPigeonAttributes[bold]" in plain(first)
        assert plain(first).startswith("• someone-with-a-…")
        assert "email too large" in plain(second)
        assert "📎 1. mail.eml  https://files.example/mail.eml" in plain(second)
        second.focus()
        await pilot.press("o")
        await settle(pilot)
        assert isinstance(app.posted[-1], MessageView.OpenAttachment)
        assert app.posted[-1].url == "https://files.example/mail.eml"


class SmallWindow(ThreadView):
    WINDOW = 10
    BATCH = 10
    MAX_MOUNTED = 30


class SmallApp(ThreadApp):
    def compose(self) -> ComposeResult:
        yield SmallWindow(names=self.names, clock=lambda: NOW)


async def test_walking_with_j_and_k_across_batches() -> None:
    app = SmallApp()
    async with app.run_test(size=(80, 20)) as pilot:
        thread = app.query_one(ThreadView)
        thread.set_messages(thread_of(300))
        await settle(pilot)
        thread.focus()
        await pilot.press("g")
        await settle(pilot)
        for _ in range(25):
            await pilot.press("j")
            await pilot.pause()
        focused = thread.focused_message
        assert focused is not None and focused.id == "m00025"
        assert len(app.query(MessageView)) <= 30
        assert isinstance(app.focused, MessageView)
        assert visible(app, app.focused)
        await pilot.press("G")
        await settle(pilot)
        for _ in range(15):
            await pilot.press("k")
            await pilot.pause()
        focused = thread.focused_message
        assert focused is not None and focused.id == "m00284"
        assert len(app.query(MessageView)) <= 30
