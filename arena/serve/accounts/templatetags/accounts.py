"""``{% pending_links %}``: the roster's pending links (arena/serve/accounts/views.py)."""

from __future__ import annotations

from typing import Any

from django import template

from arena.serve.accounts.forms import NewLinkForm

register = template.Library()


@register.inclusion_tag("accounts/pending_links.html", takes_context=True)
def pending_links(context: template.Context) -> dict[str, Any]:
    """The students' links not used yet, the new-link form (with its error, after a bad request)."""
    from arena.serve.accounts.views import pending

    return {"pending": pending(context["request"]), "link_form": context.get("link_form") or NewLinkForm()}
