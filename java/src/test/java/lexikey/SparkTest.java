package lexikey;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Spark job of java/examples, both ways (mapPartitions with the
 * streaming Schema.encodeBytesMany, and a Java UDF calling
 * Schema.encodeBytes per row), compiled against the Spark jars of the
 * PySpark package and run by its spark-submit --master local[2] with
 * lexikey.jar: the keys of its rows equal the command line's. Rows:
 * -Dlexikey.spark.rows (scripts/java.sh test passes LEXIKEY_SPARK_ROWS;
 * default 1,000,000).
 */
class SparkTest {

    private static Path pyspark() throws Exception {
        String venv = System.getenv().getOrDefault("LEXIKEY_PY_VENV", Support.ROOT.resolve("target/pyvenv").toString());
        Path lib = Path.of(venv, "lib");
        Path found = null;
        if (Files.isDirectory(lib)) {
            try (Stream<Path> s = Files.list(lib)) {
                for (Path p : s.toList()) {
                    Path candidate = p.resolve("site-packages/pyspark/bin/spark-submit");
                    if (Files.isExecutable(candidate)) {
                        found = candidate.getParent().getParent();
                    }
                }
            }
        }
        if (found == null && "1".equals(System.getenv("LEXIKEY_REQUIRE_SPARK"))) {
            throw new AssertionError("no PySpark in " + venv + " (scripts/python.sh setup installs it)");
        }
        Assumptions.assumeTrue(found != null, "no PySpark in " + venv + ": scripts/python.sh setup installs it");
        return found;
    }

    @ParameterizedTest
    @ValueSource(strings = {"partitions", "udf"})
    void keysEqualTheCommandLine(String mode) throws Exception {
        pyspark();
        long rows = Long.parseLong(System.getProperty("lexikey.spark.rows", "1000000"));
        Support.Run run = Support.run(List.of("bash", Support.ROOT.resolve("scripts/java.sh").toString(), "spark",
                Long.toString(rows), mode), null);
        assertThat(run.status()).as(run.err()).isZero();
        String[] outLines = run.out().strip().split("\n");
        Path out = Path.of(outLines[outLines.length - 1]);
        String[] keys = new String[(int) rows];
        try (Stream<Path> parts = Files.list(out)) {
            for (Path part : parts.filter(p -> p.getFileName().toString().startsWith("part-")).toList()) {
                for (String line : Files.readAllLines(part, StandardCharsets.UTF_8)) {
                    int tab = line.indexOf('\t');
                    int id = Integer.parseInt(line.substring(0, tab));
                    assertThat(keys[id]).as("row " + id + " twice").isNull();
                    keys[id] = line.substring(tab + 1);
                }
            }
        }
        // The same rows through the command line's bulk encoder.
        StringBuilder stdin = new StringBuilder();
        for (long id = 0; id < rows; id++) {
            stdin.append("metric").append(id % 7).append('\t')
                    .append((id * 2654435761L) % 100000007L - 50000000L).append('\t')
                    .append("city ").append(id % 1009).append(" \u00e9#%").append('\n');
        }
        String[] want = Support.lexikey(List.of("encode", "--stdin", "--schema", "str,i64.desc,str", "--format", "binary"),
                stdin.toString()).split("\n");
        assertThat(want).hasSize((int) rows);
        for (int i = 0; i < rows; i++) {
            if (!want[i].equals(keys[i])) {
                throw new AssertionError(mode + ", row " + i + ": Spark " + keys[i] + ", lexikey " + want[i]);
            }
        }
        deleteTree(out.getParent());
    }

    private static void deleteTree(Path dir) throws Exception {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
