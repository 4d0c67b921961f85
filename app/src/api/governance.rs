//! Server functions for governance (003 §1.3–1.5, §9.7, §10.1): the common rules and
//! what a new room agrees under (open to all), precedent, the site's defaults and record
//! retention (administrators only). Each authorises itself.

use leptos::prelude::*;

use crate::{
    governance::{Agreements, CommonRules, NewPrecedent, RetentionReport, RetentionStatus, RulesVersion, SiteDefaults},
    AppError,
};

#[cfg(feature = "ssr")]
use super::{account::admin, play::service};

/// The common-rules version in force, what it permits and the site's announced defaults.
#[server(endpoint = "agreements")]
pub async fn agreements_now() -> Result<Agreements, AppError> {
    service()?.agreements().await
}

/// A version of the common rules in full (default: the current one) and every version.
#[server(endpoint = "common_rules")]
pub async fn read_common_rules(version: Option<u32>) -> Result<CommonRules, AppError> {
    service()?.common_rules(version).await
}

/// Adds a precedent, making the next version (administrators only).
#[server(endpoint = "admin_add_precedent", input = server_fn::codec::Json)]
pub async fn admin_add_precedent(precedent: NewPrecedent) -> Result<RulesVersion, AppError> {
    service()?.add_precedent(&admin().await?, precedent).await
}

/// Announces new site defaults, with reasons (administrators only).
#[server(endpoint = "admin_set_site_defaults")]
pub async fn admin_set_site_defaults(
    retention_days: u32,
    scoring_wait_min: u32,
    reasons: String,
) -> Result<SiteDefaults, AppError> {
    service()?.set_site_defaults(&admin().await?, retention_days, scoring_wait_min, &reasons).await
}

/// The defaults, a dry run of retention now and the latest runs (administrators only).
#[server(endpoint = "admin_retention")]
pub async fn admin_retention() -> Result<RetentionStatus, AppError> {
    service()?.retention_status(&admin().await?).await
}

/// Runs retention now, with reasons (administrators only).
#[server(endpoint = "admin_run_retention")]
pub async fn admin_run_retention(reasons: String) -> Result<RetentionReport, AppError> {
    service()?.run_retention_now(&admin().await?, &reasons).await
}
