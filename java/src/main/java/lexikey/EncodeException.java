package lexikey;

/**
 * Values that cannot be encoded: a component string that does not parse, a
 * value of the wrong class or out of its type's range, a width overflow, a
 * key over the length limit (32,767 bytes), a range that no key can match.
 * The message names the component or value at fault.
 */
public class EncodeException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /**
     * An encode error.
     *
     * @param message what is wrong, naming the value at fault
     */
    public EncodeException(String message) {
        super(message);
    }
}
