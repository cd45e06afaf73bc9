package lexikey;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@code Schema.lint}, {@code plan} and {@code diff} (issue #43) are the
 * command line's {@code lint --json}, {@code plan} and {@code schema diff
 * --json}, byte for byte: on random samples (rising or random leading
 * values, every native format, salted or not, 1 to 40 regions) and random
 * pairs of layouts. The work is lexikey-design's; these check that Java
 * hands it the same keys and the same question.
 */
class DesignTest {
    static final int CASES = Integer.getInteger("lexikey.cases.design", 12);

    /** A CSV field: quoted, quotes doubled. */
    private static String csv(String s) {
        return "\"" + s.replace("\"", "\"\"") + "\"";
    }

    @Test
    void lintAndPlanAreTheCommandLines() {
        long seed = Support.seed(43);
        Random r = new Random(seed);
        for (int c = 0; c < CASES; c++) {
            String format = List.of("hex", "base64", "decimal", "binary").get(r.nextInt(4));
            int buckets = r.nextInt(3) == 0 ? 1 + r.nextInt(8) : 0;
            int regions = 1 + r.nextInt(40);
            boolean rising = r.nextBoolean();
            int n = 1 + r.nextInt(300);
            List<Object[]> rows = new ArrayList<>();
            StringBuilder sample = new StringBuilder();
            for (int i = 0; i < n; i++) {
                long lead = rising ? 1_700_000_000_000L + 1000L * i : r.nextLong();
                String tail = "u" + r.nextInt(50) + (r.nextInt(5) == 0 ? ",\"é" : "");
                rows.add(new Object[] {lead, tail});
                sample.append(lead).append(',').append(csv(tail)).append('\n');
            }
            Schema s = Schema.of("i64,str", format);
            List<String> layout = new ArrayList<>(List.of("--schema", "i64,str", "--format", format));
            if (buckets > 0) {
                s = s.withSaltBuckets(buckets);
                layout.addAll(List.of("--salt-buckets", Integer.toString(buckets)));
            }
            String what = "seed " + seed + ", case " + c + ": " + layout + ", " + regions + " regions";
            List<String> lint = new ArrayList<>(List.of("lint", "--json", "--regions", Integer.toString(regions)));
            lint.addAll(layout);
            lint.add("-");
            String report = s.lint(rows, regions);
            assertThat(report + "\n").as(what).isEqualTo(Support.lexikey(lint, sample.toString()));
            if (rising && regions > 1 && buckets == 0) {
                assertThat(report).as(what).contains("\"hot_spot\":true");
            }
            for (String target : List.of("hbase", "cbt")) {
                List<String> plan = new ArrayList<>(List.of("plan", "--regions", Integer.toString(regions),
                        "--for", target, "--table", "ev"));
                plan.addAll(layout);
                plan.add("-");
                List<String> cmd = new ArrayList<>();
                cmd.add(Support.cli());
                cmd.addAll(plan);
                Support.Run run = Support.run(cmd, sample.toString());
                if (run.status() == 0) {
                    assertThat(s.plan(rows, regions, target, "ev")).as(what).isEqualTo(run.out());
                } else {
                    // The same refusal: one line, the command line's after "lexikey: error: ".
                    String message = run.err().strip().replaceFirst("^lexikey: error: ", "");
                    final Schema fs = s;
                    assertThatThrownBy(() -> fs.plan(rows, regions, target, "ev")).as(what)
                            .isInstanceOf(IllegalArgumentException.class).hasMessage(message);
                }
            }
        }
    }

    @Test
    void diffIsTheCommandLines() {
        long seed = Support.seed(4343);
        Random r = new Random(seed);
        List<String> schemas = List.of("str,ts", "str,ts,str", "str,ts.desc", "str,i64", "str,i32", "str",
                "i64,str", "bytes,ts");
        for (int c = 0; c < CASES; c++) {
            String old = schemas.get(r.nextInt(schemas.size()));
            String neu = schemas.get(r.nextInt(schemas.size()));
            String format = List.of("hex", "binary").get(r.nextInt(2));
            String verdict = Schema.of(old, format).diff(Schema.of(neu, format));
            String cli = Support.lexikey(List.of("schema", "diff", old, neu, "--json", "--format", format), null);
            assertThat(verdict + "\n").as("seed " + seed + ": " + old + " -> " + neu + " (" + format + ")")
                    .isEqualTo(cli);
        }
        assertThat(Schema.of("str,ts").diff(Schema.of("str,ts,str"))).startsWith("{\"compatible\":true");
        assertThat(Schema.of("str,ts").diff(Schema.of("str,ts.desc"))).startsWith("{\"compatible\":false");
    }

    @Test
    void badSamplesAreErrors() {
        Schema s = Schema.of("i64,str");
        assertThatThrownBy(() -> s.lint(List.of(), 16)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the sample has no rows");
        List<Object[]> rows = List.<Object[]>of(new Object[] {1L, "a"}, new Object[] {2L, "b"});
        assertThatThrownBy(() -> s.lint(rows, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("invalid region count 0");
        assertThatThrownBy(() -> s.plan(rows, 2, "cassandra", "t")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown target \"cassandra\"");
        assertThatThrownBy(() -> s.lint(List.<Object[]>of(new Object[] {"x", "a"}), 16))
                .isInstanceOf(EncodeException.class);
    }
}
