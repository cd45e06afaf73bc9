package lexikey;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Errors: decode errors carry the byte offset the command line reports,
 * encode errors name the value, each failure is the documented exception.
 */
class ErrorsTest {
    static final int CORRUPTIONS = 60;
    private static final Pattern AT_BYTE = Pattern.compile("at byte (\\d+)");

    private static int lastOffset(String msg) {
        Matcher m = AT_BYTE.matcher(msg);
        int at = -1;
        while (m.find()) {
            at = Integer.parseInt(m.group(1));
        }
        return at;
    }

    /**
     * Valid keys with one byte changed, cut short or extended: whenever the
     * command line refuses one, Java throws DecodeException whose message is
     * the command line's and whose offset is the byte it names; whenever the
     * command line reads one, so does Java.
     */
    @ParameterizedTest
    @ValueSource(strings = {"hex", "base64", "decimal", "binary"})
    void corruptKeysMatchTheCommandLine(String format) {
        long seed = Support.seed(17 + format.hashCode());
        Gen g = new Gen(seed, true);
        String spec = format.equals("decimal") ? "str,i64.desc,dec,ts" : "str,i64.desc,f64,bytes,uuid";
        Schema s = Schema.of(spec, format);
        int refused = 0;
        for (int k = 0; k < CORRUPTIONS; k++) {
            Object[] row = format.equals("decimal")
                    ? new Object[] {g.anyString(), g.anyLong(), g.decimal(10, 10), g.millis()}
                    : new Object[] {g.anyString(), g.anyLong(), g.anyDouble(), g.bytes(6), g.uuid()};
            byte[] key = s.isText() ? s.encodeText(row).getBytes(java.nio.charset.StandardCharsets.UTF_8)
                    : s.encodeBytes(row);
            byte[] bad = switch (g.below(3)) {
                case 0 -> java.util.Arrays.copyOf(key, g.below(key.length));
                case 1 -> {
                    byte[] b = java.util.Arrays.copyOf(key, key.length + 1 + g.below(3));
                    for (int i = key.length; i < b.length; i++) {
                        b[i] = (byte) (s.isText() ? 0x21 + g.below(0x5e) : g.below(256));
                    }
                    yield b;
                }
                default -> {
                    byte[] b = key.clone();
                    int at = g.below(b.length);
                    b[at] = (byte) (s.isText() ? 0x20 + g.below(0x5f) : g.below(256));
                    yield b;
                }
            };
            String arg = s.isText() ? new String(bad, java.nio.charset.StandardCharsets.UTF_8) : Support.hex(bad);
            if (s.isText() && !java.util.Arrays.equals(arg.getBytes(java.nio.charset.StandardCharsets.UTF_8), bad)) {
                continue; // a cut through a multi-byte character: not a String
            }
            List<String> cmd = new ArrayList<>(List.of(Support.cli(), "decode", "--format", format, "--schema", spec,
                    "--", arg));
            Support.Run cli = Support.run(cmd, null);
            Object javaKey = s.isText() ? arg : bad;
            if (cli.status() == 0) {
                s.decode(javaKey); // must not throw
                continue;
            }
            String cliMsg = cli.err().strip().replaceFirst("^lexikey: error: ", "");
            try {
                s.decode(javaKey);
                fail(format + " (seed " + seed + "): the command line refuses " + arg + " (" + cliMsg
                        + ") but Java reads it");
            } catch (DecodeException e) {
                assertThat(e.offset()).as(arg + ": " + e.getMessage() + " / " + cliMsg).isEqualTo(lastOffset(cliMsg));
                if (s.isText()) {
                    assertThat(e.getMessage()).as(arg).isEqualTo(cliMsg);
                }
                refused++;
            }
        }
        assertThat(refused).isGreaterThanOrEqualTo(CORRUPTIONS / 3);
    }

    @Test
    void decodeErrorsNameTheByte() {
        // An UPPERCASE hex digit expected at byte 23.
        assertThatThrownBy(() -> Lexikey.decode("hex", "population#l80000000003a783C", "str,i64"))
                .isInstanceOfSatisfying(DecodeException.class, e -> {
                    assertThat(e.offset()).isEqualTo(23);
                    assertThat(e.getMessage()).isEqualTo("invalid key \"population#l80000000003a783C\": invalid "
                            + "byte 'a' (0x61) at byte 23: expected an UPPERCASE hex digit (0-9, A-F)");
                });
        // A binary key given as hex: the offset of the byte the bad digit is in.
        assertThatThrownBy(() -> Lexikey.decode("binary", "706fzz", "str"))
                .isInstanceOfSatisfying(DecodeException.class, e -> assertThat(e.offset()).isEqualTo(2));
        // A text key with a lone surrogate is not UTF-8: at the byte it would start.
        assertThatThrownBy(() -> Lexikey.decode("hex", "ab\uD800", null))
                .isInstanceOfSatisfying(DecodeException.class, e -> assertThat(e.offset()).isEqualTo(2));
        // Bulk: the message names the key's index.
        Schema s = Schema.of("str,i64");
        assertThatThrownBy(() -> s.decodeMany(List.of("a#l8000000000000001", "a#l80")))
                .isInstanceOfSatisfying(DecodeException.class, e -> {
                    assertThat(e.getMessage()).startsWith("key 1: ");
                    assertThat(e.offset()).isEqualTo(5); // truncated: the end of the key
                });
        // A salted key: the salt is checked first (it hashes the rest of the key).
        Schema salted = Schema.of("str,i64").withSaltBuckets(4);
        String key = salted.encodeText("a", 1L);
        String broken = key.substring(0, key.length() - 1) + "g";
        assertThatThrownBy(() -> salted.decode(broken))
                .isInstanceOfSatisfying(DecodeException.class, e -> assertThat(e.offset()).isZero());
        assertThatThrownBy(() -> salted.decode(key.substring(0, 2)))
                .isInstanceOfSatisfying(DecodeException.class, e -> assertThat(e.offset()).isEqualTo(2));
    }

    @Test
    void encodeErrorsNameTheValue() {
        Schema s = Schema.of("str,i64,ts,dec");
        assertThatThrownBy(() -> s.encodeText("a", 1.5, Instant.EPOCH, BigDecimal.ONE))
                .isInstanceOf(EncodeException.class)
                .hasMessage("values, value 2 (i64): expected an integer (Long, Integer, Short, Byte or BigInteger) "
                        + "for i64, got Double");
        assertThatThrownBy(() -> s.encodeText("a", 1L, Instant.ofEpochSecond(0, 1), BigDecimal.ONE))
                .isInstanceOf(EncodeException.class).hasMessageContaining("value 3 (ts)")
                .hasMessageContaining("whole milliseconds");
        assertThatThrownBy(() -> s.encodeText("a", 1L, Instant.EPOCH, 0.1))
                .isInstanceOf(EncodeException.class).hasMessageContaining("not an exact decimal");
        assertThatThrownBy(() -> s.encodeText("a", 1L, Instant.EPOCH))
                .isInstanceOf(EncodeException.class).hasMessageContaining("has 3 values");
        List<Object[]> rows = List.of(new Object[] {"a", 1L, Instant.EPOCH, BigDecimal.ONE},
                new Object[] {"a", "x", Instant.EPOCH, BigDecimal.ONE});
        assertThatThrownBy(() -> s.encodeTextMany(rows)).isInstanceOf(EncodeException.class)
                .hasMessageStartingWith("row 1, value 2 (i64)");
        assertThatThrownBy(() -> Schema.of("i32").encodeText(1L << 40))
                .isInstanceOf(EncodeException.class).hasMessageContaining("1099511627776 is out of range for i32");
        assertThatThrownBy(() -> Schema.of("u64").encodeText(-1L))
                .isInstanceOf(EncodeException.class).hasMessageContaining("-1 is out of range for u64");
        assertThatThrownBy(() -> Schema.of("str").encodeText("a\uDC00"))
                .isInstanceOf(EncodeException.class).hasMessageContaining("lone surrogate");
        assertThatThrownBy(() -> Lexikey.encodeText("hex", "i65:1"))
                .isInstanceOf(EncodeException.class).hasMessageContaining("unknown type \"i65\"");
        assertThatThrownBy(() -> Lexikey.encodeText("hex", new Object()))
                .isInstanceOf(EncodeException.class).hasMessageContaining("not java.lang.Object");
        assertThatThrownBy(() -> Schema.of("str,i64").range(new Object[] {"a"}, Predicate.gt(Long.MAX_VALUE)))
                .isInstanceOf(EncodeException.class).hasMessageContaining("no key can match");
    }

    @Test
    void argumentErrors() {
        assertThatThrownBy(() -> Lexikey.encodeText("hexx", "str:a")).isExactlyInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Lexikey.encodeText("binary", "str:a")).isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("use encodeBytes");
        assertThatThrownBy(() -> Lexikey.encodeBytes("hex", "str:a")).isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("use encodeText");
        assertThatThrownBy(() -> Schema.of("str,i65")).isExactlyInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Schema.of("str", "hex").withWidth(5)).isExactlyInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Schema.of("str", "hex").withRound(true)).isExactlyInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Schema.of("text", "hbase-ordered").withHbaseNumeric("old"))
                .isExactlyInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Schema.of("str").withSaltBuckets(4).range(new Object[0]))
                .isExactlyInstanceOf(IllegalArgumentException.class).hasMessageContaining("Schema.ranges");
        assertThatThrownBy(() -> Lexikey.decode("decimal", "1", null)).isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("pass a schema");
        assertThatThrownBy(() -> Lexikey.render("a", "b", "mongo", null)).isExactlyInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Lexikey.reverse(-1)).isInstanceOf(EncodeException.class);
        assertThatThrownBy(() -> new Allocator("nosuch:x", "t")).isExactlyInstanceOf(IllegalArgumentException.class);
        // A URL whose port does not parse is a bad argument naming the part,
        // not a store that failed to open (issue 38).
        assertThatThrownBy(() -> new Allocator("redis://127.0.0.1:notaport", "t"))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the port `notaport` of host `127.0.0.1:notaport` is not a number from 1 to 65535");
        assertThatThrownBy(() -> new Allocator("postgres://u@h:99999/db", "t"))
                .isExactlyInstanceOf(IllegalArgumentException.class).hasMessageContaining("the port `99999`");
        // Null lists are argument errors naming the argument.
        Schema schema = Schema.of("str,i64", "hex");
        assertThatThrownBy(() -> schema.encodeTextMany(null)).isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessage("rows: a List, not null (an empty list gives no keys)");
        assertThatThrownBy(() -> Schema.of("str,i64", "binary").encodeBytesMany(null))
                .isExactlyInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("rows: a List, not null");
        assertThatThrownBy(() -> schema.decodeMany(null)).isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("keys: a List, not null");
        // An empty table name is refused, saying what is allowed.
        assertThatThrownBy(() -> new Allocator("memory:", ""))
                .isInstanceOfSatisfying(AllocException.class, e -> assertThat(e.kind()).isEqualTo("config"))
                .hasMessageContaining("the table name is empty: give a name of 1 or more characters");
        assertThatThrownBy(() -> new Allocator("redis://127.0.0.1:1", "t")).isInstanceOf(StoreException.class)
                .isInstanceOf(java.io.UncheckedIOException.class);
        assertThatThrownBy(() -> new Allocator("memory:", "t", AllocatorOptions.defaults().withStart(5).withFloor(6)))
                .isInstanceOfSatisfying(AllocException.class, e -> assertThat(e.kind()).isEqualTo("config"));
    }
}
