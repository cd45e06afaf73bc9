package lexikey;

import java.io.Serializable;
import java.util.Objects;

/**
 * A condition on the field after a range's prefix ({@link Schema#range}):
 * {@code eq}, {@code ge}, {@code gt}, {@code le}, {@code lt} compare it with
 * a value of that field (a Java value, as {@link Schema#encodeText} takes
 * it), {@code prefix} selects ascending {@code str} values that start with a
 * string, {@code isNull} and {@code notNull} select the rows whose nullable
 * field ({@code TYPE?}) is null or holds a value (SQL's {@code IS NULL} and
 * {@code IS NOT NULL}; a comparison never selects a null). Several predicates
 * intersect. They know the field's direction: on a {@code .desc} field
 * {@code ge} becomes an upper key bound.
 *
 * <pre>{@code
 * Schema cities = Schema.of("str,i64", "hex");
 * KeyRange r = cities.range(new Object[] {"population"}, Predicate.ge(1_000_000L));
 * Schema ages = Schema.of("str,i64?", "hex");
 * KeyRange unknown = ages.range(new Object[] {"age"}, Predicate.isNull()); // [age#-, age#-$)
 * }</pre>
 */
public final class Predicate implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The comparisons, in the order of the native library's codes. */
    enum Kind {
        EQ, GE, GT, LE, LT, PREFIX, IS_NULL, NOT_NULL
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
     * The field is a {@code str} starting with {@code s}, in the field's
     * direction; on a nullable {@code str?} field its values that start with
     * {@code s}, never a null.
     *
     * @param s the prefix
     * @return the predicate
     */
    public static Predicate prefix(String s) {
        return new Predicate(Kind.PREFIX, Objects.requireNonNull(s, "prefix"));
    }

    /**
     * The field, nullable ({@code TYPE?}), is null: the command line's
     * {@code --is-null TYPE?}. A field without the {@code ?} is an error.
     *
     * @return the predicate
     */
    public static Predicate isNull() {
        return new Predicate(Kind.IS_NULL, null);
    }

    /**
     * The field, nullable ({@code TYPE?}), holds a value (is not null): the
     * command line's {@code --not-null TYPE?}. A field without the {@code ?}
     * is an error.
     *
     * @return the predicate
     */
    public static Predicate notNull() {
        return new Predicate(Kind.NOT_NULL, null);
    }

    /**
     * The predicate's name, as its factory method is spelled: {@code eq},
     * {@code ge}, {@code gt}, {@code le}, {@code lt}, {@code prefix},
     * {@code isNull} or {@code notNull}.
     *
     * @return the name
     */
    public String name() {
        return switch (kind) {
            case IS_NULL -> "isNull";
            case NOT_NULL -> "notNull";
            default -> kind.name().toLowerCase(java.util.Locale.ROOT);
        };
    }

    /**
     * The value compared with ({@code null} for {@code isNull} and
     * {@code notNull}).
     *
     * @return the value
     */
    public Object value() {
        return value;
    }

    @Override
    public String toString() {
        return kind == Kind.IS_NULL || kind == Kind.NOT_NULL ? name() + "()" : name() + "(" + value + ")";
    }
}
