//! Byte-exact interop profiles: keys that Java and FoundationDB code
//! already wrote, read and written byte for byte.
//!
//! | profile | module | CLI `--format` | element model |
//! |---|---|---|---|
//! | FoundationDB tuple layer | [`fdb`] | `fdb-tuple` | [`fdb::Element`] (self-describing: type codes) |
//!
//! # FoundationDB (`fdb-tuple`)
//!
//! - [`fdb::pack`]`(&[Element], &mut Vec<u8>)`, [`fdb::pack_to_vec`],
//!   [`fdb::unpack`]`(&[u8]) -> Result<Vec<Element>, DecodeError>`
//!   (canonical), [`fdb::unpack_lenient`] (also Python's form of ±(2^64−1)).
//! - Keys are self-describing: `decode` needs no schema.
//! - Components: [`fdb::parse_component`] / [`fdb::format_component`]:
//!   `null:`, `bytes:HEX`, `str:TEXT`, `int:DEC` (any size up to 255
//!   bytes; `i64`/`u64`/`i32`/`u32` are range-checked aliases), `f32:`,
//!   `f64:` (also `0x` + raw IEEE bits), `bool:`, `uuid:`,
//!   `versionstamp:HEX24`. No `.desc`: the tuple layer has no descending
//!   order.
//!
//! Every decoder returns [`crate::DecodeError`] with the offset of the byte
//! at fault and never panics, whatever the input.

pub mod fdb;
