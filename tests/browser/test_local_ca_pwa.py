"""``companion cert``: a browser that trusts the local certificate authority, as a phone does once
its owner installed it, opens ``--https`` without a warning and registers the offline shell (a
clicked-through self-signed certificate gives no service worker: README)."""

import os
import shutil
import ssl
import subprocess
import threading

import pytest

from companion.lan.tls import issue, local_ca
from companion.serving.server import Server

from .conftest import CHROMIUM, PHONE


def trusting_home(home, ca_cert: str) -> None:
    """A user profile whose certificate store trusts the CA (Chromium on Linux reads NSS's)."""
    db = f"sql:{home}/.pki/nssdb"
    os.makedirs(f"{home}/.pki/nssdb")
    subprocess.run(["certutil", "-N", "-d", db, "--empty-password"], check=True, capture_output=True)
    subprocess.run(["certutil", "-A", "-d", db, "-t", "C,,", "-n", "Table Companion local CA", "-i",
                    ca_cert], check=True, capture_output=True)


def test_a_phone_that_installed_the_ca_gets_no_warning_and_the_offline_shell(browser, live_app, tmp_path):
    if not shutil.which("certutil"):
        pytest.fail("certutil is missing: `make test` installs libnss3-tools")

    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(*issue(str(tmp_path / "instance"), "127.0.0.1"))
    trusting_home(tmp_path / "home", local_ca(str(tmp_path / "instance")))
    server = Server("127.0.0.1", 0, live_app, ssl_context=context)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        # a browser of its own, whose profile (HOME) has the authority: the session's has not
        phone_browser = browser.browser_type.launch(
            executable_path=CHROMIUM, headless=True, env={**os.environ, "HOME": str(tmp_path / "home")},
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"])
        try:
            page = phone_browser.new_context(**PHONE).new_page()
            page.goto(f"https://127.0.0.1:{server.server_address[1]}/")  # a certificate error throws
            assert page.evaluate("window.isSecureContext")
            scope = page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)")
            assert scope == f"https://127.0.0.1:{server.server_address[1]}/"
        finally:
            phone_browser.close()
    finally:
        server.shutdown()
        server.server_close()
