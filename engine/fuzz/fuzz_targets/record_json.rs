#![no_main]
//! JSON record → game → record → JSON → record: never a panic, always equal.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    engine::fuzz_entry::record_json(data);
});
