package koala.api.site;

import java.time.Instant;

/**
 * A pilot job as its site agent knows it.
 *
 * @param exitStatus the command's exit status once {@code DONE}
 * @param reason     why it {@code FAILED} ("killed by KOALA", "signal SIGKILL", ...)
 */
public record PilotStatus(String id, String site, String name, PilotState state, Integer exitStatus,
                          String reason, Instant submittedAt, Instant finishedAt) {
}
