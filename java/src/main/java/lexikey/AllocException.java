package lexikey;

/**
 * An allocator call failed. {@link #kind()} says why:
 * <ul>
 * <li>{@code "contention"}: every attempt lost to another client (or met a
 * retryable store error); nothing was written: retrying later may succeed;</li>
 * <li>{@code "exhausted"}: the table's IDs are used up down to the floor
 * (never a wrap);</li>
 * <li>{@code "store"}: an I/O failure during the call;</li>
 * <li>{@code "ambiguous"}: a write whose outcome stayed unknown;</li>
 * <li>{@code "corrupt"}: a row or guard the allocator did not write;</li>
 * <li>{@code "config"}: a configuration the allocator refuses (start below
 * floor, a table name that does not encode);</li>
 * <li>{@code "other"}.</li>
 * </ul>
 * {@link #ids()} lists the IDs that {@link Allocator#insertMany} allocated
 * before the failure (their rows are written).
 */
public class AllocException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Why the call failed. */
    private final String kind;

    /** The IDs allocated before the failure. */
    private final long[] ids;

    /**
     * An allocator error.
     *
     * @param message the allocator's message
     * @param kind why: {@code contention}, {@code exhausted}, {@code store},
     *     {@code ambiguous}, {@code corrupt}, {@code config} or {@code other}
     * @param ids the IDs allocated before the failure (unsigned, as
     *     {@link Long#toUnsignedString(long)} reads them)
     */
    public AllocException(String message, String kind, long[] ids) {
        super(message);
        this.kind = kind;
        this.ids = ids == null ? new long[0] : ids.clone();
    }

    /**
     * Why the call failed.
     *
     * @return {@code contention}, {@code exhausted}, {@code store},
     *     {@code ambiguous}, {@code corrupt}, {@code config} or {@code other}
     */
    public String kind() {
        return kind;
    }

    /**
     * The IDs {@link Allocator#insertMany} allocated before the failure, in
     * order (empty for the other calls).
     *
     * @return a copy of the IDs (unsigned 64-bit values in {@code long}s)
     */
    public long[] ids() {
        return ids.clone();
    }
}
