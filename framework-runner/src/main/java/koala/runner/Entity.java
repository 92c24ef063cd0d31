package koala.runner;

import java.time.Duration;
import java.time.Instant;
import koala.provisioning.WorkerReport;

/**
 * One entity of a framework instance, on its own node: asked for (STARTING) until its launcher
 * reports in, then RUNNING with its latest heartbeat. Workers are busy while their CPU use is at
 * least {@link WorkerReport#BUSY_CPU_PERCENT}; orchestrator nodes count the orchestrators they host.
 *
 * @param node       the scheduler's node id, e.g. "12.3.0"; the name the framework uses
 * @param site       where the node is, once known
 * @param beatPeriod the heartbeat period its launcher was last told
 * @param idleSince  for a worker: since when it has been idle; null while busy
 * @param emptySince for an orchestrator node: since when it hosts no orchestrator; null while it hosts some
 */
record Entity(String node, String role, String site, State state, Instant requestedAt, String host, int port,
              Instant lastBeat, Duration beatPeriod, double cpuPercent, Instant idleSince, int orchestrators,
              Instant emptySince) {

    enum State { STARTING, RUNNING }

    static Entity starting(String node, String role, Instant at, int orchestrators) {
        return new Entity(node, role, null, State.STARTING, at, null, 0, null, null, 0, null, orchestrators,
                orchestrators == 0 ? at : null);
    }

    boolean running() {
        return state == State.RUNNING;
    }

    boolean is(String r) {
        return role.equals(r);
    }

    Entity at(String newSite) {
        return new Entity(node, role, newSite, state, requestedAt, host, port, lastBeat, beatPeriod, cpuPercent,
                idleSince, orchestrators, emptySince);
    }

    Entity reportedIn(String newSite, String newHost, int newPort, Duration period, Instant now) {
        return new Entity(node, role, newSite != null ? newSite : site, State.RUNNING, requestedAt, newHost, newPort,
                now, period, 0, now, orchestrators, emptySince);
    }

    Entity beat(double cpu, boolean busy, Duration period, Instant now) {
        Instant idle = WorkerReport.idleSince(idleSince, busy, now);
        return new Entity(node, role, site, state, requestedAt, host, port, now, period, cpu, idle, orchestrators,
                emptySince);
    }

    /** The framework's word on a worker: busy, or idle since {@code since}. */
    Entity activity(boolean busy, Instant since) {
        return new Entity(node, role, site, state, requestedAt, host, port, lastBeat, beatPeriod, cpuPercent,
                busy ? null : since, orchestrators, emptySince);
    }

    Entity hosting(int count, Instant now) {
        return new Entity(node, role, site, state, requestedAt, host, port, lastBeat, beatPeriod, cpuPercent,
                idleSince, count, count > 0 ? null : emptySince != null ? emptySince : now);
    }
}
