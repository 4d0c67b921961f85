#![no_main]
//! GTP command lines through the full dispatcher. Must never panic.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    engine::fuzz_entry::gtp(data);
});
