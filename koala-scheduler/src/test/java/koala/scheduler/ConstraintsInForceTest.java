package koala.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import koala.api.scheduler.RolePlacement;
import koala.common.json.Json;
import koala.jdf.JobDescription;
import koala.jdf.JobKind;
import koala.placement.FlexibleClusterMinimization;
import koala.placement.PlacementPolicy;
import koala.placement.SiteConstraints;
import koala.scheduler.state.JobState;
import koala.scheduler.storage.H2Store;
import koala.scheduler.storage.JobRecord;
import org.junit.jupiter.api.Test;

/**
 * The constraints in force, as the book keeps them for every placement: the live jobs and instances
 * admitted with constraints of their own. With none (the common case) a grow walks no job at all.
 */
class ConstraintsInForceTest {
    private static final InstantSource CLOCK = InstantSource.fixed(Instant.parse("2026-11-25T10:00:00Z"));
    private static final RolePlacement ONE_PER_SITE = new RolePlacement("worker", 2, List.of(),
            List.of("cardinality 0..1 role=worker site"));
    private static final PlacementPolicy FCM = new FlexibleClusterMinimization();

    /** Every job in memory, which a grow must not walk when nothing has a constraint. */
    private static final Iterable<Job> UNWALKABLE = () -> {
        throw new AssertionError("every job walked though no job has a constraint");
    };

    private static Job allocation(JobBook book, String owner, RolePlacement... roles) {
        JobDescription empty = new JobDescription("-", "runner", JobKind.FRAMEWORK, null, "high", List.of(), Map.of(), null);
        Job job = new Job(new JobRecord(book.nextId(), "runner", "-", Json.write(empty), Allocations.KIND,
                JobState.RUNNING, FlexibleClusterMinimization.NAME, "high", 0, 0, null, CLOCK.instant(), owner), empty);
        job.roles(List.of(roles));
        book.add(job);
        return job;
    }

    private static PlacementPolicy growOf(Job allocation, JobBook book, Iterable<Job> all) {
        return JobConstraints.aroundGrow(FCM, allocation, "worker", book.constrained(), all, site -> "grid", null);
    }

    @Test
    void withNoConstraintAnywhereAGrowWalksNoJobAndIsPlacedAsItComes() {
        JobBook book = new JobBook(H2Store.inMemory(), CLOCK);
        Job a = allocation(book, "alice");
        allocation(book, "bob", new RolePlacement("worker", 2, List.of("hbase"), List.of()));

        assertThat(book.constrained()).isEmpty();
        assertThat(growOf(a, book, UNWALKABLE)).isSameAs(FCM);
    }

    @Test
    void constraintsApplyWhileTheirJobLivesAndNotOnceItHasEnded() {
        JobBook book = new JobBook(H2Store.inMemory(), CLOCK);
        Job a = allocation(book, "alice");
        Job c = allocation(book, "carol", ONE_PER_SITE);

        assertThat(book.constrained()).containsExactly(c);
        assertThat(growOf(a, book, book.all())).isInstanceOf(SiteConstraints.class);

        book.update(c, c.record().withState(JobState.FINISHED));
        book.record(c, JobState.RUNNING, JobState.FINISHED, koala.scheduler.state.JobEvent.CLOSED, "closed by its owner");
        assertThat(book.constrained()).isEmpty();
        assertThat(growOf(a, book, UNWALKABLE)).isSameAs(FCM);

        Job d = allocation(book, "dave", ONE_PER_SITE);
        assertThat(book.constrained()).containsExactly(d);
        assertThat(growOf(a, book, book.all())).isInstanceOf(SiteConstraints.class);
        assertThat(book.evict(CLOCK.instant().plusSeconds(1))).isEqualTo(1); // c, ended, let go
        assertThat(book.constrained()).containsExactly(d);
    }

    /** A restarted scheduler reloads its jobs from the store ({@link Recovery#reload}): their constraints are in force again. */
    @Test
    void aRestartedSchedulersBookHasTheConstraintsOfTheJobsItReloads() {
        H2Store store = H2Store.inMemory();
        JobBook before = new JobBook(store, CLOCK);
        Job a = allocation(before, "alice");
        Job c = allocation(before, "carol", ONE_PER_SITE);

        JobBook after = new JobBook(store, CLOCK);
        for (JobRecord r : store.jobsSince(Instant.EPOCH)) {
            after.restore(after.read(r));
        }

        assertThat(after.constrained()).extracting(Job::id).containsExactly(c.id());
        assertThat(growOf(after.get(a.id()), after, after.all())).isInstanceOf(SiteConstraints.class);
    }
}
