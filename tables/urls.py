from __future__ import annotations

from django.urls import path

from tables import views

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("rooms/new/", views.room_create, name="room_create"),
    path("join/", views.join, name="join"),
    path("r/<str:number>/", views.room, name="room"),
    path("r/<str:number>/act/", views.room_action, name="room_action"),
    path("r/<str:number>/rules/", views.room_rules, name="room_rules"),
    path("hands/<int:hand_id>/", views.hand_detail, name="hand_detail"),
    path("calc/", views.calculator, name="calculator"),
]
