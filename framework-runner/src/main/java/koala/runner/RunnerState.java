package koala.runner;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A runner's durable state, {@code runner-ID.json}: how to start it again ({@link Launch}) and what
 * it knows of its instance ({@link Book}). A runner that died is started again from it
 * ({@code RunnerMain --adopt FILE}), on the same address and port with the same token, so that its
 * launchers, entities and framework carry on without noticing more than a few seconds' silence.
 * The top-level {@code url} and {@code token} are what {@code koala framework ID} and the RPC's
 * users read; the token is the one in force now (the runner rotates it, see {@link InstanceSecrets}).
 *
 * @param pid the process serving the instance now
 * @param generation which start of the instance's runner wrote it ({@code koala.api.scheduler.RunnerGeneration}):
 *                   a runner never writes over the state of a later one; 0 in a file kept from before
 *                   generations were
 */
public record RunnerState(long instance, String url, String token, long pid, Launch launch, Book book,
                          long generation) {

    /**
     * How the runner was started, and what of it must stay the same when it is started again.
     *
     * @param deviceToken the secret the instance's entities share (their workers prove to the master with it)
     * @param java        the Java the runner ran on, and its class path: a restart runs the same code
     * @param actingFor   the user an admin's runner acts for, who owns the instance (null: the runner's own user)
     */
    public record Launch(String scheduler, String jdfFile, String jdfText, String gridFile, String deviceToken,
                         long runnerGoneSeconds, long deployTimeoutSeconds, String java, String classpath,
                         String actingFor) {
    }

    /**
     * What the runner knows of its instance; everything it cannot ask anyone else for again. The
     * settings in force are not kept: they are its JDF's over its home site's, resolved again from
     * the same JDF, the same grid file and {@code home}.
     *
     * @param state            DEPLOYING or RUNNING
     * @param initialRequested whether the orchestrators and initial workers were asked for (the master had reported in)
     * @param master           the master's host:port, once it reported in
     * @param lastSample       the policies' latest sample
     * @param growMillis       per site, the latest grow times (oldest first) that O_grow is the median of
     * @param inFlight         the grow asked of the scheduler and not yet answered, if any
     * @param answered         the framework's recent grows by request id, so that a retried one gets the same answer
     * @param events           the latest decisions and reasons, as the status shows them
     * @param keys             the instance's token, those it replaced, and its nodes' keys (null in a state
     *                         written before tokens rotated: the top-level token, and no keys)
     */
    public record Book(String state, boolean initialRequested, String master, String home, Instant lastSample,
                       List<Saved> entities, Map<String, List<Long>> growMillis, InFlight inFlight,
                       Map<String, Answer> answered, List<String> events, Keys keys) {
        public Book(String state, boolean initialRequested, String master, String home, Instant lastSample,
                    List<Saved> entities, Map<String, List<Long>> growMillis, InFlight inFlight,
                    Map<String, Answer> answered, List<String> events) {
            this(state, initialRequested, master, home, lastSample, entities, growMillis, inFlight, answered, events,
                    null);
        }

        public Book {
            entities = entities == null ? List.of() : List.copyOf(entities);
            growMillis = growMillis == null ? Map.of() : Map.copyOf(growMillis);
            // oldest first: the runner keeps the latest 16
            answered = answered == null ? Map.of() : java.util.Collections.unmodifiableMap(
                    new java.util.LinkedHashMap<>(answered));
            events = events == null ? List.of() : List.copyOf(events);
        }
    }

    /**
     * One entity, without what its next heartbeat tells again (CPU use, the time of its latest beat).
     *
     * @param frameworkReported whether its framework reports its activity (then its word, not its CPU, says idle)
     */
    public record Saved(String node, String role, String site, String state, Instant requestedAt, String host,
                        int port, long beatMillis, Instant idleSince, int orchestrators, Instant emptySince,
                        boolean frameworkReported) {
    }

    /**
     * A grow the runner asked the scheduler for under {@code requestId}; a restarted runner asks again
     * under the same id, and the scheduler answers with the first grant if it had one.
     *
     * @param rpcRequest the framework's request id it was for, if any
     */
    public record InFlight(String requestId, String role, int nodes, String reason, Instant at, int orchestratorsEach,
                           String rpcRequest, int requested) {
    }

    /**
     * The instance's secrets: its token now, the tokens it replaced (newest first, kept for the first
     * hello of a node granted before the rotation), and each node's key by node id.
     */
    public record Keys(String token, List<String> replaced, Map<String, String> nodes) {
        public Keys {
            replaced = replaced == null ? List.of() : List.copyOf(replaced);
            nodes = nodes == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(nodes));
        }

        @Override
        public String toString() {
            return "Keys[hidden]";
        }
    }

    /** What a framework's grow got, kept under its request id. */
    public record Answer(int requested, int granted, List<String> nodes, String reason) {
        public Answer {
            nodes = nodes == null ? List.of() : List.copyOf(nodes);
        }
    }
}
