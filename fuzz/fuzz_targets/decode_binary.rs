//! `decode_binary`: the binary decoders never panic on arbitrary bytes, with and
//! without a schema (see `lexikey_fuzz::check_decode`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| lexikey_fuzz::check_decode(lexikey::Format::Binary, data));
