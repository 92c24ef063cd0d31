package koala.grid;

import java.nio.file.Path;
import java.util.Optional;

/** A grid configuration that cannot be used, naming the file and key and saying why. */
public class ConfigException extends RuntimeException {
    private final String key;
    private final String detail;

    public ConfigException(String message) {
        super(message);
        this.key = null;
        this.detail = message;
    }

    public ConfigException(String message, Throwable cause) {
        super(message, cause);
        this.key = null;
        this.detail = message;
    }

    /**
     * About {@code key} of {@code file}: the message is {@code FILE: DETAIL}.
     *
     * @param detail the key, its value where it matters, and the reason:
     *               {@code scheduler.port = 70000: a port is 1..65535}
     */
    public ConfigException(Path file, String key, String detail) {
        super(file + ": " + detail);
        this.key = key;
        this.detail = detail;
    }

    /** The key this is about, when one is. */
    public Optional<String> key() {
        return Optional.ofNullable(key);
    }

    /** The message without the file's name, when it is about a key; the whole message otherwise. */
    public String detail() {
        return detail;
    }
}
