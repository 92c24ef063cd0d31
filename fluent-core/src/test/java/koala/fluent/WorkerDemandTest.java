package koala.fluent;

import static koala.fluent.Fixtures.at;
import static koala.fluent.Fixtures.busy;
import static koala.fluent.Fixtures.idle;
import static koala.fluent.Fixtures.job;
import static koala.fluent.Fixtures.rl;
import static koala.fluent.Fixtures.swc;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** New workers have 8 slots; T0 is 10:00:00. */
class WorkerDemandTest {

    @Test
    void aMixedJobLacksOneWorkerPerRlWithoutAnIdleOneAndTheSlotsItsSwcCannotPack() {
        // 1 idle worker and 1 with 2 of 8 slots free; the job: 3 RL and an SWC of n=2 (6 components).
        // rl-1 takes w1; rl-2 and rl-3 need a worker each; swc-4 packs 2 slots into w2 and needs
        // 4 more, which a third worker gives: 3.
        List<FluentWorker> workers = List.of(idle("w1"), busy("w2", 6));
        FluentJob job = job("j1", rl("rl-1"), rl("rl-2"), rl("rl-3"), swc("swc-4", 2, 300));

        assertThat(WorkerDemand.lacking(workers, job, 8)).isEqualTo(new WorkerDemand.Demand("j1", 3,
                "job j1 lacks 3 workers of 8 slots: rl-2, rl-3 need an idle worker each; swc-4 needs 4 slots more"));
    }

    @Test
    void aJobThatStartsOnTheCurrentWorkersLacksNone() {
        WorkerDemand.Demand demand = WorkerDemand.lacking(List.of(idle("w1"), busy("w2", 2)),
                job("j2", rl("rl-1"), swc("swc-2", 2, 300)), 8);

        assertThat(demand.workers()).isZero();
        assertThat(demand.reason()).isEqualTo("job j2 lacks no workers: its 2 applications start on the current workers");
    }

    @Test
    void anSwcLargerThanAWorkerLacksAsManyWorkersAsItsSlotsFill() {
        // n=4: 18 components on 8-slot workers, nothing running: 3 workers (8 + 8 + 2)
        assertThat(WorkerDemand.lacking(List.of(), job("j3", swc("swc-1", 4, 300)), 8)).isEqualTo(
                new WorkerDemand.Demand("j3", 3, "job j3 lacks 3 workers of 8 slots: swc-1 needs 18 slots more"));
        // the same on 4-slot workers, which the runner says it would get: 5
        assertThat(WorkerDemand.lacking(List.of(), job("j3", swc("swc-1", 4, 300)), 4).workers()).isEqualTo(5);
    }

    @Test
    void twoSwcsShareANewWorkerWhenTheirSlotsFit() {
        // 3 + 3 components and 2 free slots: 4 slots short, one new worker holds both remainders
        FluentJob job = job("j4", swc("a", 0, 60), swc("b", 0, 60));

        assertThat(WorkerDemand.lacking(List.of(busy("w1", 6)), job, 8).reason())
                .isEqualTo("job j4 lacks 1 worker of 8 slots: a needs 1 slot more; b needs 3 slots more");
    }

    @Test
    void workersIdleAtLeastTIdleComeLongestIdleFirstTiesById() {
        List<FluentWorker> workers = List.of(
                FluentWorker.idle("w1", 8, at(120)),
                FluentWorker.idle("w10", 8, at(0)),
                FluentWorker.idle("w4", 8, at(181)),
                busy("w5", 3),
                FluentWorker.idle("w6", 8, at(180)),
                FluentWorker.idle("w2", 8, at(0)));

        List<WorkerDemand.IdleWorker> idle = WorkerDemand.idleWorkers(workers, Duration.ofSeconds(180), at(360));

        // w4, idle 179 s, stays; w6, idle exactly 180 s, goes
        assertThat(idle).extracting(WorkerDemand.IdleWorker::reason).containsExactly(
                "w2 idle since 10:00:00, 360 s >= t_idle 180 s",
                "w10 idle since 10:00:00, 360 s >= t_idle 180 s",
                "w1 idle since 10:02:00, 240 s >= t_idle 180 s",
                "w6 idle since 10:03:00, 180 s >= t_idle 180 s");
        assertThat(idle.get(2).idleFor()).isEqualTo(Duration.ofSeconds(240));
    }
}
