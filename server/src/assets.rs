//! The browser bundle's files under `/pkg`, sent as their compressed copies.
//!
//! `scripts/bundle/precompress.sh` writes `<file>.br` and `<file>.gz` beside each bundle file at
//! build time; here a browser gets the copy it accepts (brotli first) without the server
//! compressing anything. Files without a copy are compressed per response by the router's
//! compression layer, as before. A copy older than its file (the bundle was rebuilt without
//! the script) would send the old bundle: such copies are removed at start.

use std::path::Path;

use axum::{
    extract::Path as UrlPath,
    http::{header, HeaderValue, StatusCode},
    response::{IntoResponse, Response},
};
use tower_http::services::ServeDir;

/// `GET /i18n/<code>-<hash>.json`: a language's texts for the browser (`app::i18n::catalogue`).
/// The current file may be kept for a year (its name changes with its content); a file by an
/// older hash (a page from before a deploy) gets today's texts, not to be kept; no language of
/// the catalogue is a 404. Compressed by the router's layer like any answer.
pub async fn catalogue_file(UrlPath(name): UrlPath<String>) -> Response {
    let Some((file, current)) = app::i18n::catalogue::file(&name) else {
        return (StatusCode::NOT_FOUND, format!("no catalogue file {name:?}: the page lists the files"))
            .into_response();
    };
    let cache = if current { "public, max-age=31536000, immutable" } else { "no-cache" };
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static("application/json")),
            (header::CACHE_CONTROL, HeaderValue::from_static(cache)),
        ],
        // The file lives as long as the server: sent without a copy. An old name gets today's
        // texts, all of them for a first file (its page may predate the split).
        if current { file.json.as_str() } else { app::i18n::catalogue::stale_body(file) },
    )
        .into_response()
}

/// The `/pkg` service: the files of `site_root/pkg`, each as its brotli or gzip copy when
/// the browser accepts one and the copy exists.
pub fn pkg_service(site_root: &Path) -> ServeDir {
    ServeDir::new(site_root.join("pkg")).precompressed_br().precompressed_gzip()
}

/// Removes every compressed copy in `pkg` that is older than its file or has none; returns
/// how many. Errors (a read-only site root, a file vanishing meanwhile) only skip a copy:
/// the server then refuses nothing, and the next start tries again.
pub fn remove_stale_copies(pkg: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(pkg) else { return 0 };
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    let mut removed = 0;
    for entry in entries.flatten() {
        let copy = entry.path();
        let Some(ext) = copy.extension().and_then(|e| e.to_str()) else { continue };
        if ext != "br" && ext != "gz" {
            continue;
        }
        let source = copy.with_extension("");
        let stale = match (modified(&copy), modified(&source)) {
            (Some(c), Some(s)) => c < s,
            // No source any more: a copy of a file that is gone.
            (_, None) => true,
            (None, Some(_)) => false,
        };
        if stale && std::fs::remove_file(&copy).is_ok() {
            removed += 1;
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, SystemTime};

    /// Sets a file's modification time `secs` into the past.
    fn age(path: &Path, secs: u64) {
        let t = SystemTime::now() - Duration::from_secs(secs);
        std::fs::File::options().write(true).open(path).unwrap().set_modified(t).unwrap();
    }

    #[test]
    fn copies_older_than_their_file_or_without_one_are_removed_and_fresh_ones_kept() {
        let dir = tempfile::tempdir().unwrap();
        let p = |n: &str| dir.path().join(n);
        for n in ["a.wasm", "a.wasm.br", "a.wasm.gz", "b.js", "b.js.gz", "gone.css.br", "c.css"] {
            std::fs::write(p(n), n).unwrap();
        }
        // a.wasm was rebuilt after its copies; b.js's copy is newer than it.
        age(&p("a.wasm.br"), 60);
        age(&p("a.wasm.gz"), 60);
        age(&p("b.js"), 60);
        assert_eq!(remove_stale_copies(dir.path()), 3);
        let mut left: Vec<String> =
            std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        left.sort();
        assert_eq!(left, ["a.wasm", "b.js", "b.js.gz", "c.css"]);
        assert_eq!(remove_stale_copies(dir.path()), 0);
        assert_eq!(remove_stale_copies(&p("no-such-dir")), 0);
    }
}
