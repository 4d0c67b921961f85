//! Cross-site request forgery guard for every state-changing request.
//!
//! Browsers label each request with where it came from (`Sec-Fetch-Site`, and `Origin` on
//! POSTs); a forged form or script on another site is refused before any handler runs.
//! Programs using the API send neither header and carry no ambient browser cookies, so they
//! pass. Together with `SameSite=Lax` session cookies this follows OWASP's "verify origin
//! with standard headers" defence.

use axum::{
    extract::Request,
    http::{header, HeaderMap, Method},
    middleware::Next,
    response::{IntoResponse, Response},
};

pub async fn guard(req: Request, next: Next) -> Response {
    if matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS) {
        return next.run(req).await;
    }
    match verdict(req.headers()) {
        Ok(()) => next.run(req).await,
        Err(reason) => {
            tracing::warn!(reason, path = %req.uri().path(), "cross-site request refused");
            app::AppError::CrossSiteRequest { why: reason.into() }.into_response()
        }
    }
}

/// Whether a request's browser headers say it comes from this site (requests without those
/// headers, i.e. programs, pass).
pub(crate) fn verdict(headers: &HeaderMap) -> Result<(), &'static str> {
    if let Some(site) = headers.get("sec-fetch-site") {
        match site.to_str().unwrap_or("") {
            "same-origin" | "none" => {}
            _ => return Err("state-changing requests must come from this site (Sec-Fetch-Site)"),
        }
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("");
        let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or("");
        // Origin is "scheme://host[:port]"; it must name the host this request was sent to.
        let authority = origin.split_once("://").map(|(_, a)| a).unwrap_or("");
        if authority.is_empty() || !authority.eq_ignore_ascii_case(host) {
            return Err("state-changing requests must come from this site (Origin)");
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, HeaderValue::from_static(v));
        }
        h
    }

    #[test]
    fn same_origin_and_headerless_clients_pass() {
        assert!(verdict(&headers(&[("host", "127.0.0.1:3000"), ("origin", "http://127.0.0.1:3000")])).is_ok());
        assert!(verdict(&headers(&[("sec-fetch-site", "same-origin")])).is_ok());
        assert!(verdict(&headers(&[("host", "127.0.0.1:3000")])).is_ok(), "API programs send no Origin");
    }

    #[test]
    fn other_sites_are_refused() {
        assert!(verdict(&headers(&[("host", "127.0.0.1:3000"), ("origin", "http://evil.example")])).is_err());
        assert!(verdict(&headers(&[("host", "127.0.0.1:3000"), ("origin", "null")])).is_err());
        assert!(verdict(&headers(&[("sec-fetch-site", "cross-site")])).is_err());
        assert!(verdict(&headers(&[("sec-fetch-site", "same-site")])).is_err());
        assert!(verdict(&headers(&[("host", "127.0.0.1:3000"), ("origin", "http://127.0.0.1:3001")])).is_err());
    }
}
