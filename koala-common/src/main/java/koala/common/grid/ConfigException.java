package koala.common.grid;

/** A grid configuration that cannot be used, naming the file and key and saying why. */
public class ConfigException extends RuntimeException {
    public ConfigException(String message) {
        super(message);
    }

    public ConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
