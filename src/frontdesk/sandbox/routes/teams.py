"""Sandbox routes: teams."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter(tags=["teams"])
