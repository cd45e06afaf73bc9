package lexikey;

import java.io.Serializable;
import java.util.Objects;

/**
 * A condition on the field after a range's prefix ({@link Schema#range}):
 * {@code eq}, {@code ge}, {@code gt}, {@code le}, {@code lt} compare it with
 * a value of that field (a Java value, as {@link Schema#encodeText} takes
 * it), {@code prefix} selects ascending {@code str} values that start with a
 * string. Several predicates intersect. They know the field's direction: on
 * a {@code .desc} field {@code ge} becomes an upper key bound.
 *
 * <pre>{@code
 * Schema cities = Schema.of("str,i64", "hex");
 * KeyRange r = cities.range(new Object[] {"population"}, Predicate.ge(1_000_000L));
 * }</pre>
 */
public final class Predicate implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The comparisons, in the order of the native library's codes. */
    enum Kind {
        EQ, GE, GT, LE, LT, PREFIX
    }

    /** Which comparison. */
    private final Kind kind;

    /** The value compared with (a Java value of the field, or a String prefix). */
    private final Object value;

    private Predicate(Kind kind, Object value) {
        this.kind = kind;
        this.value = value;
    }

    Kind kind() {
        return kind;
    }

    /**
     * The field equals {@code v}.
     *
     * @param v a value of the field
     * @return the predicate
     */
    public static Predicate eq(Object v) {
        return new Predicate(Kind.EQ, v);
    }

    /**
     * The field is at least {@code v}.
     *
     * @param v a value of the field
     * @return the predicate
     */
    public static Predicate ge(Object v) {
        return new Predicate(Kind.GE, v);
    }

    /**
     * The field is above {@code v}.
     *
     * @param v a value of the field
     * @return the predicate
     */
    public static Predicate gt(Object v) {
        return new Predicate(Kind.GT, v);
    }

    /**
     * The field is at most {@code v}.
     *
     * @param v a value of the field
     * @return the predicate
     */
    public static Predicate le(Object v) {
        return new Predicate(Kind.LE, v);
    }

    /**
     * The field is below {@code v}.
     *
     * @param v a value of the field
     * @return the predicate
     */
    public static Predicate lt(Object v) {
        return new Predicate(Kind.LT, v);
    }

    /**
     * The field is an ascending {@code str} starting with {@code s}.
     *
     * @param s the prefix
     * @return the predicate
     */
    public static Predicate prefix(String s) {
        return new Predicate(Kind.PREFIX, Objects.requireNonNull(s, "prefix"));
    }

    /**
     * The predicate's name: {@code eq}, {@code ge}, {@code gt}, {@code le},
     * {@code lt} or {@code prefix}.
     *
     * @return the name
     */
    public String name() {
        return kind.name().toLowerCase(java.util.Locale.ROOT);
    }

    /**
     * The value compared with.
     *
     * @return the value
     */
    public Object value() {
        return value;
    }

    @Override
    public String toString() {
        return name() + "(" + value + ")";
    }
}
