package koala.scheduler.storage;

import java.util.List;
import java.util.Optional;

/** The components table (an allocation's grows) and the allocation_roles table (its roles' tags and constraints). */
final class SqlAllocations implements AllocationStore {

    private final SqlDatabase db;
    private final String saveComponent;
    private final String saveRoles;

    SqlAllocations(SqlDatabase db) {
        this.db = db;
        this.saveComponent = db.dialect().upsert("components", List.of("job", "idx", "spec"), List.of("job", "idx"));
        this.saveRoles = db.dialect().upsert("allocation_roles", List.of("job", "roles"), List.of("job"));
    }

    @Override
    public void appendComponent(long job, int index, String component) {
        db.update(saveComponent, List.of(job, index, component));
    }

    @Override
    public List<String> components(long job) {
        return db.query("SELECT spec FROM components WHERE job = ? ORDER BY idx", List.of(job), rs -> rs.getString(1));
    }

    /** The grown components of the jobs {@code jobs} (a subquery of ids) names, by job. */
    java.util.Map<Long, List<String>> componentsOf(String jobs, List<Object> params) {
        return SqlDatabase.byJob(db.query("SELECT job, spec FROM components WHERE job IN " + jobs + " ORDER BY job, idx",
                params, rs -> java.util.Map.entry(rs.getLong(1), rs.getString(2))), java.util.Map.Entry::getKey,
                java.util.Map.Entry::getValue);
    }

    /** The roles of the allocations {@code jobs} (a subquery of ids) names, by job. */
    java.util.Map<Long, String> rolesOf(String jobs, List<Object> params) {
        return db.query("SELECT job, roles FROM allocation_roles WHERE job IN " + jobs, params,
                rs -> java.util.Map.entry(rs.getLong(1), rs.getString(2))).stream()
                .collect(java.util.stream.Collectors.toMap(java.util.Map.Entry::getKey, java.util.Map.Entry::getValue));
    }

    @Override
    public void saveRoles(long job, String roles) {
        db.update(saveRoles, List.of(job, roles));
    }

    @Override
    public Optional<String> roles(long job) {
        return db.query("SELECT roles FROM allocation_roles WHERE job = ?", List.of(job), rs -> rs.getString(1)).stream()
                .findFirst();
    }

    /** Forgets the components and roles of the allocations that ended before the one parameter. */
    void forget(List<Object> before) {
        db.update("DELETE FROM components WHERE job IN " + SqlJobs.ENDED_BEFORE, before);
        db.update("DELETE FROM allocation_roles WHERE job IN " + SqlJobs.ENDED_BEFORE, before);
    }
}
