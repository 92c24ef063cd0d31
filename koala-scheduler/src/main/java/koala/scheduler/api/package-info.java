/**
 * {@link koala.scheduler.api.SchedulerApi}: the scheduler's HTTP/JSON API — jobs, sites,
 * allocations for runners, the FrameworkJobManager, and the node launchers' call-backs — mapped onto
 * the scheduler's loop. Routes, bodies and statuses: {@code docs/http-api.md}.
 */
package koala.scheduler.api;
