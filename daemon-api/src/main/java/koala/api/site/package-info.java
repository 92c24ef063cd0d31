/**
 * A site agent's view of its SGE cell, as its HTTP API carries it, and
 * {@link koala.api.site.SiteAgentClient}, the client the scheduler and the CLI use.
 * {@link koala.api.site.CellSnapshot} is the cell at one moment: its hosts
 * ({@link koala.api.site.HostInfo}, from {@code qhost -xml}), queue instances
 * ({@link koala.api.site.QueueInstance}) and every job in it ({@link koala.api.site.CellJob},
 * from {@code qstat -f -xml -u '*'}), KOALA's pilots marked apart from local users' jobs.
 * {@link koala.api.site.AgentHealth} says whether the cell answers; a pilot job is submitted as a
 * {@link koala.api.site.PilotSpec}, claiming its {@link koala.api.site.PilotNeeds} in no manager's
 * words, and followed as a {@link koala.api.site.PilotStatus} in a
 * {@link koala.api.site.PilotState}.
 */
package koala.api.site;
