package lexikey;

import java.io.Serializable;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * The settings of an {@link Allocator}'s table: the key format of its rows,
 * the reuse guard, the first ID of an empty table and the floor.
 * {@code AllocatorOptions.defaults().withGuard(true)}.
 *
 * <p>IDs are unsigned 64-bit numbers held in a {@code long} as
 * {@link Long#toUnsignedString(long)} reads them: {@code -1L} is
 * 18446744073709551615, the default first ID. Every client of a table
 * should give the same options. Immutable.
 */
public final class AllocatorOptions implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The key format of the rows. */
    private final String format;

    /** The reuse guard. */
    private final boolean guard;

    /** An empty table's first ID, if set. */
    private final Long start;

    /** The smallest ID handed out, if set. */
    private final Long floor;

    /** Open for reading: create nothing, salt as the table's record says. */
    private final boolean readOnly;

    private AllocatorOptions(String format, boolean guard, Long start, Long floor,
            boolean readOnly) {
        this.format = format;
        this.guard = guard;
        this.start = start;
        this.floor = floor;
        this.readOnly = readOnly;
    }

    /**
     * The defaults: {@code hex} keys, no guard, first ID
     * 18446744073709551615, floor 0.
     *
     * @return the default options
     */
    public static AllocatorOptions defaults() {
        return new AllocatorOptions("hex", false, null, null, false);
    }

    /**
     * The same options with rows keyed in {@code format}.
     *
     * @param format {@code hex}, {@code base64}, {@code decimal} or {@code binary}
     * @return new options
     */
    public AllocatorOptions withFormat(String format) {
        return new AllocatorOptions(Objects.requireNonNull(format, "format"), guard, start, floor,
                readOnly);
    }

    /**
     * The same options with the reuse guard on or off: with it, an ID whose
     * row was deleted is never handed out again (a low-water mark kept by
     * compare-and-set: one more round trip per ID).
     *
     * @param guard whether to guard
     * @return new options
     */
    public AllocatorOptions withGuard(boolean guard) {
        return new AllocatorOptions(format, guard, start, floor, readOnly);
    }

    /**
     * The same options with an empty table's first ID.
     *
     * @param id an unsigned 64-bit ID ({@code Long.parseUnsignedLong} reads one)
     * @return new options
     */
    public AllocatorOptions withStart(long id) {
        return new AllocatorOptions(format, guard, id, floor, readOnly);
    }

    /**
     * The same options with the smallest ID ever handed out; below it
     * {@link Allocator#insert} throws {@link AllocException} of kind
     * {@code exhausted}.
     *
     * @param id an unsigned 64-bit ID
     * @return new options
     */
    public AllocatorOptions withFloor(long id) {
        return new AllocatorOptions(format, guard, start, id, readOnly);
    }

    /**
     * The same options opening the table for reading, as {@code lexikey scan}
     * and Python's {@code read_only=True} do: nothing is created (a missing
     * file, PostgreSQL table, Bigtable table or column family is a
     * {@link StoreException} naming it), file stores open read-only, writes
     * throw, and a salted table is read with the salt its salt record names.
     *
     * @param readOnly whether to open for reading only
     * @return new options
     */
    public AllocatorOptions withReadOnly(boolean readOnly) {
        return new AllocatorOptions(format, guard, start, floor, readOnly);
    }

    /**
     * The key format of the rows.
     *
     * @return the format's name
     */
    public String format() {
        return format;
    }

    /**
     * Whether the reuse guard is on.
     *
     * @return the guard
     */
    public boolean guard() {
        return guard;
    }

    /**
     * An empty table's first ID, if set.
     *
     * @return the unsigned ID, or empty for the default (18446744073709551615)
     */
    public OptionalLong start() {
        return start == null ? OptionalLong.empty() : OptionalLong.of(start);
    }

    /**
     * The smallest ID handed out, if set.
     *
     * @return the unsigned ID, or empty for the default (0)
     */
    public OptionalLong floor() {
        return floor == null ? OptionalLong.empty() : OptionalLong.of(floor);
    }

    /**
     * Whether the table is opened for reading only ({@link #withReadOnly}).
     *
     * @return read-only
     */
    public boolean readOnly() {
        return readOnly;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AllocatorOptions a && format.equals(a.format) && guard == a.guard
                && Objects.equals(start, a.start) && Objects.equals(floor, a.floor)
                && readOnly == a.readOnly;
    }

    @Override
    public int hashCode() {
        return Objects.hash(format, guard, start, floor, readOnly);
    }

    @Override
    public String toString() {
        return "AllocatorOptions[format=" + format + ", guard=" + guard
                + (start == null ? "" : ", start=" + Long.toUnsignedString(start))
                + (floor == null ? "" : ", floor=" + Long.toUnsignedString(floor))
                + (readOnly ? ", readOnly=true" : "") + "]";
    }
}
