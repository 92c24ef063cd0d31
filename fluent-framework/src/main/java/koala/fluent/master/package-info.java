/**
 * The reference framework's master process, the FrameworkManager, on the pure decision core of
 * {@code koala.fluent}. {@link koala.fluent.master.MasterMain} starts it as the instance's master
 * entity on {@code KOALA_ENTITY_PORT}; {@link koala.fluent.master.FrameworkManager} owns the master's
 * loop and wires its parts, one concern each, on what they share ({@code MasterContext}): the line of
 * jobs clients submit and the grows they wait for ({@code JobLine}; {@code JobIntake} checks them), the
 * applications' lifecycle ({@code AppLifecycle}, recorded in {@code AppBook}, started as
 * {@code Components}, an SWC's counts judged by {@code Checks}), word counts suspended for RLs and
 * resumed ({@code Suspending}) and moved between workers ({@code Moves}: {@code MoveBook},
 * {@code MovePlan}, {@code Mover}), and which workers are the master's ({@code Membership}: hellos,
 * releases, give-backs, lost workers). It calls the DeviceManagers ({@code Devices}), and under
 * OnDemand, Reserve and Pool asks its runner ({@code Runner}, {@code Provisioning}) for the grows and
 * shrinks the core computes. Its state lives on one thread, {@code MasterLoop}; every call to the runner
 * goes through {@code RunnerLine}, every call to a DeviceManager through its application's lane
 * ({@code DeviceLanes}), both off the loop, their answers posted back to it, and the journal is forced
 * off it in batches ({@code JournalLine}): a slow runner, a DeviceManager that hangs or a slow disk
 * holds up no client and no other DeviceManager.
 * {@code MasterApi} serves clients and DeviceManagers; {@code MasterView}, {@code MasterEvents} and
 * {@code MetricsLog} are what it shows and writes ({@code metrics.csv}, {@code workers.csv},
 * {@code events.log}).
 */
package koala.fluent.master;
