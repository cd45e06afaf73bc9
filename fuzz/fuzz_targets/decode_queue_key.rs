//! `decode_queue_key`: `QueueKeys::decode` and `QueueMeta::parse` never
//! panic; accepted keys and records re-encode to themselves (see
//! `lexikey_fuzz::decoders`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| lexikey_fuzz::decoders::check_decode_queue(data));
