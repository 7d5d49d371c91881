"""Mode 1, Inbox: the inbox, a conversation's thread and what is opened from it."""
