/**
 * The node launcher: what every pilot SGE job runs, the node's end of KOALA.
 * {@link koala.node.NodeLauncher} calls back to the scheduler when it has arrived on its host,
 * waits to be told what to run (a co-allocated job starts only when all its nodes have arrived),
 * runs its component and reports how it ended, and gives the node back when the scheduler has been
 * gone for {@code scheduler.nodeGiveUp}. For a framework entity, {@code EntityRun} gives the entity a
 * free port, reports in to the instance's runner and sends heartbeats with the CPU use of the
 * entity's process tree, read from {@code /proc} by {@link koala.node.CpuSampler}; it stops the
 * entity when told to or when the runner is gone.
 */
package koala.node;
