/**
 * The FrameworkJobManager: registry of every framework instance (policy, sites, master, nodes per
 * role, grow/shrink history). Runs inside the scheduler process. Filled in by the framework-runner
 * issue.
 */
package koala.fjm;
