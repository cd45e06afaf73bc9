//! `decode_geo`: `Grid::decode` never panics and accepts exactly the codes
//! of the grid; code → cell → code and code → center → code are exact (see
//! `lexikey_fuzz::decoders`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| lexikey_fuzz::decoders::check_decode_geo(data));
