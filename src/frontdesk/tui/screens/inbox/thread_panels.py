"""What the thread opens over itself: a quick response for the reply, the conversation's
custom attributes, its history, its linked conversations, a parent to link it under, and its
ratings.
"""

from __future__ import annotations

from .thread_parts import ThreadParts

__all__ = ["ThreadPanels"]


class ThreadPanels(ThreadParts):
    """The screens the thread opens (a part of the thread screen)."""

    def action_quick_response(self) -> None:
        """Pick a quick response and put it into the reply at the cursor."""
        from .quick_responses import QuickResponsePicker

        composer = self.composer

        def chosen(text: str | None) -> None:
            if text and composer.focus_editor():
                composer.editor.insert_words(text)

        if composer.blocked is None:
            self.app.push_screen(QuickResponsePicker(self.conversation_id), chosen)
        else:
            composer.focus_editor()  # says why replies are not possible

    def action_attributes(self) -> None:
        """Edit the conversation's custom attributes."""
        from ..shared.attributes_panel import AttributesPanel

        self.app.push_screen(AttributesPanel("Conversation", self.conversation_id))

    def action_history(self) -> None:
        """What happened to this conversation, who did it and when."""
        from ..shared.history import HistoryScreen

        self.app.push_screen(HistoryScreen(self.conversation_id))

    def action_linked(self) -> None:
        """The parent and the children of this conversation; enter opens one here."""
        from .links import LinkedScreen

        state = self._state
        children = state.children if state is not None else ()

        def chosen(conversation_id: int | None) -> None:
            if conversation_id is not None and conversation_id != self.conversation_id:
                self._open(conversation_id)

        self.app.push_screen(LinkedScreen(self.conversation_id, self._conversation(),
                                          children), chosen)

    def action_link_parent(self) -> None:
        """Link this conversation under a parent conversation, typed by number."""
        from .links import LinkParentScreen

        cid = self.conversation_id

        def linked(parent_id: int | None) -> None:
            if parent_id is not None:
                self.notify(f"#{cid} is linked under #{parent_id}.", markup=False)
                if self._state is not None and cid == self.conversation_id:
                    self._show_head(self._state)

        self.app.push_screen(LinkParentScreen(cid), linked)

    def action_ratings(self) -> None:
        """Offer a rating (Csat, Nps, thumbs) and see each question's status."""
        from .ratings import RatingsScreen

        self.app.push_screen(RatingsScreen(self.conversation_id))
