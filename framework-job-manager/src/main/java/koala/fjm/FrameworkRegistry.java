package koala.fjm;

import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import koala.api.scheduler.FrameworkRegistration;
import koala.api.scheduler.MasterAddress;
import koala.api.scheduler.RunnerGeneration;
import koala.common.failure.Conflict;
import koala.common.failure.Gone;
import koala.common.failure.InvalidField;
import koala.common.failure.NotFound;
import koala.provisioning.PolicyKind;

/**
 * The FrameworkJobManager: registry of every framework instance on the grid. A runner registers
 * its instance on the allocation it holds, then says where the master is; clients look the master
 * up here. Everything else about an instance — its nodes per role, sites, state, grows and
 * shrinks — is its allocation's, kept by the scheduler, and is not copied here. What it refuses
 * it refuses with a domain {@link koala.common.failure.Failure}.
 */
public final class FrameworkRegistry {
    private final Map<Long, FrameworkRecord> records = new TreeMap<>();
    private final FrameworkStore store;
    private final InstantSource clock;

    public FrameworkRegistry(FrameworkStore store, InstantSource clock) {
        this.store = store;
        this.clock = clock;
        store.frameworks().forEach(r -> records.put(r.id(), r));
    }

    /**
     * Registers the instance a runner asks for on the allocation it holds, which must be an allocation
     * the scheduler knows and has not ended.
     *
     * @param allocation the allocation named by the registration, as the scheduler has it now; empty
     *                   when it has no allocation by that id (none at all, or a plain job)
     */
    public FrameworkRecord register(FrameworkRegistration r, Optional<HeldAllocation> allocation) {
        HeldAllocation held = allocation.orElseThrow(() -> new Conflict("allocation: job " + r.allocation()
                + " is not an allocation", "allocation"));
        if (held.ended()) {
            throw new Conflict("allocation: allocation " + r.allocation() + " is " + held.state(), "allocation");
        }
        return register(r.allocation(), r.name(), r.jdfFile(), r.jdf(), r.policy(), r.parameters(), r.runner(),
                r.runnerState(), r.runnerHost());
    }

    /**
     * Registers the instance holding {@code allocation}.
     *
     * @param parameters the instance's effective provisioning settings
     */
    public FrameworkRecord register(long allocation, String name, String jdfFile, String jdf, String policy,
                                    Map<String, String> parameters, String runner) {
        return register(allocation, name, jdfFile, jdf, policy, parameters, runner, null);
    }

    /**
     * Registers the instance holding {@code allocation}, whose runner the scheduler restarts from
     * {@code runnerState} (its durable state file) should it die; null for one it does not.
     */
    public FrameworkRecord register(long allocation, String name, String jdfFile, String jdf, String policy,
                                    Map<String, String> parameters, String runner, String runnerState) {
        return register(allocation, name, jdfFile, jdf, policy, parameters, runner, runnerState, null);
    }

    /**
     * The same, with the host the runner runs on; the runner that registers is of the {@linkplain
     * RunnerGeneration#FIRST first generation}.
     */
    public FrameworkRecord register(long allocation, String name, String jdfFile, String jdf, String policy,
                                    Map<String, String> parameters, String runner, String runnerState,
                                    String runnerHost) {
        if (name == null || name.isBlank()) {
            throw new InvalidField("name", "missing");
        }
        if (policy == null || !PolicyKind.shortNames().contains(policy)) {
            throw new InvalidField("policy", "'" + policy + "' is not one of " + PolicyKind.names());
        }
        if (records.containsKey(allocation)) {
            throw new Conflict("allocation: allocation " + allocation + " already holds instance "
                    + records.get(allocation).name(), "allocation");
        }
        FrameworkRecord record = new FrameworkRecord(allocation, name, jdfFile, jdf, policy, parameters, runner, null,
                null, clock.instant(), runnerState, runnerHost, RunnerGeneration.FIRST);
        save(record);
        return record;
    }

    /**
     * A runner is being started in the place of instance {@code id}'s runner in force, on {@code host} at
     * {@code url}: it is of the next generation, recorded before it starts, so that from now on every call
     * of the one it replaces is refused ({@link #fence}).
     */
    public FrameworkRecord replaceRunner(long id, String host, String url) {
        FrameworkRecord next = get(id).withRunnerReplaced(host, url);
        save(next);
        return next;
    }

    /**
     * Passes when a runner of {@code generation} may still act for instance {@code id}: the one in force,
     * or one of an instance registered before generations were kept. A runner that was replaced gets
     * {@link Gone} naming {@link RunnerGeneration#FIELD}, and who replaced it; an instance not registered
     * passes (the call answers that itself).
     */
    public void fence(long id, long generation) {
        find(id).filter(r -> generation < r.runnerGeneration()).ifPresent(r -> {
            throw new Gone("instance " + id + "'s runner was replaced by the one started on "
                    + (r.runnerHost() == null ? "another host" : r.runnerHost()) + " at generation "
                    + r.runnerGeneration() + " (this one is of generation " + generation + "): it stops, and leaves"
                    + " the instance and its nodes to that one", RunnerGeneration.FIELD);
        });
    }

    /**
     * The runner says where its master runs: on {@code master.node()}, which must be a node of the
     * allocation the instance holds ({@code allocation}), or on a node it does not name.
     */
    public FrameworkRecord master(long id, MasterAddress master, HeldAllocation allocation) {
        get(id);
        if (master.node() != null && allocation.node(master.node()).isEmpty()) {
            throw new Conflict("node: " + master.node() + " is not a node of instance " + id, "node");
        }
        return master(id, master.node(), master.address());
    }

    /** The runner says where its master runs. */
    public FrameworkRecord master(long id, String node, String address) {
        FrameworkRecord record = get(id);
        if (address == null || !address.matches("[^\\s:]+:\\d{1,5}")) {
            throw new InvalidField("address", "'" + address + "' is not host:port");
        }
        FrameworkRecord next = record.withMaster(node, address);
        save(next);
        return next;
    }

    public FrameworkRecord get(long id) {
        return find(id).orElseThrow(() -> new NotFound("framework instance " + id));
    }

    public Optional<FrameworkRecord> find(long id) {
        return Optional.ofNullable(records.get(id));
    }

    public List<FrameworkRecord> all() {
        return List.copyOf(records.values());
    }

    private void save(FrameworkRecord record) {
        store.saveFramework(record);
        records.put(record.id(), record);
    }
}
