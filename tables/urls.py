from __future__ import annotations

from django.urls import path

from tables import staff_views, views

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("rooms/new/", views.room_create, name="room_create"),
    path("join/", views.join, name="join"),
    path("r/<str:number>/", views.room, name="room"),
    path("r/<str:number>/act/", views.room_action, name="room_action"),
    path("r/<str:number>/rules/", views.room_rules, name="room_rules"),
    path("ledger/", views.ledger, name="ledger"),
    path("hands/<int:hand_id>/", views.hand_detail, name="hand_detail"),
    path("calc/", views.calculator, name="calculator"),
    path("r/<str:number>/record/", staff_views.record, name="room_record"),
    path("staff/tables/", staff_views.desk, name="staff_desk"),
    path("staff/tables/<str:number>/<str:action>/", staff_views.desk_action, name="staff_action"),
]
