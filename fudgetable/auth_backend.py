"""Who signs in and who a session is: Django's ModelBackend, with the person read by key.

Every HTTP request and every command over a socket looks its person up (``auth.get_user``), and
ModelBackend's ORM ``get()`` spent most of that lookup compiling its SQL (docs/performance.md,
"A roll's cost"). Here the person is read through ``fudgetable.rows`` and refused as
ModelBackend refuses them (no such account, or an inactive one); ``auth.get_user`` still checks
the session's password hash. Sessions signed in before this backend name ModelBackend's path,
which stays listed after it so that nobody is logged out; ``authenticate`` refuses a wrong
password here (``PermissionDenied``), so ModelBackend never hashes the same guess again."""

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest

from fudgetable.rows import row

PATH = "fudgetable.auth_backend.PersonByKeyBackend"  # what a session signed in here names


class PersonByKeyBackend(ModelBackend):
    def get_user(self, user_id: Any) -> Any:
        model = get_user_model()
        key = model._meta.pk
        assert key is not None
        try:
            pk = key.to_python(user_id)
        except ValidationError:
            return None
        user = row(model, f"main.{key.column} = %s", [pk])
        return user if user is not None and self.user_can_authenticate(user) else None

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> Any:
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None and password is not None:
            raise PermissionDenied  # checked: the backends after this one need not hash it too
        return user
