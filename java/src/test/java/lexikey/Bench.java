package lexikey;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Speed (scripts/java.sh bench; figures in BENCHMARKS.md):
 * {@code Schema.of("str,i64").encodeTextMany} of 1,000,000 rows against a
 * straightforward pure-Java tagged-hex encoder (escaping by hand,
 * {@code String.format("%016X", ...)}) in the same run, and the cost of a
 * single call across JNI. Best of several rounds after warm-up; run on a
 * quiet machine.
 */
public final class Bench {
    private Bench() {}

    static final int ROWS = 1_000_000;
    static final int ROUNDS = 7;

    /**
     * The naive baseline: the hex format's tagged key of (str, i64), as a
     * Java programmer would first write it.
     */
    static String naiveKey(String s, long v) {
        StringBuilder sb = new StringBuilder(s.length() + 18);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c <= 0x25) {
                sb.append('%').append(String.format("%02X", (int) c));
            } else {
                sb.append(c); // the rest of the text as it is (UTF-8 in the key)
            }
        }
        sb.append('#').append('l').append(String.format("%016X", v ^ Long.MIN_VALUE));
        return sb.toString();
    }

    private static final java.lang.management.ThreadMXBean THREADS =
            java.lang.management.ManagementFactory.getThreadMXBean();

    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();

    private static long gcMillis() {
        long t = 0;
        for (var gc : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
            t += Math.max(0, gc.getCollectionTime());
        }
        return t;
    }

    /**
     * The best wall time, the best CPU time of this thread, the best CPU
     * time of the process (GC and JIT threads too) and the GC time of the
     * best-wall round (seconds) over the rounds.
     */
    private static double[] time(Runnable r) {
        double wall = Double.MAX_VALUE;
        double cpu = Double.MAX_VALUE;
        double proc = Double.MAX_VALUE;
        double gc = 0;
        for (int i = 0; i < ROUNDS; i++) {
            long c = THREADS.getCurrentThreadCpuTime();
            long p = OS.getProcessCpuTime();
            long g = gcMillis();
            long t = System.nanoTime();
            r.run();
            double w = (System.nanoTime() - t) / 1e9;
            if (w < wall) {
                wall = w;
                gc = (gcMillis() - g) / 1e3;
            }
            cpu = Math.min(cpu, (THREADS.getCurrentThreadCpuTime() - c) / 1e9);
            proc = Math.min(proc, (OS.getProcessCpuTime() - p) / 1e9);
        }
        return new double[] {wall, cpu, proc, gc};
    }

    private static void perCall(String what, Runnable r, int calls) {
        double[] t = time(r);
        System.out.printf("%s: %.0f ns/call (thread CPU: %.0f ns/call)%n", what, t[0] / calls * 1e9,
                t[1] / calls * 1e9);
    }

    /**
     * Runs the benchmark.
     *
     * @param args unused
     */
    public static void main(String[] args) {
        Random rnd = new Random(42);
        String[] cities = {"population", "area", "san francisco", "New York", "Zürich", "a#b"};
        List<Object[]> rows = new ArrayList<>(ROWS);
        for (int i = 0; i < ROWS; i++) {
            rows.add(new Object[] {cities[rnd.nextInt(cities.length)], rnd.nextLong() >> rnd.nextInt(64)});
        }
        Schema s = Schema.of("str,i64", "hex");
        // The baseline does the same work: its keys are lexikey's.
        List<String> keys = s.encodeTextMany(rows);
        for (int i = 0; i < ROWS; i += 997) {
            String naive = naiveKey((String) rows.get(i)[0], (Long) rows.get(i)[1]);
            if (!naive.equals(keys.get(i))) {
                throw new AssertionError("baseline differs at row " + i + ": " + naive + " vs " + keys.get(i));
            }
        }
        List<String> sink = new ArrayList<>(ROWS);
        Runnable lexikey = () -> {
            if (s.encodeTextMany(rows).size() != ROWS) {
                throw new AssertionError();
            }
        };
        Runnable naive = () -> {
            sink.clear();
            for (Object[] r : rows) {
                sink.add(naiveKey((String) r[0], (Long) r[1]));
            }
        };
        for (int i = 0; i < 3; i++) {
            lexikey.run();
            naive.run();
        }
        double[] tl = time(lexikey);
        double[] tn = time(naive);
        String f = "%s x %,d: wall %.1f ms (%.2f M rows/s, GC %.0f ms); thread CPU %.1f ms (%.2f M rows/s);"
                + " process CPU %.1f ms%n";
        System.out.printf(f, "Schema.encodeTextMany(str,i64)", ROWS, tl[0] * 1e3, ROWS / tl[0] / 1e6, tl[3] * 1e3,
                tl[1] * 1e3, ROWS / tl[1] / 1e6, tl[2] * 1e3);
        System.out.printf(f, "naive String.format encoder", ROWS, tn[0] * 1e3, ROWS / tn[0] / 1e6, tn[3] * 1e3,
                tn[1] * 1e3, ROWS / tn[1] / 1e6, tn[2] * 1e3);
        System.out.printf("lexikey / naive speed: wall %.1fx, thread CPU %.1fx, process CPU %.1fx%n", tn[0] / tl[0],
                tn[1] / tl[1], tn[2] / tl[2]);
        System.out.printf("load average %.1f on %d CPUs%n", OS.getSystemLoadAverage(), OS.getAvailableProcessors());

        // Single calls: the JNI crossing.
        int n = 2_000_000;
        long[] acc = {0};
        Runnable trivial = () -> {
            for (int i = 0; i < n; i++) {
                acc[0] += Native.reverse(i);
            }
        };
        Runnable one = () -> {
            for (int i = 0; i < n; i++) {
                acc[0] += s.encodeText("population", (long) i).length();
            }
        };
        Runnable plain = () -> {
            for (int i = 0; i < n; i++) {
                acc[0] += Lexikey.encodeText("hex", "population", (long) i).length();
            }
        };
        Runnable strings = () -> {
            for (int i = 0; i < n / 4; i++) {
                acc[0] += Lexikey.encodeText("hex", "str:population", "i64:3831868").length();
            }
        };
        Runnable naiveOne = () -> {
            for (int i = 0; i < n; i++) {
                acc[0] += naiveKey("population", i).length();
            }
        };
        for (int i = 0; i < 2; i++) {
            trivial.run();
            one.run();
            plain.run();
            strings.run();
            naiveOne.run();
        }
        perCall("JNI round trip (Native.reverse, no work)", trivial, n);
        perCall("Schema.encodeText(\"population\", long)", one, n);
        perCall("Lexikey.encodeText(\"hex\", \"population\", long)", plain, n);
        perCall("Lexikey.encodeText(\"hex\", \"str:population\", \"i64:3831868\")", strings, n / 4);
        perCall("naive single key", naiveOne, n);
        System.out.println(acc[0] == 42 ? "" : "(checksum " + acc[0] + ")");
    }
}
