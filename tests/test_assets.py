"""Static files: named by their content's version, cached for a year under it, compressed, and
the page preloads its module graph; plain URLs keep working (companion/web/assets.py)."""

import base64
import gzip
import hashlib
import json
import re
import shutil
from html import escape
from html import unescape as html_unescape
from pathlib import Path

from flask import url_for

from companion.web.assets import YEAR, Assets

STATIC = Path(__file__).resolve().parents[1] / "static"


def page_of(client, path: str = "/") -> tuple[str, dict]:
    r = client.get(path)
    assert r.status_code == 200 and r.headers["Cache-Control"] == "no-cache"
    html = r.get_data(as_text=True)
    imports = json.loads(re.search(r'<script type="importmap">(.*?)</script>', html).group(1))["imports"]
    return html, imports


def test_every_file_the_page_names_is_versioned_and_kept_for_a_year(client):
    html, imports = page_of(client)
    named = re.findall(r'(?:href|src)="(/static/[^"]+)"', html)
    assert named and all("?v=" in url for url in named)
    for url in {*named, *imports.values()}:
        r = client.get(url)
        assert r.status_code == 200, url
        assert r.headers["Cache-Control"] == YEAR
        if not url.startswith("/static/manifest.webmanifest"):  # its icons' URLs are versioned
            assert r.get_data() == (STATIC / url.split("?")[0].removeprefix("/static/")).read_bytes()
    # every script and catalogue a module may import or fetch by its plain URL is mapped
    for path in STATIC.rglob("*.js"):
        rel = path.relative_to(STATIC).as_posix()
        if rel != "sw.js":
            assert imports[f"/static/{rel}"].startswith(f"/static/{rel}?v=")
    assert "/static/i18n/hu.json" in imports


def test_the_import_map_is_the_one_inline_script_the_policy_allows(client):
    r = client.get("/t/ABCD")
    html = r.get_data(as_text=True)
    scripts = re.findall(r"<script[^>]*>(.*?)</script>", html, re.S)
    inline = [s for s in scripts if s]
    assert len(inline) == 1
    digest = base64.b64encode(hashlib.sha256(inline[0].encode()).digest()).decode()
    assert f"script-src 'self' 'sha256-{digest}'" in r.headers["Content-Security-Policy"]
    # the import map comes before any module is fetched
    assert html.index('type="importmap"') < html.index('rel="modulepreload"') < html.index('type="module"')


def preloaded(client, path: str, **headers) -> set[str]:
    html = client.get(path, headers=headers).get_data(as_text=True)
    return {u.split("?")[0] for u in re.findall(r'<link rel="(?:module)?preload" href="([^"]+)"', html)}


def test_each_page_preloads_the_graph_of_its_own_screen_and_no_game(client):
    screens = {"/stats": "stats.js", "/t/ABCDE": "phone.js", "/?table=ABCDE": "table-screen.js"}
    for path, screen in screens.items():
        found = preloaded(client, path)
        assert {f"/static/js/{screen}", "/static/js/i18n.js", "/static/js/common.js", "/static/js/dom.js",
                "/static/js/games/index.js"} <= found, path
        others = {f"/static/js/{s}" for s in screens.values()} - {f"/static/js/{screen}"}
        assert not others & found, path  # another screen's module would only compete with this one's
        assert not any(u.startswith("/static/js/games/") and not u.endswith("index.js") for u in found)
        assert "/static/js/main.js" not in found  # the page's own script needs no preload


def test_the_page_names_its_languages_and_preloads_the_devices_catalogue(client):
    html = client.get("/t/ABCDE").get_data(as_text=True)
    listed = json.loads(html_unescape(re.search(r'<meta name="languages" content="([^"]+)">', html).group(1)))
    assert listed == client.get("/api/languages").get_json()["languages"]
    assert "/static/i18n/hu.json" not in preloaded(client, "/t/ABCDE")
    hungarian = preloaded(client, "/t/ABCDE", **{"Accept-Language": "hu-HU,hu;q=0.9,en;q=0.5"})
    assert {"/static/i18n/en.json", "/static/i18n/hu.json"} <= hungarian  # English stands behind it
    german = preloaded(client, "/t/ABCDE", **{"Accept-Language": "de-DE"})
    assert "/static/i18n/de.json" not in german and "/static/i18n/en.json" in german
    assert "Accept-Language" in client.get("/t/ABCDE").headers["Vary"]


def test_the_page_lists_what_a_game_module_imports_so_it_comes_with_the_game(client):
    html, imports = page_of(client, "/t/ABCDE")
    listed = re.search(r'<meta name="module-graph" content="([^"]+)">', html).group(1)
    graph = json.loads(html_unescape(listed))
    blanko = graph["/static/js/games/blanko.js"]
    assert {imports["/static/js/palette.js"], imports["/static/js/confirm.js"]} <= set(blanko)
    assert imports["/static/js/card-entry.js"] in graph["/static/js/games/bldng.js"]
    assert not {u.split("?")[0] for u in blanko} & set(graph)  # only its own imports, no other game


def test_the_manifests_icons_are_the_pages_versioned_files(client):
    _, imports = page_of(client)
    r = client.get("/manifest.webmanifest")
    assert r.headers["Content-Type"].startswith("application/manifest+json")
    icons = [i["src"] for i in r.get_json()["icons"]]
    assert icons and all(src == imports[src.split("?")[0]] for src in icons)


def test_each_file_names_its_type_and_charset_once(client):
    _, imports = page_of(client)
    for url in ("/", "/t/ABCDE", imports["/static/js/main.js"], imports["/static/i18n/en.json"],
                imports["/static/css/app.css"], "/manifest.webmanifest"):
        kind = client.get(url).headers["Content-Type"]
        assert kind.count("charset") <= 1 and kind.count(";") <= 1, (url, kind)
    assert client.get("/").headers["Content-Type"] == "text/html; charset=utf-8"


def test_text_goes_compressed_to_whoever_takes_gzip(client):
    _, imports = page_of(client)
    url = imports["/static/js/common.js"]
    zipped = client.get(url, headers={"Accept-Encoding": "gzip, deflate, br"})
    assert zipped.headers["Content-Encoding"] == "gzip" and zipped.headers["Vary"] == "Accept-Encoding"
    assert gzip.decompress(zipped.get_data()) == (STATIC / "js" / "common.js").read_bytes()
    plain = client.get(url)
    assert "Content-Encoding" not in plain.headers
    assert plain.get_data() == (STATIC / "js" / "common.js").read_bytes()
    assert client.get("/", headers={"Accept-Encoding": "gzip"}).headers["Content-Encoding"] == "gzip"
    png = client.get(imports["/static/icons/icon-192.png"], headers={"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in png.headers  # compressed already


def test_plain_and_stale_urls_still_work_revalidated(client):
    for url in ("/static/js/main.js", "/static/js/main.js?v=0ld0ld0ld0ld"):
        r = client.get(url)
        assert r.status_code == 200 and r.headers["Cache-Control"] == "no-cache"
        assert r.get_data() == (STATIC / "js" / "main.js").read_bytes()
        again = client.get(url, headers={"If-None-Match": r.headers["ETag"]})
        assert again.status_code == 304 and not again.get_data()
    assert client.get("/static/js/nothing-here.js").status_code == 404
    assert '<script type="importmap">' in client.get("/static/app.html").get_data(as_text=True)  # the page


def test_the_worker_knows_the_version_and_its_shell(client, app):
    r = client.get("/sw.js")
    assert r.headers["Cache-Control"] == "no-cache" and r.headers["Service-Worker-Allowed"] == "/"
    first = r.get_data(as_text=True).split("\n", 1)[0]
    build = json.loads(first.removeprefix("const BUILD = ").rstrip(";"))
    assert build["version"] == app.extensions["assets"].version
    _, imports = page_of(client)
    assert set(build["shell"]) == {"/", *imports.values()}


def test_a_changed_file_changes_its_url_and_the_workers_cache(tmp_path):
    root = tmp_path / "static"
    shutil.copytree(STATIC, root)
    before = Assets(root)
    with (root / "js" / "dom.js").open("a") as f:
        f.write("\n// a change\n")
    after = Assets(root)
    assert after.version != before.version and after.worker.body != before.worker.body
    assert after.url("js/dom.js") != before.url("js/dom.js")
    assert after.url("js/main.js") == before.url("js/main.js")


def test_a_new_folder_of_modules_just_works(tmp_path):
    root = tmp_path / "static"
    shutil.copytree(STATIC, root)
    (root / "extras").mkdir()
    (root / "extras" / "lib.js").write_text('export { x } from "./util.js";\n')
    (root / "extras" / "util.js").write_text("export const x = 1;\n")
    first = root / "js" / "i18n.js"  # imported by the page's own script
    first.write_text('import { x } from "../extras/lib.js";\n' + first.read_text())
    assets = Assets(root)
    page = assets.page.body.decode()
    for rel in ("extras/lib.js", "extras/util.js"):
        assert f'"/static/{rel}":"{assets.url(rel)}"' in page
        assert f'<link rel="modulepreload" href="{assets.url(rel)}">' in page


def test_the_setup_screen_preloads_blank_which_it_shows_at_once(client):
    assert {"/static/js/games/blank.js", "/static/js/card-entry.js"} <= preloaded(client, "/")
    assert "/static/js/games/blank.js" not in preloaded(client, "/?table=ABCDE")
    assert "/static/js/games/blank.js" not in preloaded(client, "/t/ABCDE")


def html_pages(app) -> list[str]:
    """Every address the app answers with a page: each GET route, its arguments filled in."""
    urls = []
    with app.test_request_context():
        for rule in app.url_map.iter_rules():
            if "GET" in rule.methods and not rule.rule.startswith(("/static/", "/api/", "/ws/")):
                urls.append(url_for(rule.endpoint, **dict.fromkeys(rule.arguments, "ABCDE")))
    client = app.test_client()
    pages = [u for u in urls if (r := client.get(u)).status_code == 200 and r.mimetype == "text/html"]
    return pages + ["/?table=ABCDE", "/static/app.html"]


def test_every_page_describes_itself_in_the_devices_language(app, client):
    pages = html_pages(app)
    assert {"/", "/t/ABCDE", "/stats"} <= set(pages)
    for code in ("en", "hu"):
        words = json.loads((STATIC / f"i18n/{code}.json").read_text())["ui"]["description"]
        for path in pages:
            html = client.get(path, headers={"Accept-Language": code}).get_data(as_text=True)
            found = re.findall(r'<meta name="description" content="([^"]*)">', html)
            assert found == [escape(words)] and words.strip(), (path, code)
            assert f'<html lang="{code}">' in html, (path, code)  # the language the page is in
