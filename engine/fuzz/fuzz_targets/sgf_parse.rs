#![no_main]
//! SGF text → SgfGame → SGF text → SgfGame, and game → SGF → game: never a panic, always equal.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    engine::fuzz_entry::sgf(data);
});
