"""The ladders' addresses: a student's page and versions, the standings, partidos and replays, the
instructor's ladders."""

from __future__ import annotations

from django.urls import path

from arena.serve.ladder import views, views_watch

urlpatterns = [
    path("me", views.me, name="me"),
    path("upload", views.upload, name="upload"),
    path("versions/<int:version_id>", views.version, name="version"),
    path("versions/<int:version_id>/files", views_watch.files, name="version_files"),
    path("versions/<int:version_id>/files/<path:name>", views_watch.file, name="version_file"),
    path("versions/<int:version_id>/choose", views.choose, name="choose"),
    path("instructor/ladders", views.ladders, name="ladders"),
    path("instructor/ladders/<int:ladder_id>", views.ladder_admin, name="ladder_admin"),
    path("ladders/<int:ladder_id>/", views_watch.standings, name="standings"),
    path("ladders/<int:ladder_id>/live.json", views_watch.live, name="live"),
    path("ladders/live.js", views_watch.live_script, name="live_script"),
    path("partidos/<int:partido_id>/", views_watch.partido, name="partido"),
    path("partidos/<int:partido_id>/replay", views_watch.replay, name="replay"),
    path("viewer/assets/<str:name>", views_watch.viewer_asset, name="viewer_asset"),
]
