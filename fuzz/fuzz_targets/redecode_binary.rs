//! `redecode_binary`: a binary key that decodes re-encodes to exactly itself
//! (see `lexikey_fuzz::check_redecode`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| lexikey_fuzz::check_redecode(lexikey::Format::Binary, data));
