package lexikey;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The allocator from 4 JVM processes x 200 inserts on one table: 800 unique
 * IDs, every acknowledged ID holding its process's value, and a scan that
 * returns them newest (smallest ID) first. On redb (a file the processes
 * share) and on the Redis, PostgreSQL and etcd servers that
 * scripts/with-stores.sh starts (LEXIKEY_REDIS_URL, LEXIKEY_POSTGRES_URL,
 * LEXIKEY_ETCD_URL; without them those stores are skipped, and
 * scripts/test.sh always has them).
 */
class AllocTest {
    static final int PROCESSES = 4;
    static final int INSERTS = 200;

    private static String url(String store) throws Exception {
        if (store.equals("redb")) {
            Path dir = Files.createTempDirectory("lexikey-java-alloc");
            return "redb:" + dir.resolve("t.redb");
        }
        String var = "LEXIKEY_" + store.toUpperCase(java.util.Locale.ROOT) + "_URL";
        String u = System.getenv(var);
        if (u == null && "1".equals(System.getenv("LEXIKEY_REQUIRE_STORES"))) {
            throw new AssertionError(var + " is not set (scripts/with-stores.sh sets it)");
        }
        Assumptions.assumeTrue(u != null, var + " is not set: run under scripts/with-stores.sh");
        return u;
    }

    @ParameterizedTest
    @ValueSource(strings = {"redb", "redis", "postgres", "etcd"})
    void fourProcessesShareATable(String store) throws Exception {
        String url = url(store);
        String table = "java-" + Long.toHexString(System.nanoTime());
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = System.getProperty("lexikey.classpath", System.getProperty("java.class.path"));
        List<CompletableFuture<Support.Run>> runs = new ArrayList<>();
        for (int p = 0; p < PROCESSES; p++) {
            List<String> cmd = List.of(java, "-cp", cp, "lexikey.AllocWorker", url, table, "p" + p,
                    Integer.toString(INSERTS));
            runs.add(CompletableFuture.supplyAsync(() -> Support.run(cmd, null)));
        }
        Map<Long, String> acked = new HashMap<>();
        for (CompletableFuture<Support.Run> f : runs) {
            Support.Run r = f.join();
            assertThat(r.status()).as(store + ": " + r.err()).isZero();
            for (String line : r.out().split("\n")) {
                String[] c = line.split("\t");
                String prev = acked.put(Long.parseUnsignedLong(c[0]), c[1]);
                assertThat(prev).as(store + ": ID " + c[0] + " handed out twice").isNull();
            }
        }
        assertThat(acked).hasSize(PROCESSES * INSERTS);
        try (Allocator a = new Allocator(url, table, AllocatorOptions.defaults())) {
            List<Allocator.Row> rows = a.scan();
            assertThat(rows).hasSize(PROCESSES * INSERTS);
            for (int i = 0; i < rows.size(); i++) {
                Allocator.Row row = rows.get(i);
                assertThat(new String(row.value(), StandardCharsets.UTF_8)).as("row " + Long.toUnsignedString(row.id()))
                        .isEqualTo(acked.get(row.id()));
                if (i > 0) {
                    assertThat(Long.compareUnsigned(rows.get(i - 1).id(), row.id())).as("newest first").isNegative();
                }
            }
            assertThat(a.newest()).contains(rows.get(0));
            assertThat(a.oldest()).contains(rows.get(rows.size() - 1));
            assertThat(a.oldest().orElseThrow().id()).isEqualTo(-1L); // 18446744073709551615: the first ID
            assertThat(a.scan(3)).isEqualTo(rows.subList(0, 3));
        }
    }

    @Test
    void insertManyAndOptions() {
        try (Allocator jobs = new Allocator("memory:", "jobs",
                AllocatorOptions.defaults().withStart(1_000_000).withFloor(999_999))) {
            long[] ids = jobs.insertMany(List.of("a".getBytes(StandardCharsets.UTF_8), "b".getBytes(StandardCharsets.UTF_8)));
            assertThat(ids).containsExactly(1_000_000, 999_999);
            try {
                jobs.insertMany(List.of(new byte[] {1}));
                throw new AssertionError("no ID left, yet insertMany returned");
            } catch (AllocException e) {
                assertThat(e.kind()).isEqualTo("exhausted");
                assertThat(e.ids()).isEmpty();
            }
            assertThat(jobs.scan()).extracting(Allocator.Row::id).containsExactly(999_999L, 1_000_000L);
        }
        Allocator closed = new Allocator("memory:", "t");
        closed.close();
        closed.close();
        try {
            closed.insert(new byte[0]);
            throw new AssertionError("a closed allocator inserted");
        } catch (IllegalStateException e) {
            assertThat(e).hasMessageContaining("closed");
        }
    }

    /**
     * A reader needs no salt: a table the command line salted over 4
     * buckets reads, opened with {@code withReadOnly(true)}, newest first
     * as its salt record says (issue 38); writes are refused.
     */
    @Test
    void aReaderTakesTheSaltFromTheRecord() throws Exception {
        String url = url("redb");
        Support.Run w = Support.run(List.of(Support.cli(), "alloc", "--store", url, "--table", "s",
                "--salt-buckets", "4", "a", "b", "c"), null);
        assertThat(w.status()).as(w.err()).isZero();
        try (Allocator r = new Allocator(url, "s", AllocatorOptions.defaults().withReadOnly(true))) {
            assertThat(r.scan()).extracting(row -> new String(row.value(), StandardCharsets.UTF_8))
                    .containsExactly("c", "b", "a");
            assertThat(r.newest().orElseThrow().id()).isEqualTo(-3L);
            try {
                r.insert(new byte[] {1});
                throw new AssertionError("a read-only allocator inserted");
            } catch (AllocException e) {
                assertThat(e).hasMessageContaining("reading only");
            }
        }
        // Opened for writing without salt: refused, naming the salt.
        try (Allocator a = new Allocator(url, "s")) {
            a.scan();
            throw new AssertionError("an unsalted allocator read a salted table");
        } catch (AllocException e) {
            assertThat(e).hasMessageContaining("the table is salted with 4 buckets (fast hash)");
        }
    }

    /**
     * Reading creates nothing (issue 38): {@code withReadOnly(true)} on a
     * missing redb file or PostgreSQL table throws StoreException naming
     * it, and neither the file nor the table appears (psql lists the
     * tables); an existing table reads.
     */
    @Test
    void readOnlyCreatesNothing() throws Exception {
        AllocatorOptions ro = AllocatorOptions.defaults().withReadOnly(true);
        Path dir = Files.createTempDirectory("lexikey-java-ro");
        try {
            new Allocator("redb:" + dir.resolve("missing.redb"), "t", ro).close();
            throw new AssertionError("a missing redb file opened for reading");
        } catch (StoreException e) {
            assertThat(e).hasMessageContaining("no store at");
        }
        assertThat(dir.resolve("missing.redb")).doesNotExist();
        String base = url("postgres");
        String tag = Long.toHexString(System.nanoTime());
        String there = "java_there_" + tag;
        String missing = "java_nosuch_" + tag;
        try (Allocator w = new Allocator(base + "?ns=" + there, "t")) {
            w.insert("x".getBytes(StandardCharsets.UTF_8));
        }
        try {
            new Allocator(base + "?ns=" + missing, "t", ro).close();
            throw new AssertionError("a missing PostgreSQL table opened for reading");
        } catch (StoreException e) {
            assertThat(e).hasMessageContaining("postgres: no table \"" + missing + "\" in database")
                    .hasMessageContaining(there).hasMessageContaining("reading creates no table");
        }
        Support.Run tables = Support.run(List.of("psql", base, "-Atc",
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"), null);
        assertThat(tables.status()).as(tables.err()).isZero();
        assertThat(tables.out().split("\n")).contains(there).doesNotContain(missing);
        try (Allocator r = new Allocator(base + "?ns=" + there, "t", ro)) {
            assertThat(r.scan()).extracting(Allocator.Row::id).containsExactly(-1L);
        }
    }

    /**
     * Redis stopped under a running allocator: insert throws kind "store"
     * with Redis's error, not "contention" (which is for races lost to
     * other clients); after the restart inserts go on (issue 38).
     */
    @Test
    void aStoppedServerIsAStoreErrorNotContention() throws Exception {
        String url = url("redis");
        String stores = System.getenv("LEXIKEY_STORES_DIR");
        Assumptions.assumeTrue(stores != null, "LEXIKEY_STORES_DIR is not set: run under scripts/with-stores.sh");
        Path redis = Path.of(stores, "redis");
        String table = "java-dead-" + Long.toHexString(System.nanoTime());
        try (Allocator a = new Allocator(url + "?timeout_ms=500", table, AllocatorOptions.defaults())) {
            long first = a.insert("before".getBytes(StandardCharsets.UTF_8));
            assertThat(Support.run(List.of(redis.resolve("stop").toString()), null).status()).isZero();
            try {
                AllocException e = org.junit.jupiter.api.Assertions.assertThrows(AllocException.class,
                        () -> a.insert("while down".getBytes(StandardCharsets.UTF_8)));
                assertThat(e.kind()).as(e.getMessage()).isEqualTo("store");
                assertThat(e.getMessage()).contains("redis: ")
                        .endsWith("(gave up after 64 attempts, the store failing)");
            } finally {
                assertThat(Support.run(List.of(redis.resolve("start").toString()), null).status()).isZero();
                assertThat(Support.run(List.of(redis.resolve("ready").toString()), null).status()).isZero();
            }
            assertThat(a.insert("after".getBytes(StandardCharsets.UTF_8))).isEqualTo(first - 1);
        }
    }
}
