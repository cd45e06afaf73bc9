//! `decode_lists`: the list-component (`list<TYPE>`) decoders never panic,
//! report errors inside the input and decode canonically in every format
//! (see `lexikey_fuzz::check_decode_lists`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| lexikey_fuzz::check_decode_lists(data));
