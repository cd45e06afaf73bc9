package lexikey.examples;

import java.util.ArrayDeque;
import java.util.Iterator;
import lexikey.Schema;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF3;
import org.apache.spark.sql.types.DataTypes;
import scala.Tuple2;

/**
 * Row keys for an HBase bulk load, computed in Spark with Java: ROWS rows
 * {@code (metric, value, city)} become
 * {@code Schema.of("str,i64.desc,str", "binary")} keys, written as text
 * lines {@code ID<TAB>KEY} (the key as lowercase hex) to OUT. Two ways, the
 * same keys:
 *
 * <ul>
 * <li>{@code partitions} (the default): {@code mapPartitions} with
 * {@link Schema#encodeBytesMany(Iterator, int)}, which pulls
 * {@value #BATCH} rows of the partition at a time and encodes them in one
 * crossing into the native library, never holding the partition whole;</li>
 * <li>{@code udf}: a Spark SQL UDF calling {@link Schema#encodeBytes} once
 * per row.</li>
 * </ul>
 *
 * <pre>
 * spark-submit --master local[2] --jars java/build/lexikey.jar \
 *   --class lexikey.examples.SparkBulkKeys spark-bulk-keys.jar ROWS OUT [partitions|udf]
 * </pre>
 *
 * (scripts/java.sh spark [ROWS] [MODE] builds and runs it with the
 * spark-submit of the PySpark package.) It prints the job's wall time. The
 * Schema is captured by the closures: Spark serializes it into each task,
 * where it is parsed again; the native library comes with lexikey.jar.
 */
public final class SparkBulkKeys {
    /** Rows per crossing into the native library in {@code partitions}. */
    static final int BATCH = 4096;

    private SparkBulkKeys() {}

    /**
     * Runs the job.
     *
     * @param args ROWS OUT [partitions|udf]
     */
    public static void main(String[] args) {
        long rows = Long.parseLong(args[0]);
        String out = args[1];
        String mode = args.length > 2 ? args[2] : "partitions";
        if (!mode.equals("partitions") && !mode.equals("udf")) {
            throw new IllegalArgumentException("MODE: partitions or udf, not " + mode);
        }
        SparkSession spark = SparkSession.builder().appName("lexikey bulk keys").getOrCreate();
        Schema schema = Schema.of("str,i64.desc,str", "binary");
        long t0 = System.nanoTime();
        Dataset<Row> input = spark.range(rows)
                .selectExpr("id",
                        "concat('metric', cast(id % 7 as string)) as metric",
                        "(id * 2654435761) % 100000007 - 50000000 as value",
                        "concat('city ', cast(id % 1009 as string), ' \u00e9#%') as city");
        Dataset<Row> keyed;
        if (mode.equals("udf")) {
            UDF3<String, Long, String, byte[]> rowKey = (metric, value, city) -> schema.encodeBytes(metric, value, city);
            spark.udf().register("row_key", rowKey, DataTypes.BinaryType);
            keyed = input.selectExpr("id", "row_key(metric, value, city) as key");
        } else {
            MapPartitionsFunction<Row, Tuple2<Long, byte[]>> keys = part -> keysOf(schema, part);
            keyed = input.mapPartitions(keys, Encoders.tuple(Encoders.LONG(), Encoders.BINARY())).toDF("id", "key");
        }
        keyed.selectExpr("concat(cast(id as string), '\t', lower(hex(key))) as line").write().text(out);
        System.out.printf("SparkBulkKeys %s: %d rows in %.1f s%n", mode, rows, (System.nanoTime() - t0) / 1e9);
        spark.stop();
    }

    /**
     * The {@code (id, key)} of each row of a partition, streamed: the IDs
     * of the rows {@code encodeBytesMany} has pulled wait in a queue (at most
     * {@value #BATCH}) until their keys come out, in the same order.
     */
    static Iterator<Tuple2<Long, byte[]>> keysOf(Schema schema, Iterator<Row> part) {
        ArrayDeque<Long> ids = new ArrayDeque<>();
        Iterator<Object[]> values = new Iterator<>() {
            @Override
            public boolean hasNext() {
                return part.hasNext();
            }

            @Override
            public Object[] next() {
                Row r = part.next();
                ids.add(r.getLong(0));
                return new Object[] {r.getString(1), r.getLong(2), r.getString(3)};
            }
        };
        Iterator<byte[]> keys = schema.encodeBytesMany(values, BATCH);
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return keys.hasNext();
            }

            @Override
            public Tuple2<Long, byte[]> next() {
                byte[] key = keys.next();
                return new Tuple2<>(ids.remove(), key);
            }
        };
    }
}
