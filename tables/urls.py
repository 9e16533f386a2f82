from __future__ import annotations

from django.urls import path

from tables.calculator import views as calculator_views
from tables.history import views as history_views
from tables.rooms import views
from tables.staff import views as staff_views

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("rooms/new/", views.room_create, name="room_create"),
    path("join/", views.join, name="join"),
    path("r/<str:number>/", views.room, name="room"),
    path("r/<str:number>/act/", views.room_action, name="room_action"),
    path("r/<str:number>/rules/", views.room_rules, name="room_rules"),
    path("hands/<int:hand_id>/", history_views.hand_detail, name="hand_detail"),
    path("calc/", calculator_views.calculator, name="calculator"),
    path("hands/<int:hand_id>/replay/", history_views.hand_replay, name="hand_replay"),
    path("hands/<int:hand_id>/log.jsonl", history_views.hand_log, name="hand_log"),
    path("hands/<int:hand_id>/shares/", history_views.share_new, name="share_new"),
    path(
        "hands/<int:hand_id>/shares/<int:share_id>/revoke/",
        history_views.share_end,
        name="share_revoke",
    ),
    path("replays/<str:token>/", history_views.shared_replay, name="shared_replay"),
    path("r/<str:number>/record/", history_views.record, name="room_record"),
    path("staff/tables/", staff_views.desk, name="staff_desk"),
    path("staff/tables/<str:number>/<str:action>/", staff_views.desk_action, name="staff_action"),
]
