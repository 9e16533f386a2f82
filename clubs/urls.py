from __future__ import annotations

from django.urls import path

from clubs import views

app_name = "clubs"

urlpatterns = [
    path("clubs/", views.club_list, name="list"),
    path("clubs/find/", views.club_number, name="find"),
    path("clubs/join/<str:token>/", views.invite, name="invite"),
    path("clubs/guest/<str:token>/", views.guest, name="guest"),
    path("c/<str:number>/", views.home, name="home"),
    path("c/<str:number>/act/", views.act, name="act"),
    path("c/<str:number>/book/", views.book, name="book"),
    path("c/<str:number>/settle/", views.book, name="settle"),
    path("c/<str:number>/book.csv", views.book_csv, name="csv"),
    path("c/<str:number>/record/", views.audit, name="audit"),
    path("c/<str:number>/offline/", views.offline_record, name="offline"),
]
