/**
 * Everything that speaks to Sun Grid Engine, behind the {@link koala.resourcemanager.ResourceManager}
 * seam: {@link koala.sge.SgeResourceManager} is an SGE cell as a resource manager. It holds the
 * cell's one DRMAA session ({@code DrmaaCell}, bound at {@code init} to the cell the environment
 * names; DRMAA's program states become {@code PilotState}s), runs the cell's commands
 * ({@link koala.sge.SgeCommands}, each with a time-out), reads their output ({@link koala.sge.QstatXml}
 * with SGE's queue state letters, {@link koala.sge.QhostXml}, {@code Accounting} for {@code qacct}),
 * says what a pilot claims in SGE's words ({@code SgeClaim}: a parallel environment, {@code h_vmem},
 * GPUs, {@code h_rt}, the account string, the host), and checks a pilot against SGE's rules for job
 * names and paths ({@code PilotSpecs}).
 */
package koala.sge;
