"""The accounts' addresses: logging in and out, invitations, the roster and its links, password resets."""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.urls import path

from arena.serve.accounts import views

urlpatterns = [
    path("", views.home, name="home"),
    path("login/", views.Login.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("invite/<str:token>", views.invite, name="invite"),
    path("instructor/roster", views.roster, name="roster"),
    path("instructor/roster/links", views.new_link, name="new_link"),
    path("instructor/roster/links.csv", views.links_csv, name="links_csv"),
    path("password_reset/", views.reset_request, name="password_reset"),
    path("password_reset/sent/", views.reset_sent, name="password_reset_done"),
    path("reset/<uidb64>/<token>/", views.reset_confirm, name="password_reset_confirm"),
    path("reset/done/", views.reset_complete, name="password_reset_complete"),
]
