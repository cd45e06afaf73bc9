package lexikey;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The stores every front end takes (lexikey-stores' features, forwarded by
 * the JNI crate as by the command line and Python): {@code lexikey.Allocator}
 * on a {@code bigtable://} store, against the Bigtable emulator that
 * scripts/with-stores.sh starts (LEXIKEY_BIGTABLE_URL; without it the
 * Bigtable tests are skipped, and scripts/test.sh always has it), and on a
 * {@code slatedb:} directory.
 */
class BigtableTest {
    private static String bigtableUrl() {
        String u = System.getenv("LEXIKEY_BIGTABLE_URL");
        if (u == null && "1".equals(System.getenv("LEXIKEY_REQUIRE_STORES"))) {
            throw new AssertionError("LEXIKEY_BIGTABLE_URL is not set (scripts/with-stores.sh sets it)");
        }
        Assumptions.assumeTrue(u != null, "LEXIKEY_BIGTABLE_URL is not set: run under scripts/with-stores.sh");
        return u;
    }

    private static String fresh(String name) {
        return name + "_" + ProcessHandle.current().pid() + "_" + Long.toHexString(System.nanoTime());
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Newest first on the emulator, as Python's test_allocator_on_bigtable. */
    @Test
    void allocatorOnBigtable() {
        String url = bigtableUrl() + "&ns=" + fresh("java_alloc");
        try (Allocator comments = new Allocator(url, "comments")) {
            long first = comments.insert(bytes("first!"));
            long second = comments.insert(bytes("me too"));
            assertThat(Long.toUnsignedString(first)).isEqualTo("18446744073709551615");
            assertThat(Long.toUnsignedString(second)).isEqualTo("18446744073709551614");
            assertThat(comments.newest()).contains(new Allocator.Row(second, bytes("me too")));
            assertThat(comments.scan(10)).extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
                    .containsExactly("me too", "first!");
        }
        // Read-only: the table is there; a missing one is a store error
        // naming it, and is not created.
        try (Allocator r = new Allocator(url, "comments", AllocatorOptions.defaults().withReadOnly(true))) {
            assertThat(r.scan()).hasSize(2);
        }
        String missing = fresh("java_nosuch");
        assertThatThrownBy(() -> new Allocator(bigtableUrl() + "&ns=" + missing, "c",
                AllocatorOptions.defaults().withReadOnly(true)))
                .isInstanceOf(StoreException.class).hasMessageContaining("no table \"" + missing + "\"");
    }

    /** A bigtable:// URL that does not parse is a bad argument, as any bad URL. */
    @Test
    void aBadBigtableUrlIsABadArgument() {
        assertThatThrownBy(() -> new Allocator("bigtable://p", "t"))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("expected bigtable://PROJECT/INSTANCE");
        assertThatThrownBy(() -> new Allocator("bigtable://p/i?emulator=127.0.0.1:1&timeout_ms=2000", "t"))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("(is the Bigtable emulator running at 127.0.0.1:1?)");
    }

    /** SlateDB on a local directory: no server. */
    @Test
    void allocatorOnSlatedb() throws Exception {
        Path dir = Files.createTempDirectory("lexikey-java-slatedb");
        String url = "slatedb:" + dir.resolve("db");
        try (Allocator a = new Allocator(url, "events")) {
            long[] ids = a.insertMany(List.of(bytes("a"), bytes("b")));
            assertThat(ids).containsExactly(-1L, -2L);
        }
        try (Allocator r = new Allocator(url, "events", AllocatorOptions.defaults().withReadOnly(true))) {
            assertThat(r.scan()).extracting(row -> new String(row.value(), StandardCharsets.UTF_8))
                    .containsExactly("b", "a");
        }
    }
}
