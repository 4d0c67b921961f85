#![no_main]
//! SGF text → SgfGame → engine replay → SGF text. Must never panic.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    engine::fuzz_entry::sgf(data);
});
