"""The static files, read once at start: each under a URL that names its content, so a phone
keeps it for a year and asks again only when it changed; text compressed once, not per request.

Every file under the static root gets ``/static/PATH?v=DIGEST``. The page (app.html) is
rewritten to use those URLs, and it carries an import map from every plain URL to its
versioned one, so the modules keep importing each other by plain relative paths (no build
step) while the browser fetches, and caches, the versioned files; scripts get the versioned URL
of any other file with ``import.meta.resolve``. The page also preloads the module graph: the
modules its own scripts import, and those of the one screen its address shows, each fetched in
parallel instead of one import after another (another screen's modules would only compete with
them on a slow line). It names the languages on offer and preloads the catalogue of the
device's language, so the first screen waits for no request the page could have answered. The
service worker is told the same version, so its cache is renamed whenever any file changes.
Plain URLs keep working, revalidated on every use.

Nothing here knows where the static root is: it is handed in (``install(app, root)``).
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import mimetypes
import re
import threading
from dataclasses import dataclass
from html import escape
from pathlib import Path, PurePosixPath

from flask import Flask, Response, request

from . import security

PREFIX = "/static/"
PAGE = "app.html"
WORKER = "sw.js"
MANIFEST = "manifest.webmanifest"
FALLBACK_LANGUAGE = "en"  # the catalogue that stands behind every other
YEAR = "public, max-age=31536000, immutable"
COMPRESSIBLE = re.compile(r"^(text/|application/(javascript|json|manifest\+json)|image/svg\+xml)")
# import/export ... from "x", import "x", and import("x") with a literal specifier
STATIC_IMPORT = re.compile(r"""\b(?:import|export)\s*(?:[\w$*{}\s,]*?\bfrom\s*)?["']([^"'\n]+)["']""")
DYNAMIC_IMPORT = re.compile(r"""\bimport\(\s*["']([^"'\n]+)["']\s*\)""")
PAGE_REF = re.compile(r"""\b(href|src)="(/static/[^"?#]+)\"""")
MODULE_SCRIPT = re.compile(r"""<script type="module" src="(/static/[^"]+)"></script>""")
CATALOGUE = re.compile(r"^i18n/([\w-]+)\.json$")
HTML_LANG = re.compile(r"<html lang=\"[^\"]*\">")


@dataclass(frozen=True)
class Asset:
    body: bytes
    gzipped: bytes | None  # None: not worth compressing
    digest: str
    mimetype: str


def _asset(body: bytes, mimetype: str) -> Asset:
    packed = gzip.compress(body, 9, mtime=0) if COMPRESSIBLE.match(mimetype) else None
    return Asset(body, packed if packed is not None and len(packed) < len(body) * 0.9 else None,
                 hashlib.sha256(body).hexdigest()[:12], mimetype)


def _mimetype(name: str) -> str:
    if name.endswith((".js", ".mjs")):
        return "text/javascript; charset=utf-8"
    if name.endswith(".webmanifest"):
        return "application/manifest+json"
    guessed = mimetypes.guess_type(name)[0] or "application/octet-stream"
    return f"{guessed}; charset=utf-8" if guessed.startswith("text/") or guessed.endswith("json") else guessed


class Assets:
    """The files of one static root as they are at construction."""

    def __init__(self, root: Path) -> None:
        self.files: dict[str, Asset] = {}
        for path in sorted(p for p in root.rglob("*") if p.is_file()):
            rel = path.relative_to(root).as_posix()
            if not any(part.startswith(".") for part in rel.split("/")):
                self.files[rel] = _asset(path.read_bytes(), _mimetype(rel))
        if MANIFEST in self.files:
            self.files[MANIFEST] = self._manifest(self.files[MANIFEST])
        listing = "\n".join(f"{rel} {a.digest}" for rel, a in self.files.items())
        self.version = hashlib.sha256(listing.encode()).hexdigest()[:12]
        self.import_map = {"imports": {PREFIX + rel: self.url(rel) for rel in self.files
                                       if rel not in (PAGE, WORKER)}}
        self.languages = self._languages()
        # What each module that is imported later (a game's, at its table) imports in turn: the
        # page lists it, so such a module's own imports are fetched with it, not after it.
        later = dict.fromkeys(d for rel in self.files if rel.endswith(".js") for d in self.imports(rel)[1])
        self.later_graph = {PREFIX + rel: [self.url(d) for d in self.closure([rel]) if d != rel]
                            for rel in later}
        self.pages: dict[tuple[tuple[str, ...], str], Asset] = {}  # by the screen's modules and language
        self.page = self._page((), FALLBACK_LANGUAGE) if PAGE in self.files else None
        self.worker = self._worker(self.files[WORKER].body) if WORKER in self.files else None

    def url(self, rel: str) -> str:
        return f"{PREFIX}{rel}?v={self.files[rel].digest}"

    # -- the module graph --------------------------------------------------------------
    def imports(self, rel: str) -> tuple[list[str], list[str]]:
        """The files module ``rel`` imports statically and dynamically (relative or rooted
        specifiers inside the static root; bare names and URLs are not files of ours)."""
        text = self.files[rel].body.decode()
        found = []
        for pattern in (STATIC_IMPORT, DYNAMIC_IMPORT):
            found.append([t for t in (self._resolve(rel, s) for s in pattern.findall(text)) if t])
        return found[0], found[1]

    def _resolve(self, importer: str, spec: str) -> str | None:
        if spec.startswith(PREFIX):
            target = spec.removeprefix(PREFIX)
        elif spec.startswith(("./", "../")):
            parts: list[str] = []
            for part in (PurePosixPath(importer).parent / spec).parts:
                if part == "..":
                    if parts:
                        parts.pop()
                elif part != ".":
                    parts.append(part)
            target = "/".join(parts)
        else:
            return None
        return target if target in self.files else None

    def closure(self, entries: list[str]) -> list[str]:
        """``entries`` and every module they import statically, in a stable order."""
        seen: dict[str, None] = {}
        todo = list(entries)
        while todo:
            rel = todo.pop(0)
            if rel not in seen:
                seen[rel] = None
                todo.extend(self.imports(rel)[0])
        return list(seen)

    # -- the page and the worker -------------------------------------------------------
    def _languages(self) -> list[dict[str, str]]:
        """Every catalogue file is a language on offer (its code and own name), English first."""
        found = [{"code": m[1], "name": json.loads(self.files[rel].body)["name"]}
                 for rel in self.files if (m := CATALOGUE.match(rel))]
        return sorted(found, key=lambda lang: (lang["code"] != FALLBACK_LANGUAGE, lang["code"]))

    def _page(self, also: tuple[str, ...], lang: str) -> Asset:
        html = self.files[PAGE].body.decode()
        entries = [src.removeprefix(PREFIX) for src in MODULE_SCRIPT.findall(html)]
        versioned = PAGE_REF.sub(lambda m: f'{m[1]}="{self._versioned(m[2])}"', html)
        script = json.dumps(self.import_map, separators=(",", ":"))
        digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
        self.script_hash = f"'sha256-{digest}'"
        head = [f'<meta name="languages" content="{escape(json.dumps(self.languages, ensure_ascii=False))}">',
                f'<meta name="module-graph" content="{escape(json.dumps(self.later_graph))}">',
                f'<script type="importmap">{script}</script>']
        if lang != FALLBACK_LANGUAGE:
            head.append(f'<link rel="preload" href="{self.url(f"i18n/{lang}.json")}" as="fetch" crossorigin>')
        if description := self.description(lang):
            head.insert(0, f'<meta name="description" content="{escape(description)}">')
        wanted = dict.fromkeys(self.closure(entries) + self.closure([a for a in also if a in self.files]))
        head += [f'<link rel="modulepreload" href="{self.url(rel)}">' for rel in wanted if rel not in entries]
        versioned = HTML_LANG.sub(f'<html lang="{lang}">', versioned, count=1)
        first = MODULE_SCRIPT.search(versioned)
        at = first.start() if first else versioned.index("</head>")
        out = versioned[:at] + "\n  ".join(head) + "\n  " + versioned[at:]
        return _asset(out.encode(), "text/html; charset=utf-8")

    def description(self, lang: str) -> str | None:
        """What the page says it is (search engines show it), in ``lang``'s words, English's
        where that catalogue lacks them; the page re-words it when its language changes."""
        for rel in (f"i18n/{lang}.json", f"i18n/{FALLBACK_LANGUAGE}.json"):
            asset = self.files.get(rel)
            if asset and (words := json.loads(asset.body).get("ui", {}).get("description")):
                return str(words)
        return None

    def _manifest(self, asset: Asset) -> Asset:
        # Its icons under the URLs the page uses, so a browser fetches each icon once.
        doc = json.loads(asset.body)
        for icon in doc.get("icons", []):
            icon["src"] = self._versioned(icon["src"])
        return _asset(json.dumps(doc, ensure_ascii=False, indent=1).encode(), asset.mimetype)

    def _versioned(self, url: str) -> str:
        rel = url.removeprefix(PREFIX)
        return self.url(rel) if rel in self.files else url

    def _worker(self, source: bytes) -> Asset:
        # The worker learns the version (its cache's name) and the files it keeps for offline
        # use: the page and every versioned file; a changed file changes this script's bytes,
        # which is how a browser notices a new worker.
        self.build = {"version": self.version, "shell": ["/", *self.import_map["imports"].values()]}
        build = json.dumps(self.build, separators=(",", ":"))
        return _asset(f"const BUILD = {build};\n".encode() + source, "text/javascript; charset=utf-8")

    @property
    def page_csp(self) -> str:
        """The page's policy: the import map is its one inline script, allowed by its hash."""
        return security.CSP.replace("script-src 'self'", f"script-src 'self' {self.script_hash}")

    # -- responses ---------------------------------------------------------------------
    def response(self, asset: Asset, cache_control: str) -> Response:
        etag = f'"{asset.digest}"'
        zipped = asset.gzipped is not None and "gzip" in request.headers.get("Accept-Encoding", "")
        if etag in request.headers.get("If-None-Match", ""):
            resp = Response(status=304)
        else:
            body = asset.gzipped if zipped and asset.gzipped else asset.body
            resp = Response(body, content_type=asset.mimetype)
            if zipped:
                resp.headers["Content-Encoding"] = "gzip"
        resp.headers["ETag"] = etag
        resp.headers["Cache-Control"] = cache_control
        if asset.gzipped is not None:
            resp.headers["Vary"] = "Accept-Encoding"
        return resp

    def serve_static(self, filename: str) -> Response:
        """``/static/PATH``: for a year under its current version, revalidated otherwise."""
        if filename == PAGE and self.page is not None:
            return self.serve_page()
        asset = self.files.get(filename)
        if asset is None:
            return Response("not found", status=404, mimetype="text/plain")
        current = request.args.get("v") == asset.digest
        return self.response(asset, YEAR if current else "no-cache")

    def serve_page(self, also: tuple[str, ...] = ()) -> Response:
        """The page; ``also``: the modules (paths under the root) its screen imports at once,
        preloaded with their graphs. The catalogue preloaded is the device's language's, as
        its browser asks (the page still decides, and a saved choice wins)."""
        codes = [lang["code"] for lang in self.languages]
        lang = request.accept_languages.best_match(codes) or FALLBACK_LANGUAGE
        if (also, lang) not in self.pages:
            self.pages[also, lang] = self._page(also, lang)
        resp = self.response(self.pages[also, lang], "no-cache")
        resp.headers["Content-Security-Policy"] = self.page_csp
        resp.vary.add("Accept-Language")
        return resp

    def serve_manifest(self) -> Response:
        return self.response(self.files[MANIFEST], "no-cache")

    def serve_worker(self) -> Response:
        assert self.worker is not None
        resp = self.response(self.worker, "no-cache")
        resp.headers["Service-Worker-Allowed"] = "/"
        return resp


_read: dict[Path, tuple[tuple[tuple[str, int, int], ...], Assets]] = {}
_read_lock = threading.Lock()


def _assets(root: Path) -> Assets:
    """``root``'s files, read again only when one of them changed (by name, time and size): an
    app per test read and compressed the whole tree each time, a second of every minute the
    suite ran."""
    stamp = tuple(sorted((p.as_posix(), st.st_mtime_ns, st.st_size)
                         for p in root.rglob("*") if p.is_file() for st in (p.stat(),)))
    with _read_lock:
        known = _read.get(root)
        if known is None or known[0] != stamp:
            known = _read[root] = (stamp, Assets(root))
        return known[1]


def install(app: Flask, root: Path) -> Assets:
    """Serve ``root``'s files through ``app``'s static route, versioned and compressed."""
    assets = _assets(root)
    app.extensions["assets"] = assets
    app.view_functions["static"] = assets.serve_static
    return assets


def assets_of(app: Flask) -> Assets:
    return app.extensions["assets"]
