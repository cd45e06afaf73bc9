//! `decode_nulls`: the nullable-component (`TYPE?`) decoders never panic,
//! report errors inside the input and decode canonically in every format
//! (see `lexikey_fuzz::check_decode_nulls`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| lexikey_fuzz::check_decode_nulls(data));
