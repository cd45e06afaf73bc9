package lexikey;

/**
 * A key that does not decode: not a key its encoder could have written
 * (decoding is strict: every decoder rejects what its encoder could not
 * have produced, and says where).
 *
 * <p>{@link #offset()} is the byte offset of the first byte at fault, in the
 * key's bytes (a text key's UTF-8; for a binary key given as hex text, the
 * index of the byte its digits {@code 2*offset} and {@code 2*offset+1} spell).
 */
public class DecodeException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** The byte offset of the first byte at fault. */
    private final int offset;

    /**
     * A decode error.
     *
     * @param message what is wrong and where
     * @param offset the byte offset of the first byte at fault
     */
    public DecodeException(String message, int offset) {
        super(message);
        this.offset = offset;
    }

    /**
     * The byte offset of the first byte at fault.
     *
     * @return the offset, from 0
     */
    public int offset() {
        return offset;
    }
}
