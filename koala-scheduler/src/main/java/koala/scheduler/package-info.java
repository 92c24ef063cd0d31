/**
 * The KOALA scheduler: grid model, information service, placement policies, placement queue,
 * claiming, job lifecycle and persistence. Talks to site agents over their HTTP API
 * ({@code koala.common.site.SiteAgentClient}). Filled in by the scheduler issue.
 */
package koala.scheduler;
