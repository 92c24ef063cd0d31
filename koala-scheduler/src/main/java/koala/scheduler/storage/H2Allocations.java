package koala.scheduler.storage;

import java.util.List;
import java.util.Optional;

/** The components table (an allocation's grows) and the allocation_roles table (its roles' tags and constraints). */
final class H2Allocations implements AllocationStore {

    private final H2Database db;

    H2Allocations(H2Database db) {
        this.db = db;
    }

    @Override
    public void appendComponent(long job, int index, String component) {
        db.update("MERGE INTO components (job, idx, spec) KEY(job, idx) VALUES (?,?,?)", List.of(job, index, component));
    }

    @Override
    public List<String> components(long job) {
        return db.query("SELECT spec FROM components WHERE job = ? ORDER BY idx", List.of(job), rs -> rs.getString(1));
    }

    @Override
    public void saveRoles(long job, String roles) {
        db.update("MERGE INTO allocation_roles (job, roles) KEY(job) VALUES (?,?)", List.of(job, roles));
    }

    @Override
    public Optional<String> roles(long job) {
        return db.query("SELECT roles FROM allocation_roles WHERE job = ?", List.of(job), rs -> rs.getString(1)).stream()
                .findFirst();
    }

    /** Forgets the components and roles of the allocations that ended before the one parameter. */
    void forget(List<Object> before) {
        db.update("DELETE FROM components WHERE job IN " + H2Jobs.ENDED_BEFORE, before);
        db.update("DELETE FROM allocation_roles WHERE job IN " + H2Jobs.ENDED_BEFORE, before);
    }
}
