package lexikey;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Nullable components (TYPE?, .nulls_last) from Java: null is the null. The
 * vectors of fixtures/nulls.tsv with i64 and str components both ways
 * (component strings in, Java values out, null for a null, the values
 * encoding to the same key); key order is value order with the nulls first
 * or last whatever the direction, on random rows in every format; a null in a
 * field without the ? and a wrong marker are refused.
 */
class NullsTest {

    private static final String[] FORMATS = {"hex", "base64", "decimal", "binary"};

    @Test
    void fixturesBothWays() throws Exception {
        int checked = 0;
        for (String line : Files.readAllLines(Support.ROOT.resolve("fixtures/nulls.tsv"))) {
            if (line.startsWith("#") || line.isBlank()) {
                continue;
            }
            String[] cols = line.split("\t");
            String format = cols[0];
            Object[] comps = Arrays.copyOfRange(cols, 1, cols.length - 1);
            // The i64 and str vectors (their Java values are Long and String).
            boolean simple = Arrays.stream(comps).allMatch(c -> {
                String t = ((String) c).split("[.:?]")[0];
                return (t.equals("i64") || t.equals("str")) && !((String) c).contains("\\");
            });
            if (!simple) {
                continue;
            }
            String want = cols[cols.length - 1];
            Object key = Lexikey.isText(format) ? Lexikey.encodeText(format, comps) : Lexikey.encodeBytes(format, comps);
            Object wantKey = Lexikey.isText(format) ? want : Support.unhex(want);
            assertThat(key).as(line).isEqualTo(wantKey);
            StringBuilder spec = new StringBuilder();
            Object[] expected = new Object[comps.length];
            for (int i = 0; i < comps.length; i++) {
                String s = (String) comps[i];
                int colon = s.indexOf(':');
                spec.append(i == 0 ? "" : ",").append(colon < 0 ? s : s.substring(0, colon));
                String text = colon < 0 ? null : s.substring(colon + 1);
                expected[i] = text == null ? null : s.startsWith("i64") ? (Object) Long.parseLong(text) : text;
            }
            Schema schema = Schema.of(spec.toString(), format);
            Object[] values = key instanceof String t ? schema.decode(t) : schema.decode((byte[]) key);
            assertThat(values).as(line).containsExactly(expected);
            Object again = schema.isText() ? schema.encodeText(values) : schema.encodeBytes(values);
            assertThat(again).as(line).isEqualTo(key);
            checked++;
        }
        assertThat(checked).isGreaterThan(100);
    }

    private static int compareKeys(Object a, Object b) {
        if (a instanceof String x && b instanceof String y) {
            return Integer.signum(x.compareTo(y));
        }
        return Integer.signum(Arrays.compareUnsigned((byte[]) a, (byte[]) b));
    }

    @Test
    void keyOrderIsValueOrderWithTheNullsWhereTheFieldSays() {
        Random rng = new Random(42);
        long[] edges = {Long.MIN_VALUE, -1, 0, 1, Long.MAX_VALUE};
        for (int round = 0; round < 2000; round++) {
            String format = FORMATS[round % 4];
            boolean desc = rng.nextBoolean();
            boolean last = rng.nextBoolean();
            String field = "i64?" + (desc ? ".desc" : "") + (last ? ".nulls_last" : "");
            Schema schema = Schema.of("str," + field + ",i64", format);
            Long[] v = new Long[2];
            for (int i = 0; i < 2; i++) {
                int pick = rng.nextInt(4);
                v[i] = pick == 0 ? null : pick == 1 ? edges[rng.nextInt(edges.length)] : rng.nextLong();
            }
            Object ka = schema.isText() ? schema.encodeText("p", v[0], 7L) : schema.encodeBytes("p", v[0], 7L);
            Object kb = schema.isText() ? schema.encodeText("p", v[1], 7L) : schema.encodeBytes("p", v[1], 7L);
            int want;
            if (v[0] == null || v[1] == null) {
                int nullFirst = v[0] == null ? (v[1] == null ? 0 : -1) : 1;
                want = last ? -nullFirst : nullFirst;
            } else {
                int o = Long.compare(v[0], v[1]);
                want = Integer.signum(desc ? -o : o);
            }
            assertThat(compareKeys(ka, kb)).as("%s %s %s", field, v[0], v[1]).isEqualTo(want);
            Object[] back = ka instanceof String t ? schema.decode(t) : schema.decode((byte[]) ka);
            assertThat(back).containsExactly("p", v[0], 7L);
        }
    }

    private static boolean inside(KeyRange r, Object key) {
        Object start = r.start();
        Object end = r.end();
        return (start == null || compareKeys(start, key) <= 0) && (end == null || compareKeys(key, end) < 0);
    }

    /**
     * Predicate.isNull() / notNull() (and prefix on a str? field): among random
     * rows with nulls, the keys inside the range are exactly those of the rows
     * under the prefix whose field is null / holds a value (/ starts with the
     * text), in every format, ascending and descending, nulls first and last;
     * the range is the command line's for the same predicate, byte for byte.
     */
    @Test
    void nullPredicatesSelectExactlyTheMatchingRowsAsTheCommandLineDoes() {
        long seed = Support.seed(7);
        Random rng = new Random(seed);
        String[] names = {"p", "p#", "o", "q", ""};
        String[] strs = {"", "a", "ab", "abc", "b", "a%", "\\N", "é"};
        // 40 rounds at CI size, 400 at LEXIKEY_TEST_SIZE=full (scripts/lib.sh).
        int rounds = Integer.getInteger("lexikey.cases.nulls",
                "full".equals(System.getenv("LEXIKEY_TEST_SIZE")) ? 400 : 40);
        for (int round = 0; round < rounds; round++) {
            String format = FORMATS[rng.nextInt(4)];
            boolean str = rng.nextBoolean();
            String field = (str ? "str?" : "i64?") + (rng.nextBoolean() ? ".desc" : "")
                    + (rng.nextBoolean() ? ".nulls_last" : "");
            String fields = "str," + field + ",i64";
            Schema schema = Schema.of(fields, format);
            int op = rng.nextInt(str ? 3 : 2);
            String text = strs[rng.nextInt(4)];
            Predicate pred = op == 0 ? Predicate.isNull() : op == 1 ? Predicate.notNull() : Predicate.prefix(text);
            String what = "seed " + seed + ", " + fields + " " + format + " " + pred;
            KeyRange r = schema.range(new Object[] {"p"}, pred);
            for (int i = 0; i < 12; i++) {
                String name = names[rng.nextInt(names.length)];
                Object v = rng.nextInt(3) == 0 ? null
                        : str ? (Object) strs[rng.nextInt(strs.length)] : (Object) (long) (rng.nextInt(7) - 3);
                Object key = schema.isText() ? schema.encodeText(name, v, 1L) : schema.encodeBytes(name, v, 1L);
                boolean match = op == 0 ? v == null : op == 1 ? v != null : v != null && ((String) v).startsWith(text);
                assertThat(inside(r, key)).as("%s: row %s %s", what, name, v).isEqualTo(name.equals("p") && match);
            }
            String flag = op == 0 ? "--is-null=" + field : op == 1 ? "--not-null=" + field : "--prefix=" + text;
            String out = Support.lexikey(java.util.List.of("range", "--format=" + format, "--schema=" + fields, flag,
                    "--", "str:p"), null);
            String[] lines = out.split("\n", -1);
            assertThat(lines[0] + "\n" + lines[1]).as(what)
                    .isEqualTo(Support.keyText(r.start()) + "\n" + Support.keyText(r.end()));
        }
    }

    @Test
    void nullWhereNoneIsAllowedAndBadMarkersAreRefused() {
        assertThatThrownBy(() -> Schema.of("str,i64", "hex").encodeText("a", null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(Schema.of("str,i64?", "hex").encodeText("age", null)).isEqualTo("age#-");
        assertThatThrownBy(() -> Schema.of("str,i64?", "hex").decode("a#+"))
                .isInstanceOfSatisfying(DecodeException.class, e -> assertThat(e.offset()).isEqualTo(2));
        assertThatThrownBy(() -> Schema.of("str,i64", "hex").range(new Object[] {"a"}, Predicate.isNull()))
                .isInstanceOf(RuntimeException.class);
        assertThat(Predicate.notNull().name()).isEqualTo("notNull");
    }
}
