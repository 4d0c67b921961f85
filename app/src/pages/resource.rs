//! Every page's resources: [`resource`] in place of Leptos' `Resource::new`.
//!
//! Why: Leptos reads a resource's value sent with the page by `serde_json::from_str`, and a
//! server function's answer by `serde_json::from_slice`. The two readers are different types
//! to the compiler, so every type a page loads had its whole deserializer compiled twice into
//! the browser's bundle (the home page's lists alone: ≈ 90 KB before wasm-opt). [`Json`]
//! writes what Leptos' codec writes and reads it the way server functions do.

use leptos::prelude::*;
use leptos::server::codee::{Decoder, Encoder};
use serde::{de::DeserializeOwned, Serialize};

/// JSON, read from bytes (see the module doc).
pub struct Json;

impl<T: Serialize> Encoder<T> for Json {
    type Error = serde_json::Error;
    type Encoded = String;

    fn encode(val: &T) -> Result<String, Self::Error> {
        serde_json::to_string(val)
    }
}

impl<T: DeserializeOwned> Decoder<T> for Json {
    type Error = serde_json::Error;
    type Encoded = str;

    fn decode(val: &str) -> Result<T, Self::Error> {
        serde_json::from_slice(val.as_bytes())
    }
}

/// `Resource::new` with the [`Json`] codec: loaded on the server with the page, read once in
/// the browser, then fetched again whenever `source` changes.
#[track_caller]
pub fn resource<T, S, Fut>(
    source: impl Fn() -> S + Send + Sync + 'static,
    fetcher: impl Fn(S) -> Fut + Send + Sync + 'static,
) -> Resource<T, Json>
where
    T: Serialize + DeserializeOwned + Send + Sync + 'static,
    S: PartialEq + Clone + Send + Sync + 'static,
    Fut: std::future::Future<Output = T> + Send + 'static,
{
    Resource::new_with_options(source, fetcher, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_what_leptos_writes_and_reads_it_back() {
        let value: Result<Vec<(String, u32)>, crate::AppError> = Ok(vec![("한국어 ⓐ".into(), 7)]);
        let written = <Json as Encoder<_>>::encode(&value).unwrap();
        assert_eq!(written, serde_json::to_string(&value).unwrap());
        let read: Result<Vec<(String, u32)>, crate::AppError> = <Json as Decoder<_>>::decode(&written).unwrap();
        assert_eq!(read, value);
        let refused: Result<Result<u32, crate::AppError>, _> = <Json as Decoder<_>>::decode("{\"Ok\": -1}");
        assert!(refused.is_err());
    }
}
