"""The service's addresses."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

import arena.serve.ladder.views as views
import arena.serve.ladder.views_accounts as views_accounts
import arena.serve.ladder.views_final as views_final
import arena.serve.ladder.views_watch as views_watch

urlpatterns = [
    path("", views.home, name="home"),
    path("style.css", views.style, name="style"),
    path("login/", views_accounts.Login.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("invite/<str:token>", views.invite, name="invite"),
    path("me", views.me, name="me"),
    path("upload", views.upload, name="upload"),
    path("versions/<int:version_id>", views.version, name="version"),
    path("instructor/roster", views.roster, name="roster"),
    path("instructor/roster/links", views_accounts.new_link, name="new_link"),
    path("instructor/roster/links.csv", views_accounts.links_csv, name="links_csv"),
    path("password_reset/", views_accounts.reset_request, name="password_reset"),
    path("password_reset/sent/", views_accounts.reset_sent, name="password_reset_done"),
    path("reset/<uidb64>/<token>/", views_accounts.reset_confirm, name="password_reset_confirm"),
    path("reset/done/", views_accounts.reset_complete, name="password_reset_complete"),
    path("instructor/ladders", views.ladders, name="ladders"),
    path("ladders/<int:ladder_id>/", views_watch.standings, name="standings"),
    path("ladders/<int:ladder_id>/live.json", views_watch.live, name="live"),
    path("ladders/live.js", views_watch.live_script, name="live_script"),
    path("partidos/<int:partido_id>/", views_watch.partido, name="partido"),
    path("partidos/<int:partido_id>/replay", views_watch.replay, name="replay"),
    path("viewer/assets/<str:name>", views_watch.viewer_asset, name="viewer_asset"),
    path("versions/<int:version_id>/files", views_watch.files, name="version_files"),
    path("versions/<int:version_id>/files/<path:name>", views_watch.file, name="version_file"),
    path("versions/<int:version_id>/choose", views.choose, name="choose"),
    path("instructor/ladders/<int:ladder_id>", views.ladder_admin, name="ladder_admin"),
    path("instructor/ladders/<int:ladder_id>/final", views_final.final_page, name="final"),
    path("instructor/finals/<int:final_id>/workbook", views_final.workbook, name="final_workbook"),
    path("instructor/finals/<int:final_id>/site.zip", views_final.site_zip, name="final_site"),
    path("instructor/finals/<int:final_id>/grades.csv", views_final.grades_csv, name="final_grades"),
    path("instructor/finals/<int:final_id>/site/", views_final.site, name="final_site_index"),
    path("instructor/finals/<int:final_id>/site/<path:name>", views_final.site, name="final_site_file"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
