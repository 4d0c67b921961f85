//! The catalogue as the browser gets it (issue 15 §6). Both languages' texts were 120 KB of
//! the WASM bundle's first download, though a reader reads one. The server renders with the
//! compiled-in catalogue (rust-i18n); the browser's bundle compiles none in. Instead each
//! page's `<head>` names every language's file (`<meta name="sb-catalogue">`: code, name in
//! itself, address) and preloads its own, which the browser loads before it hydrates (so
//! hydration renders the server's very texts). Switching language fetches the other file
//! first. A file's address carries its content's hash, so browsers may keep it for a year.

use std::collections::HashMap;

/// Where the files are served: `/i18n/<code>-<hash>.json`.
pub const PATH: &str = "/i18n/";

/// The `<meta name>` of the head's list of languages.
pub const META_NAME: &str = "sb-catalogue";

/// One language's texts, as the browser keeps them: read from a file's JSON object.
#[derive(Debug, Default)]
pub struct Texts(HashMap<String, String>);

impl Texts {
    /// A file's body; anything but a JSON object of texts is refused, naming what was wrong.
    pub fn parse(json: &str) -> Result<Texts, String> {
        serde_json::from_str(json).map(Texts).map_err(|e| format!("catalogue file: {e}"))
    }
    pub fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).map(String::as_str)
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }
}

#[cfg(feature = "ssr")]
pub use served::{file, files, Served};

#[cfg(feature = "ssr")]
mod served {
    use sha2::{Digest, Sha256};

    use super::PATH;
    use crate::i18n::Lang;

    /// One language's file as the server sends it.
    #[derive(Debug)]
    pub struct Served {
        pub lang: Lang,
        /// `ko-<16 hex of SHA-256>.json`.
        pub name: String,
        /// `{"key": "text", …}`, keys sorted.
        pub json: String,
    }

    impl Served {
        pub fn href(&self) -> String {
            format!("{PATH}{}", self.name)
        }
    }

    /// Every language's file, made once from the compiled-in catalogue.
    pub fn files() -> &'static [Served] {
        static FILES: std::sync::LazyLock<Vec<Served>> = std::sync::LazyLock::new(|| {
            Lang::all()
                .into_iter()
                .map(|lang| {
                    let messages: std::collections::BTreeMap<String, String> = crate::_rust_i18n_backend()
                        .messages_for_locale(lang.code())
                        .unwrap_or_default()
                        .into_iter()
                        .map(|(k, v)| (k.into_owned(), v.into_owned()))
                        .collect();
                    let json = serde_json::to_string(&messages).unwrap_or_else(|_| "{}".into());
                    let hash = Sha256::digest(json.as_bytes());
                    let name = format!("{}-{}.json", lang.code(), hex::encode(&hash[..8]));
                    Served { lang, name, json }
                })
                .collect()
        });
        &FILES
    }

    /// The file a request names: `Some((file, true))` for the current file; `Some((file,
    /// false))` for a language's file by an older hash (a page from before a deploy: it gets
    /// today's texts, not to be kept); `None` for no language of the catalogue.
    pub fn file(name: &str) -> Option<(&'static Served, bool)> {
        let files = files();
        if let Some(f) = files.iter().find(|f| f.name == name) {
            return Some((f, true));
        }
        let code = name.strip_suffix(".json")?.split_once('-')?.0;
        files.iter().find(|f| f.lang.code() == code).map(|f| (f, false))
    }
}

/// The head's part (rendered by the server's `shell` only): every language's entry, and the
/// page's own file preloaded, so that it downloads beside the bundle rather than after it.
#[cfg(feature = "ssr")]
#[leptos::component]
pub fn CatalogueHead(lang: crate::i18n::Lang) -> impl leptos::IntoView {
    use leptos::prelude::*;
    let own = files().iter().find(|f| f.lang == lang).map(Served::href);
    view! {
        // Built, not written as a tag: the view macro cannot take `as` as an attribute name.
        {own.map(|href| leptos::html::link().rel("preload").r#as("fetch").crossorigin("anonymous").href(href))}
        {files()
            .iter()
            .map(|f| {
                let name = crate::i18n::text(f.lang, "lang.name");
                view! { <meta name=META_NAME data-code=f.lang.code() data-name=name data-href=f.href()/> }
            })
            .collect_view()}
    }
}

/// The browser never renders the document's head.
#[cfg(not(feature = "ssr"))]
#[leptos::component]
pub fn CatalogueHead(lang: crate::i18n::Lang) -> impl leptos::IntoView {
    let _ = lang;
}

#[cfg(feature = "hydrate")]
pub use fetched::{listed_name, load, Fetched};

/// The browser's side: the languages the page lists, the files loaded so far, and the
/// rust-i18n backend that reads them (`lib.rs`: `i18n!(…, extend = Fetched)`).
#[cfg(feature = "hydrate")]
mod fetched {
    use std::{
        borrow::Cow,
        sync::{OnceLock, RwLock},
    };

    use wasm_bindgen::JsCast;

    use super::{Texts, META_NAME};

    /// A language the page lists.
    struct Listed {
        code: &'static str,
        name: String,
        href: String,
    }

    /// The page's list, read from its head once.
    fn listed() -> &'static [Listed] {
        static LISTED: OnceLock<Vec<Listed>> = OnceLock::new();
        LISTED.get_or_init(|| {
            let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return Vec::new() };
            let Ok(metas) = doc.query_selector_all(&format!("meta[name=\"{META_NAME}\"]")) else { return Vec::new() };
            (0..metas.length())
                .filter_map(|i| metas.get(i)?.dyn_into::<web_sys::Element>().ok())
                .filter_map(|m| {
                    let code: &'static str = Box::leak(m.get_attribute("data-code")?.into_boxed_str());
                    Some(Listed { code, name: m.get_attribute("data-name")?, href: m.get_attribute("data-href")? })
                })
                .collect()
        })
    }

    /// A language's name in itself, as the page lists it (its file may not be loaded).
    pub fn listed_name(code: &str) -> Option<String> {
        listed().iter().find(|l| l.code == code).map(|l| l.name.clone())
    }

    /// The files loaded, by code. Kept for the page's life (a language is loaded once), so
    /// lookups can lend their texts out as `'static`.
    static LOADED: RwLock<Vec<(&'static str, &'static Texts)>> = RwLock::new(Vec::new());

    fn loaded(code: &str) -> Option<&'static Texts> {
        LOADED.read().ok()?.iter().find(|(c, _)| *c == code).map(|(_, t)| *t)
    }

    /// Loads a language's file unless it is loaded already.
    pub async fn load(code: &str) -> Result<(), String> {
        if loaded(code).is_some() {
            return Ok(());
        }
        let listed = listed().iter().find(|l| l.code == code).ok_or_else(|| format!("no catalogue for {code}"))?;
        let window = web_sys::window().ok_or("no window")?;
        let js = |e: wasm_bindgen::JsValue| format!("{}: {e:?}", listed.href);
        let response: web_sys::Response = wasm_bindgen_futures::JsFuture::from(window.fetch_with_str(&listed.href))
            .await
            .map_err(js)?
            .unchecked_into();
        if !response.ok() {
            return Err(format!("{}: HTTP {}", listed.href, response.status()));
        }
        let body = wasm_bindgen_futures::JsFuture::from(response.text().map_err(js)?).await.map_err(js)?;
        let texts = Texts::parse(&body.as_string().unwrap_or_default())?;
        if let Ok(mut kept) = LOADED.write() {
            // Two switches in quick succession may both have fetched it: keep one.
            if !kept.iter().any(|(c, _)| *c == listed.code) {
                kept.push((listed.code, Box::leak(Box::new(texts))));
            }
        }
        Ok(())
    }

    /// rust-i18n's view of the fetched files.
    pub struct Fetched;

    impl rust_i18n::Backend for Fetched {
        fn available_locales(&self) -> Vec<Cow<'_, str>> {
            listed().iter().map(|l| Cow::Borrowed(l.code)).collect()
        }
        fn translate(&self, locale: &str, key: &str) -> Option<Cow<'_, str>> {
            loaded(locale)?.get(key).map(Cow::Borrowed)
        }
        fn messages_for_locale(&self, locale: &str) -> Option<Vec<(Cow<'_, str>, Cow<'_, str>)>> {
            Some(loaded(locale)?.iter().map(|(k, v)| (Cow::Borrowed(k), Cow::Borrowed(v))).collect())
        }
    }
}

#[cfg(all(test, feature = "ssr"))]
mod tests {
    use super::*;
    use crate::i18n::{pseudo::QPS, text, Lang};

    /// Each language's file holds exactly its catalogue, read back as the browser reads it.
    #[test]
    fn every_language_file_holds_its_whole_catalogue() {
        for lang in Lang::all().into_iter().filter(|l| *l != QPS) {
            let (served, current) = file(&files().iter().find(|f| f.lang == lang).unwrap().name).unwrap();
            assert!(current);
            let texts = Texts::parse(&served.json).unwrap();
            let keys = crate::_rust_i18n_backend().messages_for_locale(lang.code()).unwrap();
            assert_eq!(texts.len(), keys.len(), "{}", lang.code());
            for (k, v) in keys {
                assert_eq!(texts.get(&k), Some(v.as_ref()), "{} {k}", lang.code());
            }
            assert_eq!(texts.get("lang.name"), Some(text(lang, "lang.name").as_str()));
            assert!(served.name.starts_with(&format!("{}-", lang.code())) && served.name.ends_with(".json"));
        }
        let names: Vec<&str> = files().iter().map(|f| f.name.as_str()).collect();
        assert!(names.iter().any(|n| n.starts_with("ko-")) && names.iter().any(|n| n.starts_with("en-")), "{names:?}");
    }

    #[test]
    fn an_older_hash_gets_todays_file_and_an_unknown_language_none() {
        let (f, current) = file("ko-0000000000000000.json").unwrap();
        assert_eq!((f.lang, current), (Lang::KO, false));
        assert!(file("xx-0000000000000000.json").is_none());
        assert!(file("ko").is_none());
        assert!(file("").is_none());
    }

    #[test]
    fn a_body_that_is_not_a_catalogue_is_refused() {
        assert!(Texts::parse("[1, 2]").unwrap_err().starts_with("catalogue file:"));
        assert!(Texts::parse("{\"a\": 1}").is_err());
        assert_eq!(Texts::parse("{\"a\": \"b\"}").unwrap().get("a"), Some("b"));
    }
}
