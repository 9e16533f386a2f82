from __future__ import annotations

from django.urls import path

from tables.history import views as replay_views
from tables.rooms import views
from tables.staff import views as staff_views

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("rooms/new/", views.room_create, name="room_create"),
    path("join/", views.join, name="join"),
    path("r/<str:number>/", views.room, name="room"),
    path("r/<str:number>/act/", views.room_action, name="room_action"),
    path("r/<str:number>/rules/", views.room_rules, name="room_rules"),
    path("hands/<int:hand_id>/", views.hand_detail, name="hand_detail"),
    path("calc/", views.calculator, name="calculator"),
    path("hands/<int:hand_id>/replay/", replay_views.hand_replay, name="hand_replay"),
    path("hands/<int:hand_id>/log.jsonl", replay_views.hand_log, name="hand_log"),
    path("hands/<int:hand_id>/shares/", replay_views.share_new, name="share_new"),
    path(
        "hands/<int:hand_id>/shares/<int:share_id>/revoke/",
        replay_views.share_end,
        name="share_revoke",
    ),
    path("replays/<str:token>/", replay_views.shared_replay, name="shared_replay"),
    path("r/<str:number>/record/", staff_views.record, name="room_record"),
    path("staff/tables/", staff_views.desk, name="staff_desk"),
    path("staff/tables/<str:number>/<str:action>/", staff_views.desk_action, name="staff_action"),
]
