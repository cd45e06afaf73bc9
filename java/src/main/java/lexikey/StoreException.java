package lexikey;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A store that cannot be opened or reached: a refused connection, a missing
 * directory, TLS or authentication failures. The message is the command
 * line's ({@code cannot open store "URL": ...}, any password shown as
 * {@code ***}); the cause is an {@link IOException} with the same message.
 */
public class StoreException extends UncheckedIOException {
    private static final long serialVersionUID = 1L;

    /**
     * A store error.
     *
     * @param message what failed, naming the store
     */
    public StoreException(String message) {
        super(message, new IOException(message));
    }
}
