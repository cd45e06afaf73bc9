//! `parse_fdb_component`: the FoundationDB component syntax (nested tuples,
//! versionstamps) never panics, reads back what it prints, and packs what
//! `unpack` and `pack_with_versionstamp` agree on (see
//! `lexikey_fuzz::interop::check_fdb_component`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| lexikey_fuzz::interop::check_fdb_component(data));
