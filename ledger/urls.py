from __future__ import annotations

from django.urls import path

from ledger import views

urlpatterns = [
    path("", views.ledger, name="ledger"),
    path("export.csv", views.export, name="ledger_export"),
    path("with/<int:user_id>/", views.pair_person, name="ledger_pair"),
    path("bot/<str:number>/<int:seat>/", views.pair_bot, name="ledger_bot"),
    path("matches/", views.matches, name="ledger_matches"),
    path("sheet/<int:match_id>/", views.score_sheet, name="score_sheet"),
    path("sheet/<int:match_id>.csv", views.score_sheet_csv, name="score_sheet_csv"),
]
