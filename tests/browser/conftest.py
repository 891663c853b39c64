"""Headless Chromium (Debian's, never a downloaded one) driven by Playwright; each page is a
phone, with its own context so it has its own localStorage like a real device. The walks of
test_engines_pwa.py run in WebKit and Firefox too (engines.py), through ``open_device``."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from .engines import PHONE_SIZE, SCREEN_SIZE, Chromium, Device, EngineUnavailable, Firefox, WebKit

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True,
         "has_touch": True}

pytestmark = pytest.mark.browser


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM) or not shutil.which("chromium"):
        pytest.fail("Debian's chromium is missing: `make test` installs it")
    from playwright.sync_api import expect, sync_playwright

    # What a phone shows comes over a websocket from a server on the same 2 cores as the
    # browser: on a busy machine 5 s (Playwright's default) is not always enough.
    expect.set_options(timeout=15_000)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                              args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                                    "--disable-component-update", "--disable-sync", "--no-first-run",
                                    "--disable-quic"])
        yield b
        b.close()


@pytest.fixture(autouse=True)
def close_leftover_contexts(request):
    """Every device a test opened is closed after it, whichever way it was opened: a page left
    open keeps its sand running and its socket pinging, and forty of them slowed the rest of
    the suite to a crawl."""
    yield
    if "browser" in request.fixturenames:
        for ctx in list(request.getfixturevalue("browser").contexts):
            ctx.close()


@pytest.fixture
def open_page(browser):
    """``open_page(url, phone=True, init_script=None)``: a new device showing ``url``."""
    contexts = []

    def opener(url: str, phone: bool = True, init_script: str | None = None, locale: str = "en-GB"):
        ctx = browser.new_context(**(PHONE if phone else {"viewport": {"width": 1280, "height": 900}}),
                                  locale=locale)
        if init_script:
            ctx.add_init_script(init_script)
        contexts.append(ctx)
        page = ctx.new_page()
        page.errors = []  # type: ignore[attr-defined]
        page.on("pageerror", lambda e: page.errors.append(str(e)))  # type: ignore[attr-defined]
        page.goto(url)
        return page

    yield opener
    for c in contexts:
        c.close()


ENGINES = ("chromium", "webkit", "firefox")


def pytest_configure(config) -> None:
    # pytest-xdist's, named here too so that a run without it does not warn of an unknown mark
    config.addinivalue_line("markers", "xdist_group(name): runs on one worker under --dist loadgroup")


@pytest.fixture(scope="session")
def engines(request, tmp_path_factory):
    """``engines(name)``: this session's Chromium, WebKit or Firefox, started at its first use
    (under pytest-xdist each worker has its own, on its own display and ports). One that is not
    installed or does not start is skipped with the reason, and fails in CI (``CI=true``), as
    PostgreSQL does (tests/conftest.py)."""
    started: dict[str, Any] = {}

    def get(name: str):
        if name not in started:
            try:
                if name == "chromium":
                    started[name] = Chromium(request.getfixturevalue("browser"))
                else:
                    scratch = tmp_path_factory.mktemp(name)
                    started[name] = (WebKit if name == "webkit" else Firefox)(scratch)
            except EngineUnavailable as e:
                started[name] = e  # tried once a session: a start that failed costs no more time
        if isinstance(started[name], EngineUnavailable):
            (pytest.fail if os.environ.get("CI") == "true" else pytest.skip)(str(started[name]))
        return started[name]

    yield get
    for engine in started.values():
        if not isinstance(engine, EngineUnavailable):
            engine.close()


@pytest.fixture(params=[pytest.param(name, marks=pytest.mark.xdist_group(name)) for name in ENGINES])
def open_device(request, engines):
    """``open_device(url, phone=True, lang=None)``: a new device in the test's engine (its id
    says which), showing ``url``; a phone is 390×844, the table's screen 1280×900. ``lang``
    is the language its owner chose (the app keeps it on the device). Closed after the test."""
    engine = engines(request.param)
    opened: list[Device] = []

    def opener(url: str, phone: bool = True, lang: str | None = None) -> Device:
        dev = engine.device(PHONE_SIZE if phone else SCREEN_SIZE, phone)
        opened.append(dev)
        dev.goto(url)
        if lang:
            dev.run("localStorage.setItem('tc.lang', q.lang);", lang=lang)
            dev.reload()
        return dev

    yield opener
    for dev in opened:
        dev.close()


def shot(page, name: str, full_page: bool = True) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page)
