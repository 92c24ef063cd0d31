package koala.api.runner;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Optional;
import java.util.function.Supplier;
import koala.common.time.Poll;

/**
 * Where a caller finds an instance's token, which its runner may replace (rotate) while the caller
 * runs: for an entity, the file its launcher keeps up to date ({@code KOALA_RUNNER_TOKEN_FILE}), else
 * the value it was started with ({@code KOALA_RUNNER_TOKEN}); for the owner, the runner's state file.
 * Read at each use, so that a rotation reaches the caller without a restart.
 */
public final class TokenSource implements Supplier<String> {
    /** How long a caller refused with the old token waits for the new one: a few of its launcher's heartbeats. */
    public static final Duration ROTATION_WAIT = Duration.ofSeconds(15);

    private final Supplier<String> now;
    private final boolean changes;

    private TokenSource(Supplier<String> now, boolean changes) {
        this.now = now;
        this.changes = changes;
    }

    /** A token that never changes for this caller (a refusal is final). */
    public static TokenSource fixed(String token) {
        return new TokenSource(() -> token, false);
    }

    /** The token {@code now} says at each call (e.g. the runner's own, in process). */
    public static TokenSource of(Supplier<String> now) {
        return new TokenSource(now, true);
    }

    /** The line in {@code file}; {@code started} while the file cannot be read. */
    public static TokenSource file(Path file, String started) {
        return new TokenSource(() -> {
            try {
                String line = Files.readString(file, StandardCharsets.UTF_8).strip();
                return line.isEmpty() ? started : line;
            } catch (IOException e) {
                return started; // not written yet, or gone with the entity's node
            }
        }, true);
    }

    /**
     * The owner's: the {@code token} in the runner's state file ({@code runner-ID.json}), which the
     * runner rewrites (a new file renamed over the old) when it replaces the token.
     */
    public static TokenSource stateFile(Path file) {
        return new TokenSource(() -> {
            try {
                com.fasterxml.jackson.databind.JsonNode token = koala.common.json.Json.mapper().readTree(file.toFile())
                        .get("token");
                return token == null ? null : token.asText();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException("cannot read the instance's token from " + file + ": "
                        + e.getMessage(), e);
            }
        }, true);
    }

    /** From the environment: {@code fileVariable} names the file, {@code variable} holds the value at start. */
    public static Optional<TokenSource> fromEnvironment(java.util.Map<String, String> env, String fileVariable,
                                                        String variable) {
        String path = env.get(fileVariable);
        String value = env.get(variable);
        if (path == null || path.isBlank()) {
            return Optional.ofNullable(value).map(TokenSource::fixed);
        }
        return Optional.of(file(Path.of(path), value));
    }

    @Override
    public String get() {
        return now.get();
    }

    /**
     * After a refusal with {@code refused}: waits up to {@code wait} for the token to change (a
     * launcher learns a rotated one at its next heartbeat); the new one, or empty when it did not.
     */
    public Optional<String> changedFrom(String refused, InstantSource clock, Duration wait) {
        if (!changes) {
            return Optional.empty();
        }
        String[] latest = {get()};
        new Poll(clock, Duration.ofMillis(200)).until(() -> !java.util.Objects.equals(latest[0] = get(), refused), wait);
        return java.util.Objects.equals(latest[0], refused) ? Optional.empty() : Optional.ofNullable(latest[0]);
    }
}
