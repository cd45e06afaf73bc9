package lexikey;

import java.nio.charset.StandardCharsets;

/**
 * One allocator client process (AllocTest starts four): inserts N rows
 * {@code "NAME-i"} into TABLE of STORE and prints each ID (unsigned) and
 * value, one per line. {@code java lexikey.AllocWorker STORE TABLE NAME N}
 */
public final class AllocWorker {
    private AllocWorker() {}

    /**
     * Runs the client.
     *
     * @param args STORE TABLE NAME N
     */
    public static void main(String[] args) {
        int n = Integer.parseInt(args[3]);
        StringBuilder out = new StringBuilder();
        try (Allocator a = new Allocator(args[0], args[1], AllocatorOptions.defaults())) {
            for (int i = 0; i < n; i++) {
                String value = args[2] + "-" + i;
                long id = a.insert(value.getBytes(StandardCharsets.UTF_8));
                out.append(Long.toUnsignedString(id)).append('\t').append(value).append('\n');
            }
        }
        System.out.print(out);
    }
}
