"""``companion cert``: a local certificate authority that phones install once, so that
``--https`` on a LAN is trusted without a warning (a service worker registers only then)."""

import os
import ssl
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

from cryptography import x509

from companion.lan.tls import issue, local_ca, self_signed, server_certificate
from companion.serving.server import Server


def test_a_client_that_trusts_only_the_local_ca_accepts_the_server(live_app, tmp_path):
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(*issue(str(tmp_path), "127.0.0.1"))
    server = Server("127.0.0.1", 0, live_app, ssl_context=context)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        phone = ssl.create_default_context(cafile=local_ca(str(tmp_path)))  # verifies, hostname too
        with urllib.request.urlopen(f"https://127.0.0.1:{server.server_address[1]}/healthz",
                                    timeout=10, context=phone) as r:
            assert r.status == 200
    finally:
        server.shutdown()
        server.server_close()


def test_https_uses_the_local_ca_once_there_is_one_and_follows_the_address(tmp_path):
    folder = str(tmp_path)
    assert server_certificate(folder, "192.0.2.7") == self_signed(folder, "192.0.2.7")
    local_ca(folder)
    cert_path, _ = server_certificate(folder, "192.0.2.7")
    assert cert_path.endswith("lan-cert.pem")
    first = Path(cert_path).read_bytes()
    assert server_certificate(folder, "192.0.2.7")[0] == cert_path and Path(cert_path).read_bytes() == first
    server_certificate(folder, "192.0.2.8")  # the LAN gave this machine another address
    cert = x509.load_pem_x509_certificate(Path(cert_path).read_bytes())
    names = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert "192.0.2.8" in [str(ip) for ip in names.get_values_for_type(x509.IPAddress)]


def test_the_server_offers_the_ca_certificate_for_phones_to_install(app, client):
    assert client.get("/ca.crt").status_code == 404  # none made
    local_ca(app.instance_path)
    try:
        r = client.get("/ca.crt")
        assert r.status_code == 200 and r.mimetype == "application/x-x509-ca-cert"
        ca = x509.load_der_x509_certificate(r.data)
        assert ca.extensions.get_extension_for_class(x509.BasicConstraints).value.ca
        assert b"PRIVATE" not in r.data
    finally:
        for name in ("ca-cert.pem", "ca-key.pem"):
            os.remove(os.path.join(app.instance_path, name))


def test_companion_cert_makes_the_ca_and_says_how_to_install_it(tmp_path):
    done = subprocess.run([sys.executable, "-m", "companion", "cert", "--host", "192.0.2.7"],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "https://192.0.2.7:8000/ca.crt" in done.stdout and "Android" in done.stdout
    assert (tmp_path / "instance" / "ca-key.pem").stat().st_mode & 0o077 == 0
    assert (tmp_path / "instance" / "lan-cert.pem").exists()
