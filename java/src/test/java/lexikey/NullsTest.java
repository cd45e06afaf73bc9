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

    @Test
    void nullWhereNoneIsAllowedAndBadMarkersAreRefused() {
        assertThatThrownBy(() -> Schema.of("str,i64", "hex").encodeText("a", null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(Schema.of("str,i64?", "hex").encodeText("age", null)).isEqualTo("age#-");
        assertThatThrownBy(() -> Schema.of("str,i64?", "hex").decode("a#+"))
                .isInstanceOfSatisfying(DecodeException.class, e -> assertThat(e.offset()).isEqualTo(2));
    }
}
