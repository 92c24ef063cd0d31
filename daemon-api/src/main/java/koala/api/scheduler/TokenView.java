package koala.api.scheduler;

import java.time.Instant;

/** A token the scheduler signed: whoever sends it is {@code user} until {@code expiresAt} (or the key is rotated). */
public record TokenView(String token, String user, int uid, Instant expiresAt) {
}
