"""QR codes of a table's join URL: SVG and PNG for screens, ASCII for the terminal."""

from __future__ import annotations

import io

import qrcode
import qrcode.image.svg


def _code(data: str) -> qrcode.QRCode:
    qr = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=4, box_size=10)
    qr.add_data(data)
    qr.make(fit=True)
    return qr


def svg(data: str) -> bytes:
    img = _code(data).make_image(image_factory=qrcode.image.svg.SvgPathImage)
    buf = io.BytesIO()
    img.save(buf)
    return buf.getvalue()


def png(data: str) -> bytes:
    buf = io.BytesIO()
    _code(data).make_image(fill_color="black", back_color="white").save(buf, format="PNG")
    return buf.getvalue()


def ascii_art(data: str) -> str:
    buf = io.StringIO()
    _code(data).print_ascii(out=buf, invert=True)
    return buf.getvalue()
