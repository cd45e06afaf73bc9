package lexikey;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Test helpers: the command line, fixtures, values, random data. */
final class Support {
    private Support() {}

    /** The repository root (scripts/java.sh passes it). */
    static final Path ROOT = Path.of(System.getProperty("lexikey.root", "."));

    /** The lexikey command the Java keys are compared with. */
    static String cli() {
        String cli = System.getProperty("lexikey.cli");
        if (cli == null || !Files.isExecutable(Path.of(cli))) {
            throw new IllegalStateException("-Dlexikey.cli=PATH names the lexikey command (scripts/java.sh test sets it)");
        }
        return cli;
    }

    /** A finished process: its exit status and output. */
    record Run(int status, String out, String err) {}

    /**
     * How long a command may run (seconds): longer than the Spark job's own
     * limit in scripts/java.sh (900 s), so that its message is the one seen.
     */
    static final long RUN_TIMEOUT_SECONDS = 1200;

    /**
     * Runs a command with {@code stdin} as its input; one that has not ended
     * after {@link #RUN_TIMEOUT_SECONDS} is killed and fails the test,
     * named.
     */
    static Run run(List<String> command, String stdin) {
        try {
            Process p = new ProcessBuilder(command).start();
            CompletableFuture<byte[]> out = CompletableFuture.supplyAsync(() -> readAll(p.getInputStream()));
            CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> readAll(p.getErrorStream()));
            try (OutputStream in = p.getOutputStream()) {
                if (stdin != null) {
                    in.write(stdin.getBytes(StandardCharsets.UTF_8));
                }
            }
            if (!p.waitFor(RUN_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError(command + ": no result after " + RUN_TIMEOUT_SECONDS + " s (timed out)");
            }
            int status = p.exitValue();
            return new Run(status, new String(out.join(), StandardCharsets.UTF_8),
                    new String(err.join(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static byte[] readAll(InputStream in) {
        try (in) {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            in.transferTo(b);
            return b.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs the lexikey command; a non-zero exit fails with its stderr. */
    static String lexikey(List<String> args, String stdin) {
        List<String> cmd = new ArrayList<>();
        cmd.add(cli());
        cmd.addAll(args);
        Run r = run(cmd, stdin);
        if (r.status() != 0) {
            throw new AssertionError("lexikey " + args + " exited " + r.status() + ": " + r.err());
        }
        return r.out();
    }

    static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }

    static byte[] unhex(String s) {
        return HexFormat.of().parseHex(s);
    }

    /** A key as the command line prints it: text as is, bytes as lowercase hex. */
    static String keyText(Object key) {
        return key instanceof byte[] b ? hex(b) : (String) key;
    }

    /** The fixtures' escapes: tab, newline, backslash, x and u escapes (as tests/golden.rs reads them). */
    static String unescape(String s) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char e = s.charAt(++i);
            switch (e) {
                case 't' -> out.append('\t');
                case 'n' -> out.append('\n');
                case '\\' -> out.append('\\');
                case 'x' -> {
                    out.append((char) Integer.parseInt(s.substring(i + 1, i + 3), 16));
                    i += 2;
                }
                case 'u' -> {
                    int end = s.indexOf('}', i);
                    out.appendCodePoint(Integer.parseInt(s.substring(i + 2, end), 16));
                    i = end;
                }
                default -> throw new IllegalArgumentException("bad escape \\" + e + " in " + s);
            }
        }
        return out.toString();
    }

    /**
     * fixtures/interop/fdb.tsv's escapes: \\xNN is a byte (the text is the
     * UTF-8 of those bytes), a backslash pair is a backslash.
     */
    static String unescapeBytes(String s) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < b.length; i++) {
            if (b[i] == '\\' && i + 1 < b.length && b[i + 1] == 'x') {
                out.write(Integer.parseInt(new String(b, i + 2, 2, StandardCharsets.US_ASCII), 16));
                i += 3;
            } else if (b[i] == '\\' && i + 1 < b.length && b[i + 1] == '\\') {
                out.write('\\');
                i++;
            } else {
                out.write(b[i]);
            }
        }
        return new String(out.toByteArray(), StandardCharsets.UTF_8);
    }

    /** The lines of a fixture file without comments and blank lines. */
    static List<String> fixtureLines(String relative) {
        try {
            List<String> out = new ArrayList<>();
            for (String line : Files.readAllLines(ROOT.resolve(relative), StandardCharsets.UTF_8)) {
                if (!line.startsWith("#") && !line.isBlank()) {
                    out.add(line);
                }
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The base type of a native field ({@code i64.desc} → {@code i64}). */
    static String base(String field) {
        int dot = field.indexOf('.');
        return dot < 0 ? field : field.substring(0, dot);
    }

    /** The Java value a native component's value text stands for (the API's classes). */
    static Object javaValue(String type, String text) {
        return switch (base(type)) {
            case "str" -> text;
            case "i64" -> Long.parseLong(text);
            case "u64" -> new BigInteger(text);
            case "i32" -> Integer.parseInt(text);
            case "u32" -> Long.parseLong(text);
            case "f64" -> parseDouble(text);
            case "f32" -> (float) parseDouble(text);
            case "bool" -> Boolean.parseBoolean(text);
            case "bytes" -> unhex(text);
            case "ts" -> Instant.parse(text);
            case "uuid" -> UUID.fromString(text);
            case "dec" -> new BigDecimal(text);
            default -> throw new IllegalArgumentException("no Java value for " + type);
        };
    }

    static double parseDouble(String text) {
        return switch (text) {
            case "inf" -> Double.POSITIVE_INFINITY;
            case "-inf" -> Double.NEGATIVE_INFINITY;
            case "NaN", "nan" -> Double.NaN;
            default -> Double.parseDouble(text);
        };
    }

    /** Value equality as the keys mean it: numbers by value, arrays by contents. */
    static boolean same(Object a, Object b) {
        if (a instanceof BigDecimal x && b instanceof BigDecimal y) {
            return x.compareTo(y) == 0;
        }
        if (a instanceof byte[] x && b instanceof byte[] y) {
            return Arrays.equals(x, y);
        }
        if (a instanceof double[] x && b instanceof double[] y) {
            return Arrays.equals(x, y);
        }
        if (a instanceof List<?> x && b instanceof List<?> y) {
            if (x.size() != y.size()) {
                return false;
            }
            for (int i = 0; i < x.size(); i++) {
                if (!same(x.get(i), y.get(i))) {
                    return false;
                }
            }
            return true;
        }
        return Objects.equals(a, b);
    }

    static boolean sameRow(Object[] a, Object[] b) {
        if (a.length != b.length) {
            return false;
        }
        for (int i = 0; i < a.length; i++) {
            if (!same(a[i], b[i])) {
                return false;
            }
        }
        return true;
    }

    /** A row for messages. */
    static String show(Object[] row) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < row.length; i++) {
            if (i > 0) {
                sb.append(", ");
            }
            Object v = row[i];
            if (v instanceof byte[] b) {
                sb.append("0x").append(hex(b));
            } else if (v instanceof String s) {
                sb.append('"');
                s.codePoints().forEach(cp -> {
                    if (cp < 0x20 || cp == 0x7f) {
                        sb.append(String.format("\\x%02x", cp));
                    } else {
                        sb.appendCodePoint(cp);
                    }
                });
                sb.append('"');
            } else if (v == null) {
                sb.append("null");
            } else {
                sb.append(v).append(" (").append(v.getClass().getSimpleName()).append(')');
            }
        }
        return sb.append(']').toString();
    }

    /** The seed of a random test: -Dlexikey.seed, else a fixed one (printed on failure by the tests). */
    static long seed(long fixed) {
        String s = System.getProperty("lexikey.seed");
        return s == null ? fixed : Long.parseLong(s);
    }
}
