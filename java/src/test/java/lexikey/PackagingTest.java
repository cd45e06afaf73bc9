package lexikey;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;

/**
 * What a Java user meets first (issue 38): the jar runs with
 * {@code java -jar}, names its version, carries its library under the
 * platform's own file name, and {@code Lexikey.show} prints a key as the
 * HBase shell does.
 */
class PackagingTest {
    private static Path jar() {
        return Path.of(System.getProperty("lexikey.jar", "java/build/lexikey.jar"));
    }

    @Test
    void theManifestNamesTheMainClassAndTheVersion() throws Exception {
        try (JarFile j = new JarFile(jar().toFile())) {
            Manifest m = j.getManifest();
            assertThat(m.getMainAttributes().getValue("Main-Class")).isEqualTo("lexikey.Main");
            assertThat(m.getMainAttributes().getValue("Implementation-Version")).isEqualTo(Lexikey.version());
            // The host's library, under the platform's own file name, and the list.
            String lib = "lexikey/native/" + Native.platform() + "/" + System.mapLibraryName("lexikey_jni");
            assertThat(j.getEntry(lib)).as(lib).isNotNull();
            String platforms = new String(j.getInputStream(j.getEntry("lexikey/native/platforms.txt")).readAllBytes(),
                    StandardCharsets.UTF_8);
            assertThat(platforms.lines().toList()).contains(Native.platform());
        }
        assertThat(Lexikey.version()).matches("[0-9]+\\.[0-9]+\\.[0-9]+.*");
    }

    @Test
    void javaDashJarRunsTheCommandLine() {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Support.Run r = Support.run(List.of(java, "-jar", jar().toString(), "encode", "str:population", "i64:3831868"), null);
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo("population#l80000000003A783C\n");
    }

    @Test
    void showPrintsAKeyAsTheHbaseShellDoes() {
        assertThat(Lexikey.show("pop".getBytes(StandardCharsets.UTF_8))).isEqualTo("pop");
        assertThat(Lexikey.show(new byte[] {'p', 0, 1, (byte) 0xFF, '\\', '"'})).isEqualTo("p\\x00\\x01\\xFF\\x5C\"");
        // The form reads back as a binary key.
        byte[] key = Lexikey.encodeBytes("fdb-tuple", "str:pop", "i64:-7");
        assertThat(Lexikey.decode("fdb-tuple", Lexikey.show(key), null))
                .isEqualTo(Lexikey.decode("fdb-tuple", key, null));
        assertThatThrownBy(() -> Lexikey.show(null)).isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessage("key: a byte[], not null");
    }
}
