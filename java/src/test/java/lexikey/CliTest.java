package lexikey;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Java == the command line, byte for byte, on random tuples: per format 20
 * random schemas of 1 to 4 fields (random types and directions) times 100
 * random rows (2,000 tuples), encoded by {@code Schema.encode*Many} and by
 * {@code lexikey encode --stdin --schema}; rows of the plain classes also
 * through {@code Lexikey.encodeText}/{@code encodeBytes}; and per format 25
 * tuples of component strings holding tabs and newlines (which bulk rows
 * cannot carry) through {@code Lexikey.encode*} and {@code lexikey encode
 * COMPONENT...}.
 */
class CliTest {
    static final int SCHEMAS = 20;
    static final int ROWS = 100;
    static final int SINGLES = 25;

    /** A field: its schema type and how its values are made and written. */
    private record Field(String type, java.util.function.Function<Gen, Object> value,
            java.util.function.Function<Object, String> text, boolean plain) {}

    private static Field nat(String type, boolean desc) {
        boolean plain = !desc && List.of("str", "i64", "i32", "f64", "f32", "bool", "bytes", "ts", "uuid", "dec")
                .contains(type);
        String t = desc ? type + ".desc" : type;
        return new Field(t, g -> g.nativeValue(type), v -> Gen.nativeText(type, v), plain);
    }

    private static final List<String> FDB = List.of("str", "int", "i64", "u64", "i32", "u32", "f32", "f64",
            "bool", "bytes", "uuid");

    private static Field fdb(String type) {
        return switch (type) {
            case "str" -> new Field(type, Gen::anyString, Object::toString, true);
            case "int" -> new Field(type, g -> g.below(3) == 0
                    ? new BigInteger(1 + g.below(200), g.random()).multiply(BigInteger.valueOf(g.below(2) * 2 - 1))
                    : (Object) g.anyLong(), Object::toString, false);
            case "i64" -> new Field(type, g -> g.anyLong(), Object::toString, true);
            case "u64" -> new Field(type, Gen::u64, Object::toString, false);
            case "i32" -> new Field(type, g -> g.anyInt(), Object::toString, false);
            case "u32" -> new Field(type, g -> g.u32(), Object::toString, false);
            case "f32" -> new Field(type, g -> g.anyFloat(),
                    v -> String.format("0x%08x", Float.floatToRawIntBits((Float) v)), true);
            case "f64" -> new Field(type, g -> g.anyDouble(),
                    v -> String.format("0x%016x", Double.doubleToRawLongBits((Double) v)), true);
            case "bool" -> new Field(type, g -> g.random().nextBoolean(), Object::toString, true);
            case "bytes" -> new Field(type, g -> g.bytes(12), v -> Support.hex((byte[]) v), true);
            case "uuid" -> new Field(type, Gen::uuid, Object::toString, true);
            default -> throw new IllegalArgumentException(type);
        };
    }

    private static final List<String> HBASE = List.of("int8", "int16", "int32", "int64", "float32", "float64",
            "numeric", "text", "blob-var");

    private static Field hbase(String kind, boolean desc) {
        String t = desc ? kind + ".desc" : kind;
        return switch (kind) {
            case "int8" -> new Field(t, g -> (byte) g.anyInt(), Object::toString, !desc);
            case "int16" -> new Field(t, g -> (short) g.anyInt(), Object::toString, false);
            case "int32" -> new Field(t, g -> g.anyInt(), Object::toString, !desc);
            case "int64" -> new Field(t, g -> g.anyLong(), Object::toString, !desc);
            case "float32" -> new Field(t, g -> g.anyFloat(), v -> Gen.floatText((Float) v), !desc);
            case "float64" -> new Field(t, g -> g.anyDouble(), v -> Gen.doubleText((Double) v), !desc);
            case "numeric" -> new Field(t, g -> g.decimal(40, 400), Object::toString, !desc);
            case "text" -> new Field(t, Gen::stringNoNul, Object::toString, !desc);
            case "blob-var", "blob-copy" -> new Field(t, g -> g.bytes(12), v -> Support.hex((byte[]) v),
                    !desc && kind.equals("blob-var"));
            default -> throw new IllegalArgumentException(kind);
        };
    }

    private static final List<String> PHOENIX = List.of("tinyint", "smallint", "integer", "bigint",
            "unsigned_tinyint", "unsigned_smallint", "unsigned_int", "unsigned_long", "float", "double",
            "unsigned_float", "unsigned_double", "boolean", "date", "time", "timestamp", "unsigned_date",
            "unsigned_time", "unsigned_timestamp", "varchar", "char(5)", "binary(4)", "decimal");

    private static Field phoenix(String type, boolean desc) {
        String t = desc ? type + ".desc" : type;
        boolean p = !desc;
        return switch (type) {
            case "tinyint" -> new Field(t, g -> (byte) g.anyInt(), Object::toString, false);
            case "smallint" -> new Field(t, g -> (short) g.anyInt(), Object::toString, false);
            case "integer" -> new Field(t, g -> g.anyInt(), Object::toString, p);
            case "bigint" -> new Field(t, g -> g.anyLong(), Object::toString, p);
            case "unsigned_tinyint" -> new Field(t, g -> (byte) g.longIn(0, 127), Object::toString, false);
            case "unsigned_smallint" -> new Field(t, g -> (short) g.longIn(0, 32767), Object::toString, false);
            case "unsigned_int" -> new Field(t, g -> (int) g.longIn(0, Integer.MAX_VALUE), Object::toString, false);
            case "unsigned_long" -> new Field(t, g -> g.longIn(0, Long.MAX_VALUE), Object::toString, false);
            case "float" -> new Field(t, g -> g.anyFloat(), v -> Gen.floatText((Float) v), p);
            case "double" -> new Field(t, g -> g.anyDouble(), v -> Gen.doubleText((Double) v), p);
            case "unsigned_float" -> new Field(t, g -> Math.abs(g.anyFloat()) + 0.0f, v -> Gen.floatText((Float) v), false);
            case "unsigned_double" -> new Field(t, g -> Math.abs(g.anyDouble()) + 0.0, v -> Gen.doubleText((Double) v), false);
            case "boolean" -> new Field(t, g -> g.random().nextBoolean(), Object::toString, p);
            case "date", "time" -> new Field(t, Gen::millis, Object::toString, false);
            case "unsigned_date", "unsigned_time" -> new Field(t,
                    g -> Instant.ofEpochMilli(Math.abs(g.millis().toEpochMilli())), Object::toString, false);
            case "timestamp" -> new Field(t, g -> g.millis().plusNanos(g.below(1_000_000)), Object::toString, p);
            case "unsigned_timestamp" -> new Field(t, Gen::nanos, Object::toString, false);
            case "varchar" -> new Field(t, g -> "v" + g.stringNoNul(), Object::toString, p);
            case "char(5)" -> new Field(t, g -> g.ascii(5), Object::toString, false);
            case "binary(4)" -> new Field(t, g -> g.bytes(4), v -> Support.hex((byte[]) v), false);
            // Not empty: an empty VARBINARY is null, and a row key may not be all null.
            case "varbinary" -> new Field(t, g -> {
                byte[] b = g.bytes(12);
                return b.length == 0 ? new byte[] {1} : b;
            }, v -> Support.hex((byte[]) v), p);
            case "decimal" -> new Field(t, g -> g.decimal(38, 40), v -> ((BigDecimal) v).toPlainString(), p);
            default -> throw new IllegalArgumentException(type);
        };
    }

    /** A random schema of the format: 1 to 4 fields. */
    private static List<Field> schema(String format, Gen g) {
        int n = 1 + g.below(4);
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            boolean desc = g.below(3) == 0;
            boolean last = i == n - 1;
            switch (format) {
                case "fdb-tuple" -> fields.add(fdb(g.pick(FDB)));
                case "hbase-ordered" -> fields.add(hbase(last && g.below(5) == 0 ? "blob-copy" : g.pick(HBASE), desc));
                case "phoenix" -> fields.add(phoenix(last && g.below(5) == 0 ? "varbinary" : g.pick(PHOENIX), desc));
                default -> {
                    List<String> types = format.equals("decimal")
                            ? Gen.NATIVE.stream().filter(t -> !t.startsWith("f")).toList()
                            : Gen.NATIVE;
                    fields.add(nat(g.pick(types), desc));
                }
            }
        }
        return fields;
    }

    private static Object encode(Schema s, Object[] row) {
        return s.isText() ? s.encodeText(row) : s.encodeBytes(row);
    }

    @ParameterizedTest
    @ValueSource(strings = {"hex", "base64", "decimal", "binary", "fdb-tuple", "hbase-ordered", "phoenix"})
    void bulkRowsEqualTheCommandLine(String format) {
        long seed = Support.seed(format.hashCode());
        Gen g = new Gen(seed, true);
        int tuples = 0;
        int plainRows = 0;
        for (int k = 0; k < SCHEMAS; k++) {
            List<Field> fields = schema(format, g);
            String spec = String.join(",", fields.stream().map(Field::type).toList());
            Schema schema = Schema.of(spec, format);
            List<Object[]> rows = new ArrayList<>();
            StringBuilder stdin = new StringBuilder();
            for (int r = 0; r < ROWS; r++) {
                Object[] row = new Object[fields.size()];
                for (int i = 0; i < row.length; i++) {
                    row[i] = fields.get(i).value().apply(g);
                    stdin.append(i == 0 ? "" : "\t").append(fields.get(i).text().apply(row[i]));
                }
                stdin.append('\n');
                rows.add(row);
            }
            String[] want = Support.lexikey(List.of("encode", "--stdin", "--format", format, "--schema", spec),
                    stdin.toString()).split("\n");
            List<String> got = schema.isText() ? schema.encodeTextMany(rows)
                    : schema.encodeBytesMany(rows).stream().map(Support::hex).toList();
            assertThat(want).hasSize(ROWS);
            boolean plain = fields.stream().allMatch(Field::plain);
            for (int r = 0; r < ROWS; r++) {
                String where = "seed " + seed + ", schema " + spec + ", row " + r + " " + Support.show(rows.get(r));
                if (!got.get(r).equals(want[r])) {
                    fail(where + ": Java " + got.get(r) + ", lexikey " + want[r]);
                }
                assertThat(Support.keyText(encode(schema, rows.get(r)))).as(where + " (one row)").isEqualTo(want[r]);
                // A String holding ':' is a component string in Lexikey.encode*.
                boolean plainRow = plain && java.util.Arrays.stream(rows.get(r))
                        .noneMatch(v -> v instanceof String str && str.indexOf(':') >= 0);
                if (plainRow) {
                    Object key = schema.isText() ? Lexikey.encodeText(format, rows.get(r))
                            : Lexikey.encodeBytes(format, rows.get(r));
                    assertThat(Support.keyText(key)).as(where + " (plain values)").isEqualTo(want[r]);
                    plainRows++;
                }
                tuples++;
            }
        }
        assertThat(tuples).isGreaterThanOrEqualTo(2000);
        assertThat(plainRows).as("rows through the plain-value path").isGreaterThan(0);
    }

    /** Component strings with tabs and newlines: one command line per tuple. */
    @ParameterizedTest
    @ValueSource(strings = {"hex", "base64", "decimal", "binary", "fdb-tuple", "hbase-ordered", "phoenix"})
    void componentStringsEqualTheCommandLine(String format) {
        long seed = Support.seed(format.hashCode() + 1L);
        Gen g = new Gen(seed, false);
        for (int k = 0; k < SINGLES; k++) {
            List<Field> fields = schema(format, g);
            List<String> comps = new ArrayList<>();
            for (Field f : fields) {
                Object v = f.value().apply(g);
                // No NUL: a command-line argument cannot hold one.
                String text = f.text().apply(v).replace('\0', '0');
                comps.add(f.type() + ":" + text);
            }
            List<String> args = new ArrayList<>(List.of("encode", "--format", format, "--"));
            args.addAll(comps);
            String want = Support.lexikey(args, null);
            want = want.substring(0, want.length() - 1);
            Object got = Lexikey.isText(format) ? Lexikey.encodeText(format, comps.toArray())
                    : Lexikey.encodeBytes(format, comps.toArray());
            assertThat(Support.keyText(got)).as("seed " + seed + ": " + comps).isEqualTo(want);
        }
    }

    /** lexikey.Main prints what the command line prints. */
    @org.junit.jupiter.api.Test
    void mainPrintsTheSameLine() {
        String jar = System.getProperty("lexikey.jar");
        String javaBin = java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<List<String>> cases = List.of(
                List.of("encode", "str:population", "i64:3831868"),
                List.of("encode", "--format", "binary", "str:population", "i64:3831868"),
                List.of("encode", "--format", "phoenix", "varchar:a", "bigint.desc:1"),
                List.of("reverse", "1"));
        for (List<String> c : cases) {
            List<String> cmd = new ArrayList<>(List.of(javaBin, "-cp", jar, "lexikey.Main"));
            cmd.addAll(c);
            Support.Run r = Support.run(cmd, null);
            assertThat(r.status()).as(c + ": " + r.err()).isZero();
            assertThat(r.out()).as(c.toString()).isEqualTo(Support.lexikey(c, null));
        }
        List<String> cmd = new ArrayList<>(List.of(javaBin, "-cp", jar, "lexikey.Main", "encode", "i65:1"));
        Support.Run bad = Support.run(cmd, null);
        assertThat(bad.status()).isEqualTo(2);
        List<String> cliCmd = new ArrayList<>(List.of(Support.cli(), "encode", "i65:1"));
        assertThat(bad.err()).isEqualTo(Support.run(cliCmd, null).err());
        assertThat(HexFormat.of().formatHex(new byte[] {1})).isEqualTo("01");
    }
}
