package lexikey;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * The native library and its functions (the Rust crate {@code java/}).
 *
 * <p>The jar carries one library per platform it was packed with, as the
 * resource {@code /lexikey/native/PLATFORM/NAME}: PLATFORM is
 * {@code OS-ARCH} ({@code linux-x86_64}, {@code macos-aarch64},
 * {@code windows-x86_64}, ...) and NAME the platform's own file name for
 * the library {@code lexikey_jni} ({@link System#mapLibraryName}:
 * {@code liblexikey_jni.so}, {@code liblexikey_jni.dylib},
 * {@code lexikey_jni.dll}); {@code /lexikey/native/platforms.txt} lists
 * them (scripts/java.sh build packs the host's, scripts/java.sh package
 * adds libraries built elsewhere). On first use the library of this JVM's
 * platform is copied to a new temporary directory, loaded, and the copy
 * removed (the loaded library stays mapped), so nothing is left behind and
 * no {@code -Djava.library.path} is needed. The system property
 * {@code lexikey.native} names a library file to load instead (a
 * development build).
 */
final class Native {
    private Native() {}

    /** The resource directory of the native libraries inside the jar. */
    static final String RESOURCE_DIR = "/lexikey/native/";

    /** The library's file name on this platform. */
    static final String LIBRARY = System.mapLibraryName("lexikey_jni");

    static {
        load();
    }

    /** The platform name of this JVM, as the jar's resource directories name them. */
    static String platform() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        if (os.startsWith("linux")) {
            os = "linux";
        } else if (os.startsWith("mac")) {
            os = "macos";
        } else if (os.startsWith("windows")) {
            os = "windows";
        }
        if (arch.equals("amd64") || arch.equals("x86_64")) {
            arch = "x86_64";
        } else if (arch.equals("arm64")) {
            arch = "aarch64";
        }
        return os + "-" + arch;
    }

    /** The platforms this jar carries a library for (platforms.txt), comma-separated. */
    static String packed() {
        try (InputStream in = Native.class.getResourceAsStream(RESOURCE_DIR + "platforms.txt")) {
            if (in == null) {
                return "none";
            }
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip()
                    .replace('\n', ',').replace(",", ", ");
        } catch (IOException e) {
            return "an unreadable list";
        }
    }

    private static void load() {
        String given = System.getProperty("lexikey.native");
        if (given != null && !given.isEmpty()) {
            System.load(Path.of(given).toAbsolutePath().toString());
            return;
        }
        String resource = RESOURCE_DIR + platform() + "/" + LIBRARY;
        try (InputStream in = Native.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new UnsatisfiedLinkError("lexikey: this jar has no native library for "
                        + platform() + " (" + resource + "; it carries " + packed() + "): build "
                        + "java/ on this platform (scripts/java.sh build) and add it to the jar "
                        + "(scripts/java.sh package), or name a library with -Dlexikey.native=PATH");
            }
            Path dir = Files.createTempDirectory("lexikey-native-");
            Path lib = dir.resolve(LIBRARY);
            try {
                Files.copy(in, lib, StandardCopyOption.REPLACE_EXISTING);
                System.load(lib.toAbsolutePath().toString());
            } finally {
                // Loaded (mapped) or failed: the copy is not needed either way.
                Files.deleteIfExists(lib);
                Files.deleteIfExists(dir);
            }
        } catch (IOException e) {
            UnsatisfiedLinkError err = new UnsatisfiedLinkError(
                    "lexikey: cannot extract the native library " + resource + ": " + e);
            err.initCause(e);
            throw err;
        }
    }

    /** A format's code (with {@link #TEXT_BIT} for text keys); throws for an unknown name. */
    static native int formatCode(String format);

    /** The bit of a format code that marks text keys. */
    static final int TEXT_BIT = 0x100;

    /**
     * Encodes the row in {@code buf[0..len)} and writes the key over the
     * start of {@code buf}: its length, or minus it when {@code buf} is too
     * short (nothing written: grow it and call again).
     */
    static native int encode(int formatCode, boolean text, byte[] buf, int len, boolean strings);

    static native byte[] decode(String format, String schema, byte[] key, int len, boolean keyIsText);

    /** The versionstamped fdb-tuple key of the row in {@code buf[0..len)}. */
    static native byte[] packWithVersionstamp(byte[] buf, int len);

    static native long reverse(long n);

    /** The key as the HBase shell prints it ({@code Bytes.toStringBinary}); null is an argument error. */
    static native String show(byte[] key);

    /** The native library's version. */
    static native String version();

    static native String render(byte[] start, byte[] end, boolean text, String target, String table);

    static native long schemaNew(String spec, String format, int width, int saltBuckets,
            String hbaseNumeric, boolean round);

    static native void schemaFree(long handle);

    static native String schemaFields(long handle);

    static native byte[] schemaEncode(long handle, boolean text, byte[] cells, int len, int rows,
            long base, int[] ends);

    /** As {@link #encode}, for a schema's row. */
    static native int schemaEncodeOne(long handle, boolean text, byte[] buf, int len);

    static native byte[] schemaDecode(long handle, byte[] keys, int len, int[] ends, int n,
            boolean keysAreText, int base);

    static native String schemaDesign(long handle, byte[] keys, int len, int[] ends, int n,
            int regions, String target, String table);

    static native String schemaDiff(long handle, long other);

    static native byte[] schemaRanges(long handle, byte[] cells, int len, boolean allBuckets);

    static native long allocOpen(String url, String table, String format, boolean guard,
            long start, boolean hasStart, long floor, boolean hasFloor, boolean readOnly);

    static native void allocFree(long handle);

    static native long allocInsert(long handle, byte[] value);

    static native long[] allocInsertMany(long handle, byte[] values, int[] ends);

    static native byte[] allocRows(long handle, int which, long limit);
}
