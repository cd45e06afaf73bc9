package lexikey;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Java values sorted by their natural order ⇔ their keys sorted as unsigned
 * bytes ({@code Arrays.compareUnsigned}), on random data with edge cases,
 * ascending and descending, in every format: equal values give equal keys,
 * and a smaller value a smaller key (a larger one for {@code .desc}).
 *
 * <p>Two Java classes have a natural order that is not their values' order,
 * and the keys follow the values (documented in java/README.md): {@code String}
 * compares UTF-16 code units, so a character above U+FFFF sorts below
 * U+E000–U+FFFF, while keys follow code points (UTF-8 byte order, as every
 * store and the other bindings do): strings are checked with
 * {@code String.compareTo} on text without surrogates and with code-point
 * order on all of Unicode; {@code UUID.compareTo} compares signed halves,
 * keys compare the 128 bits unsigned (RFC 9562's order): UUIDs are checked
 * with an unsigned comparator. Both differences are shown by tests below.
 */
class OrderTest {
    static final int N = 2000;

    /** A type: its schema name, a value maker, the order its keys follow. */
    private record Kind(String type, Function<Gen, Object> value, Comparator<Object> order) {}

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Comparator<Object> natural() {
        return (a, b) -> ((Comparable) a).compareTo(b);
    }

    private static final Comparator<Object> CODE_POINTS = (a, b) -> {
        String x = (String) a;
        String y = (String) b;
        int i = 0;
        int j = 0;
        while (i < x.length() && j < y.length()) {
            int p = x.codePointAt(i);
            int q = y.codePointAt(j);
            if (p != q) {
                return Integer.compare(p, q);
            }
            i += Character.charCount(p);
            j += Character.charCount(q);
        }
        return Integer.compare(x.length() - i, y.length() - j);
    };

    private static final Comparator<Object> UNSIGNED_UUID = (a, b) -> {
        UUID x = (UUID) a;
        UUID y = (UUID) b;
        int c = Long.compareUnsigned(x.getMostSignificantBits(), y.getMostSignificantBits());
        return c != 0 ? c : Long.compareUnsigned(x.getLeastSignificantBits(), y.getLeastSignificantBits());
    };

    private static final Comparator<Object> BYTES = (a, b) -> Arrays.compareUnsigned((byte[]) a, (byte[]) b);

    /** Text without surrogates (String.compareTo is code-point order there). */
    private static String bmp(Gen g) {
        StringBuilder sb = new StringBuilder();
        g.anyString().codePoints().filter(cp -> cp < 0xD800 || (cp >= 0xE000 && cp <= 0xFFFF))
                .forEach(sb::appendCodePoint);
        return sb.toString();
    }

    private static List<Kind> nativeKinds(String format) {
        List<Kind> ks = new ArrayList<>(List.of(
                new Kind("str", OrderTest::bmp, natural()),
                new Kind("str", Gen::anyString, CODE_POINTS),
                new Kind("i64", g -> g.anyLong(), natural()),
                new Kind("i32", g -> g.anyInt(), natural()),
                new Kind("u64", Gen::u64, natural()),
                new Kind("vi64", g -> g.anyLong(), natural()),
                new Kind("vi64", g -> (long) g.below(600) - 300, natural()),
                new Kind("vu64", Gen::u64, natural()),
                new Kind("u32", g -> g.u32(), natural()),
                new Kind("bool", g -> g.random().nextBoolean(), natural()),
                new Kind("bytes", g -> g.bytes(8), BYTES),
                new Kind("ts", Gen::millis, natural()),
                new Kind("uuid", Gen::uuid, UNSIGNED_UUID),
                new Kind("dec", g -> g.decimal(30, 40), natural())));
        if (!format.equals("decimal")) {
            ks.add(new Kind("f64", g -> g.anyDouble(), natural()));
            ks.add(new Kind("f32", g -> g.anyFloat(), natural()));
        }
        return ks;
    }

    private static byte[] keyBytes(Object key) {
        return key instanceof byte[] b ? b : ((String) key).getBytes(StandardCharsets.UTF_8);
    }

    /** Encodes values of one field and checks key order against {@code order}. */
    private static void check(String format, String field, List<Object> values, Comparator<Object> order,
            boolean desc, long seed) {
        Schema s = Schema.of(field, format);
        List<Object[]> rows = values.stream().map(v -> new Object[] {v}).toList();
        List<byte[]> keys = s.isText()
                ? s.encodeTextMany(rows).stream().map(OrderTest::keyBytes).toList()
                : s.encodeBytesMany(rows);
        Integer[] idx = new Integer[values.size()];
        for (int i = 0; i < idx.length; i++) {
            idx[i] = i;
        }
        Arrays.sort(idx, (a, b) -> order.compare(values.get(a), values.get(b)));
        for (int k = 1; k < idx.length; k++) {
            Object a = values.get(idx[k - 1]);
            Object b = values.get(idx[k]);
            int byValue = Integer.signum(order.compare(a, b));
            int byKey = Integer.signum(Arrays.compareUnsigned(keys.get(idx[k - 1]), keys.get(idx[k])));
            if (byKey != (desc ? -byValue : byValue)) {
                fail(format + " " + field + " (seed " + seed + "): values " + Support.show(new Object[] {a, b})
                        + " compare " + byValue + " but their keys " + Support.hex(keys.get(idx[k - 1])) + ", "
                        + Support.hex(keys.get(idx[k])) + " compare " + byKey);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"hex", "base64", "decimal", "binary"})
    void nativeFormats(String format) {
        long seed = Support.seed(7 + format.hashCode());
        Gen g = new Gen(seed, false);
        for (Kind k : nativeKinds(format)) {
            List<Object> values = new ArrayList<>();
            for (int i = 0; i < N; i++) {
                values.add(k.value().apply(g));
            }
            // Duplicates: equal values must give equal keys.
            for (int i = 0; i < N / 10; i++) {
                values.add(values.get(g.below(N)));
            }
            check(format, k.type(), values, k.order(), false, seed);
            check(format, k.type() + ".desc", values, k.order(), true, seed);
        }
    }

    /** Composite keys: (str, i64.desc, dec) in lexicographic order. */
    @ParameterizedTest
    @ValueSource(strings = {"hex", "base64", "decimal", "binary"})
    void tuples(String format) {
        long seed = Support.seed(11 + format.hashCode());
        Gen g = new Gen(seed, false);
        Schema s = Schema.of("str,i64.desc,dec", format);
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < N; i++) {
            String str = g.below(3) == 0 ? "" : g.pick(List.of("a", "ab", "a\u0000", "b", g.anyString()));
            rows.add(new Object[] {str, (long) g.below(5) - 2, BigDecimal.valueOf(g.below(7) - 3, g.below(3))});
        }
        Comparator<Object[]> order = (x, y) -> {
            int c = CODE_POINTS.compare(x[0], y[0]);
            if (c == 0) {
                c = -Long.compare((Long) x[1], (Long) y[1]);
            }
            return c != 0 ? c : ((BigDecimal) x[2]).compareTo((BigDecimal) y[2]);
        };
        List<byte[]> keys = s.isText()
                ? s.encodeTextMany(rows).stream().map(OrderTest::keyBytes).toList()
                : s.encodeBytesMany(rows);
        for (int i = 0; i < N; i++) {
            int j = g.below(N);
            int byValue = Integer.signum(order.compare(rows.get(i), rows.get(j)));
            int byKey = Integer.signum(Arrays.compareUnsigned(keys.get(i), keys.get(j)));
            assertThat(byKey).as(format + " " + Support.show(rows.get(i)) + " vs " + Support.show(rows.get(j)))
                    .isEqualTo(byValue);
        }
    }

    /** The profiles: their value types in natural order, ascending and descending. */
    @Test
    void profiles() {
        long seed = Support.seed(13);
        Gen g = new Gen(seed, false);
        record P(String format, String field, Function<Gen, Object> value, Comparator<Object> order, boolean desc) {}
        List<P> cases = List.of(
                new P("fdb-tuple", "int", gen -> BigInteger.valueOf(gen.anyLong())
                        .multiply(BigInteger.valueOf(gen.anyLong())), natural(), false),
                new P("fdb-tuple", "i64", gen -> gen.anyLong(), natural(), false),
                new P("fdb-tuple", "f64", Gen::finiteOrInf, natural(), false),
                new P("fdb-tuple", "str", Gen::anyString, CODE_POINTS, false),
                new P("fdb-tuple", "bytes", gen -> gen.bytes(8), BYTES, false),
                new P("fdb-tuple", "uuid", Gen::uuid, UNSIGNED_UUID, false),
                new P("hbase-ordered", "int64", gen -> gen.anyLong(), natural(), true),
                new P("hbase-ordered", "int32", gen -> gen.anyInt(), natural(), true),
                new P("hbase-ordered", "float64", gen -> gen.anyDouble(), natural(), true),
                new P("hbase-ordered", "numeric", gen -> gen.decimal(30, 300), natural(), true),
                new P("hbase-ordered", "text", Gen::stringNoNul, CODE_POINTS, true),
                new P("phoenix", "bigint", gen -> gen.anyLong(), natural(), true),
                new P("phoenix", "integer", gen -> gen.anyInt(), natural(), true),
                new P("phoenix", "double", gen -> gen.anyDouble(), natural(), true),
                new P("phoenix", "decimal", gen -> gen.decimal(38, 40), natural(), true),
                new P("phoenix", "timestamp", gen -> gen.millis().plusNanos(gen.below(1_000_000)), natural(), true),
                new P("phoenix", "varchar", gen -> "v" + gen.stringNoNul(), CODE_POINTS, true),
                new P("phoenix", "boolean", gen -> gen.random().nextBoolean(), natural(), true));
        for (P p : cases) {
            List<Object> values = new ArrayList<>();
            for (int i = 0; i < N; i++) {
                values.add(p.value().apply(g));
            }
            check(p.format(), p.field(), values, p.order(), false, seed);
            if (p.desc()) {
                check(p.format(), p.field() + ".desc", values, p.order(), true, seed);
            }
        }
    }

    /** Why strings are compared by code point: String.compareTo disagrees above U+FFFF. */
    @Test
    void stringNaturalOrderIsUtf16NotCodePoints() {
        String astral = "\uD83D\uDE00"; // U+1F600
        String high = "\uFFFD";
        assertThat(astral.compareTo(high)).isNegative(); // UTF-16: D83D < FFFD
        assertThat(CODE_POINTS.compare(astral, high)).isPositive(); // code points: 1F600 > FFFD
        Schema s = Schema.of("str", "hex");
        assertThat(Arrays.compareUnsigned(keyBytes(s.encodeText(astral)), keyBytes(s.encodeText(high))))
                .isPositive();
    }

    /** Why UUIDs are compared unsigned: UUID.compareTo compares signed halves. */
    @Test
    void uuidNaturalOrderIsSigned() {
        UUID high = new UUID(Long.MIN_VALUE, 0); // 80000000-...
        UUID low = new UUID(1, 0);
        assertThat(high.compareTo(low)).isNegative();
        assertThat(UNSIGNED_UUID.compare(high, low)).isPositive();
        Schema s = Schema.of("uuid", "binary");
        assertThat(Arrays.compareUnsigned(s.encodeBytes(high), s.encodeBytes(low))).isPositive();
    }

    /** Instants of whole milliseconds: the ts order is Instant's. */
    @Test
    void instantsAcrossTheEpoch() {
        Schema s = Schema.of("ts", "hex");
        Instant a = Instant.ofEpochMilli(-1);
        Instant b = Instant.ofEpochMilli(0);
        assertThat(s.encodeText(a).compareTo(s.encodeText(b))).isNegative();
    }
}
