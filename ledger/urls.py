from __future__ import annotations

from django.urls import path

from ledger import views

app_name = "ledger"

urlpatterns = [
    path("", views.book, name="book"),
    path("export.csv", views.export, name="export"),
    path("with/<int:user_id>/", views.pair_person, name="pair"),
    path("bot/<str:number>/<int:seat>/", views.pair_bot, name="bot"),
    path("matches/", views.matches, name="matches"),
    path("sheet/<int:match_id>/", views.score_sheet, name="sheet"),
    path("sheet/<int:match_id>.csv", views.score_sheet_csv, name="sheet_csv"),
    path("settle/", views.settle, name="settle"),
    path("settle/<int:claim_id>/", views.settle_answer, name="settle_answer"),
    path("correction/", views.correction, name="correction"),
]
