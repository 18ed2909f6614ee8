"""#37: the webhook connects to the address it checked, not to the name again, yet TLS still
speaks to the name: the receiver is asked for the name's certificate (SNI) and the
certificate is checked against the name. A real HTTPS receiver on 127.0.0.1 with a
certificate from a test authority, and a stand-in resolver that gives the name that address."""

import datetime
import ssl
import threading
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from rolls.models import TableTalk, WebhookDelivery
from rolls.talk import webhooks
from tests.rolls.talk.test_webhooks import Receiver, roll

pytestmark = pytest.mark.django_db

NAME = "hooks.tls.test"


def _certificate(subject: str, issuer: x509.Name | None, signer, key, ca: bool):
    now = datetime.datetime.now(datetime.UTC)
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, subject)])
    built = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(issuer or name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
    )
    if not ca:
        built = built.add_extension(
            x509.SubjectAlternativeName([x509.DNSName(subject)]), critical=False
        )
    else:
        built = built.add_extension(
            x509.KeyUsage(
                digital_signature=True, key_cert_sign=True, crl_sign=True,
                content_commitment=False, key_encipherment=False, data_encipherment=False,
                key_agreement=False, encipher_only=False, decipher_only=False,
            ),
            critical=True,
        )  # fmt: skip
    return built.sign(signer, hashes.SHA256())


def _pem(thing) -> bytes:
    return thing.public_bytes(serialization.Encoding.PEM)


@pytest.fixture
def tls_receiver(tmp_path: Path, settings, monkeypatch):
    """An HTTPS receiver whose certificate names ``NAME`` (``.names`` to change it), signed by
    an authority that this test alone trusts (``SSL_CERT_FILE``, read by OpenSSL as each
    default context is made)."""
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    authority_key = ec.generate_private_key(ec.SECP256R1())
    authority = _certificate("FudgeTable test authority", None, authority_key, authority_key, True)
    (tmp_path / "ca.pem").write_bytes(_pem(authority))
    monkeypatch.setenv("SSL_CERT_FILE", str(tmp_path / "ca.pem"))

    def serve(names: str):
        key = ec.generate_private_key(ec.SECP256R1())
        leaf = _certificate(names, authority.subject, authority_key, key, False)
        (tmp_path / "leaf.pem").write_bytes(
            _pem(leaf)
            + key.private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            )
        )
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(tmp_path / "leaf.pem")
        server = Receiver()
        server.socket = context.wrap_socket(server.socket, server_side=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return server

    servers: list[Receiver] = []
    monkeypatch.setattr(webhooks, "resolve", lambda host, port: ["127.0.0.1"])
    yield serve
    for server in servers:
        server.shutdown()
        server.server_close()


def test_https_to_the_checked_address_speaks_tls_to_the_name(
    campaign, tls_receiver, member, client_for
):
    server = tls_receiver(NAME)
    url = f"https://{NAME}:{server.server_address[1]}/hook"
    TableTalk.objects.create(campaign=campaign, webhook_url=url)
    roll(client_for(member), campaign, label="Sealed")
    webhooks.send_due()
    row = WebhookDelivery.objects.get()
    assert (row.last_error, row.sent_at is not None) == ("", True)
    assert "Sealed" in str(server.got)


def test_a_certificate_for_another_name_is_not_trusted(campaign, tls_receiver, member, client_for):
    server = tls_receiver("someone-else.test")
    url = f"https://{NAME}:{server.server_address[1]}/hook"
    TableTalk.objects.create(campaign=campaign, webhook_url=url)
    roll(client_for(member), campaign, label="Sealed")
    webhooks.send_due()
    row = WebhookDelivery.objects.get()
    assert row.sent_at is None and server.got == []
    assert row.last_error == "could not deliver: no connection, or the receiver broke off"
