package lexikey;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.nio.file.Files;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The compact integers vi64 / vu64 from Java: every vector of
 * fixtures/compact.tsv both ways (component strings in, Java values out,
 * the values encoding to the same key), vi64 as Long and vu64 as
 * BigInteger; a non-canonical key refused with its offset.
 */
class CompactTest {

    @Test
    void fixturesBothWays() throws Exception {
        int checked = 0;
        for (String line : Files.readAllLines(Support.ROOT.resolve("fixtures/compact.tsv"))) {
            if (line.startsWith("#") || line.isBlank()) {
                continue;
            }
            String[] cols = line.split("\t");
            String format = cols[0];
            Object[] comps = Arrays.copyOfRange(cols, 1, cols.length - 1);
            String want = cols[cols.length - 1];
            Object key = Lexikey.isText(format) ? Lexikey.encodeText(format, comps) : Lexikey.encodeBytes(format, comps);
            Object wantKey = Lexikey.isText(format) ? want : Support.unhex(want);
            assertThat(key).as(line).isEqualTo(wantKey);
            StringBuilder spec = new StringBuilder();
            for (Object c : comps) {
                String s = (String) c;
                spec.append(spec.length() == 0 ? "" : ",").append(s, 0, s.indexOf(':'));
            }
            Schema schema = Schema.of(spec.toString(), format);
            Object[] values = key instanceof String t ? schema.decode(t) : schema.decode((byte[]) key);
            for (int i = 0; i < values.length; i++) {
                String s = (String) comps[i];
                String type = s.substring(0, s.indexOf(':')).split("\\.")[0];
                String text = s.substring(s.indexOf(':') + 1);
                switch (type) {
                    case "vi64" -> assertThat(values[i]).as(line).isEqualTo(Long.parseLong(text));
                    case "vu64" -> assertThat(values[i]).as(line).isEqualTo(new BigInteger(text));
                    default -> assertThat(values[i]).as(line).isEqualTo(text);
                }
            }
            Object again = schema.isText() ? schema.encodeText(values) : schema.encodeBytes(values);
            assertThat(again).as(line).isEqualTo(key);
            checked++;
        }
        assertThat(checked).isGreaterThan(40);
    }

    @Test
    void nonCanonicalKeyIsRefusedWithItsOffset() {
        assertThatThrownBy(() -> Schema.of("vu64", "hex").decode("vF805"))
                .isInstanceOfSatisfying(DecodeException.class, e -> assertThat(e.offset()).isEqualTo(1));
    }
}
