"""What several modes use: the mode screens' base, pickers, confirmations, help, presence,
the attributes panel and the small-action form."""
