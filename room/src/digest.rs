//! The digest under which secrets are stored: invitation codes here (a room keeps only their
//! digests, and a code is checked against them), setup tokens in the app's storage.

use sha2::{Digest, Sha256};

/// Lowercase hex SHA-256 of `s`.
pub fn sha256_hex(s: &str) -> String {
    hex::encode(Sha256::digest(s.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digest_is_lowercase_hex_sha256() {
        assert_eq!(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }
}
