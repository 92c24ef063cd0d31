/**
 * The KOALA Information Service: {@link koala.scheduler.kis.InformationService} polls every site
 * agent, on a thread of its own, for its health and its cell's snapshot, and keeps the latest
 * {@link koala.scheduler.kis.SiteInfo} of each site. Local users' jobs are in the snapshots, so the
 * scheduler sees their load. A site not heard from yet has no {@code SiteInfo}.
 */
package koala.scheduler.kis;
