/**
 * lexikey for the JVM: sortable row keys for ordered key-value stores
 * (HBase and Bigtable row keys, Cassandra clustering keys, RocksDB, etcd,
 * Redis sorted sets, PostgreSQL), byte for byte the keys of the Rust
 * library, the {@code lexikey} command and the Python package.
 *
 * <p>{@code encode(a) < encode(b)} as unsigned bytes exactly when
 * {@code a < b} as values, for every type and format, ascending and
 * descending, alone or inside composite keys; every key decodes back to its
 * values.
 *
 * <ul>
 * <li>{@link lexikey.Lexikey}: one key at a time ({@code encodeText},
 * {@code encodeBytes}, {@code decode}, {@code reverse}, {@code render});</li>
 * <li>{@link lexikey.Schema}: a layout parsed once; bulk encoding and
 * decoding; ranges ({@link lexikey.KeyRange}, {@link lexikey.Predicate});</li>
 * <li>{@link lexikey.Allocator}: decreasing row IDs for upside-down tables
 * on redb, Redis, PostgreSQL and etcd ({@link lexikey.AllocatorOptions});</li>
 * <li>exceptions: {@link lexikey.EncodeException} and
 * {@link lexikey.DecodeException} ({@code IllegalArgumentException}s),
 * {@link lexikey.AllocException}, {@link lexikey.StoreException} (an
 * {@code UncheckedIOException}).</li>
 * </ul>
 *
 * <p>The codec is the Rust core, reached through JNI: {@code lexikey.jar}
 * carries the native library for linux-x86_64 and loads it on first use.
 * Nothing in Java re-implements a format.
 */
package lexikey;
