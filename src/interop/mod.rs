//! Byte-exact interop profiles: FoundationDB tuple layer, HBase
//! `OrderedBytes`, Apache Phoenix row keys (work in progress).
