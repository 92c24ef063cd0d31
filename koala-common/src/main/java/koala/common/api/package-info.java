/**
 * What the scheduler's HTTP/JSON API carries, shared by the scheduler, the CLI, the framework
 * runners and the node launchers, with {@link koala.common.api.SchedulerClient}, the Java client of
 * that API.
 *
 * <ul>
 * <li>Jobs: {@link koala.common.api.SubmitRequest} in, {@link koala.common.api.JobView} (with its
 *     {@link koala.common.api.NodeView}s and {@link koala.common.api.TransitionView}s) out;
 *     {@link koala.common.api.SiteStatus} for {@code koala sites}.</li>
 * <li>Allocations, for runners: {@link koala.common.api.AllocationRequest},
 *     {@link koala.common.api.GrowRequest} and {@link koala.common.api.GrowResult},
 *     {@link koala.common.api.ReleaseRequest}.</li>
 * <li>The FrameworkJobManager: {@link koala.common.api.FrameworkRegistration},
 *     {@link koala.common.api.MasterAddress}, {@link koala.common.api.FrameworkView}.</li>
 * <li>Node launchers: {@link koala.common.api.NodeReport} (arrived, exited) and
 *     {@link koala.common.api.NodeTask} (wait, run, exit).</li>
 * <li>Accounting: {@link koala.common.api.UsageRecord}, one per job or instance that ended, in an
 *     {@link koala.common.api.AccountingView}.</li>
 * </ul>
 * The routes, statuses and bodies are listed in {@code docs/http-api.md}.
 */
package koala.common.api;
