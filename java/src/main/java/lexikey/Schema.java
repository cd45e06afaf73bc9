package lexikey;

import java.io.ObjectStreamException;
import java.io.Serializable;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;

/**
 * The fields of a key, parsed once, for encoding and decoding many keys:
 * {@code Schema.of("str,i64.desc", "hex")}.
 *
 * <ul>
 * <li>{@link #encodeText(Object...)} / {@link #encodeBytes(Object...)}: the
 * key of one row, one Java value per field;</li>
 * <li>{@link #decode(Object)}: the values of one key;</li>
 * <li>{@link #encodeTextMany(List)} / {@link #encodeBytesMany(List)} and
 * {@link #decodeMany(List)}: bulk, crossing into the native library once per
 * batch of rows, not once per value;</li>
 * <li>{@link #encodeBytesMany(Iterator, int)} /
 * {@link #encodeTextMany(Iterator, int)}: bulk over a stream (a Spark
 * partition in {@code mapPartitions}), a batch at a time, never holding
 * the stream whole;</li>
 * <li>{@link #range(Object[], Predicate...)}: the half-open key range of a
 * prefix of values and predicates on the next field;
 * {@link #ranges(Object[], Predicate...)}: the same, one range per salt
 * bucket of a salted schema.</li>
 * </ul>
 *
 * <p>The schema is the command line's {@code --schema}: native types
 * ({@code str}, {@code i64}, {@code u64}, {@code i32}, {@code u32}, {@code f64},
 * {@code f32}, {@code bool}, {@code bytes}, {@code ts}, {@code uuid},
 * {@code dec}, and {@code ulid}, {@code uuid7}, {@code geo}; {@code .desc} for
 * descending) or a profile's ({@code fdb-tuple}: element types such as
 * {@code str,int}; {@code hbase-ordered}: {@code text,int64.desc};
 * {@code phoenix}: {@code varchar,bigint.desc,char(3)}). Values are the Java
 * classes {@link Lexikey} documents, checked against their field: an
 * {@code i64} field takes a {@code Long}, {@code Integer}, {@code Short},
 * {@code Byte} or {@code BigInteger} in range; an {@code f64} field a
 * {@code Double}, {@code Float} or an integer; a {@code ts} field an
 * {@code Instant} of whole milliseconds or integer milliseconds; a
 * {@code dec} field a {@code BigDecimal} or an integer (a {@code Double} is
 * refused: it is not exact); a nullable profile field {@code null}.
 *
 * <pre>{@code
 * Schema cities = Schema.of("str,i64.desc,str", "hex");
 * String key = cities.encodeText("population", 8804190L, "New York");
 * Object[] values = cities.decode(key); // {"population", 8804190L, "New York"}
 * }</pre>
 *
 * <p>Immutable and thread-safe: threads may share one schema. It is
 * {@link Serializable} (a Spark closure ships it): it travels as its
 * settings and is parsed again where it lands. The {@code with*} methods
 * return a new schema.
 */
public final class Schema implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Frees the native layouts of unreachable schemas. */
    private static final Cleaner CLEANER = Cleaner.create();

    /** Rows (or keys) per crossing into the native library in bulk calls. */
    static final int CHUNK = 4096;

    /** The fields as given. */
    private final String spec;

    /** The key format. */
    private final String format;

    /** Decimal digits of integer fields ({@code decimal}), or -1. */
    private final int width;

    /** Salt buckets, or -1. */
    private final int saltBuckets;

    /** {@code current}, {@code legacy}, or null. */
    private final String hbaseNumeric;

    /** Round Phoenix DECIMALs of over 38 digits. */
    private final boolean round;

    /** The native layout. */
    private final transient Handle handle;

    /** Whether keys are text. */
    private final transient boolean text;

    /** The field labels. */
    private final transient List<String> fields;

    /** Owns a native layout; runs once, when the schema is unreachable. */
    private static final class Handle implements Runnable {
        final long ptr;

        Handle(long ptr) {
            this.ptr = ptr;
        }

        @Override
        public void run() {
            Native.schemaFree(ptr);
        }
    }

    private Schema(String spec, String format, int width, int saltBuckets, String hbaseNumeric,
            boolean round) {
        this.spec = Objects.requireNonNull(spec, "spec");
        this.format = Objects.requireNonNull(format, "format");
        this.width = width;
        this.saltBuckets = saltBuckets;
        this.hbaseNumeric = hbaseNumeric;
        this.round = round;
        this.text = Lexikey.isText(format);
        long ptr = Native.schemaNew(spec, format, width, saltBuckets, hbaseNumeric, round);
        this.handle = new Handle(ptr);
        CLEANER.register(this, handle);
        this.fields = Collections.unmodifiableList(Arrays.asList(Native.schemaFields(ptr).split(",")));
    }

    /**
     * The schema {@code spec} of keys in {@code format}.
     *
     * @param spec the fields, comma-separated ({@code "str,i64.desc"})
     * @param format {@code hex}, {@code base64}, {@code decimal},
     *     {@code binary}, {@code fdb-tuple}, {@code hbase-ordered} or
     *     {@code phoenix}
     * @return the schema
     * @throws IllegalArgumentException an unknown format or a bad schema
     */
    public static Schema of(String spec, String format) {
        return new Schema(spec, format, -1, -1, null, false);
    }

    /**
     * The schema {@code spec} of {@code hex} keys.
     *
     * @param spec the fields, comma-separated
     * @return the schema
     * @throws IllegalArgumentException a bad schema
     */
    public static Schema of(String spec) {
        return of(spec, "hex");
    }

    /**
     * The same schema with integer fields written in {@code digits} decimal
     * digits (the {@code decimal} format; the command line's {@code --width}).
     *
     * @param digits 1 to 20
     * @return a new schema
     * @throws IllegalArgumentException another format, or out of range
     */
    public Schema withWidth(int digits) {
        if (digits < 0) {
            throw new IllegalArgumentException("invalid width " + digits
                    + ": expected a number of decimal digits from 1 to 20");
        }
        return new Schema(spec, format, digits, saltBuckets, hbaseNumeric, round);
    }

    /**
     * The same schema with salted keys: a bucket prefix spreads writes over
     * {@code n} regions (native formats: the command line's
     * {@code --salt-buckets}, 1 to 255; {@code phoenix}: the table's
     * {@code SALT_BUCKETS}, 1 to 256). A salted schema has one range per
     * bucket: {@link #ranges(Object[], Predicate...)}.
     *
     * @param n the number of buckets
     * @return a new schema
     * @throws IllegalArgumentException out of range, or a profile other than phoenix
     */
    public Schema withSaltBuckets(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("invalid saltBuckets " + n
                    + ": expected a number from 1 to 255 (phoenix: 256)");
        }
        return new Schema(spec, format, width, n, hbaseNumeric, round);
    }

    /**
     * The same schema with {@code hbase-ordered} numerics written as
     * {@code name} says: {@code "current"} (HBase 2.5.0 and later, the
     * default) or {@code "legacy"} (HBase 2.4.x and older, before
     * HBASE-26566): the command line's {@code --hbase-numeric}.
     *
     * @param name {@code current} or {@code legacy}
     * @return a new schema
     * @throws IllegalArgumentException another name or format
     */
    public Schema withHbaseNumeric(String name) {
        return new Schema(spec, format, width, saltBuckets, Objects.requireNonNull(name), round);
    }

    /**
     * The same schema with a Phoenix {@code DECIMAL} of more than 38
     * significant digits rounded half up as Phoenix stores it (instead of
     * refused): the command line's {@code --round}.
     *
     * @param round whether to round
     * @return a new schema
     * @throws IllegalArgumentException a format other than phoenix
     */
    public Schema withRound(boolean round) {
        return new Schema(spec, format, width, saltBuckets, hbaseNumeric, round);
    }

    /**
     * The fields as given.
     *
     * @return the schema text
     */
    public String spec() {
        return spec;
    }

    /**
     * The key format.
     *
     * @return the format's name
     */
    public String format() {
        return format;
    }

    /**
     * The field types as the command line labels them
     * ({@code ["str", "i64.desc"]}).
     *
     * @return the labels, one per field
     */
    public List<String> fields() {
        return fields;
    }

    /**
     * Whether this schema's keys are text ({@code String}s) rather than
     * {@code byte[]}s.
     *
     * @return true for {@code hex}, {@code base64}, {@code decimal}
     */
    public boolean isText() {
        return text;
    }

    // -----------------------------------------------------------------------
    // Encoding
    // -----------------------------------------------------------------------

    private Object encodeOne(boolean asText, Object[] values) {
        if (values == null) {
            throw new IllegalArgumentException("values is null");
        }
        Wire.Writer w = Wire.writer();
        w.row(values);
        try {
            return w.key(asText, len -> Native.schemaEncodeOne(handle.ptr, asText, w.buf, len));
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /**
     * The key of one row in a text format.
     *
     * @param values one value per field
     * @return the key
     * @throws EncodeException a value that does not encode (named with its field)
     * @throws IllegalArgumentException a binary format
     */
    public String encodeText(Object... values) {
        return (String) encodeOne(true, values);
    }

    /**
     * The key of one row in a binary format.
     *
     * @param values one value per field
     * @return the key's bytes
     * @throws EncodeException a value that does not encode (named with its field)
     * @throws IllegalArgumentException a text format
     */
    public byte[] encodeBytes(Object... values) {
        return (byte[]) encodeOne(false, values);
    }

    /** Receives the keys of one chunk. */
    private interface Sink {
        void key(byte[] keys, int start, int end);
    }

    private void encodeAll(boolean asText, List<Object[]> rows, Sink sink) {
        int n = rows.size();
        Wire.Writer w = new Wire.Writer(64 * Math.min(n, CHUNK));
        int[] ends = new int[Math.min(n, CHUNK)];
        try {
            for (int base = 0; base < n; base += CHUNK) {
                int m = Math.min(CHUNK, n - base);
                w.reset();
                for (int i = 0; i < m; i++) {
                    Object[] row = rows.get(base + i);
                    if (row == null) {
                        throw new EncodeException("row " + (base + i) + " is null");
                    }
                    w.row(row);
                }
                byte[] keys = Native.schemaEncode(handle.ptr, asText, w.buf, w.pos, m, base, ends);
                int start = 0;
                for (int i = 0; i < m; i++) {
                    sink.key(keys, start, ends[i]);
                    start = ends[i];
                }
            }
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /**
     * The keys of many rows, in order, in a text format. The rows cross into
     * the native library a batch at a time; the first bad row throws (its
     * message names the row's index).
     *
     * @param rows one array of values per row
     * @return the keys
     * @throws EncodeException a value that does not encode
     * @throws IllegalArgumentException a binary format, or {@code rows}
     *     null
     */
    public List<String> encodeTextMany(List<Object[]> rows) {
        requireRows(rows, "rows");
        List<String> out = new ArrayList<>(rows.size());
        encodeAll(true, rows, (keys, start, end) ->
                out.add(new String(keys, start, end - start, StandardCharsets.UTF_8)));
        return out;
    }

    /**
     * The keys of many rows, in order, in a binary format.
     *
     * @param rows one array of values per row
     * @return the keys
     * @throws EncodeException a value that does not encode
     * @throws IllegalArgumentException a text format, or {@code rows} null
     */
    public List<byte[]> encodeBytesMany(List<Object[]> rows) {
        requireRows(rows, "rows");
        List<byte[]> out = new ArrayList<>(rows.size());
        encodeAll(false, rows, (keys, start, end) -> out.add(Arrays.copyOfRange(keys, start, end)));
        return out;
    }

    /**
     * The keys of a stream of rows, in order, in a binary format, encoded
     * as they are read: the iterator pulls up to {@code batch} rows from
     * {@code rows}, encodes them in one crossing into the native library,
     * hands out their keys, and only then pulls the next batch. A stream
     * that does not fit in memory (a Spark partition in
     * {@code mapPartitions}) is never held whole: at most {@code batch}
     * rows are pulled ahead of the keys handed out.
     *
     * <pre>{@code
     * Schema schema = Schema.of("str,i64.desc,str", "binary");
     * Dataset<byte[]> keys = rows.mapPartitions(
     *     (MapPartitionsFunction<Row, byte[]>) part -> schema.encodeBytesMany(
     *         new Iterator<Object[]>() {
     *             public boolean hasNext() { return part.hasNext(); }
     *             public Object[] next() {
     *                 Row r = part.next();
     *                 return new Object[] {r.getString(0), r.getLong(1), r.getString(2)};
     *             }
     *         }, 4096),
     *     Encoders.BINARY());
     * }</pre>
     *
     * <p>The keys are those {@link #encodeBytesMany(List)} gives for the same
     * rows. Rows are pulled from {@code rows} in {@code hasNext()} (and
     * {@code next()}) when the keys of the batch before have all been handed
     * out; the first call pulls the first batch. A bad row (a value that does
     * not encode, or a null row) throws {@link EncodeException} from that
     * call, naming the row's index in the whole stream (0: the first row
     * {@code rows} gave), before any key of its batch is handed out; the
     * iterator is then finished. An exception {@code rows} throws passes
     * through as it is. The iterator does not support {@code remove()} and
     * is not for several threads at once (the schema is).
     *
     * @param rows the rows, one array of values per row; read once, in
     *     order, and never after the iterator is finished
     * @param batch the most rows encoded in one crossing, and held at a
     *     time: 1 or more (a few thousand amortizes the crossing; the list
     *     methods use 4,096)
     * @return the keys, one per row, in order
     * @throws IllegalArgumentException {@code rows} null, {@code batch} below
     *     1, or a text format (use {@link #encodeTextMany(Iterator, int)})
     */
    public Iterator<byte[]> encodeBytesMany(Iterator<Object[]> rows, int batch) {
        requireStream(rows, batch, false);
        return new Batches<>(rows, batch, false, (keys, start, end) -> Arrays.copyOfRange(keys, start, end));
    }

    /**
     * The keys of a stream of rows, in order, in a text format, encoded as
     * they are read: as {@link #encodeBytesMany(Iterator, int)}, for the text
     * formats ({@code hex}, {@code base64}, {@code decimal}); the keys are
     * those {@link #encodeTextMany(List)} gives for the same rows.
     *
     * @param rows the rows, one array of values per row
     * @param batch the most rows encoded in one crossing, and held at a
     *     time: 1 or more
     * @return the keys, one per row, in order
     * @throws IllegalArgumentException {@code rows} null, {@code batch} below
     *     1, or a binary format (use {@link #encodeBytesMany(Iterator, int)})
     */
    public Iterator<String> encodeTextMany(Iterator<Object[]> rows, int batch) {
        requireStream(rows, batch, true);
        return new Batches<>(rows, batch, true,
                (keys, start, end) -> new String(keys, start, end - start, StandardCharsets.UTF_8));
    }

    /** The argument errors of the streaming calls. */
    private void requireStream(Iterator<Object[]> rows, int batch, boolean asText) {
        if (rows == null) {
            throw new IllegalArgumentException("rows: an Iterator, not null (an empty iterator gives no keys)");
        }
        if (batch < 1) {
            throw new IllegalArgumentException("batch: a number of rows per crossing from 1 to "
                    + Integer.MAX_VALUE + ", not " + batch);
        }
        if (asText != text) {
            throw new IllegalArgumentException(asText
                    ? format + " keys are bytes: use encodeBytesMany (encodeTextMany takes the text formats hex, "
                            + "base64 and decimal)"
                    : format + " keys are text: use encodeTextMany (encodeBytesMany takes binary, fdb-tuple, "
                            + "hbase-ordered and phoenix)");
        }
    }

    /** Makes one key of a batch's keys. */
    private interface KeyMaker<T> {
        T key(byte[] keys, int start, int end);
    }

    /** The iterator of the streaming calls: a batch of keys at a time. */
    private final class Batches<T> implements Iterator<T> {
        private final Iterator<Object[]> rows;
        private final int batch;
        private final boolean asText;
        private final KeyMaker<T> maker;
        private final Wire.Writer w;
        private int[] ends;
        /** The keys of the current batch, concatenated. */
        private byte[] keys;
        /** Rows in the current batch. */
        private int count;
        /** The next key of the current batch to hand out. */
        private int next;
        /** Where that key starts in {@code keys}. */
        private int start;
        /** The stream index of the current batch's first row. */
        private long base;
        /** After the stream's end or an error. */
        private boolean done;

        Batches(Iterator<Object[]> rows, int batch, boolean asText, KeyMaker<T> maker) {
            this.rows = rows;
            this.batch = batch;
            this.asText = asText;
            this.maker = maker;
            int first = Math.min(batch, CHUNK);
            this.w = new Wire.Writer(64 * first);
            this.ends = new int[first];
        }

        @Override
        public boolean hasNext() {
            if (next < count) {
                return true;
            }
            if (done) {
                return false;
            }
            keys = null;
            base += count;
            count = 0;
            next = 0;
            start = 0;
            if (!rows.hasNext()) {
                done = true;
                return false;
            }
            fill();
            return true;
        }

        /** Pulls and encodes the next batch (at least one row is there). */
        private void fill() {
            done = true; // until the batch is encoded
            w.reset();
            int m = 0;
            while (m < batch && rows.hasNext()) {
                Object[] row = rows.next();
                if (row == null) {
                    throw new EncodeException("row " + (base + m) + " is null");
                }
                w.row(row);
                m++;
            }
            if (ends.length < m) {
                ends = new int[m];
            }
            try {
                keys = Native.schemaEncode(handle.ptr, asText, w.buf, w.pos, m, base, ends);
            } finally {
                Reference.reachabilityFence(Schema.this);
            }
            count = m;
            done = false;
        }

        @Override
        public T next() {
            if (!hasNext()) {
                throw new NoSuchElementException("no more keys: the rows have ended");
            }
            int end = ends[next++];
            T key = maker.key(keys, start, end);
            start = end;
            return key;
        }
    }

    /** An argument error naming {@code what} when {@code list} is null. */
    private static void requireRows(List<?> list, String what) {
        if (list == null) {
            throw new IllegalArgumentException(what + ": a List, not null (an empty list gives no keys)");
        }
    }

    // -----------------------------------------------------------------------
    // Decoding
    // -----------------------------------------------------------------------

    /**
     * The values of one key.
     *
     * @param key a {@code String} (a text key, or a binary key as hex text)
     *     or a {@code byte[]}
     * @return one value per field
     * @throws DecodeException a key that does not decode (with its offset)
     */
    public Object[] decode(Object key) {
        List<Object[]> rows = decodeRun(Collections.singletonList(key), 0, 1, -1);
        return rows.get(0);
    }

    /**
     * The values of many keys, in order. The keys cross into the native
     * library a batch at a time; the first bad key throws (its message
     * names the key's index).
     *
     * @param keys {@code String}s or {@code byte[]}s, as {@link #decode(Object)} takes them
     * @return one array of values per key
     * @throws DecodeException a key that does not decode
     * @throws IllegalArgumentException {@code keys} null
     */
    public List<Object[]> decodeMany(List<?> keys) {
        requireRows(keys, "keys");
        List<Object[]> out = new ArrayList<>(keys.size());
        int n = keys.size();
        int start = 0;
        while (start < n) {
            // A run of keys of one kind (String or byte[]), at most CHUNK.
            boolean kind = keys.get(start) instanceof String;
            int end = start + 1;
            while (end < n && end - start < CHUNK && (keys.get(end) instanceof String) == kind) {
                end++;
            }
            out.addAll(decodeRun(keys, start, end, start));
            start = end;
        }
        return out;
    }

    private List<Object[]> decodeRun(List<?> keys, int from, int to, int base) {
        int m = to - from;
        byte[][] parts = new byte[m][];
        int total = 0;
        boolean asText = false;
        for (int i = 0; i < m; i++) {
            Object k = keys.get(from + i);
            if (k instanceof String s) {
                asText = true;
                try {
                    parts[i] = Wire.keyUtf8(s);
                } catch (DecodeException e) {
                    throw base < 0 ? e
                            : new DecodeException("key " + (from + i) + ": " + e.getMessage(), e.offset());
                }
            } else if (k instanceof byte[] b) {
                parts[i] = b;
            } else {
                throw new IllegalArgumentException("a key is a String or a byte[], not "
                        + (k == null ? "null" : k.getClass().getName())
                        + (base < 0 ? "" : " (key " + (from + i) + ")"));
            }
            total += parts[i].length;
        }
        byte[] buf = new byte[total];
        int[] ends = new int[m];
        int at = 0;
        for (int i = 0; i < m; i++) {
            System.arraycopy(parts[i], 0, buf, at, parts[i].length);
            at += parts[i].length;
            ends[i] = at;
        }
        byte[] rows;
        try {
            rows = Native.schemaDecode(handle.ptr, buf, total, ends, m, asText, base);
        } finally {
            Reference.reachabilityFence(this);
        }
        Wire.Reader r = new Wire.Reader(rows);
        List<Object[]> out = new ArrayList<>(m);
        for (int i = 0; i < m; i++) {
            out.add(r.row());
        }
        return out;
    }

    // -----------------------------------------------------------------------
    // Ranges
    // -----------------------------------------------------------------------

    private List<KeyRange> query(Object[] prefix, Predicate[] predicates, boolean all) {
        Wire.Writer w = Wire.writer();
        w.row(prefix == null ? new Object[0] : prefix);
        Predicate[] ps = predicates == null ? new Predicate[0] : predicates;
        w.u32(ps.length);
        for (Predicate p : ps) {
            w.u8(Objects.requireNonNull(p, "predicate").kind().ordinal());
            w.value(p.value());
        }
        byte[] out;
        try {
            out = Native.schemaRanges(handle.ptr, w.buf, w.pos, all);
        } finally {
            Reference.reachabilityFence(this);
        }
        Wire.Reader r = new Wire.Reader(out);
        int n = r.u32();
        List<KeyRange> ranges = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            byte[] start = r.u8() == 1 ? r.bytes() : null;
            byte[] end = r.u8() == 1 ? r.bytes() : null;
            ranges.add(text
                    ? new KeyRange(start == null ? null : new String(start, StandardCharsets.UTF_8),
                            end == null ? null : new String(end, StandardCharsets.UTF_8))
                    : new KeyRange(start, end));
        }
        return ranges;
    }

    /**
     * The half-open key range of the keys whose leading fields hold
     * {@code prefix} and whose next field satisfies every predicate: exactly
     * the command line's {@code range}. Strict bounds on fixed-width values
     * become inclusive bounds on the neighbouring value; a range no key can
     * match is an error.
     *
     * @param prefix values of the leading fields (empty or {@code null}: none)
     * @param predicates conditions on the next field (none: every key under the prefix)
     * @return the range ({@code null} sides are unbounded)
     * @throws EncodeException a value that does not encode, or no key can match
     * @throws IllegalArgumentException a salted schema (use {@link #ranges})
     */
    public KeyRange range(Object[] prefix, Predicate... predicates) {
        return query(prefix, predicates, false).get(0);
    }

    /**
     * The ranges of a query as {@link #range} takes it: for a salted schema
     * one per bucket, bucket 0 first (scan them all, or in parallel, and
     * merge); otherwise the one range.
     *
     * @param prefix values of the leading fields
     * @param predicates conditions on the next field
     * @return the ranges
     * @throws EncodeException a value that does not encode, or no key can match
     */
    public List<KeyRange> ranges(Object[] prefix, Predicate... predicates) {
        return query(prefix, predicates, true);
    }

    // -----------------------------------------------------------------------
    // Key design (lexikey-design: the command line's lint, plan, schema diff)
    // -----------------------------------------------------------------------

    /**
     * Lints the key design on sample rows in insertion order: where recent
     * writes go among {@code regions} regions (hot spots, with the salt
     * bucket count that spreads them), the leading values that take most
     * rows (skew), key sizes against each store's limit. The report is the
     * JSON object {@code lexikey lint --json} prints ({@code hot_spot},
     * {@code busiest_region_share}, {@code suggested_salt_buckets},
     * {@code key_bytes}, ...).
     *
     * @param rows one array of values per row, in insertion order
     * @param regions the table's regions (1 to 65,536; the command line's default is 16)
     * @return the report, one JSON object
     * @throws EncodeException a value that does not encode (naming its row)
     * @throws IllegalArgumentException no rows, a region count out of range
     */
    public String lint(List<Object[]> rows, int regions) {
        return design(rows, regions, null, null);
    }

    /**
     * The command that creates {@code table} split into {@code regions}
     * regions at the sample rows' key quantiles, as {@code lexikey plan}
     * prints it: {@code create 'T', 'cf', SPLITS => [...]} (hbase),
     * {@code cbt createtable T splits=...} (cbt) or Phoenix's
     * {@code CREATE TABLE ... SPLIT ON (...)} (phoenix), one line.
     *
     * @param rows one array of values per row, in insertion order
     * @param regions the table's regions (N-1 split points)
     * @param target {@code hbase}, {@code cbt} or {@code phoenix}
     * @param table the table's name
     * @return the line, ending in a newline
     * @throws EncodeException a value that does not encode (naming its row)
     * @throws IllegalArgumentException an unknown target, too few distinct
     *     keys for the regions, a split the target cannot carry
     */
    public String plan(List<Object[]> rows, int regions, String target, String table) {
        return design(rows, regions, Objects.requireNonNull(target, "target"),
                Objects.requireNonNull(table, "table"));
    }

    /**
     * Whether every key this schema writes reads back under {@code other}
     * as the same values, sorting the same: the JSON object
     * {@code lexikey schema diff --json} prints ({@code compatible},
     * {@code reason}, {@code changes}, the witnesses and, for a breaking
     * change, the {@code migration} plan).
     *
     * @param other the new layout
     * @return the verdict, one JSON object
     */
    public String diff(Schema other) {
        Objects.requireNonNull(other, "other");
        try {
            return Native.schemaDiff(handle.ptr, other.handle.ptr);
        } finally {
            Reference.reachabilityFence(this);
            Reference.reachabilityFence(other);
        }
    }

    /** The keys of {@code rows}, handed with {@code target} to lexikey-design. */
    private String design(List<Object[]> rows, int regions, String target, String table) {
        requireRows(rows, "rows");
        List<byte[]> keys = new ArrayList<>(rows.size());
        if (text) {
            for (String k : encodeTextMany(rows)) {
                keys.add(k.getBytes(StandardCharsets.UTF_8));
            }
        } else {
            keys.addAll(encodeBytesMany(rows));
        }
        int total = 0;
        for (byte[] k : keys) {
            total += k.length;
        }
        byte[] buf = new byte[total];
        int[] ends = new int[keys.size()];
        int at = 0;
        for (int i = 0; i < ends.length; i++) {
            byte[] k = keys.get(i);
            System.arraycopy(k, 0, buf, at, k.length);
            at += k.length;
            ends[i] = at;
        }
        try {
            return Native.schemaDesign(handle.ptr, buf, total, ends, ends.length, regions, target, table);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    // -----------------------------------------------------------------------
    // Object
    // -----------------------------------------------------------------------

    /**
     * A schema read from a stream is parsed again (its native layout does not
     * travel).
     *
     * @return the schema of the same settings
     * @throws ObjectStreamException never
     */
    private Object readResolve() throws ObjectStreamException {
        return new Schema(spec, format, width, saltBuckets, hbaseNumeric, round);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Schema s)) {
            return false;
        }
        return spec.equals(s.spec) && format.equals(s.format) && width == s.width
                && saltBuckets == s.saltBuckets && Objects.equals(hbaseNumeric, s.hbaseNumeric)
                && round == s.round;
    }

    @Override
    public int hashCode() {
        return Objects.hash(spec, format, width, saltBuckets, hbaseNumeric, round);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("Schema.of(\"").append(spec).append("\", \"")
                .append(format).append("\")");
        if (width >= 0) {
            sb.append(".withWidth(").append(width).append(')');
        }
        if (saltBuckets >= 0) {
            sb.append(".withSaltBuckets(").append(saltBuckets).append(')');
        }
        if (hbaseNumeric != null) {
            sb.append(".withHbaseNumeric(\"").append(hbaseNumeric).append("\")");
        }
        if (round) {
            sb.append(".withRound(true)");
        }
        return sb.toString();
    }
}
