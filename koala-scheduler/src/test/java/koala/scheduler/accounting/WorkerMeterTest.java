package koala.scheduler.accounting;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Summing an instance's worker reports, as worked examples: each report stands until the next. */
class WorkerMeterTest {
    private static final Instant T0 = Instant.parse("2026-11-25T10:00:00Z");

    private static WorkerMeter.Sample busy(String node, double cpu, Integer cores) {
        return new WorkerMeter.Sample(node, true, cpu, cores);
    }

    private static WorkerMeter.Sample idle(String node, Integer cores) {
        return new WorkerMeter.Sample(node, false, 0, cores);
    }

    /**
     * Reports at 10:00:00 (w1 busy at 50% of 4 cores, w2 idle) and 10:00:02 (w1 busy at 100%):
     * the first stands for 2 s, 2 busy seconds and 0.5 × 4 × 2 = 4 CPU seconds, covering 2 workers × 2 s.
     * The second stands until 10:00:03: 1 busy second, 4 CPU seconds, 1 worker-second more.
     */
    @Test
    void eachReportStandsForTheTimeUntilTheNext() {
        WorkerMeter meter = new WorkerMeter(id -> WorkerTally.ZERO);
        meter.report(1, List.of(busy("w1", 50, 4), idle("w2", 4)), T0);
        assertThat(meter.tally(1)).isEqualTo(WorkerTally.ZERO);

        meter.report(1, List.of(busy("w1", 100, 4)), T0.plusSeconds(2));
        assertThat(meter.tally(1)).isEqualTo(new WorkerTally(2, 4.0, 4));

        meter.report(1, List.of(), T0.plusSeconds(3));
        assertThat(meter.tally(1)).isEqualTo(new WorkerTally(3, 8.0, 5));
    }

    /** A gap over 10 s (a runner restarting) adds nothing: nobody said what the workers did. */
    @Test
    void aLongSilenceCountsNothing() {
        WorkerMeter meter = new WorkerMeter(id -> WorkerTally.ZERO);
        meter.report(1, List.of(busy("w1", 100, 2)), T0);
        meter.report(1, List.of(busy("w1", 100, 2)), T0.plusSeconds(11));
        meter.report(1, List.of(busy("w1", 100, 2)), T0.plusSeconds(21));

        assertThat(meter.tally(1)).isEqualTo(new WorkerTally(10, 20.0, 10));
    }

    /** A worker on a site whose cores are not known makes the CPU seconds unknown from then on; busy goes on. */
    @Test
    void unknownCoresMakeTheCpuUnknown() {
        WorkerMeter meter = new WorkerMeter(id -> WorkerTally.ZERO);
        meter.report(1, List.of(busy("w1", 100, null)), T0);
        meter.report(1, List.of(busy("w1", 100, 2)), T0.plusSeconds(1));
        meter.report(1, List.of(busy("w1", 100, 2)), T0.plusSeconds(2));

        assertThat(meter.tally(1)).isEqualTo(new WorkerTally(2, null, 2));
    }

    /** Utilization is a share of the node: 250% is taken as 100%, a negative or missing sample as 0. */
    @Test
    void utilizationIsKeptWithinTheNode() {
        WorkerMeter meter = new WorkerMeter(id -> WorkerTally.ZERO);
        meter.report(1, List.of(busy("w1", 250, 2), busy("w2", -1, 2), busy("w3", Double.NaN, 2)), T0);
        meter.report(1, List.of(), T0.plusSeconds(1));

        assertThat(meter.tally(1)).isEqualTo(new WorkerTally(3, 2.0, 3));
    }

    /**
     * A restarted scheduler goes on from the tally kept in the store; the first report after the
     * restart has no earlier one and adds nothing. Changed tallies are handed out once to be kept.
     */
    @Test
    void aRestartedMeterGoesOnFromTheKeptTally() {
        WorkerMeter meter = new WorkerMeter(id -> id == 1 ? new WorkerTally(100, 50.0, 120) : WorkerTally.ZERO);
        meter.report(1, List.of(busy("w1", 100, 1)), T0);
        meter.report(1, List.of(busy("w1", 100, 1)), T0.plusSeconds(1));

        assertThat(meter.unsaved()).isEqualTo(Map.of(1L, new WorkerTally(101, 51.0, 121)));
        assertThat(meter.unsaved()).isEmpty();
        meter.forget(1);
        assertThat(meter.tally(1)).as("read again from what was kept").isEqualTo(new WorkerTally(100, 50.0, 120));
    }
}
