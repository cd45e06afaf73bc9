package lexikey;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** 8 threads sharing one Schema get the same keys and values as one thread. */
class ThreadsTest {
    static final int THREADS = 8;
    static final int ROWS = 20_000;

    @Test
    void eightThreadsShareOneSchema() throws Exception {
        long seed = Support.seed(19);
        Gen g = new Gen(seed, false);
        Schema s = Schema.of("str,i64.desc,f64,bytes,ts,uuid,dec", "base64");
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            rows.add(new Object[] {g.anyString(), g.anyLong(), g.anyDouble(), g.bytes(8), g.millis(), g.uuid(),
                g.decimal(20, 20)});
        }
        // One thread.
        List<String> want = s.encodeTextMany(rows);
        List<Object[]> wantBack = s.decodeMany(want);
        // Eight threads at once, each all rows: in bulk, one by one, and back.
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<Boolean>> done = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                final int which = t;
                Callable<Boolean> job = () -> {
                    List<String> keys = which % 2 == 0 ? s.encodeTextMany(rows) : new ArrayList<>();
                    if (which % 2 == 1) {
                        for (Object[] row : rows) {
                            keys.add(s.encodeText(row));
                        }
                    }
                    assertThat(keys).isEqualTo(want);
                    List<Object[]> back = which % 4 < 2 ? s.decodeMany(keys) : new ArrayList<>();
                    if (which % 4 >= 2) {
                        for (String k : keys) {
                            back.add(s.decode(k));
                        }
                    }
                    for (int i = 0; i < ROWS; i++) {
                        assertThat(Support.sameRow(back.get(i), wantBack.get(i))).as("row " + i).isTrue();
                    }
                    return true;
                };
                done.add(pool.submit(job));
            }
            for (Future<Boolean> f : done) {
                assertThat(f.get()).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
        // And the decoded values are the rows (canonical NaN aside: every NaN is one key).
        for (int i = 0; i < ROWS; i++) {
            Object[] r = rows.get(i).clone();
            if (r[2] instanceof Double d && d.isNaN()) {
                r[2] = Double.NaN;
            }
            assertThat(Support.sameRow(wantBack.get(i), r)).as(Support.show(r)).isTrue();
        }
    }

    /** A Schema travels through Java serialization (a Spark closure) and keeps its keys. */
    @Test
    void schemaSerializes() throws Exception {
        Schema s = Schema.of("str,i64", "hex").withSaltBuckets(4);
        java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream();
        try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(buf)) {
            out.writeObject(s);
        }
        Schema back;
        try (java.io.ObjectInputStream in = new java.io.ObjectInputStream(
                new java.io.ByteArrayInputStream(buf.toByteArray()))) {
            back = (Schema) in.readObject();
        }
        assertThat(back).isEqualTo(s);
        assertThat(back.encodeText("population", 5L)).isEqualTo(s.encodeText("population", 5L));
        assertThat(back.fields()).containsExactly("str", "i64");
    }
}
