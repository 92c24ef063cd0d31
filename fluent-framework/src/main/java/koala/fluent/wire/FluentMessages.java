package koala.fluent.wire;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What the framework's processes say to each other over HTTP/JSON: a client to the master
 * ({@code POST /jobs}), a DeviceManager to the master ({@code POST /devices},
 * {@code POST /apps/{id}/done}), the master to a DeviceManager ({@code POST /components}), and
 * the word-count components to one another ({@code POST /swc/{app}/...}). Every call to the
 * master carries the instance's token, every call to a DeviceManager the master's key
 * ({@link Secret}).
 */
public final class FluentMessages {
    private FluentMessages() {
    }

    /** A job: a batch of applications, placed in this order. */
    public record JobRequest(String name, List<AppRequest> apps) {
    }

    /**
     * One application of a job.
     *
     * @param kind             "rl" or "swc"
     * @param durationMillis   RL: how long it runs; SWC: over how long the reader streams its file
     * @param cpuPercent       RL: mean CPU load of its node's core; SWC: load of each mapper while it works
     * @param loadPeriodMillis RL: every how long its load changes
     * @param n                SWC: 2^n mappers
     * @param file             SWC: the text file whose words are counted
     */
    public record AppRequest(String kind, Long durationMillis, Double cpuPercent, Long loadPeriodMillis, Integer n,
                             String file) {
    }

    /** What became of a job: each application placed, queued or rejected, and what the master asked its runner. */
    public record JobReply(String job, List<AppReply> apps, String grow) {
        public JobReply {
            apps = List.copyOf(apps);
        }

        public long count(String verdict) {
            return apps.stream().filter(a -> a.verdict().equals(verdict)).count();
        }
    }

    /**
     * One application as the master sees it.
     *
     * @param verdict what happened when its job was submitted: PLACED, QUEUED or REJECTED
     * @param state   now: RUNNING, QUEUED, REJECTED, FINISHED or FAILED
     * @param result  once finished: an RL's frames, an SWC's counts and whether they check
     */
    public record AppReply(String id, String kind, String verdict, String state, List<String> workers,
                           String orchestrator, String reason, Map<String, Object> result) {
        public AppReply {
            workers = workers == null ? List.of() : List.copyOf(workers);
            result = result == null ? Map.of() : Map.copyOf(result);
        }
    }

    /**
     * A DeviceManager has started on {@code node} and serves {@code url}; it says so again every
     * few seconds, so that a restarted master hears from it.
     *
     * @param running the applications it runs or has not reported done yet (null in a first hello):
     *                what a restarted master keeps running
     */
    public record DeviceHello(String node, String url, Integer slots, List<String> running) {
        public DeviceHello(String node, String url, Integer slots) {
            this(node, url, slots, null);
        }

        public DeviceHello {
            running = running == null ? null : List.copyOf(running);
        }
    }

    /**
     * The master's answer to a {@link DeviceHello}: the worker is in, and the key the master signs
     * its commands with; the DeviceManager takes commands only with this key.
     */
    public record DeviceWelcome(boolean joined, String key) {
    }

    /**
     * The master starts one component of {@code app} on a DeviceManager.
     *
     * @param role    "rl", or for an SWC "reader", "mapper" or "counter"
     * @param index   a mapper's number, 0 .. mappers-1
     * @param mappers the mappers' DeviceManager URLs, by index (reader and counter)
     * @param counter the counter's DeviceManager URL (mappers)
     */
    public record Deploy(String app, String role, int index, long durationMillis, double cpuPercent,
                         long loadPeriodMillis, String file, List<String> mappers, String counter) {
        public Deploy {
            mappers = mappers == null ? List.of() : List.copyOf(mappers);
        }
    }

    /** A component has finished {@code app} (an RL, or an SWC's counter); {@code error} when it failed. */
    public record AppDone(String node, Map<String, Object> result, String error) {
        public AppDone {
            result = result == null ? Map.of() : Map.copyOf(result);
        }
    }

    /** Lines of the file from the reader to mapper {@code index}; {@code end} after the last batch. */
    public record Lines(List<String> lines, boolean end) {
        public Lines {
            lines = lines == null ? List.of() : List.copyOf(lines);
        }
    }

    /** A mapper's word counts for the counter, once the reader has ended. */
    public record Counts(int mapper, Map<String, Long> counts) {
        public Counts {
            counts = counts == null ? Map.of() : Map.copyOf(counts);
        }
    }

    /**
     * A suspended word count's reader as it is handed from one DeviceManager to another: the file it
     * reads (for the record: the lines travel with it, so the taker needs no access to the file), how
     * many batches it has sent ({@code position}; batch i goes to mapper i mod the mappers), the
     * batches it still has to send, in order, its pace, and whether it has already sent the end.
     */
    public record ReaderState(String file, int position, List<List<String>> left, long gapMillis, boolean ended) {
        public ReaderState {
            left = left == null ? List.of() : left.stream().map(List::copyOf).toList();
        }
    }

    /**
     * The state of one component of a suspended word count, handed over so that another DeviceManager
     * hosts it: a {@code reader} ({@link ReaderState}), a {@code mapper} ({@code index}, its counts so
     * far) or the {@code counter} (the counts merged so far, which of its {@code mappers} reported).
     */
    public record ComponentState(String role, int index, ReaderState reader, Map<String, Long> counts,
                                 List<Integer> reported, int mappers) {
        public ComponentState {
            counts = counts == null ? Map.of() : Map.copyOf(counts);
            reported = reported == null ? List.of() : List.copyOf(reported);
        }

        public static ComponentState reader(ReaderState reader) {
            return new ComponentState("reader", 0, reader, Map.of(), List.of(), 0);
        }

        public static ComponentState mapper(int index, Map<String, Long> counts) {
            return new ComponentState("mapper", index, null, counts, List.of(), 0);
        }

        public static ComponentState counter(Map<String, Long> counts, List<Integer> reported, int mappers) {
            return new ComponentState("counter", 0, null, counts, reported, mappers);
        }

        /** "reader", "mapper 3", "counter": as reasons name it. */
        public String name() {
            return role.equals("mapper") ? "mapper " + index : role;
        }
    }

    /**
     * The master asks a DeviceManager to hand over these components of a suspended word count, by name
     * ({@link ComponentState#name}: "reader", "mapper 3", "counter"): those that leave it, not those that
     * stay on it.
     */
    public record HandoverRequest(List<String> components) {
        public HandoverRequest {
            components = components == null ? null : List.copyOf(components);
        }
    }

    /** What a DeviceManager holds of suspended word count {@code app}, handed over: none when it holds nothing of it. */
    public record Handover(String app, String node, List<ComponentState> components) {
        public Handover {
            components = components == null ? List.of() : List.copyOf(components);
        }
    }

    /**
     * The master asks a DeviceManager to host {@code components} of suspended word count {@code app},
     * suspended as they were, with its mappers' addresses by index (for a reader) and its counter's
     * (for mappers).
     */
    public record Takeover(String app, List<ComponentState> components, List<String> mappers, String counter) {
        public Takeover {
            components = components == null ? List.of() : List.copyOf(components);
            mappers = mappers == null ? List.of() : List.copyOf(mappers);
        }
    }

    /** Where {@code app}'s components now are, after some moved: the reader sends to these mappers, mappers to this counter. */
    public record Repoint(List<String> mappers, String counter) {
        public Repoint {
            mappers = mappers == null ? List.of() : List.copyOf(mappers);
        }
    }

    /** One of the master's latest decisions: when (local time of day), what kind, and the text with its reason. */
    public record MasterEvent(String at, MasterEventKind kind, String text) {
        @Override
        public String toString() {
            return at + " " + text;
        }
    }

    /**
     * One worker in the master's registry.
     *
     * @param suspended word counts suspended for an RL whose components here wait with their state
     */
    public record WorkerView(String node, String url, int slots, int usedSlots, List<String> running,
                             Instant idleSince, List<String> suspended) {
        public WorkerView(String node, String url, int slots, int usedSlots, List<String> running, Instant idleSince) {
            this(node, url, slots, usedSlots, running, idleSince, List.of());
        }

        public WorkerView {
            running = List.copyOf(running);
            suspended = suspended == null ? List.of() : List.copyOf(suspended);
        }
    }

    /**
     * The master's view: its workers, the waiting SWCs, the applications, its counters and its
     * latest decisions.
     */
    public record MasterStatus(long instance, String policy, long tIdleMillis, int slotsPerWorker,
                               List<WorkerView> workers, List<String> queue, List<AppReply> apps,
                               Map<String, Integer> counters, List<MasterEvent> events) {
        public MasterStatus {
            workers = List.copyOf(workers);
            queue = List.copyOf(queue);
            apps = List.copyOf(apps);
            counters = Map.copyOf(counters);
            events = List.copyOf(events);
        }
    }

    /**
     * One metrics sample of an instance, as logged each sample period.
     *
     * @param allocated   worker nodes the runner holds (starting ones too)
     * @param busy        workers running an application
     * @param cpuPercent  mean CPU utilization of the allocated worker nodes, as their launchers measure it
     */
    public record MetricsSample(Instant at, int allocated, int busy, double cpuPercent, int accepted, int queued,
                                int rejected, int finished, int waiting, int running) {
    }

    /** The instance's metrics: the samples so far and each worker's busy and idle seconds. */
    public record MetricsReport(List<MetricsSample> samples, Map<String, double[]> workerSeconds) {
        public MetricsReport {
            samples = List.copyOf(samples);
            workerSeconds = Map.copyOf(workerSeconds);
        }
    }
}
