/**
 * What the scheduler's HTTP/JSON API carries, shared by the scheduler, the CLI, the framework
 * runners and the node launchers, with {@link koala.api.scheduler.SchedulerClient}, the Java client of
 * that API.
 *
 * <ul>
 * <li>Jobs: {@link koala.api.scheduler.SubmitRequest} in, {@link koala.api.scheduler.JobView} (with its
 *     {@link koala.api.scheduler.NodeView}s and {@link koala.api.scheduler.TransitionView}s) out;
 *     {@link koala.api.scheduler.SiteStatus} for {@code koala sites}.</li>
 * <li>Allocations, for runners: {@link koala.api.scheduler.AllocationRequest},
 *     {@link koala.api.scheduler.GrowRequest} and {@link koala.api.scheduler.GrowResult},
 *     {@link koala.api.scheduler.ReleaseRequest}.</li>
 * <li>The FrameworkJobManager: {@link koala.api.scheduler.FrameworkRegistration},
 *     {@link koala.api.scheduler.MasterAddress}, {@link koala.api.scheduler.FrameworkView}.</li>
 * <li>Node launchers: {@link koala.api.scheduler.NodeReport} (arrived, exited) and
 *     {@link koala.api.scheduler.NodeTask} (wait, run, exit).</li>
 * <li>Accounting: {@link koala.api.scheduler.UsageRecord}, one per job or instance that ended, in an
 *     {@link koala.api.scheduler.AccountingView}.</li>
 * </ul>
 * The routes, statuses and bodies are listed in {@code docs/http-api.md}.
 */
package koala.api.scheduler;
