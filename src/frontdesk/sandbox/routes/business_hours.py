"""Sandbox routes: business hours."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter(tags=["business_hours"])
