/**
 * A site agent's view of its SGE cell, as its HTTP API carries it, and
 * {@link koala.common.site.SiteAgentClient}, the client the scheduler and the CLI use.
 * {@link koala.common.site.CellSnapshot} is the cell at one moment: its hosts
 * ({@link koala.common.site.HostInfo}, from {@code qhost -xml}), queue instances
 * ({@link koala.common.site.QueueInstance}) and every job in it ({@link koala.common.site.CellJob},
 * from {@code qstat -f -xml -u '*'}), KOALA's pilots marked apart from local users' jobs.
 * {@link koala.common.site.AgentHealth} says whether the cell answers; a pilot job is submitted as a
 * {@link koala.common.site.PilotSpec} and followed as a {@link koala.common.site.PilotStatus} in a
 * {@link koala.common.site.PilotState}.
 */
package koala.common.site;
