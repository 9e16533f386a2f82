from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, update_session_auth_hash
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.messages.views import SuccessMessageMixin
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods
from django_ratelimit.core import is_ratelimited

from accounts import services
from accounts.forms import ClaimForm, DisplayNameForm, GuestForm, LoginForm, SignupForm
from accounts.models import User
from config.clientip import request_ip


def _next_url(request: HttpRequest) -> str | None:
    """Where to go after signing up (an invite link's room), if it is a page of this site."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    safe = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if target and safe else None


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    next_url = _next_url(request)
    if request.user.is_authenticated:
        return redirect(next_url or "lobby")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid() and _signups_exhausted(request):
        # Accounts are free, and each brings fresh room-number guesses (tables.rooms.lookup_limits).
        form.add_error(None, _("Too many new accounts from this address; try again later."))
        return render(
            request, "accounts/signup.html", {"form": form, "next": next_url or ""}, status=429
        )
    if request.method == "POST" and form.is_valid():
        user = services.user_sign_up(
            username=form.cleaned_data["username"],
            password=form.cleaned_data["password1"],
            display_name=form.cleaned_data.get("display_name") or "",
        )
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(
            request, _("Welcome, %(name)s! Your account is ready.") % {"name": user.name}
        )
        return redirect(next_url or "lobby")
    return render(request, "accounts/signup.html", {"form": form, "next": next_url or ""})


@require_http_methods(["POST"])
def guest(request: HttpRequest) -> HttpResponse:
    """Sit down from an invite with a nickname: a guest account, logged in at once."""
    next_url = _next_url(request) or reverse("lobby")
    if request.user.is_authenticated:
        return redirect(next_url)
    form = GuestForm(request.POST)
    if not form.is_valid():
        for error in form.errors.get("nickname", []):
            messages.error(request, str(error))
        return redirect(next_url)
    if _signups_exhausted(request):
        messages.error(request, _("Too many new accounts from this address; try again later."))
        return redirect(next_url)
    user = services.guest_create(nickname=form.cleaned_data["nickname"])
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    return redirect(next_url)


@login_required
@require_http_methods(["GET", "POST"])
def claim(request: HttpRequest) -> HttpResponse:
    """A guest keeps their account: a username and a password."""
    user = request.user
    assert isinstance(user, User)
    if not user.is_guest:
        return redirect("accounts:profile")
    form = ClaimForm(request.POST or None, instance=user)
    if request.method == "POST" and form.is_valid():
        services.guest_claim(
            user=user,
            username=form.cleaned_data["username"],
            password=form.cleaned_data["password1"],
        )
        update_session_auth_hash(request, user)
        messages.success(
            request,
            _("Your account is saved: log in as %(name)s from now on.") % {"name": user.username},
        )
        return redirect(_next_url(request) or "lobby")
    return _claim_page(request, form, LoginForm(request, prefix="link"))


def _claim_page(
    request: HttpRequest, form: ClaimForm, link_form: LoginForm, status: int = 200
) -> HttpResponse:
    """保存账号: save the guest (``form``), or log in to an account to link it (``link_form``)."""
    context = {"form": form, "link_form": link_form, "next": _next_url(request) or ""}
    return render(request, "accounts/claim.html", context, status=status)


@login_required
@require_http_methods(["POST"])
def link(request: HttpRequest) -> HttpResponse:
    """A guest who has an account logs in with it: what the guest holds moves there
    (:func:`accounts.services.guest_link`), and the session becomes the account's."""
    guest = request.user
    assert isinstance(guest, User)
    if not guest.is_guest:
        return redirect("accounts:profile")
    link_form = LoginForm(request, data=request.POST, prefix="link")
    if link_form.is_valid():
        account = link_form.get_user()
        try:
            services.guest_link(guest=guest, account=account)
        except services.GuestLinkError as exc:
            link_form.add_error(None, str(exc))
        else:
            login(request, account)
            messages.success(
                request,
                _("Linked: you are %(name)s again, with this table.") % {"name": account.name},
            )
            return redirect(_next_url(request) or "lobby")
    return _claim_page(request, ClaimForm(instance=guest), link_form, status=400)


def _signups_exhausted(request: HttpRequest) -> bool:
    """Counts one more sign-up from the request's address; True past ``SIGNUP_RATE``."""
    return bool(
        is_ratelimited(
            request,
            group="accounts.signup",
            key=lambda _group, r: request_ip(r),
            rate=settings.SIGNUP_RATE,
            increment=True,
        )
    )


class LoginView(auth_views.LoginView):
    template_name = "accounts/login.html"
    authentication_form = LoginForm
    redirect_authenticated_user = True

    def form_invalid(self, form: AuthenticationForm) -> HttpResponse:
        response = super().form_invalid(form)
        if isinstance(form, LoginForm) and form.locked_out:
            response.status_code = 429
        return response


class LogoutView(auth_views.LogoutView):
    """Log out on POST only (Django's LogoutView refuses GET)."""


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    user = request.user
    assert isinstance(user, User)
    form = DisplayNameForm(request.POST or None, initial={"display_name": user.display_name})
    if request.method == "POST" and form.is_valid():
        services.user_display_name_update(user=user, display_name=form.cleaned_data["display_name"])
        messages.success(request, _("Your display name is now “%(name)s”.") % {"name": user.name})
        return redirect("accounts:profile")
    return render(request, "accounts/profile.html", {"form": form})


class PasswordChangeView(SuccessMessageMixin, auth_views.PasswordChangeView):  # type: ignore[type-arg]
    template_name = "accounts/password_change.html"
    success_url = reverse_lazy("accounts:profile")
    success_message = gettext_lazy("Your password has been changed.")
