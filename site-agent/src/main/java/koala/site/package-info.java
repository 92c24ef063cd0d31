/**
 * The site agent: one process per cluster, holding the one connection to the cluster's resource
 * manager ({@link koala.resourcemanager.ResourceManager}; SGE's is {@code koala.sge.SgeResourceManager}).
 * {@link koala.site.SiteAgent} submits, follows and kills KOALA's pilot jobs ({@code PilotBook}),
 * reports the cluster's hosts, queues and jobs, and, when the manager stops answering
 * ({@code CellHealth}), reports DOWN and opens a new connection once it is back. {@code AgentApi}
 * serves it over HTTP/JSON; {@link koala.site.AgentMain} is the process ({@code IdleExit} stops an
 * agent no scheduler calls, {@code AgentStateFile} says where a detached one serves, {@code Relays}
 * carry a remote site's call-backs, {@code CallerCheck} and {@code SecretFiles} keep its secrets).
 */
package koala.site;
