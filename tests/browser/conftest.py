"""Headless Chromium (Debian's, never a downloaded one) driven by Playwright; each page is a
phone, with its own context so it has its own localStorage like a real device."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

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


def shot(page, name: str, full_page: bool = True) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page)
