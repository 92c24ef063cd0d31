package koala.api.scheduler;

import java.time.Instant;

/** A backup of the scheduler's database the scheduler made: its file (on the scheduler's host), its size and when. */
public record BackupView(String file, long bytes, Instant at) {
}
