//! `parse_kind_component`: `kind::parse_component` / `parse_schema` on
//! arbitrary text and grids never panic, and what `Col::write_value`
//! writes parses back to the same value (see
//! `lexikey_fuzz::layers::check_parse_kind`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| lexikey_fuzz::layers::check_parse_kind(data));
