package koala.fjm;

import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import koala.provisioning.PolicyKind;

/**
 * The FrameworkJobManager: registry of every framework instance on the grid. A runner registers
 * its instance on the allocation it holds, then says where the master is; clients look the master
 * up here. Everything else about an instance — its nodes per role, sites, state, grows and
 * shrinks — is its allocation's, kept by the scheduler, and is not copied here.
 */
public final class FrameworkRegistry {
    /** Why a registration or an update is refused: the field and the reason. */
    public static final class Refused extends RuntimeException {
        private final int status;
        private final String field;

        Refused(int status, String field, String reason) {
            super(field == null ? reason : field + ": " + reason);
            this.status = status;
            this.field = field;
        }

        public int status() {
            return status;
        }

        public String field() {
            return field;
        }
    }

    private final Map<Long, FrameworkRecord> records = new TreeMap<>();
    private final FrameworkStore store;
    private final InstantSource clock;

    public FrameworkRegistry(FrameworkStore store, InstantSource clock) {
        this.store = store;
        this.clock = clock;
        store.frameworks().forEach(r -> records.put(r.id(), r));
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
        require(name != null && !name.isBlank(), 400, "name", "missing");
        require(policy != null && PolicyKind.shortNames().contains(policy), 400,
                "policy", "'" + policy + "' is not one of " + PolicyKind.names());
        require(!records.containsKey(allocation), 409, "allocation",
                "allocation " + allocation + " already holds instance " + Optional.ofNullable(records.get(allocation))
                        .map(FrameworkRecord::name).orElse(""));
        FrameworkRecord record = new FrameworkRecord(allocation, name, jdfFile, jdf, policy, parameters, runner, null,
                null, clock.instant(), runnerState);
        save(record);
        return record;
    }

    /** The runner says where its master runs. */
    public FrameworkRecord master(long id, String node, String address) {
        FrameworkRecord record = get(id);
        require(address != null && address.matches("[^\\s:]+:\\d{1,5}"), 400, "address",
                "'" + address + "' is not host:port");
        FrameworkRecord next = record.withMaster(node, address);
        save(next);
        return next;
    }

    public FrameworkRecord get(long id) {
        return find(id).orElseThrow(() -> new Refused(404, null, "framework instance " + id + " not found"));
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

    private static void require(boolean ok, int status, String field, String reason) {
        if (!ok) {
            throw new Refused(status, field, reason);
        }
    }
}
