//! `decode_fdb_tuple`: `fdb::unpack` / `unpack_lenient` never panic and
//! decode canonically (see `lexikey_fuzz::interop::check_fdb_unpack`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| lexikey_fuzz::interop::check_fdb_unpack(data));
