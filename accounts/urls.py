from __future__ import annotations

from django.urls import path

from accounts import views

app_name = "accounts"

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", views.LogoutView.as_view(), name="logout"),
    path("profile/", views.profile, name="profile"),
    path("guest/", views.guest, name="guest"),
    path("claim/", views.claim, name="claim"),
    path("link/", views.link, name="link"),
    path("password/", views.PasswordChangeView.as_view(), name="password_change"),
]
