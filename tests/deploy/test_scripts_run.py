"""The README's first command, as a person runs it: production mode on the embedded default,
served to this machine alone, with the demo logins."""

import re
import stat
import subprocess
from pathlib import Path

import httpx

from tests.deploy.scripts_run import clean_environment, scripts_run
from tests.e2e.server import ROOT


def test_scripts_run_serves_this_machine_in_production_mode_with_the_demo(tmp_path: Path):
    with scripts_run(tmp_path) as server:
        said = server.output()
        assert f"FudgeTable is at {server.url}/" in said
        assert "password for each: fudge-demo" in said
        assert "No one owns this server yet" in said
        assert ".venv/bin/python manage.py createsuperuser" in said
        with httpx.Client(base_url=server.url, trust_env=False, timeout=30) as http:
            # An uptime monitor's HEAD is answered as a GET is, without the body.
            for path in ("/healthz", "/", "/login/"):
                head = http.head(path)
                assert (head.status_code, head.content) == (200, b""), path
            # Plain HTTP on loopback: cookies that are not HTTPS-only, and no redirect to https.
            http.get("/login/")
            logged_in = http.post(
                "/login/",
                data={
                    "username": "gm",
                    "password": "fudge-demo",
                    "csrfmiddlewaretoken": http.cookies["csrftoken"],
                },
            )
            assert logged_in.status_code == 302, logged_in.text
            home = http.get("/")
            assert "Demo: The Drowned Lighthouse" in home.text
            # Production mode: no debug page listing the URLs.
            missing = http.get("/no-such-page/")
            assert missing.status_code == 404
            assert "URLconf" not in missing.text and "Traceback" not in missing.text
            # Static files under hashed names, compressed, kept by browsers.
            css = re.search(r'href="(/static/css/app\.[0-9a-f]{12}\.css)"', home.text)
            assert css, "the stylesheet is not under its hashed name"
            styles = http.get(css.group(1), headers={"Accept-Encoding": "gzip"})
            assert styles.headers["Content-Encoding"] == "gzip"
            assert "immutable" in styles.headers["Cache-Control"]
    # `manage.py reset_link` run by hand in another terminal, with nothing but the database
    # named (the test's own folder): the link is for the port scripts/run served at.
    reset = subprocess.run(
        [str(ROOT / ".venv/bin/python"), "manage.py", "reset_link", "alice"],
        cwd=ROOT,
        env=clean_environment(SQLITE_PATH=str(tmp_path / "db.sqlite3")),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert f"    {server.url}/password/reset/" in reset.stdout, reset.stdout + reset.stderr
    key = tmp_path / "secret-key"
    assert len(key.read_text().strip()) >= 50
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert not key.is_relative_to(ROOT)
