"""What `companion serve` relies on: the LAN address, the self-signed certificate, the banner."""

import ipaddress
from pathlib import Path

from cryptography import x509

from companion import qr
from companion.netinfo import lan_address
from companion.tls import self_signed


def test_lan_address_is_an_address():
    ipaddress.ip_address(lan_address())


def test_self_signed_certificate_is_made_once_and_names_the_host(tmp_path):
    cert, key = self_signed(str(tmp_path), "192.0.2.7")
    first = Path(cert).read_bytes()
    assert self_signed(str(tmp_path), "192.0.2.7") == (cert, key)
    assert Path(cert).read_bytes() == first  # kept, so phones accept it only once
    names = x509.load_pem_x509_certificate(first).extensions.get_extension_for_class(
        x509.SubjectAlternativeName).value
    assert ipaddress.ip_address("192.0.2.7") in names.get_values_for_type(x509.IPAddress)
    assert (tmp_path / "tls-key.pem").stat().st_mode & 0o077 == 0


def test_ascii_qr_is_printable():
    art = qr.ascii_art("http://192.0.2.7:8000/")
    assert len(art.splitlines()) > 12 and "█" in art  # two modules per character row
