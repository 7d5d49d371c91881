"""The team gateway: one organisation key upstream, a personal key and a role for each member.

It imports the client and its models from :mod:`frontdesk.api` and nothing of the console or
the store (an import contract checks it).
"""
