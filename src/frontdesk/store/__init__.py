"""Live state, the local cache, drafts and the outbox; never imports Textual."""
