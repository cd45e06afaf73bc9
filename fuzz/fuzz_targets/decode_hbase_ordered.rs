//! `decode_hbase_ordered`: `hbase::decode_struct` under a fuzzed schema never
//! panics and decodes canonically (see
//! `lexikey_fuzz::interop::check_hbase_decode`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| lexikey_fuzz::interop::check_hbase_decode(data));
