package lexikey;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * A half-open key range {@code [start, end)}: the keys {@code k} with
 * {@code start <= k < end} as unsigned bytes. A {@code null} side is
 * unbounded. The sides are {@code String}s for the text formats and
 * {@code byte[]}s for the binary ones (as the keys are).
 *
 * <p>Immutable ({@code byte[]} sides are copied in and out).
 */
public final class KeyRange implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The inclusive start: a String, a byte[], or null. */
    private final Object start;

    /** The exclusive end: a String, a byte[], or null. */
    private final Object end;

    /**
     * A range of text keys.
     *
     * @param start the inclusive start, or {@code null} (unbounded)
     * @param end the exclusive end, or {@code null} (unbounded)
     */
    public KeyRange(String start, String end) {
        this.start = start;
        this.end = end;
    }

    /**
     * A range of binary keys.
     *
     * @param start the inclusive start, or {@code null} (unbounded)
     * @param end the exclusive end, or {@code null} (unbounded)
     */
    public KeyRange(byte[] start, byte[] end) {
        this.start = start == null ? null : start.clone();
        this.end = end == null ? null : end.clone();
    }

    private static Object copy(Object side) {
        return side instanceof byte[] b ? b.clone() : side;
    }

    /**
     * The inclusive start.
     *
     * @return a {@code String} (text keys), a {@code byte[]} (binary keys),
     *     or {@code null} (unbounded)
     */
    public Object start() {
        return copy(start);
    }

    /**
     * The exclusive end.
     *
     * @return a {@code String} (text keys), a {@code byte[]} (binary keys),
     *     or {@code null} (unbounded)
     */
    public Object end() {
        return copy(end);
    }

    /**
     * Whether the sides are text keys (a range with both sides unbounded
     * counts as text).
     *
     * @return true for a range of a text format
     */
    public boolean isText() {
        return !(start instanceof byte[] || end instanceof byte[]);
    }

    private static byte[] bytes(Object side) {
        if (side == null) {
            return null;
        }
        return side instanceof byte[] b ? b.clone() : ((String) side).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The start as bytes (a text key's UTF-8), what a store's client takes.
     *
     * @return the bytes, or {@code null} (unbounded)
     */
    public byte[] startBytes() {
        return bytes(start);
    }

    /**
     * The end as bytes (a text key's UTF-8).
     *
     * @return the bytes, or {@code null} (unbounded)
     */
    public byte[] endBytes() {
        return bytes(end);
    }

    /**
     * The range in a store's syntax ({@link Lexikey#render(Object, Object, String, String)}).
     *
     * @param target {@code hbase}, {@code cql}, {@code rocksdb}, {@code etcd},
     *     {@code redis}, {@code sql} or {@code raw}
     * @param table the table's name, or {@code null}
     * @return the command or statement, with its final newline
     */
    public String render(String target, String table) {
        return Lexikey.render(start, end, target, table);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof KeyRange r)) {
            return false;
        }
        return Objects.deepEquals(start, r.start) && Objects.deepEquals(end, r.end);
    }

    @Override
    public int hashCode() {
        return 31 * side(start) + side(end);
    }

    private static int side(Object s) {
        return s instanceof byte[] b ? Arrays.hashCode(b) : Objects.hashCode(s);
    }

    private static String show(Object s) {
        if (s == null) {
            return "unbounded";
        }
        if (s instanceof byte[] b) {
            StringBuilder sb = new StringBuilder("0x");
            for (byte x : b) {
                sb.append(String.format("%02x", x & 0xFF));
            }
            return sb.toString();
        }
        return '"' + (String) s + '"';
    }

    @Override
    public String toString() {
        return "KeyRange[" + show(start) + ", " + show(end) + ")";
    }
}
