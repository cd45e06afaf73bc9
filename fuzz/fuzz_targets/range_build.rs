//! `range_build`: `RangeQuery::build` never panics, text bounds are valid
//! UTF-8, and probe keys are inside the range exactly when their values
//! satisfy the predicates (see `lexikey_fuzz::check_range`).
#![no_main]
use lexikey_fuzz::RangeCase;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|case: RangeCase| lexikey_fuzz::check_range(&case));
