package lexikey;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.UUID;

/**
 * Random values of every type, edge cases first, and their text as the
 * command line reads it (a bulk row's cells: {@code encode --stdin}).
 */
final class Gen {
    private final Random r;

    /** Whether strings may hold tab, CR and LF (not in the command line's bulk rows). */
    private final boolean lineSafe;

    Gen(long seed, boolean lineSafe) {
        this.r = new Random(seed);
        this.lineSafe = lineSafe;
    }

    Random random() {
        return r;
    }

    int below(int n) {
        return r.nextInt(n);
    }

    <T> T pick(List<T> xs) {
        return xs.get(r.nextInt(xs.size()));
    }

    private boolean edge() {
        return r.nextInt(4) == 0;
    }

    static final long[] LONG_EDGES = {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE + 1,
        Long.MAX_VALUE - 1, 255, 256, -256, 1L << 32, Integer.MIN_VALUE, Integer.MAX_VALUE};

    long anyLong() {
        if (edge()) {
            return LONG_EDGES[r.nextInt(LONG_EDGES.length)];
        }
        // Every magnitude, not only huge ones.
        return r.nextLong() >> r.nextInt(64);
    }

    long longIn(long lo, long hi) {
        if (edge()) {
            long[] e = {lo, hi, 0, 1, -1, lo + 1, hi - 1};
            long v = e[r.nextInt(e.length)];
            if (v >= lo && v <= hi) {
                return v;
            }
        }
        long span = hi - lo;
        if (span < 0 || span == Long.MAX_VALUE) {
            while (true) {
                long v = anyLong();
                if (v >= lo && v <= hi) {
                    return v;
                }
            }
        }
        return lo + (long) (r.nextDouble() * (span + 1.0)) % (span + 1);
    }

    int anyInt() {
        if (edge()) {
            int[] e = {0, 1, -1, Integer.MIN_VALUE, Integer.MAX_VALUE, 255, -256};
            return e[r.nextInt(e.length)];
        }
        return r.nextInt() >> r.nextInt(32);
    }

    BigInteger u64() {
        if (edge()) {
            BigInteger[] e = {BigInteger.ZERO, BigInteger.ONE, BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE),
                BigInteger.ONE.shiftLeft(63), BigInteger.valueOf(Long.MAX_VALUE)};
            return e[r.nextInt(e.length)];
        }
        return new BigInteger(64, r).shiftRight(r.nextInt(64));
    }

    long u32() {
        if (edge()) {
            long[] e = {0, 1, 0xFFFF_FFFFL, 0x8000_0000L};
            return e[r.nextInt(e.length)];
        }
        return (r.nextInt() & 0xFFFF_FFFFL) >>> r.nextInt(32);
    }

    static final double[] DOUBLE_EDGES = {0.0, -0.0, 1.0, -1.0, Double.MIN_VALUE, -Double.MIN_VALUE,
        Double.MAX_VALUE, -Double.MAX_VALUE, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN,
        Double.MIN_NORMAL, 0.1, 1e300};

    double anyDouble() {
        if (edge()) {
            return DOUBLE_EDGES[r.nextInt(DOUBLE_EDGES.length)];
        }
        return switch (r.nextInt(3)) {
            case 0 -> Double.longBitsToDouble(r.nextLong());
            case 1 -> (r.nextDouble() - 0.5) * Math.pow(10, r.nextInt(40) - 20);
            default -> r.nextInt(2000) - 1000;
        };
    }

    /** A double that is not NaN (for types whose NaN is canonical, compare as values). */
    double finiteOrInf() {
        double d = anyDouble();
        return Double.isNaN(d) ? 0.5 : d;
    }

    float anyFloat() {
        if (edge()) {
            float[] e = {0f, -0f, 1f, -1f, Float.MIN_VALUE, -Float.MIN_VALUE, Float.MAX_VALUE, -Float.MAX_VALUE,
                Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NaN};
            return e[r.nextInt(e.length)];
        }
        return switch (r.nextInt(3)) {
            case 0 -> Float.intBitsToFloat(r.nextInt());
            case 1 -> (float) ((r.nextDouble() - 0.5) * Math.pow(10, r.nextInt(20) - 10));
            default -> r.nextInt(2000) - 1000;
        };
    }

    private static final String ALPHABET = "aAzZ09 #$%&~!\"'`\\/.-_:;,";

    /** A string: ASCII, escapes, controls, multi-byte and astral characters, shared prefixes. */
    String anyString() {
        int n = edge() ? r.nextInt(3) : r.nextInt(12);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            int kind = r.nextInt(10);
            int cp;
            if (kind < 5) {
                cp = ALPHABET.charAt(r.nextInt(ALPHABET.length()));
            } else if (kind == 5) {
                cp = r.nextInt(0x20);
                if (lineSafe && (cp == '\t' || cp == '\n' || cp == '\r')) {
                    cp = 0x1f;
                }
            } else if (kind == 6) {
                cp = 0x7f + r.nextInt(0x800 - 0x7f);
            } else if (kind == 7) {
                cp = 0x800 + r.nextInt(0xD800 - 0x800);
            } else if (kind == 8) {
                cp = 0xE000 + r.nextInt(0x10000 - 0xE000);
            } else {
                cp = 0x10000 + r.nextInt(0x110000 - 0x10000);
            }
            sb.appendCodePoint(cp);
        }
        return sb.toString();
    }

    /** A string without NUL (the profiles' text types refuse it in keys). */
    String stringNoNul() {
        return anyString().replace('\0', '1');
    }

    /** An ASCII string of at most {@code n} characters, without NUL (Phoenix CHAR). */
    String ascii(int n) {
        int len = r.nextInt(n + 1);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < len; i++) {
            sb.append((char) (0x21 + r.nextInt(0x5e)));
        }
        return sb.toString();
    }

    byte[] bytes(int max) {
        byte[] b = new byte[edge() ? r.nextInt(2) : r.nextInt(max + 1)];
        for (int i = 0; i < b.length; i++) {
            int k = r.nextInt(4);
            b[i] = (byte) (k == 0 ? 0 : k == 1 ? 0xFF : r.nextInt(256));
        }
        return b;
    }

    /** An instant of whole milliseconds, years 1 to 9999. */
    Instant millis() {
        if (edge()) {
            long[] e = {0, -1, 1, 1714564800000L, -62135596800000L, 253402300799999L};
            return Instant.ofEpochMilli(e[r.nextInt(e.length)]);
        }
        return Instant.ofEpochMilli(-62135596800000L + (long) (r.nextDouble() * 315537897599999.0));
    }

    /** An instant with nanoseconds, years 1970 to 9999 (Phoenix TIMESTAMP). */
    Instant nanos() {
        return Instant.ofEpochMilli(Math.abs(millis().toEpochMilli())).plusNanos(r.nextInt(1_000_000));
    }

    UUID uuid() {
        if (edge()) {
            UUID[] e = {new UUID(0, 0), new UUID(-1, -1), new UUID(Long.MIN_VALUE, 0), new UUID(Long.MAX_VALUE, -1)};
            return e[r.nextInt(e.length)];
        }
        return new UUID(r.nextLong(), r.nextLong());
    }

    /** A decimal of up to {@code digits} digits and an exponent in ±{@code exp}. */
    BigDecimal decimal(int digits, int exp) {
        if (edge()) {
            String[] e = {"0", "1", "-1", "0.1", "-0.1", "10", "1e-40", "-1e40", "1.50", "100"};
            return new BigDecimal(e[r.nextInt(e.length)]);
        }
        BigInteger unscaled = new BigInteger(1 + r.nextInt(digits * 3 + 1), r);
        while (unscaled.toString().length() > digits) {
            unscaled = unscaled.shiftRight(1);
        }
        if (r.nextBoolean()) {
            unscaled = unscaled.negate();
        }
        return new BigDecimal(unscaled, r.nextInt(2 * exp + 1) - exp);
    }

    // -----------------------------------------------------------------------
    // The native types
    // -----------------------------------------------------------------------

    static final List<String> NATIVE = List.of("str", "i64", "u64", "i32", "u32", "f64", "f32", "bool",
        "bytes", "ts", "uuid", "dec");

    /** A Java value of a native type. */
    Object nativeValue(String type) {
        return switch (Support.base(type)) {
            case "str" -> anyString();
            case "i64" -> anyLong();
            case "u64" -> u64();
            case "i32" -> anyInt();
            case "u32" -> u32();
            case "f64" -> anyDouble();
            case "f32" -> anyFloat();
            case "bool" -> r.nextBoolean();
            case "bytes" -> bytes(12);
            case "ts" -> millis();
            case "uuid" -> uuid();
            case "dec" -> decimal(45, 60);
            default -> throw new IllegalArgumentException(type);
        };
    }

    // -----------------------------------------------------------------------
    // Value text as the command line reads it
    // -----------------------------------------------------------------------

    static String doubleText(double d) {
        if (Double.isNaN(d)) {
            return "NaN";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "inf" : "-inf";
        }
        return Double.toString(d);
    }

    static String floatText(float f) {
        if (Float.isNaN(f)) {
            return "NaN";
        }
        if (Float.isInfinite(f)) {
            return f > 0 ? "inf" : "-inf";
        }
        return Float.toString(f);
    }

    /** The command line's text of a native value. */
    static String nativeText(String type, Object v) {
        return switch (Support.base(type)) {
            case "f64" -> doubleText((Double) v);
            case "f32" -> floatText((Float) v);
            case "bytes" -> HexFormat.of().formatHex((byte[]) v);
            case "dec" -> ((BigDecimal) v).toString();
            default -> v.toString();
        };
    }
}
