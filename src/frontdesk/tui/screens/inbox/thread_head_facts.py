"""The thread's head: what it shows of the conversation (requester, assignee, queue, tags
with their colours, ratings, the place in the queue, linked conversations, whether it is
loading or could not refresh), read from the store's inbox, directory and live topic.
"""

from __future__ import annotations

from ....store.session import Session
from ....store.threads import ThreadState
from ....text import one_line
from ...widgets.thread_head import HeadFacts
from .links import linked_summary

__all__ = ["head_facts"]


def head_facts(session: Session, conversation_id: int, state: ThreadState) -> HeadFacts:
    """What the head of the thread showing ``conversation_id`` in ``state`` says now."""
    directory = session.directory
    # The inbox's record and tags are never older than the thread's: the thread's full
    # polls write into them, and actions taken here (claim, tags…) change them at once.
    conversation = session.inbox.records.get(conversation_id) or state.conversation
    tag_ids = session.inbox.tags.get(conversation_id, state.tag_ids)
    requester = assignee = queue = ""
    if conversation is not None:
        requester = one_line(directory.name(conversation.requester_id), 48)
        if conversation.assignment is not None:
            assignee = one_line(directory.name(conversation.assignment.agent_id), 48)
        if conversation.queue is not None:
            queue = one_line(directory.queue_name(conversation.queue.id), 40)
    tags = tuple(
        directory.tags[tag_id].name if tag_id in directory.tags else "…" + tag_id[-6:]
        for tag_id in tag_ids
    )
    topic = session.live.topic("thread")
    # said only while no message is shown: once some are (the preview's, or the answer's
    # before the head's extras), the messages speak for themselves
    loading = (topic is None or topic.fetched_at is None) and not state.messages
    problem = ""
    if topic is not None and topic.error is not None:
        problem = "could not refresh: " + one_line(topic.error.message or str(topic.error), 80)
    colors = tuple(directory.tags[tag_id].color if tag_id in directory.tags else None
                   for tag_id in tag_ids)
    return HeadFacts(conversation_id, conversation, requester, assignee, queue, tags,
                     state.ratings, state.position, state.missing, loading, problem,
                     colors, linked_summary(conversation, state.children))
