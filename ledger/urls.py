from __future__ import annotations

from django.urls import path

from ledger import views

app_name = "ledger"

urlpatterns = [
    path("settle/", views.settle, name="settle"),
    path("settle/<int:claim_id>/", views.settle_answer, name="settle_answer"),
    path("correction/", views.correction, name="correction"),
]
