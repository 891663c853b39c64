"""The project as an operator installs it (``pipx install`` / ``pip install`` of the sdist or the
wheel), not as a checkout: built from a copy of the source, installed into a fresh virtualenv
outside the checkout, and served from yet another folder. The pages, the icons, the catalogues
and the dictionary must be found there, and ``companion.wsgi:app`` imported.

Offline, as the tests are: the sdist and the wheel are built with this virtualenv's setuptools
(no isolated build environment to download), and the fresh virtualenv gets the wheel alone,
``--no-deps``; the dependencies (Flask, the hunspell binding, …) are borrowed from this
virtualenv's site-packages through a path file. That folder does not hold the package itself
(the checkout's editable install is a finder that a borrowed folder does not load), which the
test checks."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import tarfile
from pathlib import Path

import pytest
from conftest import start_serve
from playwright.sync_api import expect

CHECKOUT = Path(__file__).resolve().parents[2]


def sh(*args: str | Path, cwd: Path, env: dict[str, str] | None = None) -> str:
    r = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, f"{args}\n{r.stdout[-2000:]}\n{r.stderr[-3000:]}"
    return r.stdout


def build(hook: str, source: Path, out: Path) -> Path:
    """A PEP 517 build hook of setuptools, run as an isolated builder would (in the source)."""
    out.mkdir(exist_ok=True)
    call = f"from setuptools import build_meta; print(build_meta.{hook}({str(out)!r}))"
    name = sh(sys.executable, "-c", call, cwd=source).strip().splitlines()[-1]
    return out / name


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A fresh virtualenv with the wheel built from the sdist built from the checkout's files."""
    root = tmp_path_factory.mktemp("installed")
    files = sh("git", "ls-files", "--cached", "--others", "--exclude-standard", "-z", cwd=CHECKOUT)
    copy = root / "checkout"
    for name in filter(None, files.split("\0")):
        if (CHECKOUT / name).is_file():  # a file deleted but not yet committed is listed too
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            (copy / name).write_bytes((CHECKOUT / name).read_bytes())
    sdist = build("build_sdist", copy, root / "dist")
    with tarfile.open(sdist) as tar:
        tar.extractall(root / "unpacked", filter="data")
    (unpacked,) = (root / "unpacked").iterdir()
    wheel = build("build_wheel", unpacked, root / "dist")
    venv = root / "venv"
    sh(sys.executable, "-m", "venv", "--without-pip", venv, cwd=root)
    sh(sys.executable, "-m", "pip", "--python", venv / "bin" / "python", "install", "-q", "--no-deps",
       "--no-index", wheel, cwd=root)
    purelib = Path(sh(venv / "bin" / "python", "-c",
                      "import sysconfig; print(sysconfig.get_paths()['purelib'])", cwd=root).strip())
    borrowed = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (purelib / "borrowed-dependencies.pth").write_text("\n".join(sorted(borrowed)) + "\n")
    return venv


def test_the_installed_package_serves_the_app_from_anywhere(installed, tmp_path, open_page):
    elsewhere = tmp_path / "somewhere-else"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("COMPANION_") and k != "PYTHONPATH"}
    where = sh(installed / "bin" / "python", "-c", "import companion.wsgi as w; print(w.__file__)",
               cwd=elsewhere, env=env)
    assert where.startswith(str(installed)), where
    assert not (elsewhere / "static").exists()

    proc, url = start_serve(env, program=(str(installed / "bin" / "companion"),), cwd=elsewhere)
    try:
        page = open_page(url + "/", phone=False)
        page.click("#lang")  # the Hungarian catalogue
        expect(page.locator("#create")).to_have_text("Asztal létrehozása")
        page.select_option("#game", "blanko")
        page.click("#create")
        expect(page.locator("#table-code")).to_have_text(page.locator("#table-code").inner_text())
        assert len(page.locator("#table-code").inner_text()) == 5
        expect(page.locator("img.qr")).to_be_visible()
        icon = page.request.get(url + "/static/icons/icon-192.png")
        assert icon.ok and icon.headers["content-type"] == "image/png" and icon.body()[:4] == b"\x89PNG"
        catalogue = page.request.get(url + "/static/i18n/en.json")
        assert catalogue.ok and catalogue.json()["name"] == "English"
        words = page.request.post(url + "/api/blanko/evaluate", data={"words": ["ALMA", "XQZV"]},
                                  headers={"Origin": url})
        assert words.ok, words.text()
        assert [w["valid"] for w in words.json()["words"]] == [True, False]
        assert page.errors == []
    finally:
        proc.terminate()
        assert proc.wait(30) == 0
    assert (elsewhere / "instance" / "companion.db").is_file()  # kept where it was started
