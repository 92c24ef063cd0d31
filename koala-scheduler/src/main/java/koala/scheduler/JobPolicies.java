package koala.scheduler;

import java.util.Map;
import java.util.function.Function;
import koala.jdf.JobKind;
import koala.placement.OneNetwork;
import koala.placement.PlacementPolicies;
import koala.placement.PlacementPolicy;

/**
 * Which placement policy places a piece of work, for a job and for an allocation's grow alike: the policy its
 * record names ({@link #name}: the one its JDF names, else the grid's default for its kind), kept in force
 * with the placement constraints ({@link JobConstraints}: its own, and running work's). A job's is chosen by
 * {@link #forJob} and a grow's by {@link #forGrow}; both start from the same named policy, so a grow lands
 * where that policy puts a flexible component of its size.
 */
final class JobPolicies {
    private final JobBook book;
    private final Function<String, String> networkOf;
    /** The admin's node groups of a site's host; hosts are chosen for constraints over them or the host. */
    private JobConstraints.GroupsOf groupsOf = JobConstraints.GroupsOf.declared(Map.of());

    /** @param networkOf the network a site's nodes are on ({@link Pilots#network}) */
    JobPolicies(JobBook book, Function<String, String> networkOf) {
        this.book = book;
        this.networkOf = networkOf;
    }

    /**
     * The policy a piece of work is kept with, by short name: the one it names; else, for flexible work
     * (a flexible job; an allocation, whose grows are flexible components), the grid's flexible default,
     * {@link PlacementPolicies#DEFAULT_FLEXIBLE}; else {@code gridDefault} ({@code scheduler.placement}).
     *
     * @throws IllegalArgumentException for a name no policy has
     */
    static String name(String named, JobKind kind, String gridDefault) {
        boolean flexible = kind == JobKind.FLEXIBLE || kind == JobKind.FRAMEWORK;
        return PlacementPolicies.byName(named != null ? named : flexible ? PlacementPolicies.DEFAULT_FLEXIBLE
                : gridDefault).name();
    }

    /** The admin's node groups from now on. */
    void groups(JobConstraints.GroupsOf groups) {
        this.groupsOf = groups;
    }

    JobConstraints.GroupsOf groups() {
        return groupsOf;
    }

    /**
     * The job's placement policy; with placement constraints (its own, or running jobs') it keeps them
     * over sites; an MPI job's keeps its components on one network (its nodes talk to each other).
     */
    PlacementPolicy forJob(Job job) {
        PlacementPolicy policy = JobConstraints.around(named(job), job, book.constrained(), book.all(), networkOf,
                groupsOf);
        return job.description().mpi() ? new OneNetwork(policy, networkOf) : policy;
    }

    /** The policy a grow of {@code role} nodes of {@code allocation} is placed by: its own, with its role's constraints. */
    PlacementPolicy forGrow(Job allocation, String role) {
        return JobConstraints.aroundGrow(named(allocation), allocation, role, book.constrained(), book.all(), networkOf,
                groupsOf);
    }

    private static PlacementPolicy named(Job job) {
        return PlacementPolicies.byName(job.record().policy());
    }
}
