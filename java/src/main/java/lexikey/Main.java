package lexikey;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * A small command line over the jar, printing what the {@code lexikey}
 * command prints for the same arguments:
 *
 * <pre>
 * java -cp lexikey.jar lexikey.Main encode [--format FORMAT] COMPONENT...
 * java -cp lexikey.jar lexikey.Main reverse N
 * </pre>
 *
 * <p>{@code encode} parses each {@code TYPE[.desc]:VALUE} component as the
 * command line does and prints the key on one line (binary keys as
 * lowercase hex); {@code reverse} prints {@code Long.MAX_VALUE - N}. Errors
 * print one line, {@code lexikey: error: ...}, on standard error and exit
 * with status 2. The other commands and options are the {@code lexikey}
 * command's.
 */
public final class Main {
    private Main() {}

    private static final String USAGE = "usage: java -cp lexikey.jar lexikey.Main encode [--format FORMAT] COMPONENT...\n"
            + "       java -cp lexikey.jar lexikey.Main reverse N";

    /**
     * Runs a command.
     *
     * @param args the command and its arguments
     */
    public static void main(String[] args) {
        int status = run(args, System.out, System.err);
        System.out.flush();
        if (status != 0) {
            System.exit(status);
        }
    }

    /**
     * Runs a command, printing to {@code out} and {@code err}.
     *
     * @param args the command and its arguments
     * @param out standard output
     * @param err standard error
     * @return the exit status: 0, or 2 for an error
     */
    static int run(String[] args, PrintStream out, PrintStream err) {
        try {
            if (args.length == 0) {
                throw new IllegalArgumentException("missing command\n" + USAGE);
            }
            switch (args[0]) {
                case "encode" -> encode(args, out);
                case "reverse" -> {
                    if (args.length != 2) {
                        throw new IllegalArgumentException("reverse takes one number N\n" + USAGE);
                    }
                    long n;
                    try {
                        n = Long.parseLong(args[1]);
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("invalid N " + args[1]
                                + ": expected a number from 0 to 9223372036854775807");
                    }
                    out.println(Lexikey.reverse(n));
                }
                case "-h", "--help", "help" -> out.println(USAGE);
                default -> throw new IllegalArgumentException("unknown command " + args[0]
                        + " (this jar runs encode and reverse; the lexikey command runs the rest)\n" + USAGE);
            }
            return 0;
        } catch (IllegalArgumentException | IllegalStateException | UnsatisfiedLinkError e) {
            err.println("lexikey: error: " + e.getMessage());
            return 2;
        }
    }

    private static void encode(String[] args, PrintStream out) {
        String format = "hex";
        List<String> components = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--format") || a.equals("-f")) {
                if (i + 1 == args.length) {
                    throw new IllegalArgumentException("--format needs a value");
                }
                format = args[++i];
            } else if (a.startsWith("--format=")) {
                format = a.substring("--format=".length());
            } else if (a.equals("--")) {
                components.addAll(List.of(args).subList(i + 1, args.length));
                break;
            } else {
                components.add(a);
            }
        }
        if (components.isEmpty()) {
            throw new IllegalArgumentException("missing COMPONENT: expected TYPE[.desc]:VALUE..., "
                    + "e.g. lexikey encode str:population i64:3831868");
        }
        boolean text = Lexikey.isText(format);
        int code = Lexikey.code(format);
        Wire.Writer w = Wire.writer();
        w.row(components.toArray());
        Object key = w.key(text, len -> Native.encode(code, text, w.buf, len, true));
        out.println(text ? (String) key : HexFormat.of().formatHex((byte[]) key));
    }
}
