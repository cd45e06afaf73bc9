package lexikey;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.fail;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * List components (list&lt;T&gt;) from Java: a {@code java.util.List} is the
 * value of a list field, element by element (nested for list&lt;list&lt;T&gt;&gt;,
 * {@code null} the null of a nullable list). On random lists of i64, str,
 * bytes, f64 and bool elements, 1 to 3 levels deep, ascending and
 * descending, nullable or not, inside a composite key in every format, the
 * Java key (one row and bulk) is the command line's for the list's text,
 * and decoding gives the lists back; the list's text keeps working; a range
 * on a list field is the command line's; bad lists are errors naming the
 * element.
 */
class ListsTest {

    private static final String[] FORMATS = {"hex", "base64", "decimal", "binary"};
    private static final String[] ELEMENTS = {"i64", "str", "bytes", "f64", "bool"};

    /** A random list of {@code depth} levels over {@code type}; short, often empty. */
    private static List<Object> list(Gen g, String type, int depth) {
        int n = g.below(5);
        List<Object> xs = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            xs.add(depth == 1 ? element(g, type) : list(g, type, depth - 1));
        }
        return xs;
    }

    private static Object element(Gen g, String type) {
        return switch (type) {
            case "i64" -> g.anyLong();
            case "str" -> g.anyString();
            case "bytes" -> g.bytes(6);
            case "f64" -> g.anyDouble();
            case "bool" -> g.random().nextBoolean();
            default -> throw new IllegalArgumentException(type);
        };
    }

    /**
     * The command line's text of a list (README "Lists."): elements as
     * TYPE:VALUE writes them, with backslash, comma and brackets escaped,
     * separated by ", " (one space after a comma belongs to the separator),
     * a "," before the "]" when the last element's text is empty.
     */
    static String text(String type, Object v) {
        if (!(v instanceof List<?> xs)) {
            String t = Gen.nativeText(type, v);
            StringBuilder sb = new StringBuilder();
            for (char c : t.toCharArray()) {
                if (c == '\\' || c == ',' || c == '[' || c == ']') {
                    sb.append('\\');
                }
                sb.append(c);
            }
            return sb.toString();
        }
        StringBuilder sb = new StringBuilder("[");
        String last = null;
        for (int i = 0; i < xs.size(); i++) {
            last = text(type, xs.get(i));
            sb.append(i == 0 ? "" : ", ").append(last);
        }
        if (last != null && last.isEmpty()) {
            sb.append(',');
        }
        return sb.append(']').toString();
    }

    /** A value compared by contents: byte[] as hex, lists element by element. */
    static Object norm(Object v) {
        if (v instanceof byte[] b) {
            return "0x" + HexFormat.of().formatHex(b);
        }
        if (v instanceof List<?> xs) {
            return xs.stream().map(ListsTest::norm).toList();
        }
        if (v instanceof Object[] row) {
            return Arrays.stream(row).map(ListsTest::norm).toList();
        }
        return v;
    }

    private static Object encode(Schema s, Object... values) {
        return s.isText() ? s.encodeText(values) : s.encodeBytes(values);
    }

    private static Object[] decode(Schema s, Object key) {
        return key instanceof String t ? s.decode(t) : s.decode((byte[]) key);
    }

    @Test
    void randomListsEncodeAsTheCommandLineDoesAndDecodeBack() {
        long seed = Support.seed(42);
        Gen g = new Gen(seed, true);
        // 40 schemas at CI size, 400 at LEXIKEY_TEST_SIZE=full (scripts/lib.sh).
        int rounds = Integer.getInteger("lexikey.cases.lists",
                "full".equals(System.getenv("LEXIKEY_TEST_SIZE")) ? 400 : 40);
        int rows = 25;
        int lists = 0;
        for (int round = 0; round < rounds; round++) {
            String format = FORMATS[g.below(FORMATS.length)];
            String type = ELEMENTS[g.below(ELEMENTS.length)];
            if (format.equals("decimal") && type.equals("f64")) {
                type = "i64"; // the decimal format has no floats
            }
            int depth = 1 + g.below(3);
            boolean nullable = g.random().nextBoolean();
            String field = "list<".repeat(depth) + type + ">".repeat(depth) + (nullable ? "?" : "")
                    + (g.random().nextBoolean() ? ".desc" : "") + (nullable && g.random().nextBoolean() ? ".nulls_last" : "");
            String spec = "str," + field + ",i64";
            Schema schema = Schema.of(spec, format);
            List<Object[]> values = new ArrayList<>();
            StringBuilder stdin = new StringBuilder();
            for (int r = 0; r < rows; r++) {
                Object list = nullable && g.below(5) == 0 ? null : list(g, type, depth);
                long n = g.anyLong();
                values.add(new Object[] {"p#", list, n});
                stdin.append("p#\t").append(list == null ? "\\N" : text(type, list)).append('\t').append(n).append('\n');
            }
            String[] want = Support.lexikey(List.of("encode", "--stdin", "--format", format, "--schema", spec),
                    stdin.toString()).split("\n");
            assertThat(want).hasSize(rows);
            List<String> bulk = schema.isText() ? schema.encodeTextMany(values)
                    : schema.encodeBytesMany(values).stream().map(Support::hex).toList();
            for (int r = 0; r < rows; r++) {
                Object[] row = values.get(r);
                String where = "seed " + seed + ", " + spec + " " + format + ", row " + Support.show(row)
                        + " (" + (row[1] == null ? "null" : text(type, row[1])) + ")";
                Object key = encode(schema, row);
                if (!Support.keyText(key).equals(want[r])) {
                    fail(where + ": Java " + Support.keyText(key) + ", lexikey " + want[r]);
                }
                assertThat(bulk.get(r)).as(where + " (bulk)").isEqualTo(want[r]);
                Object[] back = decode(schema, key);
                assertThat(norm(back)).as(where + " (decoded)").isEqualTo(norm(row));
                if (row[1] != null) {
                    assertThat(back[1]).as(where).isInstanceOf(List.class);
                    // The list's text is still a value of the field.
                    Object fromText = encode(schema, "p#", text(type, row[1]), row[2]);
                    assertThat(Support.keyText(fromText)).as(where + " (as text)").isEqualTo(want[r]);
                }
                lists++;
            }
        }
        assertThat(lists).isEqualTo(rounds * rows);
    }

    @Test
    void decodedElementsTakeTheirTypesClasses() {
        Schema s = Schema.of("list<i32>,list<list<u64>>,list<bool>", "binary");
        Object[] row = {List.of(1, -2), List.of(List.of(BigInteger.TEN), List.of()), List.of(true)};
        Object[] back = s.decode(s.encodeBytes(row));
        assertThat(back).containsExactly(row);
        assertThat(((List<?>) back[0]).get(0)).isInstanceOf(Integer.class);
        assertThat(((List<?>) ((List<?>) back[1]).get(0)).get(0)).isInstanceOf(BigInteger.class);
        // Any List: an immutable one, a LinkedList; Integer elements of an i64 list.
        Schema i64 = Schema.of("list<i64>");
        assertThat(i64.encodeText(new java.util.LinkedList<>(List.of(1, 2)))).isEqualTo(i64.encodeText(List.of(1L, 2L)))
                .isEqualTo("a:l8000000000000001:l8000000000000002.");
        assertThat(i64.encodeText(List.of())).isEqualTo("a.");
    }

    @Test
    void badListsAreErrorsNamingTheElement() {
        Schema s = Schema.of("list<i64>,str");
        assertThatThrownBy(() -> s.encodeText(List.of(1L, "x"), "a")).isInstanceOf(EncodeException.class)
                .hasMessage("values, value 1 (list<i64>): element 1: expected an integer (Long, Integer, Short, "
                        + "Byte or BigInteger) for i64, got String");
        assertThatThrownBy(() -> s.encodeText(Arrays.asList(1L, null), "a")).isInstanceOf(EncodeException.class)
                .hasMessageContaining("value 1 (list<i64>): element 1: ").hasMessageContaining("got null");
        assertThatThrownBy(() -> s.encodeText(null, "a")).isInstanceOf(EncodeException.class)
                .hasMessage("values, value 1 (list<i64>): a list<i64> field takes a list, not null");
        assertThatThrownBy(() -> s.encodeText(5L, "a")).isInstanceOf(EncodeException.class)
                .hasMessage("values, value 1 (list<i64>): a list<i64> field takes a list, not Long");
        // Deeper than the schema: the element is no i64.
        assertThatThrownBy(() -> s.encodeText(List.of(List.of(1L)), "a")).isInstanceOf(EncodeException.class)
                .hasMessageContaining("element 0: ").hasMessageContaining("got List");
        // A nested list's element.
        Schema nested = Schema.of("list<list<str>>?");
        assertThatThrownBy(() -> nested.encodeText(List.of(List.of("a"), List.of("b", 7L))))
                .isInstanceOf(EncodeException.class).hasMessageContaining("element 1: expected a String for str, got Long");
        assertThatThrownBy(() -> nested.encodeText(Arrays.asList(List.of("a"), null)))
                .isInstanceOf(EncodeException.class).hasMessageContaining("a list<str> field takes a list, not null");
        // null is the null of a nullable list: the key of the bare nullable type.
        assertThat(nested.encodeText((Object) null)).isEqualTo(Lexikey.encodeText("hex", "list<list<str>>?"));
        // In bulk, the row is named; a bad text is the parser's error.
        assertThatThrownBy(() -> s.encodeTextMany(List.of(new Object[] {List.of(1L), "a"}, new Object[] {List.of(true), "b"})))
                .isInstanceOf(EncodeException.class).hasMessageStartingWith("row 1, value 1 (list<i64>): element 0: ");
        assertThatThrownBy(() -> s.encodeText("[1, x]", "a")).isInstanceOf(EncodeException.class)
                .hasMessageContaining("list<i64>");
        // A list where no list field is: the scalar's error.
        assertThatThrownBy(() -> s.encodeText(List.of(1L), List.of("a"))).isInstanceOf(EncodeException.class)
                .hasMessageContaining("value 2 (str)");
    }

    @Test
    void rangesOnAListFieldAreTheCommandLines() {
        long seed = Support.seed(11);
        Gen g = new Gen(seed, true);
        for (int round = 0; round < 20; round++) {
            String format = FORMATS[g.below(FORMATS.length)];
            String field = "list<i64>" + (g.random().nextBoolean() ? ".desc" : "");
            String spec = "str," + field + ",i64";
            Schema schema = Schema.of(spec, format);
            List<Object> lo = list(g, "i64", 1);
            boolean strict = g.random().nextBoolean();
            Predicate p = strict ? Predicate.gt(lo) : Predicate.ge(lo);
            KeyRange r = schema.range(new Object[] {"p"}, p);
            String flag = (strict ? "--gt=" : "--ge=") + field + ":" + text("i64", lo);
            String out = Support.lexikey(List.of("range", "--format=" + format, "--schema=" + spec, flag, "--", "str:p"),
                    null);
            String[] lines = out.split("\n", -1);
            assertThat(lines[0] + "\n" + lines[1]).as("seed %d, %s %s %s", seed, spec, format, flag)
                    .isEqualTo(Support.keyText(r.start()) + "\n" + Support.keyText(r.end()));
        }
    }
}
