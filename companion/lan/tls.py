"""Certificates for ``--https``, kept in the instance folder.

Without more, a self-signed one, made once: each phone clicks through a warning, after which
the Wake Lock API works, but Chromium registers no service worker from a page whose certificate
had an error, so there is no offline shell. ``companion cert`` makes a local certificate
authority instead, which the operator installs once on each phone; the server's certificate is
then signed by it, phones trust it without a warning, and the service worker registers too.
"""

from __future__ import annotations

import datetime
import ipaddress
import os

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

CA_CERT, CA_KEY = "ca-cert.pem", "ca-key.pem"
CA_NAME = "Table Companion local CA"


def self_signed(folder: str, host: str) -> tuple[str, str]:
    cert_path, key_path = os.path.join(folder, "tls-cert.pem"), os.path.join(folder, "tls-key.pem")
    if os.path.exists(cert_path) and os.path.exists(key_path):
        return cert_path, key_path
    key = ec.generate_private_key(ec.SECP256R1())
    name = _name("Table Companion")
    cert = _builder(name, name, key, days=825).add_extension(
        x509.SubjectAlternativeName(_alt_names(host)), critical=False).sign(key, hashes.SHA256())
    _write(cert_path, key_path, cert, key)
    return cert_path, key_path


def server_certificate(folder: str, host: str) -> tuple[str, str]:
    """The certificate ``--https`` serves: signed by the local CA if ``companion cert`` made one
    (issued again when the address it names changed), else the self-signed one."""
    if not os.path.exists(os.path.join(folder, CA_CERT)):
        return self_signed(folder, host)
    cert_path, key_path = os.path.join(folder, "lan-cert.pem"), os.path.join(folder, "lan-key.pem")
    if not (os.path.exists(key_path) and _names_host(cert_path, host)):
        issue(folder, host)
    return cert_path, key_path


def local_ca(folder: str) -> str:
    """The local certificate authority (made once; its key never leaves the folder): the path of
    its certificate, what each phone installs."""
    cert_path, key_path = os.path.join(folder, CA_CERT), os.path.join(folder, CA_KEY)
    if not (os.path.exists(cert_path) and os.path.exists(key_path)):
        key = ec.generate_private_key(ec.SECP256R1())
        name = _name(CA_NAME)
        cert = (_builder(name, name, key, days=3650)
                .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
                .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False),
                               critical=True)
                .sign(key, hashes.SHA256()))
        _write(cert_path, key_path, cert, key)
    return cert_path


def issue(folder: str, host: str) -> tuple[str, str]:
    """A server certificate for ``host`` signed by the local CA. 397 days: what browsers accept
    of any certificate, even one from an authority the phone's owner installed."""
    ca_path = local_ca(folder)
    with open(ca_path, "rb") as f:
        ca = x509.load_pem_x509_certificate(f.read())
    with open(os.path.join(folder, CA_KEY), "rb") as f:
        ca_key = serialization.load_pem_private_key(f.read(), password=None)
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (_builder(_name("Table Companion"), ca.subject, key, days=397)
            .add_extension(x509.SubjectAlternativeName(_alt_names(host)), critical=False)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .sign(ca_key, hashes.SHA256()))  # type: ignore[arg-type]
    paths = os.path.join(folder, "lan-cert.pem"), os.path.join(folder, "lan-key.pem")
    _write(*paths, cert, key)
    return paths


def ca_der(folder: str) -> bytes | None:
    """The local CA's certificate as phones install it (DER), if there is one."""
    path = os.path.join(folder, CA_CERT)
    if not os.path.exists(path):
        return None
    with open(path, "rb") as f:
        return x509.load_pem_x509_certificate(f.read()).public_bytes(serialization.Encoding.DER)


def _name(common: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


def _alt_names(host: str) -> list[x509.GeneralName]:
    alt: list[x509.GeneralName] = [x509.DNSName("localhost"),
                                   x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
    try:
        alt.append(x509.IPAddress(ipaddress.ip_address(host)))
    except ValueError:
        alt.append(x509.DNSName(host))
    return alt


def _names_host(cert_path: str, host: str) -> bool:
    if not os.path.exists(cert_path):
        return False
    with open(cert_path, "rb") as f:
        cert = x509.load_pem_x509_certificate(f.read())
    return _alt_names(host)[-1] in cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value


def _builder(subject: x509.Name, issuer: x509.Name, key: ec.EllipticCurvePrivateKey,
             days: int) -> x509.CertificateBuilder:
    now = datetime.datetime.now(datetime.UTC)
    return (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=days)))


def _write(cert_path: str, key_path: str, cert: x509.Certificate, key: ec.EllipticCurvePrivateKey) -> None:
    os.makedirs(os.path.dirname(cert_path), exist_ok=True)
    with open(key_path, "wb") as f:
        os.chmod(key_path, 0o600)
        f.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                  serialization.NoEncryption()))
    with open(cert_path, "wb") as f:
        f.write(cert.public_bytes(serialization.Encoding.PEM))
