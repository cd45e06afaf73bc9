package lexikey;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * fdb-tuple nested tuples (a {@code List} among the components) and
 * versionstamps ({@link Versionstamp}, {@link Lexikey#packWithVersionstamp})
 * from Java: the vectors of fixtures/interop/fdb-versionstamp.tsv (keys of
 * FoundationDB's own Python bindings) both ways, and random nested tuples
 * that decode to the values they were made from and pack with their
 * versionstamp's offset.
 */
class FdbNestedTest {

    @Test
    void fixturesBothWays() {
        int checked = 0;
        for (String line : Support.fixtureLines("fixtures/interop/fdb-versionstamp.tsv")) {
            String data = line.contains("\t#") ? line.substring(0, line.indexOf("\t#")) : line;
            String[] cols = data.split("\t");
            byte[] key = Support.unhex(cols[1]);
            Object[] comps = Arrays.stream(cols, 2, cols.length).map(c -> c.replace("\\\\", "\\")).toArray();
            boolean stamped = cols[0].equals("vpack");
            byte[] body = stamped ? Arrays.copyOf(key, key.length - 4) : key;
            assertThat(stamped ? Lexikey.packWithVersionstamp(comps) : Lexikey.encodeBytes("fdb-tuple", comps))
                    .as(line).isEqualTo(key);
            // Decoded Java values (a List per nested tuple, a Versionstamp per
            // versionstamp) encode back to the same key.
            Object[] values = Lexikey.decode("fdb-tuple", body, null).toArray();
            assertThat(stamped ? Lexikey.packWithVersionstamp(values) : Lexikey.encodeBytes("fdb-tuple", values))
                    .as(line + " (values)").isEqualTo(key);
            checked++;
        }
        assertThat(checked).isGreaterThanOrEqualTo(12);
    }

    @Test
    void issueExample() {
        byte[] key = Lexikey.encodeBytes("fdb-tuple", 1L, Arrays.asList(2L, null), "x");
        // fdb.tuple.pack((1, (2, None), "x"))
        assertThat(Support.hex(key)).isEqualTo("150105150200ff00027800");
        assertThat(Lexikey.decode("fdb-tuple", key, null)).isEqualTo(List.of(1L, Arrays.asList(2L, null), "x"));
        Versionstamp v = Versionstamp.complete(new byte[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, 657);
        assertThat(Lexikey.decode("fdb-tuple", Lexikey.encodeBytes("fdb-tuple", v), null)).containsExactly(v);
        assertThat(Versionstamp.complete(new byte[] {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1}, 3))
                .isEqualTo(Versionstamp.incomplete(3));
    }

    /** A random element: leaves of every plain class, lists up to 4 levels. */
    private static Object element(Random r, int depth) {
        switch (r.nextInt(depth < 4 ? 9 : 8)) {
            case 0: return null;
            case 1: return r.nextLong() >> r.nextInt(64);
            case 2: return "ab,[]\\\0é".substring(r.nextInt(4), 4 + r.nextInt(5));
            case 3: return r.nextBoolean();
            case 4: { byte[] b = new byte[r.nextInt(4)]; r.nextBytes(b); return b; }
            case 5: return r.nextDouble() * 1e6 - 5e5;
            case 6: { byte[] t = new byte[10]; r.nextBytes(t); t[0] = 0; return Versionstamp.complete(t, r.nextInt(65536)); }
            case 7: return new java.util.UUID(r.nextLong(), r.nextLong());
            default: {
                List<Object> l = new ArrayList<>();
                for (int i = r.nextInt(4); i > 0; i--) {
                    l.add(element(r, depth + 1));
                }
                return l;
            }
        }
    }

    /** Puts {@code e} at a random place of {@code t}: at the top or in one of its lists. */
    @SuppressWarnings("unchecked")
    private static void insert(List<Object> t, Object e, Random r) {
        for (Object x : t) {
            if (x instanceof List<?> l && r.nextBoolean()) {
                insert((List<Object>) l, e, r);
                return;
            }
        }
        t.add(r.nextInt(t.size() + 1), e);
    }

    @Test
    void randomTuplesRoundTripAndPackWithTheirOffset() {
        long seed = Support.seed(42);
        Random r = new Random(seed);
        for (int n = 0; n < 2000; n++) {
            List<Object> t = new ArrayList<>();
            for (int i = r.nextInt(5); i > 0; i--) {
                t.add(element(r, 1));
            }
            byte[] key = Lexikey.encodeBytes("fdb-tuple", t.toArray());
            List<Object> back = Lexikey.decode("fdb-tuple", key, null);
            assertThat(Support.same(back, t)).as("seed " + seed + ": " + Support.show(t.toArray())).isTrue();
            assertThatThrownBy(() -> Lexikey.packWithVersionstamp(t.toArray()))
                    .isInstanceOf(EncodeException.class).hasMessageContaining("no incomplete versionstamp");

            Versionstamp stamp = Versionstamp.incomplete(r.nextInt(65536));
            insert(t, stamp, r);
            byte[] vkey = Lexikey.packWithVersionstamp(t.toArray());
            byte[] plain = Lexikey.encodeBytes("fdb-tuple", t.toArray());
            assertThat(Arrays.copyOf(vkey, plain.length)).isEqualTo(plain);
            int off = (vkey[plain.length] & 0xFF) | (vkey[plain.length + 1] & 0xFF) << 8
                    | (vkey[plain.length + 2] & 0xFF) << 16 | (vkey[plain.length + 3] & 0xFF) << 24;
            assertThat(vkey.length).isEqualTo(plain.length + 4);
            assertThat(plain[off - 1]).isEqualTo((byte) 0x33);
            assertThat(Arrays.copyOfRange(plain, off, off + 12)).isEqualTo(stamp.toBytes());

            insert(t, Versionstamp.incomplete(0), r);
            assertThatThrownBy(() -> Lexikey.packWithVersionstamp(t.toArray()))
                    .isInstanceOf(EncodeException.class)
                    .hasMessageContaining("two incomplete versionstamps in one tuple");
        }
    }

    @Test
    void depthLimitAndBadInput() {
        Object deep = 1L;
        for (int i = 0; i < 100; i++) {
            deep = List.of(deep);
        }
        byte[] key = Lexikey.encodeBytes("fdb-tuple", deep);
        assertThat(Lexikey.decode("fdb-tuple", key, null)).containsExactly(deep);
        Object tooDeep = List.of(deep);
        assertThatThrownBy(() -> Lexikey.encodeBytes("fdb-tuple", tooDeep))
                .isInstanceOf(EncodeException.class).hasMessageContaining("nested deeper than 100 levels");
        List<Object> loop = new ArrayList<>();
        loop.add(loop);
        assertThatThrownBy(() -> Lexikey.encodeBytes("fdb-tuple", loop))
                .isInstanceOf(EncodeException.class).hasMessageContaining("nested deeper than 100 levels");
        assertThatThrownBy(() -> Lexikey.encodeBytes("binary", List.of(1L)))
                .isInstanceOf(EncodeException.class).hasMessageContaining("only the fdb-tuple format");
        assertThatThrownBy(() -> Versionstamp.complete(new byte[9], 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("10 bytes, not 9");
        assertThatThrownBy(() -> Versionstamp.incomplete(65536))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("out of range");
    }
}
