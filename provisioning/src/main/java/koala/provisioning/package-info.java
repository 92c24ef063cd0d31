/**
 * Provisioning policies for the worker (runtime) layer of a framework instance — Static,
 * OnDemand, Proactive — and the orchestrator-layer rule, as pure decision code: given state and
 * time, they return decisions. No I/O, no threads, no clock reads, so the framework runner and the
 * simulator run the same classes. Filled in by the framework-runner issue.
 */
package koala.provisioning;
