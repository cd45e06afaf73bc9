//! `parse_ts`: parse → print → parse is stable (see
//! `lexikey_fuzz::check_parse_ts`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| lexikey_fuzz::check_parse_ts(data));
