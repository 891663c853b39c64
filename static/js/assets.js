// The URL to fetch a static file by. The page's import map names each file's current version
// (companion/web/assets.py), so a versioned URL is cached by the phone for good; without an
// import map (or import.meta.resolve) the plain URL still works, revalidated on each use.
export function assetUrl(path) {
  try {
    return import.meta.resolve(path);
  } catch {
    return path;
  }
}

// What the page says of itself in a <meta name="NAME"> (JSON, written by the server); `fallback`
// where a page (an older one kept offline, say) lacks it.
export function pageMeta(name, fallback) {
  try {
    return JSON.parse(document.querySelector(`meta[name="${name}"]`).content);
  } catch {
    return fallback;
  }
}
