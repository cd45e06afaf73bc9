package lexikey;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.UUID;

/**
 * The bytes that carry values across the JNI boundary: one {@code byte[]}
 * per call, not one JNI call per value. A {@link Writer} writes what each
 * object <em>is</em> (its class and contents) as a tagged cell; the Rust side
 * ({@code java/src/wire.rs}, which documents the layout) turns cells into
 * core values by the rules of the field they are for. A {@link Reader}
 * reads decoded values back into Java objects.
 */
final class Wire {
    private Wire() {}

    static final byte NULL = 0;
    static final byte STR = 1;
    static final byte BAD_STR = 2;
    static final byte LONG = 3;
    static final byte INT = 4;
    static final byte SHORT = 5;
    static final byte BYTE = 6;
    static final byte DOUBLE = 7;
    static final byte FLOAT = 8;
    static final byte BOOL = 9;
    static final byte BYTES = 10;
    static final byte INSTANT = 11;
    static final byte UUID_TAG = 12;
    static final byte DECIMAL = 13;
    static final byte BIGINT = 14;
    static final byte OTHER = 15;
    static final byte LIST = 16;
    static final byte DOUBLES = 17;
    static final byte VERSIONSTAMP = 18;

    /**
     * Lists nested deeper than this are written empty: the native library
     * refuses a nested tuple at level 100 and deeper (so that every key
     * decodes) before reading its elements, and a list holding itself ends.
     */
    private static final int LIST_DEPTH = 101;

    private static final VarHandle I64 =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle I32 =
            MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle I16 =
            MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);

    /** A growable buffer of cells. */
    static final class Writer {
        byte[] buf;
        int pos;

        Writer(int capacity) {
            buf = new byte[Math.max(capacity, 64)];
        }

        void reset() {
            pos = 0;
        }

        /** Grows the buffer to at least {@code n} bytes (keeping its contents). */
        void capacity(int n) {
            if (buf.length < n) {
                buf = Arrays.copyOf(buf, n);
            }
        }

        /**
         * Runs a single-row native call that writes its key over this
         * buffer ({@link Native#encode}): the key's bytes, as a String
         * ({@code text}) or a byte[].
         */
        Object key(boolean text, java.util.function.IntUnaryOperator call) {
            int n = call.applyAsInt(pos);
            if (n < 0) {
                capacity(-n);
                n = call.applyAsInt(pos);
            }
            return text ? new String(buf, 0, n, StandardCharsets.UTF_8) : Arrays.copyOf(buf, n);
        }

        private void ensure(int n) {
            if (n > buf.length - pos) {
                long want = Math.max(2L * buf.length, (long) pos + n);
                if (want > Integer.MAX_VALUE - 16) {
                    throw new EncodeException("values of one call exceed 2 GiB: pass fewer rows per call");
                }
                buf = Arrays.copyOf(buf, (int) want);
            }
        }

        void u8(int v) {
            ensure(1);
            buf[pos++] = (byte) v;
        }

        void u32(int v) {
            ensure(4);
            I32.set(buf, pos, v);
            pos += 4;
        }

        private void i64(long v) {
            I64.set(buf, pos, v);
            pos += 8;
        }

        /** A row: its count, then its values. */
        void row(Object[] values) {
            u32(values.length);
            for (Object v : values) {
                value(v);
            }
        }

        /** One value, tagged by its class. */
        void value(Object v) {
            value(v, 0);
        }

        private void value(Object v, int depth) {
            if (v instanceof String s) {
                str(s);
            } else if (v instanceof Long l) {
                ensure(9);
                buf[pos++] = LONG;
                i64(l);
            } else if (v instanceof Integer i) {
                ensure(5);
                buf[pos++] = INT;
                I32.set(buf, pos, i.intValue());
                pos += 4;
            } else if (v == null) {
                u8(NULL);
            } else if (v instanceof Double d) {
                ensure(9);
                buf[pos++] = DOUBLE;
                i64(Double.doubleToRawLongBits(d));
            } else if (v instanceof Float f) {
                ensure(5);
                buf[pos++] = FLOAT;
                I32.set(buf, pos, Float.floatToRawIntBits(f));
                pos += 4;
            } else if (v instanceof Boolean b) {
                ensure(2);
                buf[pos++] = BOOL;
                buf[pos++] = (byte) (b ? 1 : 0);
            } else if (v instanceof byte[] b) {
                bytes(BYTES, b);
            } else if (v instanceof Instant t) {
                ensure(13);
                buf[pos++] = INSTANT;
                i64(t.getEpochSecond());
                I32.set(buf, pos, t.getNano());
                pos += 4;
            } else if (v instanceof UUID u) {
                ensure(17);
                buf[pos++] = UUID_TAG;
                i64(u.getMostSignificantBits());
                i64(u.getLeastSignificantBits());
            } else if (v instanceof BigDecimal d) {
                bytes(DECIMAL, d.toString().getBytes(StandardCharsets.US_ASCII));
            } else if (v instanceof BigInteger b) {
                ensure(2);
                buf[pos++] = BIGINT;
                buf[pos++] = (byte) (b.signum() < 0 ? 1 : 0);
                bytesBody(b.abs().toByteArray());
            } else if (v instanceof Short s) {
                ensure(3);
                buf[pos++] = SHORT;
                I16.set(buf, pos, s.shortValue());
                pos += 2;
            } else if (v instanceof Byte b) {
                ensure(2);
                buf[pos++] = BYTE;
                buf[pos++] = b;
            } else if (v instanceof double[] ds) {
                ensure(5 + 8 * ds.length);
                buf[pos++] = DOUBLES;
                I32.set(buf, pos, ds.length);
                pos += 4;
                for (double x : ds) {
                    i64(Double.doubleToRawLongBits(x));
                }
            } else if (v instanceof Versionstamp vs) {
                ensure(13);
                buf[pos++] = VERSIONSTAMP;
                System.arraycopy(vs.raw(), 0, buf, pos, 12);
                pos += 12;
            } else if (v instanceof List<?> list) {
                ensure(5);
                buf[pos++] = LIST;
                if (depth >= LIST_DEPTH) {
                    u32(0);
                } else {
                    u32(list.size());
                    for (Object x : list) {
                        value(x, depth + 1);
                    }
                }
            } else {
                ensure(1);
                buf[pos++] = OTHER;
                bytesBody(v.getClass().getName().getBytes(StandardCharsets.UTF_8));
            }
        }

        private void bytes(byte tag, byte[] b) {
            ensure(1);
            buf[pos++] = tag;
            bytesBody(b);
        }

        private void bytesBody(byte[] b) {
            ensure(4 + b.length);
            I32.set(buf, pos, b.length);
            pos += 4;
            System.arraycopy(b, 0, buf, pos, b.length);
            pos += b.length;
        }

        /**
         * A string as UTF-8; one holding a lone surrogate is written as
         * {@code BAD_STR} with the surrogate's index (the Rust side names the
         * value in its error): never replaced by {@code '?'}.
         */
        void str(String s) {
            int n = s.length();
            ensure(5 + 3 * n);
            int start = pos;
            buf[pos] = STR;
            int at = pos + 5;
            byte[] b = buf;
            for (int i = 0; i < n; i++) {
                char c = s.charAt(i);
                if (c < 0x80) {
                    b[at++] = (byte) c;
                } else if (c < 0x800) {
                    b[at++] = (byte) (0xC0 | c >> 6);
                    b[at++] = (byte) (0x80 | c & 0x3F);
                } else if (Character.isSurrogate(c)) {
                    char d;
                    if (Character.isHighSurrogate(c) && i + 1 < n
                            && Character.isLowSurrogate(d = s.charAt(i + 1))) {
                        int cp = Character.toCodePoint(c, d);
                        b[at++] = (byte) (0xF0 | cp >> 18);
                        b[at++] = (byte) (0x80 | cp >> 12 & 0x3F);
                        b[at++] = (byte) (0x80 | cp >> 6 & 0x3F);
                        b[at++] = (byte) (0x80 | cp & 0x3F);
                        i++;
                    } else {
                        pos = start;
                        buf[pos++] = BAD_STR;
                        I32.set(buf, pos, i);
                        pos += 4;
                        return;
                    }
                } else {
                    b[at++] = (byte) (0xE0 | c >> 12);
                    b[at++] = (byte) (0x80 | c >> 6 & 0x3F);
                    b[at++] = (byte) (0x80 | c & 0x3F);
                }
            }
            I32.set(buf, start + 1, at - start - 5);
            pos = at;
        }
    }

    /** The UTF-8 of a text key; a lone surrogate is a {@link DecodeException} at its byte. */
    static byte[] keyUtf8(String key) {
        Writer w = new Writer(key.length() * 3 + 8);
        w.str(key);
        if (w.buf[0] == BAD_STR) {
            int at = (int) I32.get(w.buf, 1);
            int offset = utf8Length(key, at);
            throw new DecodeException("invalid key: not UTF-8 (a lone surrogate, char " + at
                    + ") at byte " + offset, offset);
        }
        return Arrays.copyOfRange(w.buf, 5, w.pos);
    }

    /** The UTF-8 length of the first {@code chars} chars of {@code s} (valid up to there). */
    private static int utf8Length(String s, int chars) {
        int n = 0;
        for (int i = 0; i < chars; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n += 1;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c)) {
                n += 4;
                i++;
            } else {
                n += 3;
            }
        }
        return n;
    }

    /** Reads decoded values. */
    static final class Reader {
        private final byte[] buf;
        private int pos;

        Reader(byte[] buf) {
            this.buf = buf;
        }

        int u32() {
            int v = (int) I32.get(buf, pos);
            pos += 4;
            return v;
        }

        int u8() {
            return buf[pos++] & 0xFF;
        }

        long i64() {
            long v = (long) I64.get(buf, pos);
            pos += 8;
            return v;
        }

        byte[] bytes() {
            int n = u32();
            byte[] b = Arrays.copyOfRange(buf, pos, pos + n);
            pos += n;
            return b;
        }

        private String string() {
            int n = u32();
            String s = new String(buf, pos, n, StandardCharsets.UTF_8);
            pos += n;
            return s;
        }

        /** One row of values. */
        Object[] row() {
            int n = u32();
            Object[] out = new Object[n];
            for (int i = 0; i < n; i++) {
                out[i] = value();
            }
            return out;
        }

        Object value() {
            byte tag = buf[pos++];
            switch (tag) {
                case NULL:
                    return null;
                case STR:
                    return string();
                case LONG:
                    return i64();
                case INT:
                    return u32();
                case SHORT: {
                    short s = (short) I16.get(buf, pos);
                    pos += 2;
                    return s;
                }
                case BYTE:
                    return buf[pos++];
                case DOUBLE:
                    return Double.longBitsToDouble(i64());
                case FLOAT:
                    return Float.intBitsToFloat(u32());
                case BOOL:
                    return buf[pos++] != 0;
                case BYTES:
                    return bytes();
                case INSTANT: {
                    long secs = i64();
                    int nanos = u32();
                    return Instant.ofEpochSecond(secs, nanos);
                }
                case UUID_TAG: {
                    long hi = i64();
                    long lo = i64();
                    return new UUID(hi, lo);
                }
                case DECIMAL:
                    return new BigDecimal(string());
                case BIGINT: {
                    boolean neg = buf[pos++] != 0;
                    return new BigInteger(neg ? -1 : 1, bytes());
                }
                case LIST: {
                    int n = u32();
                    List<Object> list = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        list.add(value());
                    }
                    return Collections.unmodifiableList(list);
                }
                case VERSIONSTAMP: {
                    byte[] b = Arrays.copyOfRange(buf, pos, pos + 12);
                    pos += 12;
                    return Versionstamp.fromBytes(b);
                }
                case DOUBLES: {
                    int n = u32();
                    double[] ds = new double[n];
                    for (int i = 0; i < n; i++) {
                        ds[i] = Double.longBitsToDouble(i64());
                    }
                    return ds;
                }
                default:
                    throw new IllegalStateException("lexikey: unknown value tag " + tag + " from the native library");
            }
        }
    }

    /** A writer per thread for single-row calls (no allocation per call). */
    private static final ThreadLocal<Writer> WRITER = ThreadLocal.withInitial(() -> new Writer(256));

    /** This thread's writer, reset; a grown buffer is dropped afterwards if over 64 KiB. */
    static Writer writer() {
        Writer w = WRITER.get();
        if (w.buf.length > 1 << 16) {
            w = new Writer(256);
            WRITER.set(w);
        }
        w.reset();
        return w;
    }
}
