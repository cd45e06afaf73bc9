package lexikey;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code KeyRange.render(target, table)} == {@code lexikey range --for
 * target --table table}, byte for byte, for every store syntax: per target,
 * format and direction, random ranges of {@code (str, i64)} schemas (a
 * random string prefix and a random comparison or string prefix) built by
 * {@link Schema#range} and by the command line from the same predicate. What
 * the command line refuses (no key can match; a key the target's syntax
 * cannot carry) Java refuses with the same message.
 */
class RenderTest {
    static final int CASES = 6;
    static final List<String> FORMATS = List.of("hex", "base64", "decimal", "binary");

    @ParameterizedTest
    @ValueSource(strings = {"raw", "hbase", "cql", "rocksdb", "etcd", "redis", "sql", "cbt", "dynamodb"})
    void renderEqualsTheCommandLine(String target) {
        long seed = Support.seed(0x52454e44L ^ target.hashCode());
        Gen g = new Gen(seed, true);
        int compared = 0;
        int refused = 0;
        for (String format : FORMATS) {
            for (boolean desc : new boolean[] {false, true}) {
                String s = desc ? "str.desc" : "str";
                String l = desc ? "i64.desc" : "i64";
                Schema schema = Schema.of(s + "," + l, format);
                for (int i = 0; i < CASES; i++) {
                    String head = g.stringNoNul();
                    int op = g.below(desc ? 5 : 6);
                    long v = g.anyLong();
                    String tail = g.stringNoNul();
                    Predicate p = switch (op) {
                        case 0 -> Predicate.eq(v);
                        case 1 -> Predicate.ge(v);
                        case 2 -> Predicate.gt(v);
                        case 3 -> Predicate.le(v);
                        case 4 -> Predicate.lt(v);
                        default -> Predicate.prefix(tail);
                    };
                    List<String> args = new ArrayList<>(List.of(Support.cli(), "range", "--for", target,
                            "--table", "t", "--format", format));
                    Object[] prefix;
                    if (op == 5) {
                        // A string prefix of the first field (ascending only).
                        prefix = new Object[] {};
                        args.addAll(List.of("--prefix", tail, "--"));
                    } else {
                        prefix = new Object[] {head};
                        String name = List.of("eq", "ge", "gt", "le", "lt").get(op);
                        args.addAll(List.of("--" + name, l + ":" + v, "--", s + ":" + head));
                    }
                    Support.Run cli = Support.run(args, null);
                    String why = target + " " + format + " " + args;
                    if (cli.status() == 2) {
                        // Refused (no key can match; a key the target's
                        // syntax cannot carry): Java refuses with the same
                        // message.
                        String line = cli.err().strip();
                        assertThat(line).as(why).startsWith("lexikey: error: ").doesNotContain("\n");
                        assertThatThrownBy(() -> schema.range(prefix, p).render(target, "t")).as(why)
                                .isInstanceOf(IllegalArgumentException.class)
                                .hasMessage(line.substring("lexikey: error: ".length()));
                        refused++;
                        continue;
                    }
                    assertThat(cli.status()).as(why + ": " + cli.err()).isZero();
                    assertThat(schema.range(prefix, p).render(target, "t")).as(why).isEqualTo(cli.out());
                    compared++;
                }
            }
        }
        assertThat(compared).as("ranges compared (seed %d, %d refused)", seed, refused)
                .isGreaterThan(FORMATS.size() * CASES);
    }
}
