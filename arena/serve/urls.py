"""The service's addresses: each app's own (its urls.py), the style sheet, the language, the admin."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from arena.serve import views

urlpatterns = [
    path("style.css", views.style, name="style"),
    path("", include("arena.serve.accounts.urls")),
    path("", include("arena.serve.ladder.urls")),
    path("", include("arena.serve.finals.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
