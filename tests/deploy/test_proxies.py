"""The single-server recipe of the README's "Put it online", from the files in deploy/: the app
started as the systemd unit starts it, with its environment file, behind Debian's nginx with
the documented configuration, over TLS (a certificate made here); a roll played over the
table's websocket through it. Caddy's file is checked by `caddy validate`, and the units by
`systemd-analyze verify`. scripts/test installs nginx and Caddy as it installs Chromium."""

import configparser
import json
import os
import re
import shutil
import ssl
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

import httpx
import pytest
from websockets.sync.client import connect
from websockets.typing import Origin

from fudgetable.deploy_manage import environment_file as systemd_environment
from rolls.backup.views import MAX_BYTES
from tests.deploy.scripts_run import Running, clean_environment, scripts_run
from tests.e2e.server import ROOT, end, free_port

DEPLOY = ROOT / "deploy"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
OWNER, PASSWORD = "owner", "a-long-fudge-phrase"
SEED = """
import json
from django.contrib.auth.models import User
from campaigns.services import campaign_create
from characters.services import character_create
owner = User.objects.get(username="owner")
campaign = campaign_create(owner=owner, name="Behind the Proxy")
hero = character_create(campaign=campaign, owner=owner, name="Marisol")
trait = hero.traits.order_by("position").first()
print(json.dumps({"campaign": campaign.pk, "hero": hero.pk, "trait": trait.pk}))
"""


def needs(command: str, path: str) -> None:
    if Path(path).exists():
        return
    message = f"{command} not found: `apt-get install {command}` (scripts/test does)"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(message)
    pytest.skip(message)


def rewritten(text: str, changes: dict[str, str]) -> str:
    """``text`` with each documented value swapped for the test's, each found where the docs
    say it is, so the file under test stays the one in deploy/."""
    for documented, here in changes.items():
        assert documented in text, f"{documented!r} is no longer in the documented file"
        text = text.replace(documented, here)
    return text


def environment_file(tmp_path: Path, site: str, app_port: int) -> Path:
    """deploy/fudgetable.env with this test's address, port and folders."""
    text = rewritten(
        (DEPLOY / "fudgetable.env").read_text(),
        {
            "SITE_URL=https://table.example.org": f"SITE_URL={site}",
            "PORT=8000": f"PORT={app_port}",
            "/var/lib/fudgetable": str(tmp_path / "state"),
        },
    )
    (tmp_path / "state").mkdir()
    written = tmp_path / "fudgetable.env"
    written.write_text(text + f"STATIC_ROOT={tmp_path / 'static'}\n")
    return written


def environment_of(env_file: Path) -> dict[str, str]:
    """The variables the unit's EnvironmentFile= gives the service."""
    return systemd_environment(env_file.read_text())


def certificate(tmp_path: Path) -> tuple[Path, Path]:
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"),
            *("-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"),
            *("-keyout", str(key), "-out", str(cert)),
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


def nginx_serving(tmp_path: Path, app_port: int, http_port: int, https_port: int) -> Path:
    """The main configuration a test nginx runs: Debian's site file from deploy/, rewritten for
    this test's ports and certificate, inside an http block that keeps everything in tmp_path."""
    cert, key = certificate(tmp_path)
    site = rewritten(
        (DEPLOY / "nginx.conf").read_text(),
        {
            "    listen [::]:80;\n": "",
            "    listen [::]:443 ssl;\n": "",
            "listen 80;": f"listen 127.0.0.1:{http_port};",
            "listen 443 ssl;": f"listen 127.0.0.1:{https_port} ssl;",
            "/etc/letsencrypt/live/table.example.org/fullchain.pem": str(cert),
            "/etc/letsencrypt/live/table.example.org/privkey.pem": str(key),
            "http://127.0.0.1:8000": f"http://127.0.0.1:{app_port}",
        },
    )
    (tmp_path / "fudgetable.conf").write_text(site)
    temp = {name: tmp_path / name for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi")}
    main = tmp_path / "nginx.conf"
    main.write_text(
        f"""
daemon off;
worker_processes 1;
pid {tmp_path}/nginx.pid;
error_log {tmp_path}/nginx-error.log;
{"user root;" if os.geteuid() == 0 else ""}
events {{ worker_connections 64; }}
http {{
    access_log {tmp_path}/nginx-access.log;
    client_body_temp_path {temp["body"]};
    proxy_temp_path {temp["proxy"]};
    fastcgi_temp_path {temp["fastcgi"]};
    uwsgi_temp_path {temp["uwsgi"]};
    scgi_temp_path {temp["scgi"]};
    include {tmp_path}/fudgetable.conf;
}}
"""
    )
    return main


@dataclass
class Proxied:
    server: Running
    site: str  # the https address nginx serves it at
    http_port: int  # nginx's plain HTTP, which redirects
    env_file: Path


@pytest.fixture
def behind_nginx(tmp_path: Path) -> Iterator[Proxied]:
    """The app as the systemd unit starts it (its ExecStart, in its environment) behind
    nginx."""
    needs("nginx", NGINX)
    app_port, http_port, https_port = free_port(), free_port(), free_port()
    site = f"https://127.0.0.1:{https_port}"
    env_file = environment_file(tmp_path, site, app_port)
    unit = configparser.ConfigParser(interpolation=None)
    unit.read(DEPLOY / "fudgetable.service")
    assert unit["Service"]["ExecStart"] == "/opt/fudgetable/scripts/run"
    assert unit["Service"]["EnvironmentFile"] == "/etc/fudgetable/fudgetable.env"
    main = nginx_serving(tmp_path, app_port, http_port, https_port)
    nginx = subprocess.Popen(
        [NGINX, "-c", str(main), "-e", str(tmp_path / "nginx-error.log")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )
    try:
        with scripts_run(tmp_path, **environment_of(env_file)) as server:
            assert server.url.endswith(f":{app_port}")
            deadline = time.monotonic() + 20
            while nginx.poll() is None and time.monotonic() < deadline:
                try:
                    httpx.get(f"http://127.0.0.1:{http_port}/", trust_env=False)
                    break
                except httpx.TransportError:
                    time.sleep(0.1)
            assert nginx.poll() is None, (tmp_path / "nginx-error.log").read_text()
            yield Proxied(server, site, http_port, env_file)
    finally:
        end(nginx)


def deploy_manage(env_file: Path, *args: str, **env: str) -> str:
    """deploy/manage, as the README has the operator run it."""
    done = subprocess.run(
        [str(DEPLOY / "manage"), *args],
        env=clean_environment(ENV_FILE=str(env_file), **env),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_roll_is_played_over_the_websocket_through_nginx_with_tls(behind_nginx, tmp_path):
    server, site, env_file = behind_nginx.server, behind_nginx.site, behind_nginx.env_file
    said = server.output()
    assert "fudge-demo" not in said  # no demo logins on a server the world reaches
    assert "deploy/manage createsuperuser" in said
    assert f"FudgeTable is at {site}/" in said

    deploy_manage(
        env_file,
        "createsuperuser",
        "--no-input",
        f"--username={OWNER}",
        "--email=owner@example.org",
        DJANGO_SUPERUSER_PASSWORD=PASSWORD,
    )
    seeded = json.loads(deploy_manage(env_file, "shell", "--no-imports", "-c", SEED))

    tls = ssl.create_default_context(cafile=str(tmp_path / "cert.pem"))
    plain = httpx.get(f"http://127.0.0.1:{behind_nginx.http_port}/login/", trust_env=False)
    assert plain.status_code == 301 and plain.headers["Location"].startswith("https://")

    # A browser sends its page's address with every POST; over HTTPS Django checks it.
    with httpx.Client(
        base_url=site, verify=tls, trust_env=False, timeout=60, headers={"Referer": f"{site}/"}
    ) as http:
        page = http.get("/login/")
        assert page.status_code == 200
        assert "max-age=31536000" in page.headers["Strict-Transport-Security"]
        logged_in = http.post(
            "/login/",
            data={
                "username": OWNER,
                "password": PASSWORD,
                "csrfmiddlewaretoken": http.cookies["csrftoken"],
            },
        )
        assert logged_in.status_code == 302, logged_in.text
        assert "Secure" in logged_in.headers["Set-Cookie"]

        campaign = seeded["campaign"]
        with connect(
            f"wss://127.0.0.1:{site.rsplit(':', 1)[1]}/ws/campaigns/{campaign}/",
            ssl=tls,
            origin=Origin(site),
            additional_headers={"Cookie": f"sessionid={http.cookies['sessionid']}"},
            proxy=None,
            open_timeout=10,
        ) as socket:
            assert 'id="roll-log"' in str(socket.recv(timeout=10))  # the table as it stands
            body = urlencode(
                {
                    "kind": "check",
                    "character": seeded["hero"],
                    "trait": seeded["trait"],
                    "modifiers": "",
                    "key": "through-nginx-1",
                }
            )
            path = f"/campaigns/{campaign}/table/roll/"
            command = {"id": 1, "path": path, "body": body, "headers": {"HX-Request": "true"}}
            socket.send(json.dumps({"command": command}))
            frames = [str(socket.recv(timeout=10)) for _ in range(2)]
            answer = json.loads(next(frame for frame in frames if frame.startswith("{")))
            assert answer["answer"] == 1 and answer["status"] == 200
            rolled = re.search(r'id="roll-([\w-]{22})"', answer["body"])
            assert rolled and "Marisol" in answer["body"]
            # The push to the table reached the same socket through nginx.
            while not any(rolled.group(0) in f and not f.startswith("{") for f in frames):
                frames.append(str(socket.recv(timeout=10)))  # a TimeoutError fails the test

        # nginx takes a campaign backup as large as the restore allows, and refuses more.
        restore = "/campaigns/restore/"
        token = {"csrfmiddlewaretoken": http.cookies["csrftoken"]}
        allowed = http.post(restore, data=token, files={"file": ("b.json", b" " * MAX_BYTES)})
        assert allowed.status_code != 413 and "nginx" not in allowed.text
        too_big = b" " * (MAX_BYTES + 1_000_000)
        refused = http.post(restore, data=token, files={"file": ("b.json", too_big)})
        assert refused.status_code == 413 and "nginx" in refused.text

    # The backup the timer's service runs, into the environment file's BACKUP_DIR.
    env = environment_of(env_file)
    done = subprocess.run(
        [str(DEPLOY / "backup")],
        env=clean_environment(**env),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert len(list(Path(env["BACKUP_DIR"]).glob("fudgetable-*.sqlite3"))) == 1


def test_the_caddyfile_is_valid():
    needs("caddy", shutil.which("caddy") or "/usr/bin/caddy")
    done = subprocess.run(
        ["caddy", "validate", "--config", str(DEPLOY / "Caddyfile"), "--adapter", "caddyfile"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "Valid configuration" in done.stdout + done.stderr


def test_the_systemd_units_are_valid(tmp_path: Path):
    needs("systemd", "/usr/bin/systemd-analyze")
    units = ["fudgetable.service", "fudgetable-backup.service", "fudgetable-backup.timer"]
    for name in units:  # as if the checkout were at /opt/fudgetable
        text = (DEPLOY / name).read_text().replace("/opt/fudgetable", str(ROOT))
        (tmp_path / name).write_text(text)
    done = subprocess.run(
        ["systemd-analyze", "verify", *units],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr
