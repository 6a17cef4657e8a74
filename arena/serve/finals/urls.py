"""The final's addresses: the instructor's final page, its workbook, site and grades."""

from __future__ import annotations

from django.urls import path

from arena.serve.finals import views

urlpatterns = [
    path("instructor/ladders/<int:ladder_id>/final", views.final_page, name="final"),
    path("instructor/finals/<int:final_id>/workbook", views.workbook, name="final_workbook"),
    path("instructor/finals/<int:final_id>/site.zip", views.site_zip, name="final_site"),
    path("instructor/finals/<int:final_id>/grades.csv", views.grades_csv, name="final_grades"),
    path("instructor/finals/<int:final_id>/site/", views.site, name="final_site_index"),
    path("instructor/finals/<int:final_id>/site/<path:name>", views.site, name="final_site_file"),
]
