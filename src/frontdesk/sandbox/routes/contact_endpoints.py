"""Sandbox routes: contact endpoints."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter(tags=["contact_endpoints"])
