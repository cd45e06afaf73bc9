package lexikey;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every golden vector of fixtures/ both ways through Java: the native
 * formats' files (fixtures/{hex,base64,decimal,binary}.tsv) and the interop
 * profiles' (fixtures/interop/*.tsv: positive vectors and the malformed keys
 * with their error offsets).
 */
class FixturesTest {

    private static Object key(String format, String text) {
        return Lexikey.isText(format) ? text : Support.unhex(text);
    }

    private static Object encodeStrings(String format, Object[] comps) {
        return Lexikey.isText(format) ? Lexikey.encodeText(format, comps) : Lexikey.encodeBytes(format, comps);
    }

    private static Object encodeRow(Schema s, Object[] values) {
        return s.isText() ? s.encodeText(values) : s.encodeBytes(values);
    }

    /**
     * Per line: the component strings encode to the key (the command line's
     * syntax); the typed Java values encode to the key through a Schema; the
     * key decodes to those values (Schema, and Lexikey.decode with the
     * schema, and for hex and base64 by the tags alone).
     */
    @ParameterizedTest
    @ValueSource(strings = {"hex", "base64", "decimal", "binary"})
    void nativeVectors(String format) {
        int checked = 0;
        for (String line : Support.fixtureLines("fixtures/" + format + ".tsv")) {
            String[] cols = line.split("\t", -1);
            String keyCol = cols[cols.length - 1];
            int n = cols.length - 1;
            Object[] comps = new Object[n];
            Object[] values = new Object[n];
            List<String> types = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                String c = Support.unescape(cols[i]);
                comps[i] = c;
                int colon = c.indexOf(':');
                String type = c.substring(0, colon);
                types.add(type);
                values[i] = Support.javaValue(type, c.substring(colon + 1));
            }
            String where = format + ".tsv: " + line;
            Object want = key(format, keyCol);
            // value -> key: component strings, then typed values.
            assertThat(Support.keyText(encodeStrings(format, comps))).as(where).isEqualTo(keyCol);
            Schema schema = Schema.of(String.join(",", types), format);
            assertThat(Support.keyText(encodeRow(schema, values))).as(where).isEqualTo(keyCol);
            // key -> value.
            Object[] back = schema.decode(want);
            if (!Support.sameRow(back, values)) {
                fail(where + ": decoded " + Support.show(back) + ", want " + Support.show(values));
            }
            Object[] viaLexikey = Lexikey.decode(format, keyCol, String.join(",", types)).toArray();
            assertThat(Support.sameRow(viaLexikey, values)).as(where).isTrue();
            if ((format.equals("hex") || format.equals("base64")) && !types.contains("str.desc")) {
                // (A .desc string is untagged: without a schema it reads as an ascending one.)
                // Tags alone give every component's type.
                Object[] tagged = Lexikey.decode(format, keyCol, null).toArray();
                assertThat(Support.sameRow(tagged, values)).as(where + " (by tags)").isTrue();
            }
            // A binary key given as hex text decodes the same.
            if (want instanceof byte[]) {
                assertThat(Support.sameRow(schema.decode(keyCol), values)).as(where + " (hex text)").isTrue();
            }
            checked++;
        }
        assertThat(checked).isGreaterThanOrEqualTo(80);
    }

    /** fixtures/interop/fdb.tsv: key, then elements (a nested tuple as "(" ... ")"). */
    @org.junit.jupiter.api.Test
    void fdbVectors() {
        int checked = 0;
        for (String line : Support.fixtureLines("fixtures/interop/fdb.tsv")) {
            String data = line.contains("\t#") ? line.substring(0, line.indexOf("\t#")) : line;
            String[] cols = data.split("\t", -1);
            String keyHex = cols[0];
            byte[] key = Support.unhex(keyHex);
            List<String> elems = new ArrayList<>(List.of(cols).subList(1, cols.length));
            elems.removeIf(String::isEmpty);
            List<Object> back = Lexikey.decode("fdb-tuple", key, null);
            if (elems.contains("(")) {
                // Nested tuples: decode only (no component syntax); a List comes back.
                assertThat(back.stream().anyMatch(v -> v instanceof List)).as(line).isTrue();
                checked++;
                continue;
            }
            Object[] comps = elems.stream().map(Support::unescapeBytes).toArray();
            assertThat(Support.hex(Lexikey.encodeBytes("fdb-tuple", comps))).as(line).isEqualTo(keyHex);
            // The decoded Java values encode back to the same key (plain values:
            // their classes name their fdb-tuple types; a versionstamp comes back
            // as its 12 bytes, which encode as bytes).
            if (elems.stream().anyMatch(e -> e.startsWith("versionstamp:"))) {
                checked++;
                continue;
            }
            assertThat(Support.hex(Lexikey.encodeBytes("fdb-tuple", back.toArray()))).as(line + " (values)")
                    .isEqualTo(keyHex);
            checked++;
        }
        assertThat(checked).isGreaterThanOrEqualTo(60);
    }

    /**
     * fixtures/interop/{hbase,phoenix}.tsv: the {@code value}, {@code struct}
     * and {@code row}/{@code rrow} vectors (the others test codec internals:
     * varints, salt hashes; {@code legacy}, {@code lstruct} and {@code round}
     * have their own tests below). Component strings encode to the key; the
     * key decodes, with the row's schema, to Java values that encode back to
     * it.
     */
    @ParameterizedTest
    @ValueSource(strings = {"hbase", "phoenix"})
    void profileVectors(String profile) {
        String format = profile.equals("hbase") ? "hbase-ordered" : "phoenix";
        int checked = 0;
        for (String line : Support.fixtureLines("fixtures/interop/" + profile + ".tsv")) {
            String[] c = cells(line);
            List<String> comps = new ArrayList<>();
            String keyHex;
            String schema = null;
            Integer salt = null;
            boolean round = false;
            switch (c[0]) {
                case "value" -> {
                    comps.add(c[1]);
                    keyHex = c[2];
                }
                case "struct" -> {
                    keyHex = c[1];
                    comps.addAll(List.of(c).subList(3, c.length));
                }
                case "row", "rrow" -> {
                    if (c[2].equals("legacy")) {
                        continue; // the pre-4.4 layout: the library's Table::legacy, not an option here
                    }
                    schema = c[1];
                    salt = c[2].equals("-") ? null : Integer.valueOf(c[2]);
                    keyHex = c[3];
                    comps.addAll(List.of(c).subList(4, c.length));
                    round = c[0].equals("rrow");
                }
                default -> {
                    continue;
                }
            }
            String where = profile + ".tsv: " + line;
            Object[] strings = comps.stream().map(Support::unescape).toArray();
            if (salt == null && !round) {
                assertThat(Support.hex(Lexikey.encodeBytes(format, strings))).as(where)
                        .isEqualTo(c[0].equals("value") ? rowKeyOfValue(profile, comps.get(0), keyHex) : keyHex);
            }
            if (c[0].equals("value")) {
                keyHex = rowKeyOfValue(profile, comps.get(0), keyHex);
            }
            if (schema == null) {
                schema = String.join(",", comps.stream().map(FixturesTest::typeOf).toList());
            }
            Schema s = Schema.of(schema, format);
            if (salt != null) {
                s = s.withSaltBuckets(salt);
            }
            if (round) {
                s = s.withRound(true);
            }
            Object[] back = s.decode(Support.unhex(keyHex));
            assertThat(Support.hex(s.encodeBytes(back))).as(where + " " + Support.show(back)).isEqualTo(keyHex);
            checked++;
        }
        assertThat(checked).isGreaterThanOrEqualTo(profile.equals("hbase") ? 250 : 150);
    }

    /**
     * The row key of a single value whose bytes a {@code value} line gives
     * (PDataType.toBytes): a DESC variable-width value that ends a Phoenix
     * row key is followed by FF (rowKeyOrderOptimizable).
     */
    private static String rowKeyOfValue(String profile, String component, String valueHex) {
        String type = typeOf(component);
        boolean variable = type.startsWith("varchar.") || type.startsWith("decimal.") || type.startsWith("varbinary.");
        return profile.equals("phoenix") && type.endsWith(".desc") && variable ? valueHex + "ff" : valueHex;
    }

    /** The columns of a fixture line, without its comment. */
    private static String[] cells(String line) {
        int hash = line.indexOf("\t#");
        return (hash < 0 ? line : line.substring(0, hash)).split("\t", -1);
    }

    /** The type of a component string (a bare type is a null of that type). */
    private static String typeOf(String component) {
        int colon = component.indexOf(':');
        return colon < 0 ? component : component.substring(0, colon);
    }

    /** The value text of a component string. */
    private static String valueOf(String component) {
        return component.substring(component.indexOf(':') + 1);
    }

    /**
     * hbase.tsv {@code legacy} rows: HBase 2.4's numeric encoding, through
     * {@code withHbaseNumeric("legacy")}: the BigDecimal encodes to the key,
     * which decodes to the number HBase 2.4 reads back.
     */
    @org.junit.jupiter.api.Test
    void hbaseLegacyNumerics() {
        int checked = 0;
        for (String line : Support.fixtureLines("fixtures/interop/hbase.tsv")) {
            String[] c = cells(line);
            if (!c[0].equals("legacy")) {
                continue;
            }
            Schema s = Schema.of(typeOf(c[1]), "hbase-ordered").withHbaseNumeric("legacy");
            java.math.BigDecimal v = new java.math.BigDecimal(valueOf(c[1]));
            assertThat(Support.hex(s.encodeBytes(v))).as(line).isEqualTo(c[2]);
            Object back = s.decode(Support.unhex(c[2]))[0];
            assertThat((java.math.BigDecimal) back).as(line)
                    .isEqualByComparingTo(new java.math.BigDecimal(valueOf(c[3])));
            checked++;
        }
        assertThat(checked).isGreaterThanOrEqualTo(10);
    }

    /**
     * phoenix.tsv {@code round} rows: a DECIMAL of more than 38 digits is
     * refused by default and, with {@code withRound(true)}, written as the
     * value Phoenix stores.
     */
    @org.junit.jupiter.api.Test
    void phoenixRounding() {
        int checked = 0;
        for (String line : Support.fixtureLines("fixtures/interop/phoenix.tsv")) {
            String[] c = cells(line);
            if (!c[0].equals("round")) {
                continue;
            }
            java.math.BigDecimal v = new java.math.BigDecimal(valueOf(c[1]));
            Schema plain = Schema.of(typeOf(c[1]), "phoenix");
            assertThatThrownBy(() -> plain.encodeBytes(v)).as(line).isInstanceOf(EncodeException.class);
            Schema s = plain.withRound(true);
            String key = rowKeyOfValue("phoenix", c[1], c[3]);
            assertThat(Support.hex(s.encodeBytes(v))).as(line).isEqualTo(key);
            assertThat((java.math.BigDecimal) s.decode(Support.unhex(key))[0]).as(line)
                    .isEqualByComparingTo(new java.math.BigDecimal(c[2]));
            checked++;
        }
        assertThat(checked).isGreaterThanOrEqualTo(10);
    }

    /**
     * fixtures/interop/*-malformed.tsv: every key the decoders must reject
     * throws DecodeException at the fixture's offset.
     */
    @ParameterizedTest
    @ValueSource(strings = {"fdb", "hbase", "phoenix"})
    void malformedKeys(String profile) {
        int checked = 0;
        for (String line : Support.fixtureLines("fixtures/interop/" + profile + "-malformed.tsv")) {
            String[] c = line.split("\t", -1);
            String keyHex;
            int offset;
            Schema s;
            switch (profile) {
                case "fdb" -> {
                    keyHex = c[0];
                    offset = Integer.parseInt(c[2]);
                    s = null;
                }
                case "hbase" -> {
                    keyHex = c[1];
                    offset = Integer.parseInt(c[3]);
                    s = line.contains("\tSchemaRequired\t") ? null : Schema.of(c[0], "hbase-ordered");
                }
                default -> {
                    if (c[1].equals("legacy")) {
                        continue; // the pre-4.4 layout: the library's, not the bindings'
                    }
                    keyHex = c[2];
                    offset = Integer.parseInt(c[4]);
                    if (line.contains("\tSchemaRequired\t")) {
                        s = null;
                    } else {
                        Schema p = Schema.of(c[0], "phoenix");
                        s = c[1].equals("-") ? p : p.withSaltBuckets(Integer.parseInt(c[1]));
                    }
                }
            }
            byte[] key = Support.unhex(keyHex);
            if (line.contains("\tSchemaRequired\t")) {
                // A schema the API refuses when it is made.
                String spec = c[0];
                String fmt = profile.equals("hbase") ? "hbase-ordered" : "phoenix";
                assertThatThrownBy(() -> Schema.of(spec, fmt)).as(line).isExactlyInstanceOf(IllegalArgumentException.class);
                checked++;
                continue;
            }
            org.assertj.core.api.ThrowableAssert.ThrowingCallable call = s == null
                    ? () -> Lexikey.decode("fdb-tuple", key, null)
                    : () -> s.decode(key);
            assertThatThrownBy(call).as(line).isInstanceOfSatisfying(DecodeException.class,
                    e -> assertThat(e.offset()).as(line + ": " + e.getMessage()).isEqualTo(offset));
            checked++;
        }
        assertThat(checked).isGreaterThanOrEqualTo(30);
    }
}
