package lexikey;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keys one at a time: encode components, decode a key, render a range in a
 * store's syntax. The same keys as the {@code lexikey} command, the Rust
 * library and the Python package, byte for byte.
 *
 * <p>Formats: {@code hex} (the default of the command line), {@code base64},
 * {@code decimal} (text: {@link #encodeText} returns a {@code String}),
 * {@code binary}, {@code fdb-tuple}, {@code hbase-ordered}, {@code phoenix}
 * (bytes: {@link #encodeBytes} returns a {@code byte[]}).
 *
 * <p>A component is a {@code "TYPE[.desc]:VALUE"} string as the command line
 * takes it ({@code "i64.desc:5"}, {@code "dec:10.50"}, a profile's own types
 * such as {@code "bigint:5"}) or a plain Java value whose class names its
 * type:
 * <table>
 * <caption>Plain values</caption>
 * <tr><th>Java</th><th>native formats</th><th>fdb-tuple</th><th>hbase-ordered</th><th>phoenix</th></tr>
 * <tr><td>{@code String}</td><td>str</td><td>str</td><td>text</td><td>varchar</td></tr>
 * <tr><td>{@code Long}, {@code Integer}</td><td>i64, i32</td><td>int</td><td>int64, int32</td><td>bigint, integer</td></tr>
 * <tr><td>{@code Double}, {@code Float}</td><td>f64, f32</td><td>f64, f32</td><td>float64, float32</td><td>double, float</td></tr>
 * <tr><td>{@code Boolean}</td><td>bool</td><td>bool</td><td>—</td><td>boolean</td></tr>
 * <tr><td>{@code byte[]}</td><td>bytes</td><td>bytes</td><td>blob-var</td><td>varbinary</td></tr>
 * <tr><td>{@code java.time.Instant}</td><td>ts (whole milliseconds)</td><td>—</td><td>—</td><td>timestamp</td></tr>
 * <tr><td>{@code java.util.UUID}</td><td>uuid</td><td>uuid</td><td>—</td><td>—</td></tr>
 * <tr><td>{@code java.math.BigDecimal}</td><td>dec</td><td>—</td><td>numeric</td><td>decimal</td></tr>
 * <tr><td>{@code null}</td><td>—</td><td>null</td><td colspan="2">the bare type ({@code "varchar"})</td></tr>
 * <tr><td>{@link Versionstamp}</td><td>—</td><td>versionstamp</td><td>—</td><td>—</td></tr>
 * <tr><td>{@code java.util.List}</td><td>—</td><td>a nested tuple of components (up to 100 levels)</td><td>—</td><td>—</td></tr>
 * </table>
 * A {@code String} holding a {@code ':'} is always a component string (so that
 * a mistyped type is an error, never a value): give a string value that holds
 * one as {@code "str:usa:ca"}. In the profiles a bare type name
 * ({@code "varchar"}, {@code "text.desc"}) is a null of that type.
 *
 * <pre>{@code
 * String key = Lexikey.encodeText("hex", "str:population", 3831868L);
 * // "population#l80000000003A783C"
 * List<Object> values = Lexikey.decode("hex", key, null);
 * // ["population", 3831868L]
 * }</pre>
 *
 * <p>Every method is thread-safe. Bad input throws {@link EncodeException}
 * (values) or {@link DecodeException} (keys, with the byte offset), both
 * {@link IllegalArgumentException}s; an unknown format, schema or render
 * target throws a plain {@link IllegalArgumentException}. For many keys of
 * one layout, {@link Schema} parses the layout once and crosses into the
 * native library once per batch.
 */
public final class Lexikey {
    private Lexikey() {}

    /**
     * The key of {@code components} in a text format.
     *
     * @param format {@code hex}, {@code base64} or {@code decimal}
     * @param components component strings or plain values (see the class docs);
     *     none is the empty key
     * @return the key (ASCII or UTF-8 text)
     * @throws EncodeException a component that does not encode
     * @throws IllegalArgumentException an unknown format, or a binary one
     */
    public static String encodeText(String format, Object... components) {
        return (String) encode(format, true, components);
    }

    /**
     * The key of {@code components} in a binary format.
     *
     * @param format {@code binary}, {@code fdb-tuple}, {@code hbase-ordered} or {@code phoenix}
     * @param components component strings or plain values (see the class docs)
     * @return the key's bytes
     * @throws EncodeException a component that does not encode
     * @throws IllegalArgumentException an unknown format, or a text one
     */
    public static byte[] encodeBytes(String format, Object... components) {
        return (byte[]) encode(format, false, components);
    }

    /**
     * The {@code fdb-tuple} key of {@code components} for FoundationDB's
     * {@code SET_VERSIONSTAMPED_KEY}: exactly one of them (at any depth) an
     * incomplete {@link Versionstamp}, the key ending in the 4-byte
     * little-endian offset of its transaction version, as the official
     * bindings' {@code Tuple.packWithVersionstamp()} writes it. A
     * {@code List} among the components is a nested tuple.
     *
     * @param components component strings or plain values (see the class docs)
     * @return the key's bytes
     * @throws EncodeException no incomplete versionstamp, more than one, or
     *     a component that does not encode
     */
    public static byte[] packWithVersionstamp(Object... components) {
        if (components == null) {
            throw new IllegalArgumentException("components is null (a null component is (Object) null)");
        }
        Wire.Writer w = Wire.writer();
        w.row(components);
        return Native.packWithVersionstamp(w.buf, w.pos);
    }

    /** Format codes by name (only names that parse are cached). */
    private static final ConcurrentHashMap<String, Integer> CODES = new ConcurrentHashMap<>();

    /** The native library's code of a format name. */
    static int code(String format) {
        Integer c = CODES.get(Objects.requireNonNull(format, "format"));
        if (c == null) {
            c = Native.formatCode(format);
            CODES.put(format, c);
        }
        return c;
    }

    private static Object encode(String format, boolean text, Object[] components) {
        int code = code(format);
        Wire.Writer w = Wire.writer();
        if (components == null) {
            throw new IllegalArgumentException("components is null (a null component is (Object) null)");
        }
        w.row(components);
        return w.key(text, len -> Native.encode(code, text, w.buf, len, false));
    }

    /**
     * The values of a text key (or of a binary key given as hex text:
     * {@code "706f70"}, {@code "0x706f70"}, or HBase's
     * {@code Bytes.toStringBinary} form {@code "pop\x00\x01"}).
     *
     * @param format the key's format
     * @param key the key
     * @param schema the key's fields ({@code "str,i64.desc"}), needed for
     *     {@code decimal}, {@code binary}, {@code hbase-ordered} and
     *     {@code phoenix} keys; {@code null} reads {@code hex} and
     *     {@code base64} keys by their type tags ({@code fdb-tuple} keys are
     *     self-describing and take none)
     * @return the values, one per component, as the Java classes of the
     *     class docs ({@code u64}: {@code BigInteger}; {@code u32}:
     *     {@code Long}; nested tuples: {@code List<Object>})
     * @throws DecodeException a key that does not decode (with its offset)
     * @throws IllegalArgumentException an unknown format or a bad schema
     */
    public static List<Object> decode(String format, String key, String schema) {
        byte[] k = Wire.keyUtf8(key);
        return Arrays.asList(new Wire.Reader(Native.decode(format, schema, k, k.length, true)).row());
    }

    /**
     * The values of a key given as bytes.
     *
     * @param format the key's format
     * @param key the key's bytes
     * @param schema as in {@link #decode(String, String, String)}
     * @return the values, one per component
     * @throws DecodeException a key that does not decode (with its offset)
     * @throws IllegalArgumentException an unknown format or a bad schema
     */
    public static List<Object> decode(String format, byte[] key, String schema) {
        return Arrays.asList(new Wire.Reader(Native.decode(format, schema, key, key.length, false)).row());
    }

    /**
     * The reverse number {@code Long.MAX_VALUE - n} that existing HBase
     * tables hold for newest-first order; its own inverse.
     *
     * @param n from 0 to {@code Long.MAX_VALUE}
     * @return {@code Long.MAX_VALUE - n}
     * @throws EncodeException a negative {@code n}
     */
    public static long reverse(long n) {
        return Native.reverse(n);
    }

    /**
     * One key as the HBase shell prints it (HBase's
     * {@code Bytes.toStringBinary}): printable ASCII as itself, every other
     * byte and the backslash as {@code \xNN} with uppercase digits, e.g.
     * {@code "pop\x00\x01"}. {@link #decode(String, String, String)} reads
     * that form back for the binary formats when it holds an escape (a key
     * of printable ASCII alone prints as itself, which reads as hex).
     *
     * @param key the key's bytes
     * @return the key as text
     * @throws IllegalArgumentException a null key
     */
    public static String show(byte[] key) {
        if (key == null) {
            throw new IllegalArgumentException("key: a byte[], not null");
        }
        return Native.show(key);
    }

    /**
     * The version of lexikey this jar's native library was built from (the
     * jar's manifest carries the same as {@code Implementation-Version}).
     *
     * @return the version, e.g. {@code "0.1.0"}
     */
    public static String version() {
        return Native.version();
    }

    /**
     * The range {@code [start, end)} in a store's syntax, exactly the text of
     * the command line's {@code range --for TARGET --table TABLE}.
     *
     * @param start the inclusive start: a {@code String} (a text key), a
     *     {@code byte[]} (a binary key), or {@code null} (unbounded)
     * @param end the exclusive end, the same way
     * @param target {@code hbase}, {@code cbt}, {@code cql}, {@code rocksdb},
     *     {@code etcd}, {@code redis}, {@code sql} or {@code raw}
     * @param table the table's name, or {@code null} for the target's default
     * @return the command or statement, with its final newline
     * @throws IllegalArgumentException an unknown target, an empty range, a
     *     key the target cannot write exactly, a bad name
     */
    public static String render(Object start, Object end, String target, String table) {
        boolean text = !(start instanceof byte[] || end instanceof byte[]);
        return Native.render(bound(start), bound(end), text, target, table);
    }

    /**
     * A range in a store's syntax (see {@link #render(Object, Object, String, String)}).
     *
     * @param range the range
     * @param target the store's syntax
     * @param table the table's name, or {@code null}
     * @return the command or statement
     */
    public static String render(KeyRange range, String target, String table) {
        return render(range.start(), range.end(), target, table);
    }

    private static byte[] bound(Object b) {
        if (b == null) {
            return null;
        }
        if (b instanceof byte[] bytes) {
            return bytes;
        }
        if (b instanceof String s) {
            return Wire.keyUtf8(s);
        }
        throw new IllegalArgumentException("a range bound is a String, a byte[] or null, not "
                + b.getClass().getName());
    }

    /**
     * Whether a format's keys are text.
     *
     * @param format a format name
     * @return true for {@code hex}, {@code base64}, {@code decimal}
     * @throws IllegalArgumentException an unknown format
     */
    public static boolean isText(String format) {
        return (code(format) & Native.TEXT_BIT) != 0;
    }
}
