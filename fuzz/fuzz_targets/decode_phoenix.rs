//! `decode_phoenix`: `phoenix::decode_row_key` of a fuzzed table (columns,
//! salt, layout) never panics and decodes canonically (see
//! `lexikey_fuzz::interop::check_phoenix_decode`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| lexikey_fuzz::interop::check_phoenix_decode(data));
