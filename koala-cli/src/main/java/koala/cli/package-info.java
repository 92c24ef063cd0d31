/**
 * {@code bin/koala}: one picocli command line ({@link koala.cli.Koala}) for the testbed, the daemons
 * and the grid's users. Exit 0 on success, 2 on bad input, 1 on failure; {@code --json} where the
 * output is data.
 * <ul>
 * <li>Users: {@code SubmitCommand} and {@code JobCommands} (jobs, status, cancel, sites), started
 *     lean by {@code UserCommands} ({@code QuickArgs} reads their plain forms without picocli;
 *     {@code CliTraining} with {@code CannedScheduler} is the training run of their class-data
 *     archive), {@code ValidateCommand} ({@code JdfFiles} is what it shares with submit),
 *     {@code FrameworkCommands} (frameworks, framework), {@code RunnerLaunch} (a framework JDF starts
 *     its runner), {@code FluentCommands} (the reference framework's instances and job files),
 *     {@code ConfigCommand} (effective provisioning settings), {@code AcctCommand} (usage records of
 *     ended jobs and instances, printed by {@code UsageReport}).</li>
 * <li>Daemons and testbed: {@code SchedulerCommand}, {@code AgentCommand}, {@code TestbedCommand},
 *     {@code DemoCommand} with {@code FrameworkDemo}.</li>
 * <li>Measurements: {@code bench} and {@code experiment} are stand-ins here ({@code Measurements}):
 *     they live in the module {@code experiments} ({@code koala.experiments}) with their libraries,
 *     and {@code bin/koala} runs them from there.</li>
 * </ul>
 * {@code GridOptions} is what every command that talks to the grid shares.
 */
package koala.cli;
