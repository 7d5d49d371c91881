"""frontdesk: a terminal console for the Customer Conversation Service API v1."""

__version__ = "0.1.0"
