//! `parse_store_url`: `lexikey_stores::parse_url` never panics; an accepted
//! URL's canonical rendering parses to the same spec (see
//! `lexikey_fuzz::decoders`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| lexikey_fuzz::decoders::check_parse_store_url(data));
