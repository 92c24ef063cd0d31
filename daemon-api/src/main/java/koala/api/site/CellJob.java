package koala.api.site;

import java.time.LocalDateTime;

/**
 * A job in a cell, KOALA's or a local user's, from {@code qstat -f -xml -u '*'}.
 *
 * @param state  SGE's state letters ({@code r}, {@code qw}, {@code Eqw}, {@code dr}, ...)
 * @param queue  the queue instance it runs in, null while pending
 * @param since  start time when running, submission time when pending (cell-local time)
 * @param koala  true for KOALA's pilots, false for everyone else's load
 */
public record CellJob(String id, String name, String owner, String state, int slots, String queue,
                      LocalDateTime since, boolean koala) {
    public boolean running() {
        return queue != null;
    }
}
