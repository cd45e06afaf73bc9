package lexikey;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Decreasing row IDs for an upside-down table: the newest row gets the
 * smallest key, so "latest first" is a forward scan that stops after one
 * row, and the oldest row sits at a constant key.
 *
 * <p>IDs are <b>unsigned 64-bit</b> numbers held in a {@code long} as
 * {@link Long#toUnsignedString(long)} reads them: the first row of an empty
 * table gets 18446744073709551615, which is {@code -1L}; compare IDs with
 * {@link Long#compareUnsigned(long, long)}.
 *
 * <p>The store is any URL the command line takes: {@code redb:PATH}
 * (embedded; processes may share the file), {@code redis://HOST:PORT},
 * {@code postgres://USER@HOST:PORT/DB}, {@code etcd://HOST:PORT[,HOST:PORT...]},
 * {@code memory:} (options after {@code ?}, e.g. {@code ?ns=NAME}). It is
 * opened as {@code lexikey alloc} opens it (the same store tuning and key
 * rule). Rows are the keys {@code (str:TABLE, u64:ID)}. Threads and
 * processes may share a table: no ID is ever handed out twice, and a write
 * whose outcome is unknown is read back before anything is decided (see
 * docs/allocator.md, "What the allocator guarantees").
 *
 * <pre>{@code
 * try (Allocator comments = new Allocator("redb:/tmp/app.redb", "comments",
 *         AllocatorOptions.defaults())) {
 *     long id = comments.insert("first!".getBytes(StandardCharsets.UTF_8));
 *     Long.toUnsignedString(id); // "18446744073709551615" on an empty table
 * }
 * }</pre>
 *
 * <p>Thread-safe. Calls block on the store (network round trips): keep them
 * off latency-critical threads. {@link #close()} waits for calls in progress.
 */
public final class Allocator implements AutoCloseable {
    /** The native table; 0 once closed. */
    private long handle;

    /** Calls hold the read lock; close takes the write lock. */
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();

    /** The table's name. */
    private final String table;

    /**
     * A row of the table.
     */
    public static final class Row {
        /** The row's ID (unsigned). */
        private final long id;

        /** The row's value. */
        private final byte[] value;

        Row(long id, byte[] value) {
            this.id = id;
            this.value = value;
        }

        /**
         * The row's ID.
         *
         * @return the ID, unsigned 64-bit ({@link Long#toUnsignedString(long)})
         */
        public long id() {
            return id;
        }

        /**
         * The row's value.
         *
         * @return a copy of the value
         */
        public byte[] value() {
            return value.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Row r && id == r.id && Arrays.equals(value, r.value);
        }

        @Override
        public int hashCode() {
            return 31 * Long.hashCode(id) + Arrays.hashCode(value);
        }

        @Override
        public String toString() {
            return "Row[" + Long.toUnsignedString(id) + ", " + value.length + " bytes]";
        }
    }

    /**
     * Opens table {@code table} of the store at {@code storeUrl} with the
     * default options.
     *
     * @param storeUrl the store's URL
     * @param table the table's name
     * @throws StoreException the store cannot be opened or reached
     * @throws AllocException the allocator refuses the configuration
     * @throws IllegalArgumentException a URL that does not parse
     */
    public Allocator(String storeUrl, String table) {
        this(storeUrl, table, AllocatorOptions.defaults());
    }

    /**
     * Opens table {@code table} of the store at {@code storeUrl}.
     *
     * @param storeUrl the store's URL
     * @param table the table's name
     * @param options the table's settings
     * @throws StoreException the store cannot be opened or reached
     * @throws AllocException the allocator refuses the configuration (kind
     *     {@code config}: start below floor, ...)
     * @throws IllegalArgumentException a URL that does not parse, a format
     *     other than the native ones
     */
    public Allocator(String storeUrl, String table, AllocatorOptions options) {
        Objects.requireNonNull(storeUrl, "storeUrl");
        this.table = Objects.requireNonNull(table, "table");
        AllocatorOptions o = Objects.requireNonNull(options, "options");
        this.handle = Native.allocOpen(storeUrl, table, o.format(), o.guard(),
                o.start().orElse(0), o.start().isPresent(), o.floor().orElse(0), o.floor().isPresent(),
                o.readOnly());
    }

    private long open() {
        if (handle == 0) {
            throw new IllegalStateException("the allocator of " + table + " is closed");
        }
        return handle;
    }

    /**
     * Inserts a row holding {@code value} under a new ID (one below the
     * newest row's) and returns the ID.
     *
     * @param value the row's value
     * @return the new ID (unsigned)
     * @throws AllocException the call failed ({@link AllocException#kind()} says why)
     */
    public long insert(byte[] value) {
        Objects.requireNonNull(value, "value");
        lock.readLock().lock();
        try {
            return Native.allocInsert(open(), value);
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * Inserts one row per value, in order, and returns their IDs (each below
     * the one before). On redb, RocksDB, SlateDB, PostgreSQL and
     * {@code memory:} the values are committed in batches of up to 1,024,
     * each one transaction (one fsync on redb); on Redis, etcd and Bigtable
     * each value is its own insert. On a failure the exception's
     * {@link AllocException#ids()} holds the IDs allocated before it (whole
     * batches).
     *
     * @param values the rows' values
     * @return the new IDs (unsigned)
     * @throws AllocException the call failed
     */
    public long[] insertMany(List<byte[]> values) {
        int total = 0;
        int[] ends = new int[values.size()];
        for (int i = 0; i < ends.length; i++) {
            total = Math.addExact(total, Objects.requireNonNull(values.get(i), "value").length);
            ends[i] = total;
        }
        byte[] buf = new byte[total];
        int at = 0;
        for (byte[] v : values) {
            System.arraycopy(v, 0, buf, at, v.length);
            at += v.length;
        }
        lock.readLock().lock();
        try {
            return Native.allocInsertMany(open(), buf, ends);
        } finally {
            lock.readLock().unlock();
        }
    }

    private List<Row> rows(int which, long limit) {
        byte[] out;
        lock.readLock().lock();
        try {
            out = Native.allocRows(open(), which, limit);
        } finally {
            lock.readLock().unlock();
        }
        Wire.Reader r = new Wire.Reader(out);
        int n = r.u32();
        List<Row> rows = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            long id = r.i64();
            rows.add(new Row(id, r.bytes()));
        }
        return rows;
    }

    /**
     * The newest row (the smallest ID).
     *
     * @return the row, or empty for an empty table
     * @throws AllocException the call failed
     */
    public Optional<Row> newest() {
        return rows(0, 1).stream().findFirst();
    }

    /**
     * The oldest row (the largest ID).
     *
     * @return the row, or empty for an empty table
     * @throws AllocException the call failed
     */
    public Optional<Row> oldest() {
        return rows(1, 1).stream().findFirst();
    }

    /**
     * Up to {@code limit} rows, newest first.
     *
     * @param limit the most rows to return (0 or more)
     * @return the rows
     * @throws AllocException the call failed
     */
    public List<Row> scan(int limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("limit " + limit + " is negative");
        }
        return rows(2, limit);
    }

    /**
     * Every row, newest first.
     *
     * @return the rows
     * @throws AllocException the call failed
     */
    public List<Row> scan() {
        return rows(2, -1);
    }

    /**
     * Closes the store connection; calls in progress finish first. Calls
     * after it throw {@link IllegalStateException}; a second close does nothing.
     */
    @Override
    public void close() {
        lock.writeLock().lock();
        try {
            if (handle != 0) {
                Native.allocFree(handle);
                handle = 0;
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public String toString() {
        return "Allocator(" + table + ")";
    }
}
