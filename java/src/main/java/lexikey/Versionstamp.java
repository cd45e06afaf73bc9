package lexikey;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * A FoundationDB versionstamp: a 10-byte transaction version and a 16-bit
 * user version, as the {@code fdb-tuple} format packs it (12 bytes after
 * type code {@code 0x33}). An <em>incomplete</em> versionstamp has a
 * transaction version of ten {@code 0xFF} bytes, a placeholder the
 * database fills in at commit; {@link Lexikey#packWithVersionstamp} packs a
 * tuple holding one. Versionstamps compare by their 12 bytes, the order of
 * their keys; decoding an {@code fdb-tuple} key gives them back.
 */
public final class Versionstamp implements Comparable<Versionstamp> {
    private final byte[] bytes;

    private Versionstamp(byte[] bytes) {
        this.bytes = bytes;
    }

    /**
     * A complete versionstamp.
     *
     * @param trVersion the 10-byte transaction version
     * @param userVersion the user version, 0 to 65535
     * @return the versionstamp
     * @throws IllegalArgumentException a transaction version of another length, a user version out of range
     */
    public static Versionstamp complete(byte[] trVersion, int userVersion) {
        if (trVersion == null || trVersion.length != 10) {
            throw new IllegalArgumentException("a transaction version is 10 bytes, not "
                    + (trVersion == null ? "null" : trVersion.length));
        }
        byte[] b = Arrays.copyOf(trVersion, 12);
        setUser(b, userVersion);
        return new Versionstamp(b);
    }

    /**
     * An incomplete versionstamp (its transaction version to be written by the database).
     *
     * @param userVersion the user version, 0 to 65535
     * @return the versionstamp
     * @throws IllegalArgumentException a user version out of range
     */
    public static Versionstamp incomplete(int userVersion) {
        byte[] b = new byte[12];
        Arrays.fill(b, 0, 10, (byte) 0xFF);
        setUser(b, userVersion);
        return new Versionstamp(b);
    }

    /**
     * The versionstamp of its 12 packed bytes.
     *
     * @param bytes 12 bytes
     * @return the versionstamp
     * @throws IllegalArgumentException another length
     */
    public static Versionstamp fromBytes(byte[] bytes) {
        if (bytes == null || bytes.length != 12) {
            throw new IllegalArgumentException("a versionstamp is 12 bytes, not "
                    + (bytes == null ? "null" : bytes.length));
        }
        return new Versionstamp(bytes.clone());
    }

    private static void setUser(byte[] b, int userVersion) {
        if (userVersion < 0 || userVersion > 0xFFFF) {
            throw new IllegalArgumentException("user version " + userVersion + " is out of range (0 to 65535)");
        }
        b[10] = (byte) (userVersion >>> 8);
        b[11] = (byte) userVersion;
    }

    /** @return whether the transaction version is set (not all {@code 0xFF}) */
    public boolean isComplete() {
        for (int i = 0; i < 10; i++) {
            if (bytes[i] != (byte) 0xFF) {
                return true;
            }
        }
        return false;
    }

    /** @return the 10-byte transaction version, or null when incomplete */
    public byte[] trVersion() {
        return isComplete() ? Arrays.copyOf(bytes, 10) : null;
    }

    /** @return the user version */
    public int userVersion() {
        return (bytes[10] & 0xFF) << 8 | (bytes[11] & 0xFF);
    }

    /** @return the 12 bytes as packed */
    public byte[] toBytes() {
        return bytes.clone();
    }

    byte[] raw() {
        return bytes;
    }

    @Override
    public int compareTo(Versionstamp o) {
        return Arrays.compareUnsigned(bytes, o.bytes);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Versionstamp v && Arrays.equals(bytes, v.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return isComplete()
                ? "Versionstamp(" + HexFormat.of().formatHex(bytes, 0, 10) + ", " + userVersion() + ")"
                : "Versionstamp(incomplete, " + userVersion() + ")";
    }
}
