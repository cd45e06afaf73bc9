package lexikey.examples;

import lexikey.Schema;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF3;
import org.apache.spark.sql.types.DataTypes;

/**
 * Row keys for an HBase bulk load, computed in a Spark SQL UDF written in
 * Java: ROWS rows {@code (metric, value, city)} become
 * {@code Schema.of("str,i64.desc,str", "hex")} keys, written as text lines
 * {@code ID<TAB>KEY} to OUT.
 *
 * <pre>
 * spark-submit --master local[2] --jars java/build/lexikey.jar \
 *   --class lexikey.examples.SparkBulkKeys spark-bulk-keys.jar ROWS OUT
 * </pre>
 *
 * (scripts/java.sh spark [ROWS] builds and runs it with the spark-submit of
 * the PySpark package.) The Schema is captured by the UDF: Spark serializes
 * it into each task, where it is parsed again; the native library comes
 * with lexikey.jar.
 */
public final class SparkBulkKeys {
    private SparkBulkKeys() {}

    /**
     * Runs the job.
     *
     * @param args ROWS OUT
     */
    public static void main(String[] args) {
        long rows = Long.parseLong(args[0]);
        String out = args[1];
        SparkSession spark = SparkSession.builder().appName("lexikey bulk keys").getOrCreate();
        Schema schema = Schema.of("str,i64.desc,str", "hex");
        UDF3<String, Long, String, String> rowKey = (metric, value, city) -> schema.encodeText(metric, value, city);
        spark.udf().register("row_key", rowKey, DataTypes.StringType);
        Dataset<Row> keyed = spark.range(rows)
                .selectExpr("id",
                        "concat('metric', cast(id % 7 as string)) as metric",
                        "(id * 2654435761) % 100000007 - 50000000 as value",
                        "concat('city ', cast(id % 1009 as string), ' \u00e9#%') as city")
                .selectExpr("concat(cast(id as string), '\t', row_key(metric, value, city)) as line");
        keyed.write().text(out);
        spark.stop();
    }
}
