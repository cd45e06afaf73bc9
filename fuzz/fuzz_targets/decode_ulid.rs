//! `decode_ulid`: the ULID parsers (strict, lenient, on bytes) never panic;
//! strict decode is canonical; lenient agrees with strict on the canonical
//! form; UUIDv7 fields round-trip (see `lexikey_fuzz::decoders`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| lexikey_fuzz::decoders::check_decode_ulid(data));
