//! Random secrets (setup tokens, invitation codes, salts, seeds) from the operating system,
//! and the digest under which secrets are stored.

use crate::AppError;

/// Lowercase hex SHA-256 of `s`: how setup tokens and invitation codes are stored.
pub use room::sha256_hex;

/// `N` bytes from the OS random source.
pub fn random_bytes<const N: usize>() -> Result<[u8; N], AppError> {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).map_err(|e| {
        tracing::error!(error = %e, "the OS random source failed");
        AppError::Internal
    })?;
    Ok(bytes)
}

/// `N` random bytes as lowercase hex (2·N characters).
pub fn random_hex<const N: usize>() -> Result<String, AppError> {
    random_bytes::<N>().map(hex::encode)
}

/// A random 64-bit seed (nigiri). Infallible for its callers: getrandom fails only when the
/// OS has no entropy source at all, where nothing secret can be made (rand's `OsRng`
/// panics the same way).
pub fn random_u64() -> u64 {
    getrandom::u64().expect("the OS random source is unavailable")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_hex_has_the_asked_length_and_differs() {
        let (a, b) = (random_hex::<16>().unwrap(), random_hex::<16>().unwrap());
        assert_eq!(a.len(), 32);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()));
        assert_ne!(a, b);
    }
}
