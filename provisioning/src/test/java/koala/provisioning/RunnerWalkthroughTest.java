package koala.provisioning;

import static koala.provisioning.Fixtures.at;
import static org.assertj.core.api.Assertions.assertThat;
import koala.provisioning.WorkerDecision.Kind;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The classes used together the way a framework runner (or the simulator, in virtual time) uses
 * them: settings from a JDF and a site's configuration, a Proactive instance sampled every 40 s,
 * O_grow measured from its own grow. T0 is 10:00:00.
 */
class RunnerWalkthroughTest {

    @Test
    void aProactiveInstanceGrowsToTheSiteCapAndShrinksBackToItsInitialWorkers() {
        SettingsLayer site = SettingsLayer.parse(Map.of("fMax", "4"));
        SettingsLayer jdf = SettingsLayer.parse(Map.of("provisioning", "proactive", "fMax", "10")).withInitialWorkers(2);
        ResolvedSettings resolved = SettingsResolver.resolve("fs0", site, jdf);
        assertThat(resolved.describe()).contains("fMax = 4 from site fs0 cap (jdf asked 10)");
        WorkerPolicy policy = WorkerPolicy.of(resolved.settings());
        GrowOverhead overhead = new GrowOverhead();

        // 10:00:00 both initial workers busy at 90%: grow by the initial 2
        WorkerLayer start = snapshot(overhead, 0, Worker.busy("w1", 90), Worker.busy("w2", 90));
        assertThat(policy.onSample(start, at(0))).isEqualTo(
                new WorkerDecision.Grow(Kind.ABOVE_U_MAX, 2, "grow 2: mean CPU 90% > U_max 50%, adding the initial 2 workers"));

        // 10:00:40 the two new workers are still starting: wait for them
        assertThat(policy.onSample(snapshot(overhead, 2, Worker.busy("w1", 90), Worker.busy("w2", 90)), at(40)))
                .isEqualTo(new WorkerDecision.Keep(Kind.STILL_STARTING, "keep: mean CPU 90% > U_max 50%, but 2 workers still starting"));

        // 10:00:45 w3 and w4 report in: that grow took 45 s, so O_grow = 45 s and t_idle = 2 x 45 s = 90 s
        overhead.record("fs0", at(0), at(45));
        overhead.record("fs0", at(0), at(45));

        // 10:01:20 still busy, but F_max 4 (the site's cap) is reached
        List<Worker> busy = List.of(Worker.busy("w1", 70), Worker.busy("w2", 70), Worker.busy("w3", 70),
                Worker.busy("w4", 70));
        assertThat(policy.onSample(snapshot(overhead, 0, busy.toArray(Worker[]::new)), at(80))).isEqualTo(
                new WorkerDecision.Keep(Kind.AT_FMAX, "keep: mean CPU 70% > U_max 50%, but F_max 4 reached (4 workers)"));

        // the load falls: w3 and w4 idle since 10:00:50, w2 since 10:01:40
        Worker[] quiet = {Worker.busy("w1", 30), Worker.idle("w2", at(100), 0), Worker.idle("w3", at(50), 0),
                Worker.idle("w4", at(50), 0)};
        assertThat(policy.onSample(snapshot(overhead, 0, quiet), at(120))).isEqualTo(new WorkerDecision.Keep(
                Kind.NOT_IDLE_LONG, "keep: mean CPU 7.5% < U_min 40%, but no worker idle >= t_idle 90 s (2 × O_grow 45 s)"));
        assertThat(policy.onSample(snapshot(overhead, 0, quiet), at(160))).isEqualTo(new WorkerDecision.Release(
                Kind.BELOW_U_MIN, List.of("w3", "w4"), "release w3, w4: mean CPU 7.5% < U_min 40%; idle since 10:00:50, 110 s >= t_idle 90 s "
                        + "(2 × O_grow 45 s)"));

        // 10:05:00 back at the initial 2 workers: never below them
        assertThat(policy.onSample(snapshot(overhead, 0, Worker.idle("w1", at(200), 0), Worker.idle("w2", at(100), 0)),
                at(300))).isEqualTo(new WorkerDecision.Keep(
                        Kind.AT_INITIAL, "keep: mean CPU 0% < U_min 40%, but never below the initial 2 workers (2 running)"));
    }

    private static WorkerLayer snapshot(GrowOverhead overhead, int starting, Worker... running) {
        return WorkerLayer.of(running).withStarting(starting).withGrowOverhead(overhead.estimate("fs0"));
    }
}
