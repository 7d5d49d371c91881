"""Sandbox routes: messages."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter(tags=["messages"])
