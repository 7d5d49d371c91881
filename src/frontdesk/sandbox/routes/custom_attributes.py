"""Sandbox routes: custom attributes."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter(tags=["custom_attributes"])
