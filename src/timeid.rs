//! Time-ordered IDs: ULID and UUIDv7 (work in progress).
