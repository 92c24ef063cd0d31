package koala.scheduler.accounting;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongFunction;

/**
 * Sums what an instance's workers did from its runner's reports, which come every second: each
 * report stands for the time until the next one. Between two reports of an instance, each worker
 * of the earlier one that the scheduler held adds the interval to the busy seconds if the runner
 * called it busy, and its utilization times its node's cores times the interval to the CPU
 * seconds. An interval longer than {@link #LONGEST_GAP} (a runner restarting, a scheduler that was
 * down: the first report after a restart has no earlier one) adds nothing: nobody said what the
 * workers did then, so it counts neither busy nor CPU. A worker's utilization is a share of its
 * node's cores (the launcher's sample), so a figure above 100% or below 0 is taken as 100% or 0.
 *
 * <p>Example: reports at 10:00:00 (w1 busy at 50% of 4 cores, w2 idle at 0%) and 10:00:02 add
 * 2 busy seconds and 0.5 × 4 × 2 = 4 CPU seconds. No I/O and no clock: the times are given.
 */
public final class WorkerMeter {
    /** The longest interval between two reports that is counted. */
    public static final Duration LONGEST_GAP = Duration.ofSeconds(10);

    /**
     * One worker as a report gave it.
     *
     * @param cores its node's cores; null when unknown
     */
    public record Sample(String node, boolean busy, double cpuPercent, Integer cores) {
    }

    private record Report(Instant at, List<Sample> samples) {
    }

    private final LongFunction<WorkerTally> kept;
    private final Map<Long, Report> last = new HashMap<>();
    private final Map<Long, WorkerTally> tallies = new HashMap<>();
    private final Set<Long> unsaved = new HashSet<>();

    /** @param kept an instance's tally as a scheduler before this one left it ({@link WorkerTally#ZERO} if none) */
    public WorkerMeter(LongFunction<WorkerTally> kept) {
        this.kept = kept;
    }

    /**
     * Counts the interval since the instance's previous report as that report said, and keeps this
     * one for the next. {@code samples} are the workers the scheduler holds for the instance.
     */
    public void report(long instance, List<Sample> samples, Instant at) {
        Report before = last.put(instance, new Report(at, List.copyOf(samples)));
        if (before == null || !at.isAfter(before.at())) {
            return;
        }
        Duration gap = Duration.between(before.at(), at);
        if (gap.compareTo(LONGEST_GAP) > 0) {
            return;
        }
        double seconds = gap.toMillis() / 1000.0;
        double busy = 0;
        double reported = 0;
        Double cpu = 0.0;
        for (Sample s : before.samples()) {
            busy += s.busy() ? seconds : 0;
            reported += seconds;
            cpu = cpu == null || s.cores() == null ? null
                    : cpu + Math.min(100, Math.max(0, finite(s.cpuPercent()))) / 100 * s.cores() * seconds;
        }
        tallies.put(instance, tally(instance).plus(busy, cpu, reported));
        unsaved.add(instance);
    }

    /** What the instance's workers did so far. */
    public WorkerTally tally(long instance) {
        return tallies.computeIfAbsent(instance, kept::apply);
    }

    /** The instances whose tallies changed since this was last asked, with their tallies. */
    public Map<Long, WorkerTally> unsaved() {
        Map<Long, WorkerTally> changed = new HashMap<>();
        unsaved.forEach(i -> changed.put(i, tallies.get(i)));
        unsaved.clear();
        return changed;
    }

    /** The instance ended: its tally and last report are let go of. */
    public void forget(long instance) {
        last.remove(instance);
        tallies.remove(instance);
        unsaved.remove(instance);
    }

    private static double finite(double value) {
        return Double.isFinite(value) ? value : 0;
    }
}
