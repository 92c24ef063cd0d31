package koala.fjm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import koala.api.scheduler.FrameworkRegistration;
import koala.api.scheduler.MasterAddress;
import koala.api.scheduler.RunnerGeneration;
import koala.common.failure.Conflict;
import koala.common.failure.Gone;
import koala.common.failure.InvalidField;
import koala.common.failure.NotFound;
import org.junit.jupiter.api.Test;

class FrameworkRegistryTest {
    private static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");

    /** A store in memory: what the scheduler's database does, without one. */
    static final class Saved implements FrameworkStore {
        final List<FrameworkRecord> rows = new ArrayList<>();

        @Override
        public void saveFramework(FrameworkRecord record) {
            rows.removeIf(r -> r.id() == record.id());
            rows.add(record);
        }

        @Override
        public List<FrameworkRecord> frameworks() {
            return List.copyOf(rows);
        }
    }

    private final Saved store = new Saved();
    private final FrameworkRegistry registry = new FrameworkRegistry(store, InstantSource.fixed(T0));

    @Test
    void anInstanceIsRegisteredOnItsAllocationAndItsMasterLookedUpThere() {
        registry.register(7, "fluent-1", "fluent.jdf", "&(...)", "ondemand", Map.of("fMax", "20"), "runner@vm:7501");
        registry.master(7, "7.0.0", "vm:7600");

        FrameworkRecord record = registry.get(7);
        assertThat(record.masterAddress()).isEqualTo("vm:7600");
        assertThat(record.masterNode()).isEqualTo("7.0.0");
        assertThat(record.registeredAt()).isEqualTo(T0);
        assertThat(new FrameworkRegistry(store, InstantSource.fixed(T0)).get(7)).isEqualTo(record);
    }

    @Test
    void badRegistrationsAreRefusedWithTheFieldAndChangeNothing() {
        registry.register(7, "fluent-1", "f.jdf", "", "ondemand", Map.of(), "r");
        assertThatThrownBy(() -> registry.register(7, "other", "f.jdf", "", "static", Map.of(), "r"))
                .isInstanceOfSatisfying(Conflict.class, e -> {
                    assertThat(e.field()).isEqualTo("allocation");
                    assertThat(e.getMessage()).isEqualTo("allocation: allocation 7 already holds instance fluent-1");
                });
        assertThatThrownBy(() -> registry.register(8, "x", "f.jdf", "", "greedy", Map.of(), "r"))
                .isInstanceOfSatisfying(InvalidField.class, e -> assertThat(e.field()).isEqualTo("policy"))
                .hasMessage("policy: 'greedy' is not one of static, ondemand, proactive, reserve, pool");
        assertThatThrownBy(() -> registry.master(7, "7.0.0", "vm")).isInstanceOf(InvalidField.class)
                .hasMessage("address: 'vm' is not host:port");
        assertThatThrownBy(() -> registry.get(9)).isInstanceOf(NotFound.class)
                .hasMessage("framework instance 9 not found");
        assertThat(store.rows).hasSize(1);
        assertThat(registry.get(7).masterAddress()).isNull();
    }

    private static HeldAllocation allocation(String state, boolean ended) {
        return new HeldAllocation(state, ended, "alice", List.of(new HeldAllocation.Node("7.0.0", "fs0", "master", true)),
                List.of(), List.of());
    }

    /**
     * A runner registers on the allocation it holds: one the scheduler does not know as an allocation
     * (none, or a plain job) and one that has ended are refused, naming the field; the master must be
     * on one of the allocation's nodes, or on none it names.
     */
    @Test
    void anInstanceIsRegisteredOnlyOnALiveAllocationAndItsMasterOnlyOnItsNodes() {
        FrameworkRegistration asks = new FrameworkRegistration(7, "fluent-1", "f.jdf", "", "ondemand", Map.of(), "r");
        assertThatThrownBy(() -> registry.register(asks, Optional.empty()))
                .isInstanceOfSatisfying(Conflict.class, e -> assertThat(e.field()).isEqualTo("allocation"))
                .hasMessage("allocation: job 7 is not an allocation");
        assertThatThrownBy(() -> registry.register(asks, Optional.of(allocation("CANCELLED", true))))
                .isInstanceOf(Conflict.class).hasMessage("allocation: allocation 7 is CANCELLED");
        assertThat(store.rows).isEmpty();

        registry.register(asks, Optional.of(allocation("RUNNING", false)));
        assertThatThrownBy(() -> registry.master(7, new MasterAddress("7.9.0", "vm:7600"), allocation("RUNNING", false)))
                .isInstanceOfSatisfying(Conflict.class, e -> assertThat(e.field()).isEqualTo("node"))
                .hasMessage("node: 7.9.0 is not a node of instance 7");
        assertThatThrownBy(() -> registry.master(8, new MasterAddress("7.0.0", "vm:7600"), allocation("RUNNING", false)))
                .isInstanceOf(NotFound.class).hasMessage("framework instance 8 not found");
        assertThat(registry.get(7).masterAddress()).isNull();

        assertThat(registry.master(7, new MasterAddress("7.0.0", "vm:7600"), allocation("RUNNING", false)).masterNode())
                .isEqualTo("7.0.0");
        assertThat(registry.master(7, new MasterAddress(null, "vm:7601"), allocation("RUNNING", false)).masterAddress())
                .isEqualTo("vm:7601");
    }

    /**
     * Instance 7's runner registers from koala-a: generation 1. The leader on koala-b starts one in its place
     * (generation 2, at koala-b's address, kept in the store); the first one's next call is refused, naming
     * who replaced it, and the second's passes. A third start (generation 3) refuses the second in turn.
     */
    @Test
    void aRunnerReplacedByAnotherHasItsCallsRefusedNamingWhereAndAtWhichGenerationTheOtherWasStarted() {
        registry.register(new FrameworkRegistration(7, "fluent-1", "f.jdf", "", "ondemand", Map.of(),
                "http://198.18.0.1:41234", "/home/alice/runner-7.json", "koala-a"), Optional.of(allocation("RUNNING", false)));
        assertThat(registry.get(7).runnerGeneration()).isEqualTo(1);
        registry.fence(7, 1);

        FrameworkRecord replaced = registry.replaceRunner(7, "koala-b", "http://198.18.0.2:41234");
        assertThat(replaced).extracting(FrameworkRecord::runnerHost, FrameworkRecord::runner,
                FrameworkRecord::runnerGeneration).containsExactly("koala-b", "http://198.18.0.2:41234", 2L);
        assertThat(store.rows).as("in the store before the new runner starts").containsExactly(replaced);
        assertThatThrownBy(() -> registry.fence(7, 1)).isInstanceOfSatisfying(Gone.class,
                        e -> assertThat(RunnerGeneration.replaced(e)).isTrue())
                .hasMessageStartingWith("instance 7's runner was replaced by the one started on koala-b at generation 2"
                        + " (this one is of generation 1)");
        registry.fence(7, 2);
        registry.fence(8, 1); // no such instance: the call itself answers that

        registry.replaceRunner(7, "koala-a", "http://198.18.0.1:41234");
        assertThatThrownBy(() -> registry.fence(7, 2)).isInstanceOf(Gone.class)
                .hasMessageStartingWith("instance 7's runner was replaced by the one started on koala-a at generation 3");
        assertThat(new FrameworkRegistry(store, InstantSource.fixed(T0)).get(7).runnerGeneration())
                .as("read back from the store").isEqualTo(3);
    }

    /** A record kept from before generations were (0) fences nothing: its runner sends none. */
    @Test
    void aRunnerOfARecordFromBeforeGenerationsIsNotFenced() {
        store.saveFramework(new FrameworkRecord(9, "old", "o.jdf", "", "ondemand", Map.of(), "http://127.0.0.1:1",
                null, null, T0, "/home/alice/runner-9.json"));
        FrameworkRegistry reopened = new FrameworkRegistry(store, InstantSource.fixed(T0));
        reopened.fence(9, 1);
        assertThat(reopened.replaceRunner(9, "koala-b", "http://198.18.0.2:1").runnerGeneration()).isEqualTo(1);
    }
}
