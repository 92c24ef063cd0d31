/**
 * The reference framework from outside, behind {@code bin/koala fluent}: {@link koala.fluent.client.FluentJdf}
 * writes an instance's JDF, {@link koala.fluent.client.JobFile} reads job files (one application per
 * line, errors as {@code file:line:column}), {@link koala.fluent.client.FluentClient} finds an
 * instance's master through the FrameworkJobManager and talks to it, and
 * {@link koala.fluent.client.MetricsSummary} boils its metrics down to the evaluation's figures.
 */
package koala.fluent.client;
