//! `roundtrip_binary`: tuples → binary key → tuples, and key order = tuple order
//! (see `lexikey_fuzz::check_roundtrip`).
#![no_main]
use lexikey_fuzz::TuplePair;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|pair: TuplePair| lexikey_fuzz::check_roundtrip(lexikey::Format::Binary, &pair));
