package lexikey;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code Schema.encodeBytesMany(Iterator, int)} and
 * {@code encodeTextMany(Iterator, int)}, the streaming bulk calls: the keys
 * equal the list call's on the buffered rows at every size around the batch,
 * the source is never read more than a batch ahead of the keys handed out,
 * and bad arguments and bad rows are errors naming what is wrong (a bad
 * row by its index in the whole stream).
 */
class StreamTest {
    static final int BATCH = 7;

    static final Schema BINARY = Schema.of("str,i64.desc,str", "binary");
    static final Schema HEX = Schema.of("str,i64.desc,str", "hex");

    /** Row {@code i} of the test stream. */
    static Object[] row(long i) {
        return new Object[] {"metric" + (i % 7), (i * 2654435761L) % 100000007L - 50000000L, "city " + i + " \u00e9#%"};
    }

    static List<Object[]> rows(int n) {
        List<Object[]> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(row(i));
        }
        return out;
    }

    /**
     * An iterator over a list that counts the rows pulled, and checks on each
     * pull that the consumer is not more than {@code batch} rows behind.
     */
    static final class Counting implements Iterator<Object[]> {
        final Iterator<Object[]> inner;
        int pulled;
        int consumed;
        int mostAhead;

        Counting(List<Object[]> rows) {
            this.inner = rows.iterator();
        }

        @Override
        public boolean hasNext() {
            return inner.hasNext();
        }

        @Override
        public Object[] next() {
            pulled++;
            mostAhead = Math.max(mostAhead, pulled - consumed);
            return inner.next();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, BATCH - 1, BATCH, BATCH + 1, 2 * BATCH, 10 * BATCH + 3, 5000})
    void bytesEqualTheListCallAndNeverReadMoreThanABatchAhead(int n) {
        List<Object[]> rows = rows(n);
        List<byte[]> want = BINARY.encodeBytesMany(rows);
        Counting source = new Counting(rows);
        Iterator<byte[]> keys = BINARY.encodeBytesMany(source, BATCH);
        assertThat(source.pulled).as("rows pulled before any key is asked for").isZero();
        List<byte[]> got = new ArrayList<>();
        while (keys.hasNext()) {
            got.add(keys.next());
            source.consumed++;
            assertThat(source.pulled - source.consumed).as("rows pulled ahead after key " + got.size())
                    .isBetween(0, BATCH);
        }
        assertThat(source.mostAhead).isLessThanOrEqualTo(BATCH);
        assertThat(source.pulled).isEqualTo(n);
        assertThat(got).hasSize(n);
        for (int i = 0; i < n; i++) {
            if (!Arrays.equals(want.get(i), got.get(i))) {
                throw new AssertionError("key " + i + ": stream " + Lexikey.show(got.get(i)) + ", list "
                        + Lexikey.show(want.get(i)));
            }
        }
        assertThat(keys.hasNext()).isFalse();
        assertThatThrownBy(keys::next).isInstanceOf(NoSuchElementException.class);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, BATCH - 1, BATCH, BATCH + 1, 10 * BATCH + 3})
    void textEqualsTheListCall(int n) {
        List<Object[]> rows = rows(n);
        Counting source = new Counting(rows);
        Iterator<String> keys = HEX.encodeTextMany(source, BATCH);
        List<String> got = new ArrayList<>();
        // next() without hasNext() pulls too.
        for (int i = 0; i < n; i++) {
            got.add(keys.next());
            source.consumed++;
        }
        assertThat(keys.hasNext()).isFalse();
        assertThat(source.mostAhead).isLessThanOrEqualTo(BATCH);
        assertThat(got).isEqualTo(HEX.encodeTextMany(rows));
    }

    @Test
    void aBatchOfOneAndALargeBatch() {
        List<Object[]> rows = rows(100);
        List<byte[]> want = BINARY.encodeBytesMany(rows);
        for (int batch : new int[] {1, 100, 101, Integer.MAX_VALUE}) {
            Counting source = new Counting(rows);
            Iterator<byte[]> keys = BINARY.encodeBytesMany(source, batch);
            List<byte[]> got = new ArrayList<>();
            keys.forEachRemaining(k -> {
                got.add(k);
                source.consumed++;
            });
            assertThat(source.mostAhead).as("batch " + batch).isLessThanOrEqualTo(batch);
            assertThat(got).as("batch " + batch).containsExactlyElementsOf(want);
        }
    }

    @Test
    void argumentErrorsNameTheArgument() {
        assertThatThrownBy(() -> BINARY.encodeBytesMany(null, 10)).isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessage("rows: an Iterator, not null (an empty iterator gives no keys)");
        assertThatThrownBy(() -> HEX.encodeTextMany(null, 10)).isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("rows: an Iterator, not null");
        for (int batch : new int[] {0, -1, Integer.MIN_VALUE}) {
            assertThatThrownBy(() -> BINARY.encodeBytesMany(rows(3).iterator(), batch))
                    .isExactlyInstanceOf(IllegalArgumentException.class)
                    .hasMessage("batch: a number of rows per crossing from 1 to 2147483647, not " + batch);
        }
        // The kind is checked at once, even for a stream with no rows.
        assertThatThrownBy(() -> HEX.encodeBytesMany(rows(0).iterator(), 10))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("hex keys are text: use encodeTextMany");
        assertThatThrownBy(() -> BINARY.encodeTextMany(rows(0).iterator(), 10))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("binary keys are bytes: use encodeBytesMany");
    }

    @Test
    void aBadRowIsNamedByItsIndexInTheWholeStream() {
        // Row 17 is in the third batch of 7 (rows 14..20), at index 3 within it.
        List<Object[]> rows = rows(30);
        rows.set(17, new Object[] {"metric", "not a number", "city"});
        Iterator<byte[]> keys = BINARY.encodeBytesMany(rows.iterator(), BATCH);
        for (int i = 0; i < 14; i++) {
            keys.next();
        }
        assertThatThrownBy(keys::hasNext).isInstanceOf(EncodeException.class).hasMessageStartingWith("row 17, value 2 (i64.desc): expected an integer");
        assertThat(keys.hasNext()).as("finished after an error").isFalse();

        // The same error from the list call names the same row.
        assertThatThrownBy(() -> BINARY.encodeBytesMany(rows)).isInstanceOf(EncodeException.class)
                .hasMessageStartingWith("row 17");

        List<Object[]> withNull = rows(10);
        withNull.set(8, null);
        Iterator<String> text = HEX.encodeTextMany(withNull.iterator(), 4);
        for (int i = 0; i < 8; i++) {
            text.next();
        }
        assertThatThrownBy(text::next).isExactlyInstanceOf(EncodeException.class).hasMessage("row 8 is null");

        List<Object[]> short2 = rows(3);
        short2.set(2, new Object[] {"a", 1L});
        assertThatThrownBy(() -> BINARY.encodeBytesMany(short2.iterator(), 100).next())
                .isInstanceOf(EncodeException.class).hasMessageStartingWith("row 2 has 2 values");
    }
}
