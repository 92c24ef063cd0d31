package koala.api.scheduler;

/** {@code POST /tokens}: a token for the caller, valid this many seconds (null: a day). */
public record TokenRequest(Long lifetimeSeconds) {
}
