//! `decode_dec`: the `dec` decoders (ELEN text, binary) never panic and
//! decode canonically; `Dec::parse` is stable (see
//! `lexikey_fuzz::check_decode_dec`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| lexikey_fuzz::check_decode_dec(data));
