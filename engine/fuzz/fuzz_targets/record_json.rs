#![no_main]
//! JSON game record parsing and replay. Must never panic.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    engine::fuzz_entry::record_json(data);
});
