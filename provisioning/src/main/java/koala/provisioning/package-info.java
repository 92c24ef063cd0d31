/**
 * Provisioning for framework instances, as pure decision code: given state and time, it returns
 * decisions as values, each with a reason a user can read. No I/O, no threads, no clock reads —
 * time is always a parameter — so the framework runner (real time) and the simulator (virtual
 * time) run the same classes. The paper's rules (Kuzmanovska, Mak, Epema, JSSPP 2014) are
 * explained where they are written.
 *
 * <h2>Settings</h2>
 * {@link koala.provisioning.SettingsLayer} holds what one source says (built-in defaults, a site's
 * configured defaults, a JDF); {@link koala.provisioning.SettingsResolver} merges them into
 * {@link koala.provisioning.ProvisioningSettings} and says where each value came from
 * ({@link koala.provisioning.ResolvedSettings#describe()}). A site's {@code fMax}, {@code weight}
 * and {@code minShare} are ceilings; the last two are the instance's claim when a full grid is
 * shared out between instances ({@code koala.arbitration}).
 * Refused values come back as {@link koala.provisioning.SettingProblem}s (key, reason), as a list
 * from {@code check} or in an {@link koala.provisioning.InvalidSettingsException}; nothing is
 * applied, so the caller keeps its previous settings.
 *
 * <h2>Decisions</h2>
 * {@link koala.provisioning.WorkerPolicy#of} gives Static, OnDemand, Proactive, or our Reserve and
 * Pool ({@link koala.provisioning.PolicyKind}, whose short names are the only list of them) for the
 * worker layer, answering {@link koala.provisioning.WorkerDecision}s (Grow, Release, Keep) to the
 * framework's requests and to samples; {@link koala.provisioning.OrchestratorPolicy} places
 * orchestrators and returns empty orchestrator nodes. Both take snapshots
 * ({@link koala.provisioning.WorkerLayer}, {@link koala.provisioning.OrchestratorLayer}) and
 * {@code now}. {@link koala.provisioning.GrowOverhead} estimates O_grow for t_idle = n · O_grow;
 * {@link koala.provisioning.WorkerReport} says when a worker counts as busy, for the runner and the
 * simulator alike.
 *
 * <h2>In a runner</h2>
 * <pre>{@code
 * ResolvedSettings resolved = SettingsResolver.resolve(site, SettingsLayer.parse(siteDefaults),
 *         SettingsLayer.parse(job.framework()).withInitialWorkers(workerCount));
 * WorkerPolicy workers = WorkerPolicy.of(resolved.settings());
 * GrowOverhead overhead = new GrowOverhead();
 *
 * // every samplePeriod, and on each grow / shrink RPC:
 * WorkerLayer layer = new WorkerLayer(running, starting, kisFreeNodes, overhead.estimate(site));
 * WorkerDecision d = workers.onSample(layer, clock.instant());
 * if (d instanceof WorkerDecision.Grow g) { schedd.grow(g.workers()); }
 * else if (d instanceof WorkerDecision.Release r) { r.workers().forEach(deployd::stop); }
 * log.info(d.reason());
 * // when a grown worker reports in:
 * overhead.record(site, requestedAt, clock.instant());
 * }</pre>
 */
package koala.provisioning;
