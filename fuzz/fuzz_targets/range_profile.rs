//! `range_profile`: the interop range builder (`KeySpec::ranges`,
//! `ProfileRange::build`) on arbitrary profiles, options, components and
//! predicates never panics, agrees with itself, returns non-empty ranges
//! (one per salt bucket) that hold exactly the keys a single predicate
//! names (see `lexikey_fuzz::layers::check_range_profile`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| lexikey_fuzz::layers::check_range_profile(data));
