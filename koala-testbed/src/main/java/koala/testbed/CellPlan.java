package koala.testbed;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.List;

/**
 * One cell of the testbed: an independent SGE cluster with a head node (its qmaster) and
 * {@code nodes} compute nodes, each a host of its own running one execd with
 * {@code slotsPerNode} slots. A remote cell is reached only by SSH to its head node; its compute
 * nodes sit on a network of their own that only the head node joins, as on a real cluster whose
 * nodes have private addresses.
 *
 * <p>A cell may run Slurm instead ({@code manager} {@link Manager#SLURM}, {@code testbed up --slurm}): a
 * {@code slurmctld} on its head node and a {@code slurmd} on each compute node ({@link SlurmCell}), each node
 * with {@code slotsPerNode} CPUs.
 *
 * @param index        the cell's number: {@code fs<index>}, its ports and addresses derive from it
 * @param shape        groups of unequal hosts ({@link HostShape}), filling nodes 1, 2, ... in order;
 *                     the nodes after them are as {@code slotsPerNode} says. Empty: all alike, as by
 *                     default. A record written before shapes existed reads as empty, and an empty
 *                     one is left out of the record, which older builds reading it do not know
 * @param manager      the cell's resource manager; SGE, the default, is left out of the record (a record without
 *                     it reads as SGE)
 */
public record CellPlan(String name, int index, int nodes, int slotsPerNode, int qmasterPort, int execdPort,
                       boolean remote, @JsonInclude(JsonInclude.Include.NON_EMPTY) List<HostShape> shape,
                       @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = Manager.Default.class)
                       Manager manager) {
    /** The resource manager a cell runs. */
    public enum Manager {
        @JsonProperty("sge") SGE,
        @JsonProperty("slurm") SLURM;

        /** Left out of the record: SGE, the default (Jackson's custom inclusion filter: equal means left out). */
        static final class Default {
            @Override
            public boolean equals(Object value) {
                return value == null || value == SGE;
            }

            @Override
            public int hashCode() {
                return 0;
            }
        }
    }

    public CellPlan {
        shape = shape == null ? List.of() : List.copyOf(shape);
        manager = manager == null ? Manager.SGE : manager;
        int shaped = shape.stream().mapToInt(HostShape::count).sum();
        if (shaped > nodes) {
            throw new IllegalArgumentException("--shape " + name + ": " + shaped + " hosts in its groups; " + name
                    + " has " + nodes + " compute nodes (--nodes)");
        }
    }

    /** An SGE cell whose hosts are all alike. */
    public CellPlan(String name, int index, int nodes, int slotsPerNode, int qmasterPort, int execdPort,
                    boolean remote) {
        this(name, index, nodes, slotsPerNode, qmasterPort, execdPort, remote, List.of());
    }

    /** An SGE cell with these groups of hosts. */
    public CellPlan(String name, int index, int nodes, int slotsPerNode, int qmasterPort, int execdPort,
                    boolean remote, List<HostShape> shape) {
        this(name, index, nodes, slotsPerNode, qmasterPort, execdPort, remote, shape, Manager.SGE);
    }

    /** The same cell with these groups of hosts. */
    public CellPlan withShape(List<HostShape> groups) {
        return new CellPlan(name, index, nodes, slotsPerNode, qmasterPort, execdPort, remote, groups, manager);
    }

    /** True for a cell that runs Slurm. */
    public boolean slurm() {
        return manager == Manager.SLURM;
    }

    /** The port the cell's head node answers its manager's clients on: the qmaster's, or slurmctld's. */
    public int managerPort() {
        return slurm() ? SlurmCell.CONTROLLER_PORT : qmasterPort;
    }

    /** True when some of its hosts differ from the others. */
    public boolean shaped() {
        return !shape.isEmpty();
    }

    /** The group compute node {@code i} (from 1) belongs to, or null for a node as {@code slotsPerNode} says. */
    public HostShape shapeOf(int i) {
        int last = 0;
        for (HostShape group : shape) {
            last += group.count();
            if (i <= last) {
                return group;
            }
        }
        return null;
    }

    /** The slots of compute node {@code i}, from 1. */
    public int slotsOf(int i) {
        HostShape group = shapeOf(i);
        return group == null ? slotsPerNode : group.cores();
    }
    public String queue() {
        return name + ".q";
    }

    public String head() {
        return name + "-head";
    }

    /** Compute node {@code i}, counted from 1. */
    public String node(int i) {
        return name + "-n" + i;
    }

    public List<String> nodeNames() {
        List<String> names = new ArrayList<>();
        for (int i = 1; i <= nodes; i++) {
            names.add(node(i));
        }
        return names;
    }

    public int slots() {
        int slots = 0;
        for (int i = 1; i <= nodes; i++) {
            slots += slotsOf(i);
        }
        return slots;
    }

    /**
     * The additional group ids of compute node {@code i}. SGE tags each job's processes with one
     * and, when the job ends, kills every process of the machine carrying it; the testbed's
     * execds share one kernel, so each gets a range of its own (100 ids, far more than its jobs).
     */
    public String gidRange(int i) {
        int first = 100000 + 30000 * index + 100 * i;
        return first + "-" + (first + 99);
    }

    /** The cell's default range (its hosts each have their own, {@link #gidRange(int)}). */
    public String gidRange() {
        return gidRange(0);
    }
}
