/**
 * A framework runner's HTTP API as its callers see it: {@link koala.api.runner.RunnerMessages}, the
 * bodies of the grow/shrink RPC, the orchestrator requests, the status and the node launchers'
 * calls, and {@link koala.api.runner.RunnerClient}, the Java client a framework entity gets with
 * {@code RunnerClient.fromEnvironment()} ({@code KOALA_RUNNER_URL}, {@code KOALA_RUNNER_TOKEN}).
 * Here rather than in {@code framework-runner} so that frameworks and launchers need not depend on
 * the runner.
 */
package koala.api.runner;
