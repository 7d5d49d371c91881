"""Templates: quick responses and email auto-replies."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx2

from ..models.templates import Template, TemplateType
from ..operations import operation
from ..pacing import Priority
from ._base import Page, Resource, check_uuid, fail

__all__ = ["TemplatesResource"]

_LIST = operation("templates.list")
_DELETE = operation("templates.delete")


class TemplatesResource(Resource):
    """``client.templates``: list and delete templates. (Published beyond the spec's
    tables.)"""

    async def list(
        self,
        type: TemplateType | str | None = None,
        *,
        page_size: int | None = None,
        priority: Priority = Priority.INTERACTIVE,
    ) -> AsyncIterator[Template]:
        """Every template (or those of one ``type``), page by page."""
        params = _type(type)

        async def fetch(key: str | None, url: httpx2.URL | None) -> Page[Template]:
            return await self._fetch_page(_LIST, Template, params=params, page_size=page_size,
                                          page_key=key, priority=priority, url=url)

        async for template in self._iterate(fetch, _LIST):
            yield template

    async def list_page(
        self,
        type: TemplateType | str | None = None,
        *,
        page_size: int | None = None,
        page_key: str | None = None,
        priority: Priority = Priority.INTERACTIVE,
    ) -> Page[Template]:
        """One page of templates; pass the previous page's ``next_key`` for the next."""
        return await self._fetch_page(_LIST, Template, params=_type(type), page_size=page_size,
                                      page_key=page_key, priority=priority)

    async def delete(self, template_id: str, *, priority: Priority = Priority.INTERACTIVE
                     ) -> None:
        """Delete a template for good (make sure no flow or automation uses it)."""
        path = {"templateId": check_uuid(template_id, _DELETE, "template id")}
        await self._transport.send(_DELETE, path=path, priority=priority)


def _type(value: TemplateType | str | None) -> dict[str, str]:
    if value is None:
        return {}
    if value not in set(TemplateType):
        raise fail(_LIST, "The template type must be EmailAutoReply or QuickResponse")
    return {"type": str(value)}
