/**
 * The site agent: one process per SGE cell, holding that cell's one DRMAA session
 * ({@code DrmaaCell}, bound at {@code init} to the cell the environment names).
 * {@link koala.sge.SiteAgent} submits, follows and kills KOALA's pilot jobs ({@code PilotBook},
 * {@code PilotSpecs}), reads the cell's state with {@link koala.sge.SgeCommands} —
 * {@link koala.sge.QhostXml}, {@link koala.sge.QstatXml}, {@code Accounting} for jobs DRMAA no longer
 * knows — and, when the qmaster stops answering, reports DOWN and opens a new session once it is
 * back. {@code AgentApi} serves it over HTTP/JSON; {@link koala.sge.AgentMain} is the process
 * ({@code IdleExit} stops an agent no scheduler calls, {@code AgentStateFile} says where a detached one
 * serves).
 */
package koala.sge;
