"""The client's resources: one module per API group, each a class of typed async methods."""

from ._base import Page

__all__ = ["Page"]
