"""The service's addresses."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

import arena.serve.ladder.views as views

urlpatterns = [
    path("", views.home, name="home"),
    path("style.css", views.style, name="style"),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("invite/<str:token>", views.invite, name="invite"),
    path("me", views.me, name="me"),
    path("upload", views.upload, name="upload"),
    path("versions/<int:version_id>", views.version, name="version"),
    path("instructor/roster", views.roster, name="roster"),
    path("instructor/ladders", views.ladders, name="ladders"),
    path("ladders/<int:ladder_id>/", views.standings, name="standings"),
    path("partidos/<int:partido_id>/replay", views.replay, name="replay"),
    path("versions/<int:version_id>/choose", views.choose, name="choose"),
    path("instructor/ladders/<int:ladder_id>", views.ladder_admin, name="ladder_admin"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
