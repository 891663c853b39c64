"""One phone, three engines. A walk written against `Device` runs in Chromium (Playwright, as
the other browser tests), in WebKit (Debian's WebKitWebDriver driving MiniBrowser through
Selenium, on an Xvfb of its own) and in Gecko (Debian's firefox-esr over WebDriver BiDi, with
the small client below: Debian ships no geckodriver).

Each engine gives only a few primitives: run a function in the page, tap a point, type keys,
load, reload, take a picture. Finding an element, waiting for it, and checking that a tap would
land on it are one piece of JavaScript shared by the three (FIND, PROBE, AIM), so a step means
the same in every engine and a difference is the engine's, not the driver's.

The engines' quirks met here: MiniBrowser's window cannot be narrower than 447 px while it
shows its toolbar, so it runs full screen (no toolbar) and its window is then sized; WebKit's
WebDriver has no way to run a script before the page's own, so its page errors are collected
from the first step on each page (a page that fails while loading shows as a page that does not
work); a tap aims at the element's centre after scrolling it to the middle, out from under the
sticky header; Firefox throttles the timers of a background tab, so each phone is a window.
"""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import playwright.sync_api as playwright_api

TIMEOUT_S = 15.0  # as the Playwright tests wait: a server on 2 loaded cores
PHONE_SIZE = (390, 844)
SCREEN_SIZE = (1280, 900)  # the table's screen
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


class EngineUnavailable(RuntimeError):
    """The engine is not installed or would not start (skipped locally, a failure in CI)."""


# The element a chain of steps names, in document order: ["css", selector] looks inside what
# was found so far, ["text", s] keeps those whose whole text is s, ["has_text", s] those whose
# text contains s, ["nth", i] keeps the i-th (from the end if negative). Text is textContent
# with its white space collapsed, as Playwright's to_have_text reads it.
FIND = r"""
const norm = (s) => (s || "").replace(/\s+/g, " ").trim();
const find = (steps) => {
  let els = [document];
  for (const [kind, arg] of steps) {
    if (kind === "css") els = [...new Set(els.flatMap((e) => [...e.querySelectorAll(arg)]))];
    else if (kind === "text") els = els.filter((e) => norm(e.textContent) === arg);
    else if (kind === "has_text") els = els.filter((e) => norm(e.textContent).includes(arg));
    else if (kind === "nth") els = els.at(arg) ? [els.at(arg)] : [];
  }
  return els;
};
const visible = (e) => {
  const r = e.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== "hidden";
};
"""

# What a check reads of every element found.
PROBE = FIND + r"""
return find(q.steps).slice(0, 200).map((e) => ({
  text: norm(e.textContent), visible: visible(e), enabled: !e.disabled, checked: Boolean(e.checked),
  value: e.value ?? null, cls: e.getAttribute("class") || "",
  attr: q.attr ? e.getAttribute(q.attr) : null,
}));
"""

# Where to tap the first element found: scrolled to the middle of the window (out from under
# the sticky header), still for two frames, and the topmost element at its centre (or inside
# it): what a finger would hit. Otherwise why not yet.
AIM = FIND + r"""
const e = find(q.steps)[0];
if (!e) return { why: "no such element" };
if (!visible(e)) return { why: "not visible" };
if (e.disabled) return { why: "disabled" };
e.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
const frame = () => new Promise((ok) => requestAnimationFrame(() => ok()));
const before = e.getBoundingClientRect();
await frame(); await frame();
const r = e.getBoundingClientRect();
if (r.x !== before.x || r.y !== before.y) return { why: "moving" };
const x = Math.round(r.left + r.width / 2), y = Math.round(r.top + r.height / 2);
const hit = document.elementFromPoint(x, y);
const label = hit && hit.closest("label");
if (!hit || !(e === hit || e.contains(hit) || (label && label.control === e))) {
  return { why: `covered by ${hit ? hit.outerHTML.slice(0, 120) : "nothing"}` };
}
return { x, y };
"""

# Ready for typing: focused and emptied (select() does not apply to a number box). Emptied
# for good, as a person's delete key would, when nothing is to be typed after.
FOCUS = FIND + r"""
const e = find(q.steps)[0];
if (!e || !visible(e) || e.disabled) return false;
e.scrollIntoView({ block: "center", behavior: "instant" });
e.focus();
e.value = "";
if (q.empty) e.dispatchEvent(new Event("input", { bubbles: true }));
return document.activeElement === e;
"""

# A <select>'s option chosen as a person's pick would be told to the page: the pop-up list
# itself is the operating system's in every engine, and no driver reaches into it alike.
SELECT = FIND + r"""
const e = find(q.steps)[0];
if (!e || e.disabled || ![...e.options].some((o) => o.value === q.value)) return false;
e.value = q.value;
e.dispatchEvent(new Event("input", { bubbles: true }));
e.dispatchEvent(new Event("change", { bubbles: true }));
return true;
"""

# Page errors where the engine's driver cannot report them (WebKit): gathered by the page
# itself from the first step on it, and handed over (and forgotten) at every step.
COLLECT = r"""
if (!window.__pageErrors) {
  window.__pageErrors = [];
  addEventListener("error", (e) => window.__pageErrors.push(String(e.message)));
  addEventListener("unhandledrejection", (e) => window.__pageErrors.push(String(e.reason)));
}
"""

def _wrap(body: str) -> str:
    """A page function of one JSON argument ``q`` whose answer comes back as JSON, so every
    engine's values travel alike (none of the three serialises values the same way)."""
    return (f"async (json) => {{ const q = JSON.parse(json); const out = await (async () => {{ {body} }})();"
            " return JSON.stringify(out === undefined ? null : out); }")


def wait_for(what: str, check: Callable[[], tuple[bool, Any]], timeout: float = TIMEOUT_S) -> Any:
    """Asks ``check`` until it says yes; else fails with what it saw last."""
    deadline = time.monotonic() + timeout
    while True:
        ok, seen = check()
        if ok:
            return seen
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}; last seen: {seen!r}")
        time.sleep(0.1)


class Locator:
    """What a walk points at: a chain of steps (see FIND), read afresh at every use."""

    def __init__(self, device: Device, steps: list[list[Any]]) -> None:
        self.device, self.steps = device, steps

    def __repr__(self) -> str:
        return f"{self.device.engine}:{' '.join(f'{k}={a!r}' for k, a in self.steps)}"

    def locator(self, css: str, *, text: str | None = None, has_text: str | None = None) -> Locator:
        steps = [*self.steps, ["css", css]]
        if text is not None:
            steps.append(["text", text])
        if has_text is not None:
            steps.append(["has_text", has_text])
        return Locator(self.device, steps)

    def nth(self, i: int) -> Locator:
        return Locator(self.device, [*self.steps, ["nth", i]])

    @property
    def first(self) -> Locator:
        return self.nth(0)

    @property
    def last(self) -> Locator:
        return self.nth(-1)

    def probe(self, attr: str | None = None) -> list[dict[str, Any]]:
        return self.device.run(PROBE, steps=self.steps, attr=attr)

    def count(self) -> int:
        return len(self.probe())

    def text(self) -> str:
        found = wait_for(f"{self} to exist", lambda: (bool(p := self.probe()), p))
        return found[0]["text"]

    def click(self) -> None:
        aim = wait_for(f"{self} to be tappable",
                       lambda: ("x" in (a := self.device.run(AIM, steps=self.steps)), a))
        self.device.tap(aim["x"], aim["y"])

    def fill(self, text: str) -> None:
        """Typed key by key over what the box held, as a thumb on a keyboard would."""
        wait_for(f"{self} to take the focus",
                 lambda: (self.device.run(FOCUS, steps=self.steps, empty=not text), None))
        if text:
            self.device.type(text)

    def select_option(self, value: str) -> None:
        wait_for(f"{self} to offer {value!r}",
                 lambda: (self.device.run(SELECT, steps=self.steps, value=value), None))

    def check(self) -> None:
        if not (self.probe() or [{}])[0].get("checked"):
            self.click()


class Expect:
    """Playwright's expect, for the checks the walks make: each waits up to TIMEOUT_S."""

    def __init__(self, loc: Locator) -> None:
        self.loc = loc

    def _until(self, what: str, ok: Callable[[list[dict[str, Any]]], bool], attr: str | None = None) -> None:
        def check() -> tuple[bool, Any]:
            found = self.loc.probe(attr)
            return ok(found), [{k: v for k, v in f.items() if v not in (None, "")} for f in found[:5]]

        try:
            wait_for(f"{self.loc} {what}", check)
        except AssertionError:
            self.loc.device.screenshot("failed-check")  # what the page showed instead
            raise

    def to_have_text(self, text: str | re.Pattern[str] | list[str]) -> None:
        if isinstance(text, list):
            self._until(f"to have texts {text!r}", lambda f: [e["text"] for e in f] == text)
        else:
            self._until(f"to have text {text!r}", lambda f: bool(f) and _matches(text, f[0]["text"]))

    def to_contain_text(self, text: str) -> None:
        self._until(f"to contain {text!r}", lambda f: bool(f) and text in f[0]["text"])

    def to_have_count(self, n: int) -> None:
        self._until(f"to number {n}", lambda f: len(f) == n)

    def to_have_attribute(self, name: str, value: str | re.Pattern[str]) -> None:
        self._until(f"to have {name}={value!r}",
                    lambda f: bool(f) and _matches(value, f[0]["attr"] or ""),
                    attr=name)

    def to_have_class(self, value: str | re.Pattern[str]) -> None:
        self._until(f"to have class {value!r}", lambda f: bool(f) and _matches(value, f[0]["cls"]))

    def to_have_value(self, value: str | re.Pattern[str]) -> None:
        self._until(f"to have value {value!r}", lambda f: bool(f) and _matches(value, f[0]["value"] or ""))

    def to_be_visible(self) -> None:
        self._until("to be visible", lambda f: bool(f) and f[0]["visible"])

    def to_be_hidden(self) -> None:
        self._until("to be hidden", lambda f: not f or not f[0]["visible"])

    def to_be_enabled(self) -> None:
        self._until("to be enabled", lambda f: bool(f) and f[0]["enabled"])

    def to_be_disabled(self) -> None:
        self._until("to be disabled", lambda f: bool(f) and not f[0]["enabled"])

    def to_be_checked(self) -> None:
        self._until("to be checked", lambda f: bool(f) and f[0]["checked"])


def _matches(want: str | re.Pattern[str], got: str) -> bool:
    """The whole text, or a pattern found in it."""
    return bool(want.search(got)) if isinstance(want, re.Pattern) else want == got


def expect(loc: Locator | playwright_api.Locator) -> Any:
    """The waits of this driver's locators, or Playwright's for a Playwright locator: a helper
    written against this API also serves the Chromium-only tests' pages."""
    return Expect(loc) if isinstance(loc, Locator) else playwright_api.expect(loc)


class Device:
    """A phone (or the table's screen) in one engine. Subclasses give the primitives."""

    engine = ""

    def __init__(self) -> None:
        self.errors: list[str] = []

    # -- the engine's primitives
    def _call(self, function: str, arg: str) -> str:
        """Runs ``function`` (of one string, answering a string) in the page."""
        raise NotImplementedError

    def tap(self, x: int, y: int) -> None:
        """A press and release at a point of the window, in CSS pixels."""
        raise NotImplementedError

    def type(self, text: str) -> None:
        """Keys into the focused element, one by one."""
        raise NotImplementedError

    def goto(self, url: str) -> None:
        raise NotImplementedError

    def reload(self) -> None:
        raise NotImplementedError

    def _picture(self) -> bytes:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    # -- what a walk uses
    def run(self, body: str, **q: Any) -> Any:
        """The body of an async page function of ``q`` (a dict of JSON values); its answer."""
        return json.loads(self._call(_wrap(body), json.dumps(q)))

    def evaluate(self, expression: str) -> Any:
        return self.run(f"return ({expression});")

    def locator(self, css: str, *, text: str | None = None, has_text: str | None = None) -> Locator:
        return Locator(self, []).locator(css, text=text, has_text=has_text)

    def click(self, css: str, **kw: str) -> None:
        self.locator(css, **kw).click()

    def fill(self, css: str, text: str) -> None:
        self.locator(css).fill(text)

    def select_option(self, css: str, value: str) -> None:
        self.locator(css).select_option(value)

    def screenshot(self, name: str) -> None:
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / f"{name}-{self.engine}.png").write_bytes(self._picture())

    def overflow_px(self) -> int:
        """How far the page is wider than its window (a phone must not scroll sideways)."""
        return self.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")


# -- Chromium: a Playwright context per device, in the browser the other browser tests use


class ChromiumDevice(Device):
    engine = "chromium"

    def __init__(self, browser: Any, size: tuple[int, int], phone: bool) -> None:
        super().__init__()
        self.context = browser.new_context(
            viewport={"width": size[0], "height": size[1]}, device_scale_factor=2 if phone else 1,
            is_mobile=phone, has_touch=phone, locale="en-GB")
        self.phone = phone
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def _call(self, function: str, arg: str) -> str:
        return self.page.evaluate(function, arg)

    def tap(self, x: int, y: int) -> None:
        if self.phone:  # a finger: touch events, then the pointer events and click they make
            self.page.touchscreen.tap(x, y)
        else:
            self.page.mouse.click(x, y)

    def type(self, text: str) -> None:
        self.page.keyboard.type(text)

    def goto(self, url: str) -> None:
        self.page.goto(url)

    def reload(self) -> None:
        self.page.reload()

    def _picture(self) -> bytes:
        return self.page.screenshot(full_page=True)

    def close(self) -> None:
        self.context.close()


class Chromium:
    def __init__(self, browser: Any) -> None:
        self.browser = browser

    def device(self, size: tuple[int, int], phone: bool) -> Device:
        return ChromiumDevice(self.browser, size, phone)

    def close(self) -> None:
        """The browser is the Playwright tests' session fixture's."""


# -- WebKit: MiniBrowser under Xvfb, one WebDriver session (its own browser process, so its
# own storage) per device; sessions are kept for the next test, whose server is another origin


class Xvfb:
    """A virtual X display of its own: Xvfb picks a free display number and says which."""

    def __init__(self, size: tuple[int, int] = (1280, 1024)) -> None:
        if not shutil.which("Xvfb"):
            raise EngineUnavailable("Xvfb is missing (Debian's xvfb)")
        read, write = os.pipe()
        self.proc = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write), "-screen", "0", f"{size[0]}x{size[1]}x24", "-nolisten", "tcp"],
            pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(write)
        with os.fdopen(read) as said:
            number = said.readline().strip()
        if not number:
            self.proc.kill()
            raise EngineUnavailable("Xvfb did not start")
        self.display = f":{number}"

    def close(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)


def minibrowser() -> str | None:
    found = sorted(Path("/usr/lib").glob("*/webkit2gtk-4.*/MiniBrowser"))
    return str(found[-1]) if found else None


class WebKitDevice(Device):
    engine = "webkit"

    def __init__(self, driver: Any, idle: list[WebKitDevice]) -> None:
        super().__init__()
        self.driver, self.idle = driver, idle

    def _call(self, function: str, arg: str) -> str:
        # WebDriver's Execute Script waits for a promise an answer is.
        answer = self.driver.execute_script(f"{COLLECT} return ({function})(arguments[0]).then((out) => "
                                            "[out, window.__pageErrors.splice(0)]);", arg)
        self.errors.extend(answer[1])
        return answer[0]

    def tap(self, x: int, y: int) -> None:
        from selenium.webdriver.common.actions.action_builder import ActionBuilder

        actions = ActionBuilder(self.driver)
        actions.pointer_action.move_to_location(x, y).click()
        actions.perform()

    def type(self, text: str) -> None:
        from selenium.webdriver.common.action_chains import ActionChains

        ActionChains(self.driver).send_keys(text).perform()

    def goto(self, url: str) -> None:
        self.driver.get(url)
        self.run("return null;")  # the error collector, from now on

    def reload(self) -> None:
        self.driver.refresh()
        self.run("return null;")

    def _picture(self) -> bytes:
        return self.driver.get_screenshot_as_png()  # the window only: no full page in WebKit's driver

    def size(self, size: tuple[int, int]) -> None:
        self.driver.set_window_rect(x=0, y=0, width=size[0], height=size[1])

    def close(self) -> None:
        """Leaves the origin as it found it, for a later test served on the same port, and the
        session to the next test (a new MiniBrowser costs a second or more)."""
        try:
            self.run("localStorage.clear(); sessionStorage.clear();"
                     "for (const r of await navigator.serviceWorker?.getRegistrations() ?? [])"
                     "  await r.unregister();"
                     "for (const k of await caches?.keys() ?? []) await caches.delete(k); return null;")
        except Exception:  # noqa: BLE001 - a page that broke still frees its session below
            pass
        self.errors = []
        self.driver.get("about:blank")
        self.idle.append(self)


class WebKit:
    def __init__(self, scratch: Path) -> None:
        binary = minibrowser()
        if not (binary and shutil.which("WebKitWebDriver")):
            raise EngineUnavailable("WebKitWebDriver or MiniBrowser is missing (Debian's webkit2gtk-driver)")
        try:
            import selenium  # noqa: F401
        except ImportError as e:
            raise EngineUnavailable("selenium is missing (pyproject's test extra)") from e
        self.binary, self.scratch = binary, scratch
        self.xvfb = Xvfb()
        self.idle: list[WebKitDevice] = []
        self.drivers: list[Any] = []
        self.services: list[Any] = []

    def _start(self) -> WebKitDevice:
        from selenium import webdriver
        from selenium.webdriver.remote.client_config import ClientConfig
        from selenium.webdriver.remote.remote_connection import RemoteConnection
        from selenium.webdriver.webkitgtk.options import Options
        from selenium.webdriver.webkitgtk.service import Service

        options = Options()
        options.binary_location = self.binary
        options.add_argument("--automation")
        options.add_argument("--full-screen")  # no toolbar: narrower than 447 px
        # MiniBrowser's caches and data go to a folder of this session's, never the user's.
        home = {f"XDG_{k}_HOME": str(self.scratch / k.lower()) for k in ("CACHE", "DATA", "CONFIG")}
        # The driver started here and given to a plain Remote: selenium's WebKitGTK class
        # would look for it with selenium-manager and warns of its own deprecated call.
        service = Service(executable_path="/usr/bin/WebKitWebDriver",
                          env={**os.environ, **home, "DISPLAY": self.xvfb.display})
        try:
            service.start()
            self.services.append(service)
            connection = RemoteConnection(client_config=ClientConfig(remote_server_addr=service.service_url))
            driver = webdriver.Remote(command_executor=connection, options=options)
        except Exception as e:  # noqa: BLE001 - whatever stopped it, the engine is not there
            raise EngineUnavailable(f"WebKit did not start: {e}") from e
        self.drivers.append(driver)
        return WebKitDevice(driver, self.idle)

    def device(self, size: tuple[int, int], phone: bool) -> Device:
        dev = self.idle.pop() if self.idle else self._start()
        dev.size(size)
        return dev

    def close(self) -> None:
        for driver in self.drivers:
            driver.quit()
        for service in self.services:
            service.stop()
        self.xvfb.close()


# -- Gecko: firefox-esr headless, driven over WebDriver BiDi; a user context (its own storage)
# and a window (never a background tab) per device


class BiDi:
    """A WebDriver BiDi session over one websocket: commands wait for their answer; events go
    to whoever listens for their method."""

    def __init__(self, url: str) -> None:
        import websocket  # websocket-client: Firefox refuses a handshake with an Origin header

        self.ws = websocket.create_connection(url, suppress_origin=True, timeout=None)
        self.lock = threading.Lock()
        self.next_id = 0
        self.answers: dict[int, Any] = {}
        self.arrived = threading.Condition()
        self.listeners: dict[str, Callable[[dict[str, Any]], None]] = {}
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        while True:
            try:
                message = json.loads(self.ws.recv())
            except Exception:  # noqa: BLE001 - the socket closed: wake whoever waits
                with self.arrived:
                    self.answers[-1] = None
                    self.arrived.notify_all()
                return
            if "id" in message:
                with self.arrived:
                    self.answers[message["id"]] = message
                    self.arrived.notify_all()
            elif (listen := self.listeners.get(message.get("method", ""))) is not None:
                listen(message["params"])

    def call(self, method: str, timeout: float = 60, **params: Any) -> dict[str, Any]:
        with self.lock:
            self.next_id += 1
            n = self.next_id
            self.ws.send(json.dumps({"id": n, "method": method, "params": params}))
        with self.arrived:
            if not self.arrived.wait_for(lambda: n in self.answers or -1 in self.answers, timeout):
                raise TimeoutError(f"BiDi {method}: no answer in {timeout} s")
            answer = self.answers.pop(n, None)
        if answer is None:
            raise ConnectionError(f"BiDi {method}: Firefox closed the session")
        if answer["type"] == "error":
            raise RuntimeError(f"BiDi {method}: {answer['error']}: {answer.get('message')}")
        return answer["result"]

    def close(self) -> None:
        self.ws.close()


# Firefox's remote agent sets its own recommended preferences (no updates, telemetry or
# network probes); these are the walks' own.
FIREFOX_PREFS = {
    "browser.aboutwelcome.enabled": False,
    "datareporting.policy.dataSubmissionEnabled": False,
    "intl.accept_languages": "en-GB, en",
    "media.autoplay.default": 0,
    "ui.useOverlayScrollbars": 1,
}


class FirefoxDevice(Device):
    engine = "firefox"

    def __init__(self, bidi: BiDi, devices: dict[str, FirefoxDevice], size: tuple[int, int],
                 phone: bool) -> None:
        super().__init__()
        self.bidi, self.devices = bidi, devices
        self.user_context = bidi.call("browser.createUserContext")["userContext"]
        self.context = bidi.call("browsingContext.create", type="window",
                                 userContext=self.user_context)["context"]
        devices[self.context] = self
        bidi.call("browsingContext.setViewport", context=self.context,
                  viewport={"width": size[0], "height": size[1]}, devicePixelRatio=2 if phone else 1)

    def _call(self, function: str, arg: str) -> str:
        answer = self.bidi.call("script.callFunction", functionDeclaration=function, awaitPromise=True,
                                target={"context": self.context},
                                arguments=[{"type": "string", "value": arg}])
        if answer["type"] == "exception":
            raise RuntimeError(f"firefox: {answer['exceptionDetails']['text']}")
        return answer["result"]["value"]

    def tap(self, x: int, y: int) -> None:
        self.bidi.call("input.performActions", context=self.context, actions=[{
            "type": "pointer", "id": "finger", "parameters": {"pointerType": "mouse"}, "actions": [
                {"type": "pointerMove", "x": x, "y": y, "origin": "viewport"},
                {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0}]}])

    def type(self, text: str) -> None:
        keys = [{"type": kind, "value": ch} for ch in text for kind in ("keyDown", "keyUp")]
        self.bidi.call("input.performActions", context=self.context,
                       actions=[{"type": "key", "id": "keyboard", "actions": keys}])

    def goto(self, url: str) -> None:
        self.bidi.call("browsingContext.navigate", context=self.context, url=url, wait="complete")

    def reload(self) -> None:
        self.bidi.call("browsingContext.reload", context=self.context, wait="complete")

    def _picture(self) -> bytes:
        shot = self.bidi.call("browsingContext.captureScreenshot", context=self.context, origin="document")
        return base64.b64decode(shot["data"])

    def page_error(self, entry: dict[str, Any]) -> None:
        frames = entry.get("stackTrace", {}).get("callFrames", [])[:3]
        where = [f"{f['url']}:{f['lineNumber']}" for f in frames]
        self.errors.append(" at ".join([entry.get("text", ""), *where]))

    def close(self) -> None:
        self.devices.pop(self.context, None)
        self.bidi.call("browser.removeUserContext", userContext=self.user_context)


class Firefox:
    def __init__(self, scratch: Path) -> None:
        binary = shutil.which("firefox-esr") or shutil.which("firefox")
        if not binary:
            raise EngineUnavailable("firefox-esr is missing (Debian's firefox-esr)")
        try:
            import websocket  # noqa: F401
        except ImportError as e:
            raise EngineUnavailable("websocket-client is missing (pyproject's test extra)") from e
        profile = scratch / "profile"
        profile.mkdir(parents=True)
        (profile / "user.js").write_text(
            "".join(f"user_pref({json.dumps(k)}, {json.dumps(v)});\n" for k, v in FIREFOX_PREFS.items()))
        # Port 0: Firefox takes a free port and writes it into the profile.
        self.proc = subprocess.Popen(
            [binary, "-headless", "-no-remote", "-profile", str(profile), "--remote-debugging-port=0",
             "about:blank"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            env={**os.environ, "MOZ_CRASHREPORTER_DISABLE": "1"})
        said = profile / "WebDriverBiDiServer.json"
        try:
            port = wait_for("Firefox to open its WebDriver BiDi port",
                            lambda: ((p := _port(said)) is not None, p), timeout=60)
            self.bidi = BiDi(f"ws://127.0.0.1:{port}/session")
            self.bidi.call("session.new",
                           capabilities={"alwaysMatch": {"unhandledPromptBehavior": "dismiss"}})
        except (AssertionError, OSError, RuntimeError) as e:
            self.proc.kill()
            raise EngineUnavailable(f"Firefox did not start: {e}") from e
        self.devices: dict[str, FirefoxDevice] = {}
        self.bidi.listeners["log.entryAdded"] = self._log
        self.bidi.call("session.subscribe", events=["log.entryAdded"])

    def _log(self, entry: dict[str, Any]) -> None:
        dev = self.devices.get(entry.get("source", {}).get("context", ""))
        if dev is not None and entry.get("type") == "javascript":
            dev.page_error(entry)

    def device(self, size: tuple[int, int], phone: bool) -> Device:
        return FirefoxDevice(self.bidi, self.devices, size, phone)

    def close(self) -> None:
        try:
            self.bidi.call("browser.close", timeout=20)
        except (ConnectionError, RuntimeError, TimeoutError):
            pass
        self.bidi.close()
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)


def _port(said: Path) -> int | None:
    try:
        return json.loads(said.read_text())["ws_port"]
    except (OSError, ValueError, KeyError):
        return None
