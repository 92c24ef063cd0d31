package koala.scheduler.remote;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;

/**
 * JSch's log, in the scheduler's (Log4j2): logger {@value #NAME}, each line naming the site whose
 * head node the connection is to. JSch logs nothing unless given a logger; what it says at its
 * INFO level is the handshake's chatter (algorithms, each authentication step) that an admin reads
 * when a connection fails, so it is DEBUG here, and its DEBUG is TRACE; its warnings and errors keep
 * their levels. {@code scheduler.logLevel.koala.scheduler.remote.ssh = debug} shows a handshake.
 */
final class JSchLog implements com.jcraft.jsch.Logger {
    static final String NAME = "koala.scheduler.remote.ssh";
    private static final org.apache.logging.log4j.Logger LOG = LogManager.getLogger(NAME);

    private final String site;

    JSchLog(String site) {
        this.site = site;
    }

    static Level level(int jschLevel) {
        return switch (jschLevel) {
            case com.jcraft.jsch.Logger.DEBUG -> Level.TRACE;
            case com.jcraft.jsch.Logger.INFO -> Level.DEBUG;
            case com.jcraft.jsch.Logger.WARN -> Level.WARN;
            case com.jcraft.jsch.Logger.ERROR -> Level.ERROR;
            default -> Level.FATAL;
        };
    }

    @Override
    public boolean isEnabled(int level) {
        return LOG.isEnabled(level(level));
    }

    @Override
    public void log(int level, String message) {
        LOG.log(level(level), "site {}: {}", site, message);
    }

    @Override
    public void log(int level, String message, Throwable cause) {
        LOG.log(level(level), "site {}: {}", site, message, cause);
    }
}
