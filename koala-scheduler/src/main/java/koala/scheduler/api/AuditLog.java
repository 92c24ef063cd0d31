package koala.scheduler.api;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.Map;
import koala.common.json.Json;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Who asked to change what, and whether it was done or refused and why: one JSON object per line
 * in {@code KOALA_HOME/logs/audit.log} (mode 0600), e.g.
 * {@code {"at":"...","user":"bob","uid":1002,"via":"unix socket","action":"cancel","target":"job 7",
 * "outcome":"refused","reason":"bob may not cancel job 7: it belongs to alice"}}.
 */
public final class AuditLog implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(AuditLog.class);

    private final Writer out;
    private final InstantSource clock;

    private AuditLog(Writer out, InstantSource clock) {
        this.out = out;
        this.clock = clock;
    }

    public static AuditLog in(Path file, InstantSource clock) throws IOException {
        Files.createDirectories(file.getParent());
        if (!Files.exists(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        }
        if (Files.isSymbolicLink(file)) {
            throw new IOException(file + " is a symbolic link; the audit log must be a plain file");
        }
        return new AuditLog(Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.APPEND), clock);
    }

    /** An audit log that only logs (tests of the API's routing). */
    public static AuditLog toLogOnly(InstantSource clock) {
        return new AuditLog(Writer.nullWriter(), clock);
    }

    public void done(Caller caller, String action, String target) {
        write(caller, action, target, "done", null);
    }

    /** Refused because the caller may not (not theirs, over their limit): also in the daemon's log. */
    public void denied(Caller caller, String action, String target, String reason) {
        LOG.warn("refused {} {} to {}: {}", action, target, caller, reason);
        write(caller, action, target, "refused", reason);
    }

    /** Refused for what was asked (an unknown job, a bad value): the answer told the caller why. */
    public void refused(Caller caller, String action, String target, String reason) {
        write(caller, action, target, "refused", reason);
    }

    private synchronized void write(Caller caller, String action, String target, String outcome, String reason) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("at", clock.instant().toString());
        line.put("user", caller.user());
        line.put("uid", caller.uid());
        line.put("via", caller.via());
        line.put("action", action);
        line.put("target", target);
        line.put("outcome", outcome);
        if (reason != null) {
            line.put("reason", reason);
        }
        try {
            out.write(Json.write(line) + "\n");
            out.flush();
        } catch (IOException e) {
            LOG.error("cannot write the audit log: {} ({})", e.getMessage(), line);
        }
    }

    @Override
    public synchronized void close() throws IOException {
        out.close();
    }
}
