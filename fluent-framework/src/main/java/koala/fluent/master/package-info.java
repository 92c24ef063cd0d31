/**
 * The reference framework's master process, the FrameworkManager, on the pure decision core of
 * {@code koala.fluent}. {@link koala.fluent.master.MasterMain} starts it as the instance's master
 * entity on {@code KOALA_ENTITY_PORT}; {@link koala.fluent.master.FrameworkManager} keeps the
 * DeviceManagers, the jobs clients submit ({@code JobIntake} checks them) and the applications'
 * lifecycle ({@code AppBook}, {@code Components}, {@code Checks} of an SWC's counts), calls the
 * DeviceManagers ({@code Devices}), and under OnDemand, Reserve and Pool asks its runner
 * ({@code Runner}, {@code Provisioning}) for the grows and shrinks the core computes. Every call to the
 * runner goes through {@code RunnerLine}, off the master's lock, its answer taken under the lock
 * again: a slow runner holds up no client and no DeviceManager.
 * {@code MasterApi} serves clients and DeviceManagers; {@code MasterView}, {@code MasterEvents} and
 * {@code MetricsLog} are what it shows and writes ({@code metrics.csv}, {@code workers.csv},
 * {@code events.log}).
 */
package koala.fluent.master;
