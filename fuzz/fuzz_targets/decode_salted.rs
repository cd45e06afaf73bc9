//! `decode_salted`: `Salter::unsalt` never panics; an accepted salted key
//! re-salts to itself (see `lexikey_fuzz::decoders`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| lexikey_fuzz::decoders::check_unsalt(data));
